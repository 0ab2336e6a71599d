package progress

import "testing"

// fill gives a store a learner's worth of progress: 16 lessons with their
// answers.
func fill(s *Store) {
	for l := range 16 {
		name := "lesson-" + string(rune('a'+l))
		for k := 1; k <= 12; k++ {
			s.Answered(name, k, 1+k%3, k%2 == 0)
		}
		s.Reached(name, 12, 12)
	}
}

// BenchmarkSave is one step in a lesson written before the call returns:
// the file written atomically (temporary file, fsync, rename, directory
// fsync). This is what a keystroke would wait for without a background
// writer.
func BenchmarkSave(b *testing.B) {
	s := Open(Options{Dir: b.TempDir()})
	fill(s)
	b.ResetTimer()
	for i := range b.N {
		s.Reached("lesson-a", i%11+1, 12)
	}
}

// BenchmarkReachedBackground is the same step with the background writer:
// what the keystroke pays.
func BenchmarkReachedBackground(b *testing.B) {
	s := Open(Options{Dir: b.TempDir(), Background: true})
	fill(s)
	b.ResetTimer()
	for i := range b.N {
		s.Reached("lesson-a", i%11+1, 12)
	}
	b.StopTimer()
	s.Close()
}

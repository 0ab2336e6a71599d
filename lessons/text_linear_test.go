package lessons

import (
	"runtime"
	"strings"
	"testing"
)

// sayLesson is a one-step lesson whose step says n continuation lines.
func sayLesson(n int) []byte {
	var b strings.Builder
	b.WriteString("title: T\nsummary: S\nlevel: basics\nminutes: 1\nintro: I\n\nsetup:\n  topic t partitions=1\n  producer P\n\nstep: S\n")
	for i := 0; i < n; i++ {
		b.WriteString("  say: the leader appends the batch and answers with its offset\n")
	}
	b.WriteString("  do: P send t-0 v\n")
	return []byte(b.String())
}

// allocated is the bytes Go allocates while parsing src.
func allocated(t *testing.T, src []byte) uint64 {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := Parse("say.lesson", src); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestSayLinesAreLinear parses lessons of n and 8n say: continuation
// lines: the bytes allocated (an operation count, not a clock) must grow
// about 8 times, not the 64 times of a string grown line by line.
func TestSayLinesAreLinear(t *testing.T) {
	small, big := sayLesson(2000), sayLesson(16000)
	a, b := allocated(t, small), allocated(t, big)
	ratio := float64(b) / float64(a)
	t.Logf("%d -> %d bytes: %.1fx", a, b, ratio)
	if ratio > 16 {
		t.Fatalf("8x the say: lines allocated %.1fx the bytes (%d -> %d): quadratic", ratio, a, b)
	}
}

func BenchmarkSayLines(b *testing.B) {
	src := sayLesson(80000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("say.lesson", src); err != nil {
			b.Fatal(err)
		}
	}
}

package script

import "testing"

// BenchmarkCompleteUntil is one keystroke's completion at the sandbox prompt (the
// prompt asks for it on every change of its line), for until and expect
// lines and, beside them, an action line.
func BenchmarkCompleteUntil(b *testing.B) {
	d := NewDecls()
	for i, l := range []string{"topic t partitions=2", "producer A transactional.id=x", "consumer C group.id=g"} {
		if _, err := ParseLine("s", i+1, l, d); err != nil {
			b.Fatal(err)
		}
	}
	for _, l := range []string{"until txn x state Prep", "until ", "until event kind=m", "A send t-"} {
		b.Run(l, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				Complete(l, d, []string{"m3"})
			}
		})
	}
}

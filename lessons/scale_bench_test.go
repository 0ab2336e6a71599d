package lessons

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// txnLesson is a lesson of n steps after an initialising one, each step
// running 10 transactions of one record to the end.
func txnLesson(tb testing.TB, n int) *Lesson {
	var b strings.Builder
	b.WriteString("title: Transactions\nsummary: many transactions\nlevel: systems\nminutes: 5\nsetup:\n  topic t partitions=2\n  producer T transactional.id=tx\n")
	b.WriteString("step: init\n  say: T starts.\n  do: T initTransactions\n  do: run\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "step: ten transactions %d\n  say: T commits ten transactions.\n", i)
		for k := 0; k < 10; k++ {
			fmt.Fprintf(&b, "  do: T beginTransaction\n  do: T send t-%d v%d-%d\n  do: T commitTransaction\n  do: run\n", k%2, i, k)
		}
	}
	l, err := Parse("txn.lesson", []byte(b.String()))
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

// BenchmarkPlayTxnSteps plays lessons of 125 and 1,000 steps of 10
// transactions each from the start, keeping every step's snapshot as the
// player does. Time per step and the heap the player holds per step must
// not grow with the length (issue 7: the outcomes of finished transactions
// were copied into every snapshot, 250 to 2,000 steps took 0.18 to 4.3 s
// and held 83 to 1,313 MB).
func BenchmarkPlayTxnSteps(b *testing.B) {
	for _, n := range []int{125, 1000} {
		b.Run(fmt.Sprintf("steps=%d", n), func(b *testing.B) {
			l := txnLesson(b, n)
			var held float64
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				b.StartTimer()
				p := NewPlayer(l)
				for p.Next() {
				}
				b.StopTimer()
				if p.Pos() != n+1 || len(p.Problems()) > 0 || len(p.World().Violations()) > 0 {
					b.Fatalf("stopped at %d of %d: %v %v", p.Pos(), n+1, p.Problems(), p.World().Violations())
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				held = float64(after.HeapAlloc-before.HeapAlloc) / float64(n)
				runtime.KeepAlive(p)
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/step")
			b.ReportMetric(held, "B-held/step")
		})
	}
}

// BenchmarkCatalogue is what the lesson list costs eoslab's start-up: the
// built-in files read and their list entries scanned, nothing parsed.
func BenchmarkCatalogue(b *testing.B) {
	for b.Loop() {
		if bs := readBuiltins(); len(bs) == 0 {
			b.Fatal("no lessons")
		}
	}
}

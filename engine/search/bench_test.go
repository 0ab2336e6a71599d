//go:build unix

package search

import (
	"runtime/debug"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/eoslab/eoslab/engine"
)

// cpuTime is the CPU time this process has used, the garbage collector's
// included: on a machine shared with other work the wall time says little,
// and with -cpu 1 this is one core's work.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// report adds the distinct states per second of wall and of CPU time,
// and the worlds checked per CPU second: the distinct states and the
// worlds checked at the bound, which the search does not hash. reached,
// when known, is the distinct states within the bound, the ones at the
// bound included (a counting search's, untimed): reached/cpu-s is them
// per CPU second of the plain search, which checks every one of them.
func report(b *testing.B, r Result, reached int, cpu time.Duration) {
	n := float64(b.N)
	b.ReportMetric(float64(r.States)*n/b.Elapsed().Seconds(), "states/s")
	if cpu > 0 {
		b.ReportMetric(float64(r.States)*n/cpu.Seconds(), "states/cpu-s")
		b.ReportMetric(float64(r.States+r.Leaves)*n/cpu.Seconds(), "checked/cpu-s")
		// Every bound's moves: the work, whatever the table holds.
		b.ReportMetric(float64(r.Tried)*n/cpu.Seconds(), "tried/cpu-s")
		if reached > 0 {
			b.ReportMetric(float64(reached)*n/cpu.Seconds(), "reached/cpu-s")
		}
	}
	if reached > 0 {
		// The same per second of wall time: one core's, with -cpu 1, on
		// a machine with nothing else to run.
		b.ReportMetric(float64(reached)*n/b.Elapsed().Seconds(), "reached/s")
	}
	b.ReportMetric(float64(r.Tried), "tried")
	b.ReportMetric(float64(r.States), "states")
	b.ReportMetric(float64(r.Leaves), "leaves")
	if reached > 0 {
		b.ReportMetric(float64(reached), "reached")
	}
}

// reachedWithin is the distinct states within o's bound (the bound's
// included), by a counting search.
func reachedWithin(b *testing.B, w *engine.World, o Options) int {
	b.Helper()
	o.countBound = true
	return Find(w, o).reached
}

// BenchmarkSearchIdempotent is the whole search to depth 6 from the
// idempotent preset with every safeguard on: nothing breaks, so every
// state within the bound is explored. Run it with -cpu 1.
func BenchmarkSearchIdempotent(b *testing.B) {
	w := world(b, presetIdempotent)
	o := Options{Invariant: engine.InvDuplicateRecord, Depth: 6, MaxStates: 10000000, Sends: 2}
	reached := reachedWithin(b, w, o)
	// Measured at the pace eoslab break runs the search at.
	defer debug.SetGCPercent(debug.SetGCPercent(GCPercent))
	b.ResetTimer()
	var r Result
	c0 := cpuTime()
	for i := 0; i < b.N; i++ {
		r = Find(w, o)
	}
	report(b, r, reached, cpuTime()-c0)
}

// BenchmarkLostAck finds the lost-ACK duplicate with idempotence off.
func BenchmarkLostAck(b *testing.B) {
	w := world(b, lostAck)
	c0 := cpuTime()
	for i := 0; i < b.N; i++ {
		if r := Find(w, Options{Invariant: engine.InvDuplicateRecord, Depth: 8, MaxStates: 1000000, Sends: 2,
			Without: FaultDuplicate | FaultDelay}); !r.Found {
			b.Fatal("not found")
		}
	}
	b.ReportMetric((cpuTime()-c0).Seconds()*1e3/float64(b.N), "cpu-ms/op")
}

// BenchmarkSearchSize is the search of BenchmarkSearchIdempotent with
// room for 2,000 and for 16,000 states, 8x more: each stops when its
// table is full (at depth 5 and at depth 7), and the cost of a state
// should not grow with the table. Run it with -cpu 1.
func BenchmarkSearchSize(b *testing.B) {
	w := world(b, presetIdempotent)
	for _, max := range []int{2000, 16000} {
		b.Run("states="+strconv.Itoa(max), func(b *testing.B) {
			var r Result
			c0 := cpuTime()
			for i := 0; i < b.N; i++ {
				r = Find(w, Options{Invariant: engine.InvDuplicateRecord, Depth: 8, MaxStates: max, Sends: 2})
				if !r.Full {
					b.Fatalf("the table of %d states did not fill: %+v", max, r)
				}
			}
			report(b, r, 0, cpuTime()-c0)
		})
	}
}

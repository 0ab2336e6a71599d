//go:build unix

package search

import (
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
// worlds checked at the bound, which the search does not hash.
func report(b *testing.B, r Result, cpu time.Duration) {
	n := float64(b.N)
	b.ReportMetric(float64(r.States)*n/b.Elapsed().Seconds(), "states/s")
	if cpu > 0 {
		b.ReportMetric(float64(r.States)*n/cpu.Seconds(), "states/cpu-s")
		b.ReportMetric(float64(r.States+r.Leaves)*n/cpu.Seconds(), "checked/cpu-s")
	}
	b.ReportMetric(float64(r.Tried), "tried")
	b.ReportMetric(float64(r.States), "states")
	b.ReportMetric(float64(r.Leaves), "leaves")
}

// BenchmarkSearchIdempotent is the whole search to depth 6 from the
// idempotent preset with every safeguard on: nothing breaks, so every
// state within the bound is explored. Run it with -cpu 1.
func BenchmarkSearchIdempotent(b *testing.B) {
	w := world(b, presetIdempotent)
	var r Result
	c0 := cpuTime()
	for i := 0; i < b.N; i++ {
		r = Find(w, Options{Invariant: engine.InvDuplicateRecord, Depth: 6, MaxStates: 10000000, Sends: 2})
	}
	report(b, r, cpuTime()-c0)
}

// BenchmarkLostAck finds the lost-ACK duplicate with idempotence off.
func BenchmarkLostAck(b *testing.B) {
	w := world(b, lostAck)
	for i := 0; i < b.N; i++ {
		if r := Find(w, Options{Invariant: engine.InvDuplicateRecord, Depth: 8, MaxStates: 1000000, Sends: 2,
			Without: FaultDuplicate | FaultDelay}); !r.Found {
			b.Fatal("not found")
		}
	}
}

// BenchmarkSearchSize is the search of BenchmarkSearchIdempotent at two
// depths whose tables differ some 6.4x in size: the cost of a state should
// not grow with the table. Run it with -cpu 1.
func BenchmarkSearchSize(b *testing.B) {
	w := world(b, presetIdempotent)
	for _, depth := range []int{5, 6} {
		b.Run("depth="+strconv.Itoa(depth), func(b *testing.B) {
			var r Result
			c0 := cpuTime()
			for i := 0; i < b.N; i++ {
				r = Find(w, Options{Invariant: engine.InvDuplicateRecord, Depth: depth, MaxStates: 10000000, Sends: 2})
			}
			report(b, r, cpuTime()-c0)
		})
	}
}

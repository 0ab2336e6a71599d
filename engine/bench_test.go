package engine

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// BenchmarkSteps measures scheduler steps per second on a mixed workload
// (transactional, idempotent and plain producers, consumers, a processor,
// faults) with invariant checking on. The workload is generated once by
// the swarm generator and replayed; only World.Step is timed.
func BenchmarkSteps(b *testing.B) {
	// Worlds are renewed every 20,000 steps (a long classroom session is a
	// few thousand), so the event history stays the size of a real run.
	fresh := func() *World {
		w := New(DefaultConfig())
		for _, line := range safeSetup.setup {
			w.Apply(mustAction(line))
		}
		return w
	}
	w := fresh()
	r := rand.New(rand.NewSource(7))
	var steps, inWorld int
	b.ReportAllocs()
	b.ResetTimer()
	for steps < b.N {
		b.StopTimer()
		if inWorld > 20000 {
			w, inWorld = fresh(), 0
		}
		// Generate load without timing it: calls that put work on the network.
		for k := 0; k < 4; k++ {
			line := randomAction(w, r, safeSetup, steps)
			if line == "step" || line == "step 3" || line == "run max=40" || len(line) > 7 && line[:7] == "advance" {
				continue
			}
			w.Apply(mustAction(line))
		}
		b.StartTimer()
		for i := 0; i < 64 && steps < b.N; i++ {
			if !w.Step() {
				break
			}
			steps++
			inWorld++
		}
		if len(w.Violations) > 0 {
			b.Fatalf("violation during benchmark: %v", w.Violations[0])
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
}

// bigWorld builds a world whose logs hold n records: idempotent batches of
// 10 records spread over 4 partitions, plus transactions.
func bigWorld(tb testing.TB, n int) *World {
	w := New(DefaultConfig())
	for _, line := range []string{"topic t partitions=4", "producer I", "producer T transactional.id=big", "consumer C isolation.level=read_committed"} {
		if _, err := w.Apply(mustAction(line)); err != nil {
			tb.Fatal(err)
		}
	}
	w.Apply(mustAction("T initTransactions"))
	w.Apply(mustAction("run"))
	for sent := 0; sent < n; {
		if sent%1000 == 0 {
			w.Apply(mustAction("T beginTransaction"))
			w.Apply(mustAction(fmt.Sprintf("T send t-%d a b c d e f g h i j", sent/1000%4)))
			w.Apply(mustAction("T commitTransaction"))
			sent += 10
		}
		for k := 0; k < 10; k++ {
			w.Apply(mustAction(fmt.Sprintf("I send t-%d a b c d e f g h i j", k%4)))
			sent += 10
		}
		w.Apply(mustAction("run"))
	}
	w.Apply(mustAction("C poll"))
	w.Apply(mustAction("run"))
	return w
}

// BenchmarkSnapshot100k is the cost of one snapshot (Clone) of a world
// holding 100,000 records.
func BenchmarkSnapshot100k(b *testing.B) {
	w := bigWorld(b, 100000)
	recs := 0
	for _, p := range w.Partitions {
		for i := range p.Batches {
			if !p.Batches[i].Control {
				recs += int(p.Batches[i].Count)
			}
		}
	}
	if recs < 100000 {
		b.Fatalf("world holds %d records, want >= 100000", recs)
	}
	b.ReportAllocs()
	b.ResetTimer()
	var sink *World
	for i := 0; i < b.N; i++ {
		sink = w.Clone()
	}
	_ = sink
}

// TestSnapshotIndependence: a clone and its original diverge without seeing
// each other's appends.
func TestSnapshotIndependence(t *testing.T) {
	w := bigWorld(t, 2000)
	c := w.Clone()
	w.Apply(mustAction("I send t-0 only-in-original"))
	w.Apply(mustAction("run"))
	c.Apply(mustAction("I send t-0 only-in-clone"))
	c.Apply(mustAction("run"))
	last := func(x *World) string {
		p := x.Partitions[TP{"t", 0}]
		return p.Batches[len(p.Batches)-1].Records.Value(0)
	}
	if last(w) != "only-in-original" || last(c) != "only-in-clone" {
		t.Fatalf("clone and original share appends: %q %q", last(w), last(c))
	}
	for _, e := range w.Events {
		if strings.Contains(e.Text, "only-in-clone") {
			t.Fatalf("the original's history holds the clone's event %q", e.Text)
		}
	}
}

package engine

import (
	"math/rand"
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
		for _, a := range safeSetup.setup {
			w.Apply(a)
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
			switch a := randomAction(w, r, safeSetup, steps).(type) {
			case Step, Run, Advance:
			default:
				w.Apply(a)
			}
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
	for _, a := range []Action{CreateTopic{Name: "t", Partitions: 4}, producerWith("I", nil), txnProducer("T", "big"),
		DeclareConsumer{Name: "C", Isolation: ReadCommitted}} {
		if _, err := w.Apply(a); err != nil {
			tb.Fatal(err)
		}
	}
	ten := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}
	w.Apply(Call{Client: "T", Method: CallInitTransactions})
	w.Apply(Run{})
	for sent := 0; sent < n; {
		if sent%1000 == 0 {
			w.Apply(Call{Client: "T", Method: CallBeginTransaction})
			w.Apply(Send{Client: "T", TP: tp("t", sent/1000%4), Values: ten})
			w.Apply(Call{Client: "T", Method: CallCommitTransaction})
			sent += 10
		}
		for k := 0; k < 10; k++ {
			w.Apply(Send{Client: "I", TP: tp("t", k%4), Values: ten})
			sent += 10
		}
		w.Apply(Run{})
	}
	w.Apply(Call{Client: "C", Method: CallPoll})
	w.Apply(Run{})
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
	cloneSend := Send{Client: "I", TP: tp("t", 0), Values: []string{"only-in-clone"}}
	w.Apply(Send{Client: "I", TP: tp("t", 0), Values: []string{"only-in-original"}})
	w.Apply(Run{})
	c.Apply(cloneSend)
	c.Apply(Run{})
	last := func(x *World) string {
		p := x.Partitions[TP{"t", 0}]
		return p.Batches[len(p.Batches)-1].Records.Value(0)
	}
	if last(w) != "only-in-original" || last(c) != "only-in-clone" {
		t.Fatalf("clone and original share appends: %q %q", last(w), last(c))
	}
	for _, e := range w.Events {
		if e.Kind == EvAction && e.Text == cloneSend.String() || carries(e.Message, "only-in-clone") {
			t.Fatalf("the original's history holds the clone's event %q", e.Text)
		}
	}
}

// carries reports whether m is a Produce holding a record with this value.
func carries(m *Message, value string) bool {
	if m == nil {
		return false
	}
	r, ok := m.Body.(*ProduceRequest)
	if !ok {
		return false
	}
	for _, b := range r.Batches {
		for i := 0; i < b.Records.Len(); i++ {
			if b.Records.Value(i) == value {
				return true
			}
		}
	}
	return false
}

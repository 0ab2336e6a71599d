package engine

import (
	"math/rand"
	"reflect"
	"testing"
)

// scanCost is what the cost counters must hold, recounted from the event
// history: one request per send event of a request, one marker per marker
// event about a partition with no error.
func scanCost(w *World) (reqs []RequestTally, markers []MarkerTally) {
	for i := range w.Events {
		e := &w.Events[i]
		switch {
		case e.Kind == EvSend && e.Message != nil && !e.Message.Kind.IsResponse():
			m := e.Message
			txn := requestTxnID(m)
			found := false
			for j := range reqs {
				if reqs[j].From == m.From && reqs[j].Kind == m.Kind && reqs[j].TxnID == txn {
					reqs[j].N++
					found = true
					break
				}
			}
			if !found {
				reqs = append(reqs, RequestTally{From: m.From, Kind: m.Kind, TxnID: txn, N: 1})
			}
		case e.Kind == EvMarker && e.HasTP() && e.Code == None:
			found := false
			for j := range markers {
				if markers[j].TxnID == e.TxnID {
					markers[j].N++
					found = true
					break
				}
			}
			if !found {
				markers = append(markers, MarkerTally{TxnID: e.TxnID, N: 1})
			}
		}
	}
	return reqs, markers
}

// TestCostCountersMatchHistory runs the swarm's mixed workload (faults,
// retries, coordinator moves, aborts) under both protocol versions and
// checks, every few steps, that the counters kept as events are recorded
// say what a scan of the history says, and that a clone's counters are
// its own: stepping the original does not change the clone's.
func TestCostCountersMatchHistory(t *testing.T) {
	for _, version := range []int{1, 2} {
		cfg := DefaultConfig()
		cfg.TransactionVersion = version
		w := New(cfg)
		for _, a := range safeSetup.setup {
			w.Apply(a)
		}
		r := rand.New(rand.NewSource(11))
		var markers int
		for step := 0; step < 3000; step++ {
			if step%8 == 0 {
				w.Apply(randomAction(w, r, safeSetup, step))
			} else {
				w.Step()
			}
			if step%97 != 0 {
				continue
			}
			wantR, wantM := scanCost(w)
			if got := w.RequestTallies(); !reflect.DeepEqual(got, wantR) {
				t.Fatalf("v%d step %d: request counters %v, history says %v", version, step, got, wantR)
			}
			if got := w.MarkerTallies(); !reflect.DeepEqual(got, wantM) {
				t.Fatalf("v%d step %d: marker counters %v, history says %v", version, step, got, wantM)
			}
			c := w.Clone()
			before, beforeM := c.RequestCount(RequestFilter{}), c.MarkerCount("")
			for k := 0; k < 20; k++ {
				w.Step()
			}
			if c.RequestCount(RequestFilter{}) != before || c.MarkerCount("") != beforeM {
				t.Fatalf("v%d step %d: stepping the original changed its clone's counters", version, step)
			}
			// The clone counts on by itself (its indexes are built anew
			// from its tallies) and agrees with its own history.
			for k := 0; k < 20; k++ {
				c.Step()
			}
			if wantR, wantM := scanCost(c); !reflect.DeepEqual(c.RequestTallies(), wantR) || !reflect.DeepEqual(c.MarkerTallies(), wantM) {
				t.Fatalf("v%d step %d: a stepped clone's counters differ from its history", version, step)
			}
			markers = w.MarkerCount("")
		}
		if w.RequestCount(RequestFilter{}) == 0 || markers == 0 {
			t.Fatalf("v%d: the workload sent %d requests and wrote %d markers: it tests nothing", version, w.RequestCount(RequestFilter{}), markers)
		}
	}
}

// BenchmarkCostRead reads a client's request count and a transactional
// id's marker count from a world 20,000 steps into the swarm workload:
// "counters" is RequestCount and MarkerCount, "history" the scan of the
// event history they did before the counters (scanCost), for comparison.
func BenchmarkCostRead(b *testing.B) {
	w := New(DefaultConfig())
	for _, a := range safeSetup.setup {
		w.Apply(a)
	}
	r := rand.New(rand.NewSource(7))
	for step := 0; step < 20000; step++ {
		if step%8 == 0 {
			w.Apply(randomAction(w, r, safeSetup, step))
		} else {
			w.Step()
		}
	}
	tallies := w.RequestTallies()
	if len(tallies) == 0 {
		b.Fatal("no requests")
	}
	from := tallies[0].From
	b.Run("counters", func(b *testing.B) {
		n := 0
		for i := 0; i < b.N; i++ {
			n += w.RequestCount(RequestFilter{From: from}) + w.MarkerCount("")
		}
		_ = n
	})
	b.Run("history", func(b *testing.B) {
		n := 0
		for i := 0; i < b.N; i++ {
			rs, ms := scanCost(w)
			n += len(rs) + len(ms)
		}
		_ = n
	})
}

package adapt

import (
	"testing"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/lessons"
)

// TestCostTableMatchesCounts: at every step of the price-of-exactly-once
// lesson, under both Kafka versions, each number of the Producers panel's
// cost table is what World.RequestCount and World.MarkerCount say (the
// counts the lesson's `expect requests` and `expect markers` lines check),
// one row per producer client in the panel's order.
func TestCostTableMatchesCounts(t *testing.T) {
	kind := func(k engine.MsgKind, from string) engine.RequestFilter {
		return engine.RequestFilter{Kind: k, KindSet: true, From: from}
	}
	for _, k := range lessons.Versions {
		s := openKafka(t, "price-of-exactly-once", k)
		var last [3]int
		for pos := 0; pos <= s.Len(); pos++ {
			f := playTo(t, s, pos)
			w := s.p.WorldAt(pos)
			if f.Cost == nil {
				t.Fatalf("kafka %d step %d: no cost table", k, pos)
			}
			ps := w.AllProducers()
			if len(f.Cost.Rows) != len(ps) {
				t.Fatalf("kafka %d step %d: %d cost rows for %d producers", k, pos, len(f.Cost.Rows), len(ps))
			}
			for i, r := range f.Cost.Rows {
				name, id := ps[i].Name, ps[i].Config.TransactionalID
				want := map[string][2]int{
					"total":   {r.Total, w.RequestCount(engine.RequestFilter{From: name})},
					"Produce": {r.Produce, w.RequestCount(kind(engine.MsgProduce, name))},
					"Init":    {r.Init, w.RequestCount(kind(engine.MsgInitProducerID, name))},
					"Find":    {r.Find, w.RequestCount(kind(engine.MsgFindCoordinator, name))},
					"Add": {r.Add, w.RequestCount(kind(engine.MsgAddPartitionsToTxn, name)) +
						w.RequestCount(kind(engine.MsgAddOffsetsToTxn, name))},
					"End":    {r.End, w.RequestCount(kind(engine.MsgEndTxn, name))},
					"TxnOff": {r.TxnOffsets, w.RequestCount(kind(engine.MsgTxnOffsetCommit, name))},
				}
				if id != "" {
					want["WTM"] = [2]int{r.MarkerRequests, w.RequestCount(engine.RequestFilter{Kind: engine.MsgWriteTxnMarkers, KindSet: true, TxnID: id})}
					want["markers"] = [2]int{r.Markers, w.MarkerCount(id)}
				} else if r.MarkerRequests != 0 || r.Markers != 0 || r.Transactional {
					t.Fatalf("kafka %d step %d: %s has no transactional.id but %+v", k, pos, name, r)
				}
				for col, v := range want {
					if v[0] != v[1] {
						t.Errorf("kafka %d step %d: %s %s is %d in the table, %d counted", k, pos, name, col, v[0], v[1])
					}
				}
				if r.Client != name {
					t.Fatalf("kafka %d step %d: row %d is %q, producer %q", k, pos, i, r.Client, name)
				}
				if i < len(last) {
					last[i] = r.Total
				}
			}
		}
		// The lesson ends with every client's bill non-zero and the
		// transactional one the largest: the table counted something.
		if last[0] == 0 || last[1] == 0 || last[2] <= last[1] {
			t.Fatalf("kafka %d: final totals %v", k, last)
		}
	}
}

// TestCostTableOnlyWhereCounted: lessons that do not count requests keep
// the Producers panel for the producers.
func TestCostTableOnlyWhereCounted(t *testing.T) {
	for _, name := range []string{"zombie", "capstone-payments", "three-guarantees"} {
		s := openKafka(t, name, lessons.Versions[0])
		if f := playTo(t, s, s.Len()); f.Cost != nil {
			t.Errorf("%s shows a cost table", name)
		}
	}
}

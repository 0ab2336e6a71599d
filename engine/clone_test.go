package engine

import (
	"reflect"
	"testing"
)

// TestShareHistory: a snapshot that shares a later world's arrays keeps
// exactly its own histories (events, violations, partition logs and aborted
// indexes, transaction logs, received records), and a
// world that did not grow from it is not shared.
func TestShareHistory(t *testing.T) {
	w := New(DefaultConfig())
	applyAll(t, w, CreateTopic{Name: "t", Partitions: 2}, CreateTopic{Name: "u"}, txnProducer("T", "tx"),
		producerWith("I", func(c *ProducerConfig) { c.Acks = -1 }, ProducerAcks),
		DeclareConsumer{Name: "C", Isolation: ReadCommitted, Topics: []string{"t"}, OffsetReset: ResetEarliest, ResetSet: true},
		DeclareProcessor{Name: "P", Input: "t", Output: "u", GroupID: "g", TransactionalID: "proc"},
		Call{Client: "T", Method: CallInitTransactions}, Run{})
	round := func(i int) {
		v := []string{"v" + itoa(int64(i))}
		applyAll(t, w, Call{Client: "T", Method: CallBeginTransaction}, Send{Client: "T", TP: tp("t", i%2), Values: v},
			Call{Client: "T", Method: CallCommitTransaction}, Run{}, Call{Client: "T", Method: CallBeginTransaction},
			Send{Client: "T", TP: tp("t", 1-i%2), Values: v}, Run{}, Call{Client: "T", Method: CallAbortTransaction},
			Send{Client: "I", TP: tp("t", i%2), Values: v}, Run{}, Call{Client: "C", Method: CallPoll},
			Call{Client: "P", Method: CallProcess}, Run{})
	}
	for i := 0; i < 5; i++ {
		round(i)
	}
	w.violate(InvWatermarks, "test", quoted("a violation to share")) // a history with one entry
	snap := w.Clone()
	// Every history the snapshot holds, and a copy of its entries.
	histories := snapHistories(snap)
	if len(histories) < 11 {
		t.Fatalf("only %d histories hold something", len(histories))
	}
	want := map[string]any{}
	for _, h := range histories {
		want[h.name] = reflect.AppendSlice(reflect.MakeSlice(reflect.TypeOf(h.get(snap)), 0, 0), reflect.ValueOf(h.get(snap))).Interface()
	}
	for i := 5; i < 200; i++ { // enough for the arrays to move
		round(i)
	}
	// The event history is chunked: it never moves, and the snapshot
	// shares its chunks from the start.
	if snap.events.slot(0) != w.events.slot(0) || snap.events.slot(snap.events.len()-1) != w.events.slot(snap.events.len()-1) {
		t.Fatal("the snapshot should share the live world's event chunks")
	}
	snap.ShareHistory(w)
	for _, h := range histories {
		got, live := reflect.ValueOf(h.get(snap)), reflect.ValueOf(h.get(w))
		if !reflect.DeepEqual(got.Interface(), want[h.name]) {
			t.Fatalf("%s: sharing changed the snapshot's entries", h.name)
		}
		if got.Pointer() != live.Pointer() || got.Cap() != got.Len() {
			t.Errorf("%s: the snapshot should be a capped view of the live array", h.name)
		}
	}
	// Appending to the snapshot must not reach the live world's array.
	live := w.EventsSince(0)
	snap.Apply(Advance{Ms: 5})
	if !reflect.DeepEqual(w.EventsSince(0), live) {
		t.Fatal("the snapshot's append changed the live history")
	}
	other := New(DefaultConfig())
	applyAll(t, other, CreateTopic{Name: "t", Partitions: 2}, producerWith("T", nil), Send{Client: "T", TP: tp("t", 0), Values: []string{"a"}}, Run{})
	before := snap.events.slot(0)
	batches := &snap.partitions[tp("t", 0)].Batches[0]
	snap.ShareHistory(other)
	if snap.events.slot(0) != before || &snap.partitions[tp("t", 0)].Batches[0] != batches {
		t.Fatal("a history that does not extend the snapshot's was shared")
	}
}

// namedHistory is one append-only history of a world, found by name.
type namedHistory struct {
	name string
	get  func(*World) any // the slice, or nil when w has no such history
}

// snapHistories lists w's histories that hold something.
func snapHistories(w *World) []namedHistory {
	var hs []namedHistory
	add := func(name string, get func(*World) any) {
		if reflect.ValueOf(get(w)).Len() > 0 {
			hs = append(hs, namedHistory{name, get})
		}
	}
	add("violations", func(x *World) any { return x.violations })
	for _, k := range w.SortedPartitions() {
		add(k.String()+" batches", func(x *World) any { return x.partitions[k].Batches })
		add(k.String()+" aborted", func(x *World) any { return x.partitions[k].Aborted })
	}
	for k := range w.txnParts {
		add("txn log "+itoa(int64(k)), func(x *World) any { return x.txnParts[k].Log })
	}
	for i, c := range w.consumers {
		add(c.Name+" received", func(x *World) any { return x.consumers[i].Received })
	}
	for i, pr := range w.processors {
		add(pr.Name+" received", func(x *World) any { return x.processors[i].Consumer.Received })
	}
	return hs
}

package engine

import (
	"reflect"
	"testing"
)

// TestShareHistory: a snapshot that shares a later world's arrays keeps
// exactly its own history, and a world that did not grow from it is not
// shared.
func TestShareHistory(t *testing.T) {
	w := New(DefaultConfig())
	applyAll(t, w, "topic t partitions=2", "producer T transactional.id=tx", "T initTransactions", "run")
	snap := w.Clone()
	events := append([]Event(nil), snap.Events...)
	logs := map[int32][]TxnLogRecord{}
	for k, tp := range snap.TxnParts {
		logs[k] = append([]TxnLogRecord(nil), tp.Log...)
	}
	for i := 0; i < 200; i++ { // enough for the arrays to move
		applyAll(t, w, "T beginTransaction", "T send t-0 v", "T commitTransaction", "run")
	}
	if &snap.Events[0] == &w.Events[0] {
		t.Fatal("the live history should have moved to a bigger array")
	}
	snap.ShareHistory(w)
	if &snap.Events[0] != &w.Events[0] || len(snap.Events) != len(events) || cap(snap.Events) != len(events) {
		t.Fatal("the snapshot should be a capped view of the live events")
	}
	if !reflect.DeepEqual(snap.Events, events) {
		t.Fatal("sharing changed the snapshot's events")
	}
	for k, l := range logs {
		if got := snap.TxnParts[k].Log; !reflect.DeepEqual(got, l) || len(l) > 0 && &got[0] != &w.TxnParts[k].Log[0] {
			t.Fatalf("transaction log %d: shared %v, want the same records in the live array", k, len(l) > 0 && &got[0] == &w.TxnParts[k].Log[0])
		}
	}
	// Appending to the snapshot must not reach the live world's array.
	live := append([]Event(nil), w.Events...)
	snap.Apply(mustAction("advance 5"))
	if !reflect.DeepEqual(w.Events, live) {
		t.Fatal("the snapshot's append changed the live history")
	}
	other := New(DefaultConfig())
	applyAll(t, other, "topic u", "producer X", "X send u-0 a", "run")
	before := &snap.Events[0]
	snap.ShareHistory(other)
	if &snap.Events[0] != before {
		t.Fatal("a history that does not extend the snapshot's was shared")
	}
}

package engine

import "testing"

// TestReadersCreateNothing: the read-only accessors never change the world,
// so a checkpoint can be judged on the live world or a shared snapshot. An
// internal partition or transactional id nothing has used reads as empty.
func TestReadersCreateNothing(t *testing.T) {
	w := New(DefaultConfig())
	w.Apply(CreateTopic{Name: "t"})
	w.Apply(DeclareProducer{Name: "A", Config: DefaultProducerConfig()})
	before, beforeTxn, beforeGroups := len(w.partitions), len(w.txnParts), len(w.groups)
	off := TP{Topic: OffsetsTopic, Partition: 7}

	if info, ok := w.PartitionInfo(off); !ok || info.LogEndOffset != 0 || info.LastStableOffset != 0 {
		t.Errorf("an untouched offsets partition should read as empty, got %+v %v", info, ok)
	}
	if _, ok := w.PartitionInfo(TP{Topic: OffsetsTopic, Partition: 50}); ok {
		t.Error("__consumer_offsets-50 does not exist with 50 partitions")
	}
	if n, ok := w.RecordCount(off); !ok || n != 0 {
		t.Errorf("records %d %v", n, ok)
	}
	if _, ok, known := w.BatchAt(off, 0); ok || !known {
		t.Errorf("batch at 0 of an empty log: ok=%v known=%v", ok, known)
	}
	if _, ok, known := w.ProducerStateAt(off, 1000); ok || !known {
		t.Errorf("producer state: ok=%v known=%v", ok, known)
	}
	if ab, ok := w.AbortedIndex(off); !ok || len(ab) != 0 {
		t.Errorf("aborted index %v %v", ab, ok)
	}
	txn := w.TxnInfo("never-seen")
	if txn.Found || txn.Coordinator.Topic != TxnStateTopic || txn.Broker < 1 {
		t.Errorf("an unknown transactional id: %+v", txn)
	}
	if log := w.TxnLog("never-seen"); len(log) != 0 {
		t.Errorf("txn log %v", log)
	}
	if _, ok := w.GroupInfo("g"); ok {
		t.Error("no group g exists")
	}
	p, ok := w.ProducerInfo("A")
	if !ok || p.NextSeq(TP{Topic: "t", Partition: 0}) != 0 || p.HasAcked {
		t.Errorf("producer A: %+v %v", p, ok)
	}
	if len(w.partitions) != before || len(w.txnParts) != beforeTxn || len(w.groups) != beforeGroups || len(w.Producer("A").Parts) != 0 {
		t.Fatalf("a reader created state: partitions %d -> %d, txn partitions %d -> %d, groups %d -> %d, producer parts %d",
			before, len(w.partitions), beforeTxn, len(w.txnParts), beforeGroups, len(w.groups), len(w.Producer("A").Parts))
	}
}

// TestReadersCopy: what a reader returns is the caller's own; changing it
// leaves the world as it was.
func TestReadersCopy(t *testing.T) {
	w := New(DefaultConfig())
	for _, l := range []Action{CreateTopic{Name: "t"}, txnProducer("A", "tx"), Call{Client: "A", Method: CallInitTransactions}, Run{},
		Call{Client: "A", Method: CallBeginTransaction}, Send{Client: "A", TP: TP{Topic: "t"}, Values: []string{"x"}}, Run{}} {
		if _, err := w.Apply(l); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
	}
	info := w.TxnInfo("tx")
	if !info.Found || len(info.Meta.Partitions) != 1 {
		t.Fatalf("tx: %+v", info)
	}
	info.Meta.Partitions[0] = TP{Topic: "changed"}
	log := w.TxnLog("tx")
	if len(log) == 0 {
		t.Fatal("no txn log records")
	}
	log[len(log)-1].Partitions[0] = TP{Topic: "changed"}
	b, ok, _ := w.BatchAt(TP{Topic: "t"}, 0)
	if !ok {
		t.Fatal("no batch at t-0 offset 0")
	}
	b.Values[0] = "changed"
	if got := w.TxnInfo("tx").Meta.Partitions[0].Topic; got != "t" {
		t.Errorf("metadata partitions changed through a copy: %s", got)
	}
	if got := w.TxnLog("tx"); got[len(got)-1].Partitions[0].Topic != "t" {
		t.Errorf("txn log changed through a copy: %v", got[len(got)-1])
	}
	if b, _, _ := w.BatchAt(TP{Topic: "t"}, 0); b.Values[0] != "x" {
		t.Errorf("batch values changed through a copy: %v", b.Values)
	}
}

// TestGroupIDs: the groups are listed sorted, whatever order they were
// created in, and a group-less consumer adds none.
func TestGroupIDs(t *testing.T) {
	w := New(DefaultConfig())
	if ids := w.GroupIDs(); len(ids) != 0 {
		t.Fatalf("no group yet, got %v", ids)
	}
	for _, a := range []Action{CreateTopic{Name: "t"},
		DeclareConsumer{Name: "C1", GroupID: "orders"},
		DeclareConsumer{Name: "C2"},
		DeclareConsumer{Name: "C3", GroupID: "billing"},
		DeclareConsumer{Name: "C4", GroupID: "orders"}} {
		if _, err := w.Apply(a); err != nil {
			t.Fatalf("%s: %v", a, err)
		}
	}
	ids := w.GroupIDs()
	if len(ids) != 2 || ids[0] != "billing" || ids[1] != "orders" {
		t.Fatalf("GroupIDs = %v, want [billing orders]", ids)
	}
	ids[0] = "changed"
	if again := w.GroupIDs(); again[0] != "billing" {
		t.Fatalf("GroupIDs returned the world's own slice: %v", again)
	}
}

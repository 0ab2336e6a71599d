package engine

import (
	"strings"
	"testing"
)

// everyAction holds one value of each action type.
var everyAction = []Action{
	Brokers{N: 3}, SetConfig{}, CreateTopic{Name: "x"}, producerWith("X", nil), DeclareConsumer{Name: "Y"},
	DeclareProcessor{Name: "Z", Input: "t", Output: "t", GroupID: "g", TransactionalID: "z"},
	Call{Client: "I", Method: CallFlush}, Send{Client: "I", TP: tp("t", 0), Values: []string{"v"}},
	SendOffsets{Client: "I", Group: "g", Generation: -1}, CommitSync{Client: "I"},
	Step{}, Deliver{Msg: Selector{ID: 1}}, Run{}, Advance{}, Drop{Msg: Selector{ID: 1}},
	Duplicate{Msg: Selector{ID: 1}}, Delay{Msg: Selector{ID: 1}, Ms: 1}, Reorder{First: Selector{ID: 1}, Second: Selector{ID: 2}},
	Crash{Target: Target{Client: "nobody"}}, Restart{Target: Target{Client: "nobody"}}, Pause{Client: "nobody"},
	Resume{Client: "nobody"}, Rebalance{Group: "nobody"},
	InjectBatch{TP: tp("t", 0), Count: 1}, InjectMarker{TP: tp("t", 0)}, InjectTxnState{TransactionalID: "tx", State: Empty},
	InjectInitProducerID{TransactionalID: "tx", ProducerID: -1, Epoch: -1, TimeoutMs: 60000},
	InjectAddPartitions{TransactionalID: "tx", Partitions: []TP{tp("t", 0)}},
	InjectAddOffsets{TransactionalID: "tx", Group: "g"}, InjectEndTxn{TransactionalID: "tx"},
}

// TestApplyDispatchesEveryAction: every action type reaches its handler. A
// handler may refuse the action for the world's sake, but never as unknown.
func TestApplyDispatchesEveryAction(t *testing.T) {
	for _, a := range everyAction {
		w := New(DefaultConfig())
		w.Apply(CreateTopic{Name: "t"})
		w.Apply(producerWith("I", nil))
		if _, err := w.Apply(a); err != nil && strings.HasPrefix(err.Error(), "unknown action") {
			t.Errorf("%T: %v", a, err)
		}
	}
	if _, err := New(DefaultConfig()).Apply(nil); err == nil {
		t.Error("a nil action was applied")
	}
}

// TestSelectorMatchesFields: partition= matches the partitions a message's
// fields name, not its text. A record value that reads like a partition
// does not make a Produce to another partition match, and every list a
// message carries counts.
func TestSelectorMatchesFields(t *testing.T) {
	produce := &Message{ID: 1, Kind: MsgProduce, From: "A", To: "broker-1",
		Body: &ProduceRequest{TP: tp("t", 1), Batches: []Batch{{Records: NewRecords("t-0")}}}}
	markers := &Message{ID: 2, Kind: MsgWriteTxnMarkersResponse, From: "broker-2", To: "broker-1",
		Body: &WriteTxnMarkersResponse{Results: []TPCode{{TP: tp("t", 10)}, {TP: tp("out", 1)}}}}
	commit := &Message{ID: 3, Kind: MsgTxnOffsetCommit, From: "A", To: "broker-3",
		Body: &TxnOffsetCommitRequest{Offsets: []TPOffset{{TP: tp("t", 1), Offset: 5}}}}
	endTxn := &Message{ID: 4, Kind: MsgEndTxn, From: ExpertAddr, To: "broker-1", Body: &EndTxnRequest{TransactionalID: "t-0"}}
	for _, tc := range []struct {
		s    Selector
		m    *Message
		want bool
	}{
		{Selector{Kind: MsgProduce, Partition: tp("t", 1), HasPartition: true}, produce, true},
		{Selector{Kind: MsgProduce, Partition: tp("t", 0), HasPartition: true}, produce, false},
		{Selector{Kind: MsgWriteTxnMarkersResponse, Partition: tp("t", 1), HasPartition: true}, markers, false},
		{Selector{Kind: MsgWriteTxnMarkersResponse, Partition: tp("out", 1), HasPartition: true}, markers, true},
		{Selector{Kind: MsgTxnOffsetCommit, Partition: tp("t", 1), HasPartition: true}, commit, true},
		{Selector{Kind: MsgEndTxn, Partition: tp("t", 0), HasPartition: true}, endTxn, false},
		{Selector{Kind: MsgEndTxn, From: ExpertAddr}, endTxn, true},
		{Selector{Kind: MsgEndTxn, To: "broker-2"}, endTxn, false},
		{Selector{Kind: MsgProduce}, endTxn, false},
		{Selector{ID: 4}, endTxn, true},
		{Selector{ID: 4, Kind: MsgProduce}, endTxn, true}, // an id names one message; the kind is not read
	} {
		if got := tc.s.matches(tc.m); got != tc.want {
			t.Errorf("%s on %s: %v, want %v", tc.s, tc.m.Summary(), got, tc.want)
		}
	}
}

package engine

import "testing"

// Reference scenario S28 (epoch exhaustion at InitProducerId, ref 3.4 step
// 10, 7.S28) needs a transactional id at epoch 32766. The scenario
// language cannot get there (it would take 32766 re-initialisations), so
// this test puts the coordinator's metadata there directly and then drives
// the world with ordinary actions.

func s28Apply(t *testing.T, w *World, a Action) {
	t.Helper()
	if _, err := w.Apply(a); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
}

func s28Expect(t *testing.T, w *World, args ...string) {
	t.Helper()
	ok, got, err := w.Expect(Action{Verb: "expect", Args: args})
	if err != nil {
		t.Fatalf("expect %v: %v", args, err)
	}
	if !ok {
		t.Errorf("expect %v: found %s", args, got)
	}
}

// s28World returns a world where payment-processor-1 is CompleteCommit at
// (P=1000, 32766), and its producer a.
func s28World(t *testing.T) (*World, *Producer) {
	w := New(DefaultConfig())
	s28Apply(t, w, Action{Verb: "topic", Args: []string{"t"}})
	s28Apply(t, w, Action{Verb: "producer", Actor: "a", Opts: []KV{{"transactional.id", "payment-processor-1"}}})
	s28Apply(t, w, Action{Verb: "initTransactions", Actor: "a"})
	s28Apply(t, w, Action{Verb: "run"})
	m, tp, ok := w.txnMeta("payment-processor-1")
	if !ok || m.ProducerID != 1000 {
		t.Fatalf("setup: metadata %+v", m)
	}
	m.ProducerEpoch = 32766
	m.State = CompleteCommit
	tp.Meta["payment-processor-1"] = m
	return w, w.Producer("a")
}

func TestS28EpochExhaustionNoExpectedEpoch(t *testing.T) {
	w, _ := s28World(t)
	// A new instance: InitProducerId(id, -1, -1).
	s28Apply(t, w, Action{Verb: "restart", Args: []string{"a"}})
	s28Apply(t, w, Action{Verb: "initTransactions", Actor: "a"})
	s28Apply(t, w, Action{Verb: "run"})
	s28Expect(t, w, "event", "epoch 32766 exhausted (>= 32766): new pid, epoch 0")
	s28Expect(t, w, "producer", "a", "pid", "1001")
	s28Expect(t, w, "producer", "a", "epoch", "0")
	s28Expect(t, w, "txn", "payment-processor-1", "pid", "1001")
	m, _, _ := w.txnMeta("payment-processor-1")
	if m.PrevProducerID != 1000 || m.LastProducerEpoch != NoProducerEpoch {
		t.Errorf("prevProducerId %d lastProducerEpoch %d, want 1000 and -1", m.PrevProducerID, m.LastProducerEpoch)
	}
}

func TestS28EpochExhaustionExpectedEpochAndRetry(t *testing.T) {
	w, a := s28World(t)
	// The producer asks for a KIP-360 bump: InitProducerId(id, P, 32766).
	a.Epoch = 32766
	a.BumpEpoch = true
	a.State = Initializing
	a.enqueue(TxnRequest{Kind: MsgInitProducerID, Bump: true})
	s28Apply(t, w, Action{Verb: "advance", Args: []string{"0"}}) // the client sends
	s28Apply(t, w, Action{Verb: "advance", Args: []string{"2"}}) // durable, answer in flight
	s28Expect(t, w, "event", "InitProducerId transactionalId=payment-processor-1 timeout=60000 pid=1000 epoch=32766")
	s28Expect(t, w, "txn", "payment-processor-1", "pid", "1001")
	s28Expect(t, w, "txn", "payment-processor-1", "epoch", "0")
	m, _, _ := w.txnMeta("payment-processor-1")
	if m.PrevProducerID != 1000 || m.LastProducerEpoch != 32766 {
		t.Errorf("prevProducerId %d lastProducerEpoch %d, want 1000 and 32766", m.PrevProducerID, m.LastProducerEpoch)
	}
	// The answer is lost; the retry carries (P, 32766) again and gets
	// (Q, 0) without a bump.
	s28Apply(t, w, Action{Verb: "drop", Args: []string{"InitProducerIdResponse"}})
	s28Apply(t, w, Action{Verb: "advance", Args: []string{"30100"}})
	s28Expect(t, w, "event", "expected epoch is lastProducerEpoch: a retry, current epoch returned without a bump")
	s28Expect(t, w, "producer", "a", "pid", "1001")
	s28Expect(t, w, "producer", "a", "epoch", "0")
	s28Expect(t, w, "producer", "a", "state", "READY")
	s28Expect(t, w, "txn", "payment-processor-1", "epoch", "0")
	s28Expect(t, w, "violations", "none")
}

package engine

import (
	"strings"
	"testing"
)

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

// s28Event checks that some event's text or rule contains text.
func s28Event(t *testing.T, w *World, text string) {
	t.Helper()
	for i := w.EventCount() - 1; i >= 0; i-- {
		if e := w.EventAt(i); strings.Contains(e.Text(), text) || strings.Contains(e.Rule.String(), text) {
			return
		}
	}
	t.Errorf("no event contains %q", text)
}

// s28Producer checks the client's producer id, epoch and state.
func s28Producer(t *testing.T, w *World, name string, pid int64, epoch int16, state ClientState) {
	t.Helper()
	p, ok := w.ProducerInfo(name)
	if !ok || p.ProducerID != pid || p.Epoch != epoch || p.State != state {
		t.Errorf("producer %s: pid=%d epoch=%d state=%v, want pid=%d epoch=%d state=%v", name, p.ProducerID, p.Epoch, p.State, pid, epoch, state)
	}
}

// s28Txn checks the coordinator's metadata for payment-processor-1.
func s28Txn(t *testing.T, w *World, pid, prevPid int64, epoch, lastEpoch int16) {
	t.Helper()
	m := w.TxnInfo("payment-processor-1").Meta
	if m.ProducerID != pid || m.PrevProducerID != prevPid || m.ProducerEpoch != epoch || m.LastProducerEpoch != lastEpoch {
		t.Errorf("metadata pid=%d prevProducerId=%d epoch=%d lastProducerEpoch=%d, want %d %d %d %d",
			m.ProducerID, m.PrevProducerID, m.ProducerEpoch, m.LastProducerEpoch, pid, prevPid, epoch, lastEpoch)
	}
}

// s28World returns a world where payment-processor-1 is CompleteCommit at
// (P=1000, 32766), and its producer a.
func s28World(t *testing.T) (*World, *Producer) {
	w := New(DefaultConfig())
	s28Apply(t, w, CreateTopic{Name: "t"})
	s28Apply(t, w, txnProducer("a", "payment-processor-1"))
	s28Apply(t, w, Call{Client: "a", Method: CallInitTransactions})
	s28Apply(t, w, Run{})
	tp := w.txnParts[w.TxnPartitionFor("payment-processor-1")]
	m, ok := tp.Meta["payment-processor-1"]
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
	s28Apply(t, w, Restart{Target: Target{Client: "a"}})
	s28Apply(t, w, Call{Client: "a", Method: CallInitTransactions})
	s28Apply(t, w, Run{})
	s28Event(t, w, "epoch 32766 exhausted (>= 32766): new pid, epoch 0")
	s28Producer(t, w, "a", 1001, 0, Ready)
	s28Txn(t, w, 1001, 1000, 0, NoProducerEpoch)
}

func TestS28EpochExhaustionExpectedEpochAndRetry(t *testing.T) {
	w, a := s28World(t)
	// The producer asks for a KIP-360 bump: InitProducerId(id, P, 32766).
	a.Epoch = 32766
	a.BumpEpoch = true
	a.State = Initializing
	a.enqueue(TxnRequest{Kind: MsgInitProducerID, Bump: true})
	// Its state was set by hand, so nothing has woken the client: run its
	// loop, and it sends.
	s28Apply(t, w, Advance{Ms: 0})
	w.runClient("a")
	s28Apply(t, w, Advance{Ms: 2}) // durable, answer in flight
	s28Event(t, w, "InitProducerId transactionalId=payment-processor-1 timeout=60000 pid=1000 epoch=32766")
	s28Txn(t, w, 1001, 1000, 0, 32766)
	// The answer is lost; the retry carries (P, 32766) again and gets
	// (Q, 0) without a bump.
	s28Apply(t, w, Drop{Msg: Selector{Kind: MsgInitProducerIDResponse}})
	s28Apply(t, w, Advance{Ms: 30100})
	s28Event(t, w, "expected epoch is lastProducerEpoch: a retry, current epoch returned without a bump")
	s28Producer(t, w, "a", 1001, 0, Ready)
	s28Txn(t, w, 1001, 1000, 0, 32766)
	if v := w.ViolationList(); len(v) > 0 {
		t.Errorf("violations: %v", v)
	}
}

package engine

import (
	"strings"
	"testing"
)

// The TV2 details that differ between Kafka 4 releases (TV2Release). The
// scenario files run Kafka 4.3.1 (Kafka431); these tests run each choice
// both ways, so the other branch of every choice is checked too.

// kafka400 is Kafka 4.0.0's TV2, which has none of the later fixes.
func kafka400() TV2Release {
	return TV2Release{Name: "4.0.0", CommitRetryInCompleteAbort: InvalidTxnState}
}

func tv2World(t *testing.T, rel TV2Release, setup ...Action) *World {
	t.Helper()
	cfg := DefaultConfig()
	cfg.TransactionVersion = 2
	cfg.TV2 = rel
	w := New(cfg)
	tv2Apply(t, w, append([]Action{CreateTopic{Name: "t"}, txnProducer("a", "payment-processor-1")}, setup...)...)
	tv2Apply(t, w, Call{Client: "a", Method: CallInitTransactions}, Run{})
	return w
}

func tv2Apply(t *testing.T, w *World, as ...Action) {
	t.Helper()
	for _, a := range as {
		if _, err := w.Apply(a); err != nil {
			t.Fatalf("%s: %v", a, err)
		}
	}
}

// tv2Event reports whether some event's text or rule contains every part.
func tv2Event(w *World, parts ...string) bool {
	for i := w.EventCount() - 1; i >= 0; i-- {
		e := w.EventAt(i)
		all := true
		for _, s := range parts {
			all = all && (strings.Contains(e.Text(), s) || strings.Contains(e.Rule.String(), s))
		}
		if all {
			return true
		}
	}
	return false
}

func wantEvent(t *testing.T, w *World, parts ...string) {
	t.Helper()
	if !tv2Event(w, parts...) {
		t.Errorf("no event contains %q", parts)
	}
}

func wantNoViolation(t *testing.T, w *World) {
	t.Helper()
	if v := w.ViolationList(); len(v) > 0 {
		t.Errorf("violations: %v", v)
	}
}

var (
	begin  = Call{Client: "a", Method: CallBeginTransaction}
	commit = Call{Client: "a", Method: CallCommitTransaction}
	abort  = Call{Client: "a", Method: CallAbortTransaction}
	sendX  = Send{Client: "a", TP: TP{Topic: "t"}, Values: []string{"x"}}
)

func lateBatch(epoch int16, seq int32) InjectBatch {
	return InjectBatch{TP: TP{Topic: "t"}, ProducerID: 1000, Epoch: epoch, Seq: seq, Count: 1, Transactional: true}
}

func TestTV2EarlyEpochReject(t *testing.T) {
	for _, rel := range []TV2Release{Kafka431(), kafka400()} {
		t.Run(rel.Name, func(t *testing.T) {
			w := tv2World(t, rel)
			tv2Apply(t, w, begin, sendX, commit, Run{}, lateBatch(0, 0), Run{})
			if rel.EarlyEpochReject {
				wantEvent(t, w, "rejects pid=1000 epoch=0 seq=0: INVALID_PRODUCER_EPOCH(47) before asking the coordinator", "KAFKA-18042")
				if tv2Event(w, "AddPartitionsToTxn v5 payment-processor-1 pid=1000 epoch=0 [t-0]", "sends m") && tv2Event(w, "PRODUCER_FENCED(90)") {
					t.Errorf("the leader asked the coordinator")
				}
			} else {
				wantEvent(t, w, "answers AddPartitionsToTxn v5 [t-0] with PRODUCER_FENCED(90)")
				wantEvent(t, w, "the add failed (PRODUCER_FENCED(90)): rejects the produce with INVALID_PRODUCER_EPOCH(47)")
			}
			if p, _ := w.PartitionInfo(TP{Topic: "t"}); p.LogEndOffset != 2 {
				t.Errorf("leo %d, want 2: the late batch must not be appended", p.LogEndOffset)
			}
			wantNoViolation(t, w)
		})
	}
}

func TestTV2FirstSequenceZero(t *testing.T) {
	for _, rel := range []TV2Release{Kafka431(), kafka400()} {
		t.Run(rel.Name, func(t *testing.T) {
			w := tv2World(t, rel)
			tv2Apply(t, w, lateBatch(0, 3), Run{})
			if rel.FirstSequenceZero {
				wantEvent(t, w, "rejects pid=1000 epoch=0 seq=3: expected seq 0, got 3: OUT_OF_ORDER_SEQUENCE_NUMBER(45)", "KAFKA-18202")
			} else {
				wantEvent(t, w, "accepts pid=1000 epoch=0 seq=3 at offsets 0", "no state for pid 1000 here")
			}
		})
	}
}

func TestTV2EpochBeforeGuard(t *testing.T) {
	for _, rel := range []TV2Release{Kafka431(), kafka400()} {
		t.Run(rel.Name, func(t *testing.T) {
			w := tv2World(t, rel)
			// The leader asks the coordinator; meanwhile a marker with a
			// higher epoch lands and removes the verification entry.
			tv2Apply(t, w, lateBatch(0, 0), Deliver{Msg: Selector{Kind: MsgProduce}},
				InjectMarker{TP: TP{Topic: "t"}, ProducerID: 1000, Epoch: 3, Result: MarkerAbort},
				Deliver{Msg: Selector{Kind: MsgWriteTxnMarkers}}, Run{})
			if rel.EpochBeforeGuard {
				wantEvent(t, w, "rejects pid=1000 epoch=0 seq=0: INVALID_PRODUCER_EPOCH(47); nothing appended", "KAFKA-19690")
			} else {
				wantEvent(t, w, "INVALID_TXN_STATE(48)", "the verification guard no longer matches")
			}
		})
	}
}

// txnRecords lists (state, pid, epoch) of payment-processor-1's records.
func txnRecords(w *World) []string {
	var out []string
	for _, r := range w.TxnLog("payment-processor-1") {
		out = append(out, r.State.String()+"/"+itoa(r.ProducerID)+"/"+itoa(int64(r.ProducerEpoch)))
	}
	return out
}

func TestTV2FenceBump(t *testing.T) {
	for _, c := range []struct {
		rel               TV2Release
		abortEpoch, lastE int16
		newInstance       int16
	}{{Kafka431(), 1, 0, 2}, {kafka400(), 2, 1, 3}} {
		t.Run(c.rel.Name, func(t *testing.T) {
			w := tv2World(t, c.rel, txnProducer("b", "payment-processor-1"))
			tv2Apply(t, w, begin, sendX, Run{})
			tv2Apply(t, w, Call{Client: "b", Method: CallInitTransactions})
			tv2Apply(t, w, Step{N: 4})
			m := w.TxnInfo("payment-processor-1").Meta
			if m.State != PrepareAbort || m.ProducerEpoch != c.abortEpoch || m.LastProducerEpoch != c.lastE {
				t.Errorf("after the fence: %v epoch %d last %d, want PrepareAbort epoch %d last %d", m.State, m.ProducerEpoch, m.LastProducerEpoch, c.abortEpoch, c.lastE)
			}
			tv2Apply(t, w, Run{})
			wantEvent(t, w, "appends ABORT marker pid=1000 epoch="+itoa(int64(c.abortEpoch)))
			if b, _ := w.ProducerInfo("b"); b.Epoch != c.newInstance {
				t.Errorf("the new instance has epoch %d, want %d", b.Epoch, c.newInstance)
			}
			wantNoViolation(t, w)
		})
	}
}

// TestTV2FenceAtExhaustedEpoch: a fence at epoch 32766. Kafka 4.3.0+
// allocates the next producer id on the fence path (KAFKA-20090), so
// CompleteAbort moves to (Q, 0) and the new instance gets (Q, 1); 4.0.1 to
// 4.2.x leave CompleteAbort at (P, 32767) and the new instance's
// InitProducerId rotates to (Q, 0). (4.0.0 bumps twice and overflows, an
// exception the simulation does not model.)
func TestTV2FenceAtExhaustedEpoch(t *testing.T) {
	k42 := Kafka431()
	k42.Name, k42.RotateOnFence = "4.2.1", false
	for _, c := range []struct {
		rel      TV2Release
		complete string // the CompleteAbort record
		newPID   int64
		newEpoch int16
	}{{Kafka431(), "CompleteAbort/2000/0", 2000, 1}, {k42, "CompleteAbort/1000/32767", 2000, 0}} {
		t.Run(c.rel.Name, func(t *testing.T) {
			w := tv2World(t, c.rel, txnProducer("b", "payment-processor-1"),
				InjectTxnState{TransactionalID: "payment-processor-1", ProducerID: 1000, Epoch: 32765, State: Empty})
			tv2Apply(t, w, begin, sendX, Run{}, Call{Client: "b", Method: CallInitTransactions}, Run{})
			recs := txnRecords(w)
			found := false
			for _, r := range recs {
				found = found || r == c.complete
			}
			if !found {
				t.Errorf("records %v, want one %s", recs, c.complete)
			}
			wantEvent(t, w, "appends ABORT marker pid=1000 epoch=32767")
			if b, _ := w.ProducerInfo("b"); b.ProducerID != c.newPID || b.Epoch != c.newEpoch {
				t.Errorf("the new instance has pid=%d epoch=%d, want %d %d", b.ProducerID, b.Epoch, c.newPID, c.newEpoch)
			}
			wantNoViolation(t, w)
		})
	}
}

func TestTV2CommitRetryInCompleteAbort(t *testing.T) {
	alt := Kafka431()
	alt.Name, alt.CommitRetryInCompleteAbort = "KAFKA-20785", ProducerFenced
	for _, rel := range []TV2Release{Kafka431(), alt} {
		t.Run(rel.Name, func(t *testing.T) {
			w := tv2World(t, rel)
			tv2Apply(t, w, begin, sendX, abort, Run{},
				InjectEndTxn{TransactionalID: "payment-processor-1", ProducerID: 1000, Epoch: 0, Commit: true}, Run{})
			wantEvent(t, w, "answers EndTxn v5(commit) with "+rel.CommitRetryInCompleteAbort.String(), "CompleteAbort + commit, epoch 0 is the retry epoch")
		})
	}
}

func TestMarkerEpochCheck(t *testing.T) {
	open := ProducerStateEntry{ProducerEpoch: 5, CurrentTxnFirstOffset: 3}
	closed := ProducerStateEntry{ProducerEpoch: 5, CurrentTxnFirstOffset: -1}
	unknown := ProducerStateEntry{ProducerEpoch: NoProducerEpoch, CurrentTxnFirstOffset: -1}
	max := ProducerStateEntry{ProducerEpoch: 32767, CurrentTxnFirstOffset: 3}
	for _, c := range []struct {
		e       ProducerStateEntry
		epoch   int16
		version int8
		want    ErrorCode
	}{
		{open, 5, 0, None}, {open, 4, 0, InvalidProducerEpoch}, {open, 6, 0, None},
		{open, 5, 2, InvalidProducerEpoch}, {open, 6, 2, None}, {open, 4, 2, InvalidProducerEpoch},
		{closed, 5, 2, None}, {closed, 4, 2, InvalidProducerEpoch},
		{unknown, 0, 2, None}, {max, 32767, 2, None},
	} {
		if got, _, why := markerEpochCheck(c.e, c.epoch, c.version); got != c.want {
			t.Errorf("stored %d open=%v, marker %d v%d: %v (%s), want %v", c.e.ProducerEpoch, c.e.CurrentTxnFirstOffset >= 0, c.epoch, c.version, got, why, c.want)
		}
	}
}

// TestTV2ProducerSwitchesAtTransactionStart: a cluster switched to TV2 in
// the middle of a transaction changes nothing of that transaction; the
// producer uses TV2 from its next one, after an epoch bump.
func TestTV2ProducerSwitchesAtTransactionStart(t *testing.T) {
	w := New(DefaultConfig())
	tv2Apply(t, w, CreateTopic{Name: "t"}, txnProducer("a", "payment-processor-1"), Call{Client: "a", Method: CallInitTransactions}, Run{})
	tv2Apply(t, w, begin, sendX, Run{}, SetConfig{Settings: []Setting{{Key: ConfigTransactionVersion, Value: 2}}}, sendX, commit, Run{})
	if tv2Event(w, "EndTxn v5") || tv2Event(w, "Produce v12") {
		t.Errorf("the transaction begun under TV1 used a TV2 request")
	}
	if p := w.Producer("a"); !p.TV2 || p.Epoch != 1 || p.State != Ready {
		t.Errorf("after the commit: TV2=%v epoch=%d state=%v, want TV2 at epoch 1 (the upgrade's bump), READY", p.TV2, p.Epoch, p.State)
	}
	tv2Apply(t, w, begin, sendX, commit, Run{})
	wantEvent(t, w, "EndTxn v5 payment-processor-1 commit pid=1000 epoch=1")
	wantNoViolation(t, w)
}

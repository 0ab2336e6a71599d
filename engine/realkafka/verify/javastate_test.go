package verify

import (
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine"
)

// step is a call (m, end) or an answer (key, code) of the replay.
type step struct {
	call   bool
	m      engine.Method
	end    bool
	key    kmsg.Key
	code   *kerr.Error
	errSub string // the replay gives up here, with this in its reason
}

func call(m engine.Method) []step {
	return []step{{call: true, m: m}}
}

func callEnd(m engine.Method) step { return step{call: true, m: m, end: true} }

func ans(k kmsg.Key, code *kerr.Error) step { return step{key: k, code: code} }

// whole is a call with the answers it got, then its end.
func whole(m engine.Method, answers ...step) []step {
	return append(append(call(m), answers...), callEnd(m))
}

func TestJavaStateFromAnswers(t *testing.T) {
	none := (*kerr.Error)(nil)
	init := whole(engine.CallInitTransactions, ans(kmsg.InitProducerID, none))
	begin := whole(engine.CallBeginTransaction)
	cases := []struct {
		name  string
		tv2   bool
		steps [][]step
		want  string
	}{
		{"init answered", false, [][]step{init}, stReady},
		{"init retried after CONCURRENT_TRANSACTIONS", false, [][]step{whole(engine.CallInitTransactions, ans(kmsg.InitProducerID, kerr.ConcurrentTransactions), ans(kmsg.InitProducerID, none))}, stReady},
		{"init fenced", false, [][]step{whole(engine.CallInitTransactions, ans(kmsg.InitProducerID, kerr.ProducerFenced))}, stFatal},
		{"begin", false, [][]step{init, begin}, stInTxn},
		{"add partitions fenced", false, [][]step{init, begin, {ans(kmsg.AddPartitionsToTxn, kerr.ProducerFenced)}}, stFatal},
		{"produce with an old epoch is abortable", false, [][]step{init, begin, {ans(kmsg.AddPartitionsToTxn, none), ans(kmsg.Produce, kerr.InvalidProducerEpoch)}}, stAbortable},
		{"produce fenced", true, [][]step{init, begin, {ans(kmsg.Produce, kerr.ProducerFenced)}}, stFatal},
		{"txn offset commit, old generation", false, [][]step{init, begin, {ans(kmsg.AddOffsetsToTxn, none), ans(kmsg.TxnOffsetCommit, kerr.IllegalGeneration)}}, stAbortable},
		{"abort after an abortable error", false, [][]step{init, begin, {ans(kmsg.AddOffsetsToTxn, none), ans(kmsg.TxnOffsetCommit, kerr.UnknownMemberID)}, whole(engine.CallAbortTransaction, ans(kmsg.EndTxn, none))}, stReady},
		{"commit in abortable error stays", false, [][]step{init, begin, {ans(kmsg.AddOffsetsToTxn, none), ans(kmsg.TxnOffsetCommit, kerr.FencedInstanceID)}, whole(engine.CallCommitTransaction)}, stAbortable},
		{"commit answered", false, [][]step{init, begin, {ans(kmsg.AddPartitionsToTxn, none), ans(kmsg.Produce, none)}, whole(engine.CallCommitTransaction, ans(kmsg.EndTxn, none))}, stReady},
		{"commit fenced", false, [][]step{init, begin, {ans(kmsg.AddPartitionsToTxn, none)}, whole(engine.CallCommitTransaction, ans(kmsg.EndTxn, kerr.ProducerFenced))}, stFatal},
		{"commit of nothing sends no EndTxn", false, [][]step{init, begin, whole(engine.CallCommitTransaction)}, stReady},
		{"a fatal error stays", false, [][]step{init, begin, {ans(kmsg.AddPartitionsToTxn, kerr.InvalidTxnState)}, whole(engine.CallAbortTransaction)}, stFatal},
		{"abort after an out-of-order error bumps the epoch", false, [][]step{init, begin, {ans(kmsg.AddPartitionsToTxn, none), ans(kmsg.Produce, kerr.OutOfOrderSequenceNumber)},
			append(call(engine.CallAbortTransaction), ans(kmsg.EndTxn, none), ans(kmsg.InitProducerID, none), callEnd(engine.CallAbortTransaction))}, stReady},
		{"no bump on the wire", false, [][]step{init, begin, {ans(kmsg.AddPartitionsToTxn, none), ans(kmsg.Produce, kerr.OutOfOrderSequenceNumber)},
			append(call(engine.CallAbortTransaction), ans(kmsg.EndTxn, none), step{call: true, m: engine.CallAbortTransaction, end: true, errSub: "without the InitProducerId of the epoch bump"})}, ""},
		// s32 on the expiry broker: the produce answered
		// INVALID_PRODUCER_ID_MAPPING, nothing was added, and the abort
		// ended with no InitProducerId, where Java sends the bump's.
		{"nothing added, no bump on the wire", false, [][]step{init, begin, {ans(kmsg.Produce, kerr.InvalidProducerIDMapping)},
			{step{call: true, m: engine.CallAbortTransaction}, step{call: true, m: engine.CallAbortTransaction, end: true, errSub: "without the InitProducerId of the epoch bump"}}}, ""},
		{"no EndTxn on the wire", false, [][]step{init, begin, {ans(kmsg.AddPartitionsToTxn, none)},
			{step{call: true, m: engine.CallAbortTransaction}, step{call: true, m: engine.CallAbortTransaction, end: true, errSub: "without an EndTxn answer"}}}, ""},
		{"tv2: no client bump", true, [][]step{init, begin, {ans(kmsg.Produce, kerr.OutOfOrderSequenceNumber)}, whole(engine.CallAbortTransaction, ans(kmsg.EndTxn, none))}, stReady},
		{"an EndTxn Java would not send", false, [][]step{init, {step{key: kmsg.EndTxn, errSub: "where the Java client sends none"}}}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tm := &javaTM{state: stUninitialized, transactional: true, tv2: c.tv2}
			for _, ss := range c.steps {
				for _, s := range ss {
					var err error
					if s.call {
						err = tm.call(s.m, s.end)
					} else {
						code := int16(0)
						if s.code != nil {
							code = s.code.Code
						}
						err = tm.answer(obsAnswer{reqFact: reqFact{key: s.key, pid: -1, seq: -1}, code: code})
					}
					if s.errSub != "" {
						if err == nil || !strings.Contains(err.Error(), s.errSub) {
							t.Fatalf("want a refusal with %q, got %v (state %s)", s.errSub, err, tm.state)
						}
						return
					}
					if err != nil {
						t.Fatalf("unexpected %v", err)
					}
				}
			}
			if tm.state != c.want {
				t.Fatalf("state %s (last %s), want %s", tm.state, tm.last, c.want)
			}
		})
	}
}

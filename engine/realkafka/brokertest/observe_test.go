package brokertest

import (
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine/realkafka/verify"
)

// TestVerifyEventsOnTheBroker: expect event lines are judged on what the
// broker run showed (an InitProducerId answer, __transaction_state
// records, a leader's accept as the batch in the log, a Produce answer, a
// marker, an EndTxn answer), expect violations none on the broker-side
// monitors; narration and an absence stay simulation-only.
func TestVerifyEventsOnTheBroker(t *testing.T) {
	scn := `topic t partitions=2
producer a transactional.id=app-e
a initTransactions
run
expect event "InitProducerIdResponse NONE pid=1000 epoch=0"
expect event "app-e Empty -> Empty"
a beginTransaction
a send t-0 v0
a send t-1 v1
a commitTransaction
run
expect event "appends app-e Ongoing pid=1000 epoch=0 partitions=[t-0,t-1]"
expect event "accepts pid=1000 epoch=0 seq=0" actor=t-1
expect event "ProduceResponse t-0 NONE(0) baseOffset=0"
expect event "app-e Ongoing -> PrepareCommit"
expect event kind=marker actor=t-0
expect event "PrepareCommit -> CompleteCommit" txn=app-e
expect event "EndTxnResponse NONE"
expect event "commitTransaction returns"
expect violations none
expect no event "rejects"
`
	s, out := verifyScenario(t, "events.scn", scn)
	if s.Count(verify.Agree) != 10 || s.Count(verify.SimOnly) != 2 || len(s.Rows) != 12 {
		t.Errorf("want 10 agree and 2 simulation-only of 12:\n%s", out)
	}
	for _, r := range s.Rows {
		if r.Verdict == verify.SimOnly && !strings.Contains(r.Why, "narration") && !strings.Contains(r.Why, "absence") {
			t.Errorf("line %d: simulation-only for %q", r.Line, r.Why)
		}
	}
}

// TestVerifyPendingOffsets: pending transactional offsets are judged with
// OffsetFetch requireStable (UNSTABLE_OFFSET_COMMIT while pending, KIP-447).
func TestVerifyPendingOffsets(t *testing.T) {
	scn := `topic t partitions=2
producer a transactional.id=app-p
a initTransactions
run
a beginTransaction
a send t-0 v0
a sendOffsetsToTransaction g t-0=1
run
expect group g pending t-0 1
expect group g pending t-1 none
a commitTransaction
run
expect group g pending t-0 none
expect group g offset t-0 1
`
	s, out := verifyScenario(t, "pending.scn", scn)
	if strings.Contains(out, "runs transaction.version=0") || strings.Contains(out, "runs transaction.version=1") {
		t.Skip("sendOffsetsToTransaction is played under transaction.version 2 only for now")
	}
	if s.Count(verify.Agree) != 4 || len(s.Rows) != 4 {
		t.Errorf("want 4 agree of 4:\n%s", out)
	}
}

package brokertest

import (
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine/realkafka/verify"
)

// TestVerifyRefusedInject: an expert EndTxn that the simulation's
// coordinator refuses with CONCURRENT_TRANSACTIONS while the commit's
// markers are in flight is left out of the broker run, and the rest of the
// file is played: the commit, the next transaction's abort and its marker
// are compared on the broker (they were not played before: the file
// stopped at the inject). The row about the refused request's answer is
// not played. A flipped fact is not an agreement.
func TestVerifyRefusedInject(t *testing.T) {
	scn := `topic t
producer a transactional.id=rf-1
a initTransactions
run
a beginTransaction
a send t-0 v0
run
a commitTransaction
deliver EndTxn
step
inject EndTxn rf-1 pid=1000 epoch=0 result=commit
run
expect response EndTxnResponse to=expert error=CONCURRENT_TRANSACTIONS
expect txn rf-1 state CompleteCommit
expect partition t-0 marker 1 commit
a beginTransaction
a send t-0 v1
run
a abortTransaction
run
expect txn rf-1 state CompleteAbort
expect partition t-0 marker 3 abort
`
	s, out := verifyScenario(t, "refused.scn", scn)
	if s.Count(verify.Agree) != 4 || s.Count(verify.NotPlayed) != 1 || !strings.Contains(out, "left out the inject of line 11") {
		t.Errorf("want 4 agree and the refused inject's answer not played:\n%s", out)
	}
	s, out = verifyScenario(t, "refused-flipped.scn", strings.Replace(scn, "marker 3 abort", "marker 3 commit", 1))
	if s.Count(verify.Agree) != 3 {
		t.Errorf("a flipped marker agrees:\n%s", out)
	}
}

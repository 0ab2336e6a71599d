package brokertest

import (
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine/realkafka/verify"
)

// TestVerifyProducerState: expect producer X state is the Java client's
// reading of the broker's answers. Two instances of one transactional id:
// the second fences the first, whose commit the broker answers with
// PRODUCER_FENCED, which Java's EndTxnHandler takes to FATAL_ERROR. The
// last line asks for READY: neither side meets it, and Kafka's side names
// the answer it read.
func TestVerifyProducerState(t *testing.T) {
	scn := `topic t
producer old transactional.id=app-f
producer new transactional.id=app-f
old initTransactions
run
expect producer old state READY
old beginTransaction
old send t-0 a
run
expect producer old state IN_TRANSACTION
new initTransactions
run
expect producer new state READY
old commitTransaction
run
expect producer old state FATAL_ERROR
expect producer old state READY
`
	s, out := verifyScenario(t, "state.scn", scn)
	if s.Count(verify.Agree) != 4 || len(s.Rows) != 5 {
		t.Fatalf("want 4 agree of 5:\n%s", out)
	}
	last := s.Rows[4]
	if last.Verdict != verify.NotPlayed || !strings.Contains(last.Why, "Kafka (state FATAL_ERROR") || !strings.Contains(last.Why, "EndTxn answered PRODUCER_FENCED") {
		t.Errorf("the flipped line: %v (%s), want neither side meeting it, Kafka's from the EndTxn answer", last.Verdict, last.Why)
	}
}

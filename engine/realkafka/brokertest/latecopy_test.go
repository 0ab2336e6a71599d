package brokertest

import (
	"context"
	"testing"
	"time"

	"github.com/eoslab/eoslab/engine/realkafka"
	"github.com/eoslab/eoslab/engine/realkafka/verify"
)

// TestVerifyLateCopy: a duplicated EndTxn whose copy the network holds up
// is played for real: the wrapper holds the copy, lets it go to the broker
// once the simulation delivered it, and records its answer without handing
// it to the client. The stale abort reaches a committed transaction
// (CompleteCommit + abort, INVALID_TXN_STATE), and the facts after the
// duplicate are the broker's.
func TestVerifyLateCopy(t *testing.T) {
	if clusterTV(t) >= 2 {
		t.Skip("under transaction.version 2 every transaction bumps the epoch (KIP-890), so a stale EndTxn is fenced instead")
	}
	scn := `topic t
producer a transactional.id=app-late
a initTransactions
run
a beginTransaction
a send t-0 v1
advance 50
a abortTransaction
duplicate EndTxn
delay EndTxn 1000
advance 50
expect txn app-late state CompleteAbort
a beginTransaction
a send t-0 v2
advance 50
a commitTransaction
advance 50
expect txn app-late state CompleteCommit
advance 1000
expect event "answers EndTxn(abort) with INVALID_TXN_STATE(48)"
expect txn app-late state CompleteCommit
expect partition t-0 marker 3 commit
`
	s, out := verifyScenario(t, "latecopy.scn", scn)
	if s.Count(verify.Agree) != 5 || len(s.Rows) != 5 {
		t.Errorf("want 5 agree of 5:\n%s", out)
	}
}

// clusterTV is the cluster's finalized transaction.version.
func clusterTV(t *testing.T) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tv, err := realkafka.TransactionVersion(ctx, admin(t))
	if err != nil {
		t.Fatal(err)
	}
	return tv
}

// TestVerifyHeldRetryCopy: the network keeps a copy of a retry the wire
// holds (duplicate and delay of a message in flight, the retry of a lost
// answer): the held retry goes on when the simulation delivers it and
// leaves a late copy, which reaches the broker after the commit, where
// its epoch is fenced (KIP-890: the marker carried the bumped epoch).
// Before, the duplicate of a held message stopped the file; and the
// retry was never held, the lost answer kept while the retry's own
// request timeout ran.
func TestVerifyHeldRetryCopy(t *testing.T) {
	if clusterTV(t) < 2 {
		t.Skip("under transaction.version 0 the client adds the partition itself before its Produce; the lines deliver the KIP-890 leader's add")
	}
	scn := `topic t
producer tp transactional.id=app-held-copy
tp initTransactions
run
tp beginTransaction
tp send t-0 v
deliver Produce
deliver AddPartitionsToTxn
step
deliver AddPartitionsToTxnResponse
expect partition t-0 batch 0 seq=0 status=open
drop ProduceResponse to=tp
advance 30096
duplicate Produce from=tp
delay Produce from=tp 1000
advance 100
expect event "in its 5-batch cache: duplicate"
tp commitTransaction
advance 100
expect partition t-0 marker 1 commit epoch=1
run
expect event "rejects pid=1000 epoch=0 seq=0: INVALID_PRODUCER_EPOCH(47)"
expect partition t-0 records 1
expect partition t-0 leo 2
`
	s, out := verifyScenario(t, "heldretrycopy.scn", scn)
	if s.Count(verify.Agree) != 6 || len(s.Rows) != 6 {
		t.Errorf("want 6 agree of 6:\n%s", out)
	}
}

package brokertest

import (
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine/realkafka/verify"
)

// TestVerifyMirroredBump: a transactional producer whose send is refused
// with OUT_OF_ORDER_SEQUENCE_NUMBER bumps its epoch the Java way
// (abortTransaction, then InitProducerId with its producer id and epoch,
// KIP-360), which franz-go does not do; the file is played with raw
// requests as the simulation delivers them. The bump request, its answer,
// the coordinator's epoch, the producer's epoch and the batches at the new
// epoch agree with the broker (the bump request itself is the
// simulation's own, sent raw, and not compared); a flipped epoch does not. The classic
// protocol's (the scenario's abort answers differ under KIP-890 part 2).
func TestVerifyMirroredBump(t *testing.T) {
	if clusterTV(t) >= 2 {
		t.Skip("the KIP-360 bump of an open transaction is the classic protocol's; run with EOSLAB_KAFKA_TV=0")
	}
	scn := `topic t
producer a transactional.id=kip360
a initTransactions
run
a beginTransaction
a send t-0 v0
run
inject batch t-0 pid=1000 epoch=0 seq=1 count=2 transactional
run
a send t-0 v1
run
expect producer a error OUT_OF_ORDER_SEQUENCE_NUMBER
a abortTransaction
advance 3
delay InitProducerId 100
run
expect event "InitProducerId transactionalId=kip360 timeout=60000 pid=1000 epoch=0"
expect event msg=InitProducerIdResponse error=NONE pid=1000 epoch=1
expect txn kip360 epoch 1
expect producer a epoch 1
a beginTransaction
a send t-0 v2
run
a commitTransaction
run
expect partition t-0 batch 4 pid=1000 epoch=1 seq=0 status=committed
expect partition t-0 batch 0 status=aborted
`
	// The bump request itself is the simulation's own, sent raw: not
	// compared; the broker's answer to it is.
	s, out := verifyScenario(t, "kip360.scn", scn)
	if s.Count(verify.Agree) != 6 || s.Count(verify.NotPlayed) != 1 || len(s.Rows) != 7 {
		t.Errorf("want 6 agree and 1 not played of 7:\n%s", out)
	}
	s, out = verifyScenario(t, "kip360-flipped.scn", strings.Replace(scn, "expect txn kip360 epoch 1", "expect txn kip360 epoch 2", 1))
	if s.Count(verify.Agree) != 5 {
		t.Errorf("a flipped epoch agrees:\n%s", out)
	}
}

// TestVerifyOffsetsAlone: a transaction of offsets and no send, and a
// TxnOffsetCommit with a generation for a group that does not exist. Under
// KIP-890 part 2 its EndTxn v5 bumps the epoch, which kgo (no records, no
// EndTxn) cannot follow: the file is played with raw requests there, with
// kgo under the classic protocol; the group's offset and the refusal agree
// either way.
func TestVerifyOffsetsAlone(t *testing.T) {
	scn := `topic t
producer p1 transactional.id=oa-1
producer p2 transactional.id=oa-2
p1 initTransactions
p2 initTransactions
run
p1 beginTransaction
p1 sendOffsetsToTransaction lonely t-0=7
p1 commitTransaction
run
expect group lonely offset t-0 7
p2 beginTransaction
p2 sendOffsetsToTransaction ghost t-0=7 generation=3
run
expect producer p2 error ILLEGAL_GENERATION
`
	allAgree(t, "offsets-alone.scn", scn, 2)
}

// TestVerifyMirroredRetry: an idempotent producer's batches refused with
// OUT_OF_ORDER_SEQUENCE_NUMBER behind a lost request are retried the Java
// way, one request at a time behind the earliest unacknowledged batch
// (RecordAccumulator.shouldStopDrainBatchesForPartition), which franz-go's
// retries are not: the file is played with raw requests as the simulation
// delivers them, and the broker's refusals and the resent batches agree
// one for one. The producer's sends are the simulation's own there, so
// the lines about them are not played, saying why; a consumer reading
// after the producer's last request is played with kgo.
func TestVerifyMirroredRetry(t *testing.T) {
	scn := `topic t
producer p request.timeout.ms=2000 retry.backoff.ms=500
consumer c auto.offset.reset=earliest
p send t-0 x
run
p send t-0 a
p send t-0 b
p send t-0 c
expect event "Produce t-0 pid=1000 epoch=0 seq=3 values=c" kind=send count=1
drop Produce from=p
run
expect event "rejects pid=1000 epoch=0 seq=2: expected seq 1, got 2" count=1
expect event "rejects pid=1000 epoch=0 seq=3: expected seq 1, got 3" count=1
expect event "Produce t-0 pid=1000 epoch=0 seq=3 values=c" kind=send count=2
expect partition t-0 batch 1 seq=1 values=a
expect partition t-0 leo 4
expect producer p epoch 0
expect producer p error none
c poll
run
expect consumer c values x,a,b,c
`
	s, out := verifyScenario(t, "mirrored-retry.scn", scn)
	if s.Count(verify.Agree) != 7 || s.Count(verify.NotPlayed) != 2 || len(s.Rows) != 9 {
		t.Errorf("want 7 agree and 2 not played of 9:\n%s", out)
	}
	if !strings.Contains(out, "what p sends is the simulation's own here") {
		t.Errorf("a line about the producer's sends does not say why it is not played:\n%s", out)
	}
	s, out = verifyScenario(t, "mirrored-retry-flipped.scn", strings.Replace(scn, "got 3\" count=1", "got 3\" count=2", 1))
	if s.Count(verify.Agree) != 6 {
		t.Errorf("a flipped count agrees:\n%s", out)
	}
}

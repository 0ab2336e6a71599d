package brokertest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/eoslab/eoslab/engine/realkafka"
	"github.com/eoslab/eoslab/engine/realkafka/verify"
)

// TestVerifyHeldAnswer: an expect line between a Produce and its answer
// is compared on the broker with the answer held in the wrapper; the
// dropped answer and its retry then agree too.
func TestVerifyHeldAnswer(t *testing.T) {
	scn := `topic t
producer p
p send t-0 order-1
deliver InitProducerId
deliver InitProducerIdResponse
deliver Produce
expect partition t-0 records 1
expect partition t-0 producer 1000 epoch=0 lastseq=0
drop ProduceResponse
advance 30000
run
expect partition t-0 records 1
expect producer p offset 0
`
	allAgreeSaying(t, "held.scn", scn, 4, "request.timeout.ms")
}

// allAgreeSaying plays scn and wants n rows, all agreeing, and note in
// what verify printed.
func allAgreeSaying(t *testing.T, name, scn string, n int, note string) {
	t.Helper()
	s, out := verifyScenario(t, name, scn)
	if s.Count(verify.Agree) != n || len(s.Rows) != n || s.ExitCode() != 0 {
		t.Errorf("want %d agree of %d:\n%s", n, n, out)
	}
	if !strings.Contains(out, note) {
		t.Errorf("no row says %q:\n%s", note, out)
	}
}

// TestVerifyScaledTimeout: a transaction timeout fires on the broker at
// the file's scale; the rows after it agree and say so.
func TestVerifyScaledTimeout(t *testing.T) {
	scn := `topic t
producer a transactional.id=tx-a transaction.timeout.ms=60000
a initTransactions
run
a beginTransaction
a send t-0 v0
run
expect txn tx-a state Ongoing
advance 80000
expect txn tx-a state CompleteAbort
expect txn tx-a epoch 1
expect partition t-0 batch 0 status=aborted
`
	allAgreeSaying(t, "timeout.scn", scn, 4, "time scaled 1:4 ")
}

// TestVerifyRequestCounts: request counts compared with what the wrapper
// saw; the brokers' own requests are not played.
func TestVerifyRequestCounts(t *testing.T) {
	scn := `topic t
producer T transactional.id=tx-T
T initTransactions
run
expect requests 2 from=T
T beginTransaction
T send t-0 r1 r2 r3
T commitTransaction
run
expect requests 1 kind=Produce from=T
expect requests 1 kind=EndTxn from=T txn=tx-T
expect requests 1 kind=WriteTxnMarkers txn=tx-T
`
	s, out := verifyScenario(t, "cost.scn", scn)
	if s.Count(verify.Agree) != 3 || s.Count(verify.NotPlayed) != 1 || s.ExitCode() != 0 {
		t.Errorf("want 3 agree, 1 not played:\n%s", out)
	}
}

// TestVerifyDynamicSetting: transaction.partition.verification.enable is
// set cluster-wide for the file on kafka up's cluster, and put back after:
// a transactional batch of a pid no coordinator knows is appended only
// with verification off.
func TestVerifyDynamicSetting(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if tv, err := realkafka.TransactionVersion(ctx, admin(t)); err != nil {
		t.Fatal(err)
	} else if tv >= 2 {
		t.Skip("under transaction.version 2 the leader adds the partition to the transaction itself (KIP-890), whatever the setting")
	}
	scn := `topic t
config transaction.partition.verification.enable=false
inject batch t-0 pid=1000 epoch=3 seq=0 count=2 transactional
run
expect partition t-0 leo 2
expect partition t-0 lso 0
`
	s, out := verifyScenario(t, "verification.scn", scn)
	if s.Count(verify.Agree) != 2 || len(s.Rows) != 2 {
		t.Errorf("want 2 agree of 2:\n%s", out)
	}
	rcs, err := admin(t).DescribeBrokerConfigs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, rc := range rcs {
		for _, c := range rc.Configs {
			if c.Key == "transaction.partition.verification.enable" {
				t.Errorf("the cluster-wide override is still set after the file: %s=%s", c.Key, c.MaybeValue())
			}
		}
	}
}

package brokertest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eoslab/eoslab/engine/realkafka/verify"
)

// TestVerifyLostAck: a lost ACK played on both sides; every broker fact
// agrees, the event and violation lines are simulation-only, and the run
// leaves no topic of its prefix behind.
func TestVerifyLostAck(t *testing.T) {
	scn := `topic t partitions=2
producer A enable.idempotence=false acks=all retries=3
producer B
A send t-0 hello
step
drop ProduceResponse to=A
run
expect partition t-0 records 2
expect partition t-0 batch 1 pid=-1 values=hello
expect violation duplicate-record
B send t-1 hello
step 3
drop ProduceResponse to=B
run
expect partition t-1 records 1
expect partition t-1 batch 0 pid=1000 epoch=0 seq=0 values=hello
expect partition t-1 producer 1000 epoch=0 lastseq=0
expect producer B offset 0
`
	s, out := verifyScenario(t, "lost-ack.scn", scn)
	if s.Count(verify.Agree) != 6 || s.Count(verify.SimOnly) != 1 || len(s.Rows) != 7 || s.ExitCode() != 0 {
		t.Errorf("want 6 agree, 1 simulation-only of 7:\n%s", out)
	}
	if !strings.HasSuffix(out, "verify: 6 agree, 0 differ, 1 simulation-only of 7 facts in 1 files\n") {
		t.Errorf("last line:\n%s", out)
	}
	td, err := admin(t).ListTopics(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for name := range td {
		if strings.HasPrefix(name, "eoslab-verify-") {
			t.Errorf("verify left topic %s behind", name)
		}
	}
}

// TestVerifyBadFile: a file that does not parse is bad input, before
// anything is created on the cluster.
func TestVerifyBadFile(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.scn")
	os.WriteFile(bad, []byte("topic t\nexpect partition t-9 leo 0\n"), 0o644)
	var out strings.Builder
	_, err := verify.Run(context.Background(), verify.Options{Brokers: cluster.Bootstrap(), Files: []string{bad}}, &out)
	var ue *verify.UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "bad.scn:2") {
		t.Errorf("a file with a parse error: %v, want a usage error naming bad.scn:2", err)
	}
}

// TestVerifySendOffsets: sendOffsetsToTransaction is played on the broker
// (AddOffsetsToTxn and TxnOffsetCommit, or TxnOffsetCommit v5 alone under
// transaction.version 2): the committed offsets and the transaction's
// fate agree, an aborted transaction's offsets are not committed, and the
// group is deleted afterwards. Under transaction.version 0 the raw EndTxn
// must be v4 or lower: a classic broker answers v5 UNSUPPORTED_VERSION.
// The run after w0's send makes it reach the log on both sides: the Java
// producer's abortTransaction drops a batch it has not sent yet
// (RecordAccumulator.abortUndrainedBatches), the driver's send completes.
func TestVerifySendOffsets(t *testing.T) {
	scn := `topic t partitions=2
producer a transactional.id=app-1
a initTransactions
run
a beginTransaction
a send t-0 v0
a sendOffsetsToTransaction g t-0=1 t-1=3
a commitTransaction
run
expect txn app-1 state CompleteCommit
expect group g offset t-0 1
expect group g offset t-1 3
expect partition t-0 batch 0 status=committed
a beginTransaction
a send t-1 w0
run
a sendOffsetsToTransaction g t-0=7
a abortTransaction
run
expect txn app-1 state CompleteAbort
expect group g offset t-0 1
expect partition t-1 batch 0 status=aborted
`
	s, out := verifyScenario(t, "offsets.scn", scn)
	if s.Count(verify.Agree) != 7 || len(s.Rows) != 7 {
		t.Errorf("want 7 agree of 7:\n%s", out)
	}
	gs, err := admin(t).ListGroups(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gs.Groups() {
		if strings.HasPrefix(g, "eoslab-verify-") {
			t.Errorf("verify left group %s behind", g)
		}
	}
}

// TestVerifyConsumerPosition: the consumer's position is compared, and it
// moves past the abort marker as the Java consumer's does, though no
// record is handed out to read_committed.
func TestVerifyConsumerPosition(t *testing.T) {
	scn := `topic t
producer p transactional.id=pos-1
consumer rc isolation.level=read_committed auto.offset.reset=earliest
consumer ru isolation.level=read_uncommitted auto.offset.reset=earliest
p initTransactions
run
p beginTransaction
p send t-0 p0 p1 p2
run
p abortTransaction
run
rc poll
run
expect consumer rc values none
expect consumer rc position t-0 4
ru poll
run
expect consumer ru values p0,p1,p2
expect consumer ru position t-0 4
`
	allAgree(t, "position.scn", scn, 4)
}

// TestVerifyGroupLessCommit: offsets sent to a group that does not exist
// with generation -1 create a simple group, and generation 3 is refused
// once the group exists (UNKNOWN_MEMBER_ID), as s41-group-less-commit
// says, on either protocol; for a missing group Kafka 4 answers
// ILLEGAL_GENERATION and 3.9 UNKNOWN_MEMBER_ID (known-differences), so
// that answer is not asserted here (with a send in the first
// transaction: under transaction.version 2 an offsets-only one is not
// played).
func TestVerifyGroupLessCommit(t *testing.T) {
	scn := `topic t
producer p1 transactional.id=tx-1
producer p2 transactional.id=tx-2
producer p3 transactional.id=tx-3
p1 initTransactions
p2 initTransactions
p3 initTransactions
run
p1 beginTransaction
p1 send t-0 x
p1 sendOffsetsToTransaction lonely-group t-0=7
p1 commitTransaction
run
expect group lonely-group offset t-0 7
p2 beginTransaction
p2 sendOffsetsToTransaction ghost-group t-0=7 generation=3
run
p3 beginTransaction
p3 sendOffsetsToTransaction lonely-group t-0=9 generation=3
run
expect producer p3 error UNKNOWN_MEMBER_ID
expect group lonely-group offset t-0 7
`
	allAgree(t, "group-less.scn", scn, 3)
}

// TestVerifyProcessor: a processor's loops are played on one kgo client
// that is the group's consumer and the transactional producer: outputs,
// committed input offsets, the transaction's state, a crash at a quiet
// point and a new instance that finds nothing new to process.
func TestVerifyProcessor(t *testing.T) {
	scn := `topic in
topic out
producer S
processor P input=in output=out group.id=pg transactional.id=proc-1
consumer G isolation.level=read_committed topics=out auto.offset.reset=earliest
S send in-0 a b
run
P process
run
expect partition out-0 records 2
expect group pg offset in-0 2
expect partition out-0 batch 0 status=committed
expect txn proc-1 state CompleteCommit
crash P
restart P
S send in-0 c
run
P process
run
expect partition out-0 records 3
expect group pg offset in-0 3
G poll
run
expect consumer G values a',b',c'
`
	allAgree(t, "processor.scn", scn, 7)
}

// TestVerifyExpertTxnRequests: the expert's AddPartitionsToTxn, EndTxn and
// InitProducerId go raw to the coordinator with the broker's producer id
// for the simulation's: the transaction they open and abort, the marker,
// and the producer id afterwards agree on either protocol (EndTxn v4 under
// the classic one).
func TestVerifyExpertTxnRequests(t *testing.T) {
	scn := `topic t
producer a transactional.id=tx-p
a initTransactions
run
inject AddPartitionsToTxn tx-p pid=1000 epoch=0 partitions=t-0
run
expect txn tx-p state Ongoing
expect txn tx-p partitions t-0
inject EndTxn tx-p pid=1000 epoch=0 result=abort
run
expect txn tx-p state CompleteAbort
expect partition t-0 marker 0 abort
inject InitProducerId tx-p
run
expect txn tx-p pid 1000
`
	allAgree(t, "expert.scn", scn, 5)
}

// TestVerifyRebalance: a rebalance moves the group's one kgo member to the
// next generation (ForceRebalance); offsets sent with the consumer's
// metadata at the old generation are refused (ILLEGAL_GENERATION, KIP-447),
// at the current one accepted.
func TestVerifyRebalance(t *testing.T) {
	scn := `topic in
topic out
producer S
consumer C group.id=g topics=in auto.offset.reset=earliest
producer P transactional.id=rb-1
S send in-0 a
run
C poll
run
rebalance g
P initTransactions
run
P beginTransaction
P send out-0 x
run
P sendOffsetsToTransaction g in-0=1 consumer=C generation=1
run
expect producer P error ILLEGAL_GENERATION
P abortTransaction
run
P beginTransaction
P send out-0 y
P sendOffsetsToTransaction g in-0=1 consumer=C
P commitTransaction
run
expect group g offset in-0 1
expect partition out-0 batch 0 status=aborted
`
	allAgree(t, "rebalance.scn", scn, 3)
}

// allAgree plays scn and wants n rows, every one agreeing.
func allAgree(t *testing.T, name, scn string, n int) {
	t.Helper()
	s, out := verifyScenario(t, name, scn)
	if s.Count(verify.Agree) != n || len(s.Rows) != n {
		t.Errorf("want %d agree of %d:\n%s", n, n, out)
	}
}

// verifyScenario writes scn to a file named name and plays it with verify
// on the test's cluster, within a bound that only guards against a hang;
// it returns the summary and what verify printed.
func verifyScenario(t *testing.T, name, scn string) (verify.Summary, string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(file, []byte(scn), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	s, err := verify.Run(ctx, verify.Options{Brokers: cluster.Bootstrap(), Files: []string{file}}, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	return s, out.String()
}

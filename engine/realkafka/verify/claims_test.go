package verify

import (
	"context"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/realkafka/wire"
	"github.com/eoslab/eoslab/engine/script"
)

// txnRun is a driver whose broker run saw client a (transactional id
// txid) write each exchange's request, then get its answer; broker pid
// 5000 stands for the simulation's simPID.
func txnRun(txid string, simPID int64, xs ...wire.Exchange) *driver {
	decl := engine.DeclareProducer{Name: "a"}
	decl.Config.TransactionalID = txid
	d := &driver{ctx: context.Background(), prefix: "x-", decls: map[string]engine.DeclareProducer{"a": decl},
		cdecls: map[string]engine.DeclareConsumer{}, pids: map[int64]int64{5000: simPID}, obs: &observer{}}
	for _, x := range xs {
		d.obs.seen = append(d.obs.seen, observed{client: "a", x: wire.Exchange{Req: x.Req}}, observed{client: "a", x: x})
	}
	return d
}

// verdictCase is one broker run an event line is judged against.
type verdictCase struct {
	name string
	d    *driver
	want Verdict
}

// judgeAgainst plays scn on the simulation (its last line an expect event
// the simulation meets) and judges that line against each broker run.
func judgeAgainst(t *testing.T, scn string, cases ...verdictCase) {
	t.Helper()
	w, c, fail, _ := playSim(t, scn)
	if fail != nil {
		t.Fatalf("the simulation fails its own line: %s", fail.Got)
	}
	for _, tc := range cases {
		row := Row{}
		tc.d.judgeEvent(&row, c.Expect.(script.EventCheck), fail, w)
		if row.Verdict != tc.want {
			t.Errorf("%s: %v (%s%s%s), want %v", tc.name, row.Verdict, row.Why, row.Sim, row.Kafka, tc.want)
		}
	}
}

func initAnswered() wire.Exchange {
	return wire.Exchange{Req: &kmsg.InitProducerIDRequest{ProducerID: -1, ProducerEpoch: -1}, Resp: &kmsg.InitProducerIDResponse{ProducerID: 5000}}
}

// A coordinator's epoch decision is judged on the InitProducerId answer
// that carries it: it agrees with the broker's answer with the same
// producer id and epoch, and differs from another.
func TestJudgeEpochEventOnInitAnswer(t *testing.T) {
	other := wireRun(0, 0, 1)
	other.pids[5000] = 1001 // the broker's answer stands for another id
	judgeAgainst(t, "topic t\nproducer p\np send t-0 a\nrun\nexpect event \"allocates pid=1000 epoch=0 for an idempotent producer\"\n",
		verdictCase{"same answer", wireRun(0, 0, 1), Agree}, verdictCase{"another id", other, Differ})
}

// A leader's verification (KIP-890) is judged on the answer the leader
// gave the request it held: it agrees with the broker's Produce answer
// carrying the same code, and differs from another.
func TestJudgeVerificationOnTheAnswer(t *testing.T) {
	run := func(code int16) *driver {
		d := txnRun("app-v", 1000, initAnswered(),
			wire.Exchange{Req: &kmsg.AddPartitionsToTxnRequest{}, Resp: &kmsg.AddPartitionsToTxnResponse{}},
			wire.Exchange{Req: kmsg.NewPtrProduceRequest(), Resp: kmsg.NewPtrProduceResponse()})
		// The expert's batch to t-1, answered with code.
		req := kmsg.NewPtrProduceRequest()
		rp := kmsg.NewProduceRequestTopicPartition()
		rp.Partition = 1
		rp.Records = buildBatch(engine.InjectBatch{ProducerID: 5000, Seq: 0, Values: []string{"x"}})
		req.Topics = []kmsg.ProduceRequestTopic{{Topic: "x-t", Partitions: []kmsg.ProduceRequestTopicPartition{rp}}}
		resp := kmsg.NewPtrProduceResponse()
		ap := kmsg.NewProduceResponseTopicPartition()
		ap.Partition, ap.ErrorCode, ap.BaseOffset = 1, code, -1
		resp.Topics = []kmsg.ProduceResponseTopic{{Topic: "x-t", Partitions: []kmsg.ProduceResponseTopicPartition{ap}}}
		d.obs.seen = append(d.obs.seen, observed{client: "expert", x: wire.Exchange{Req: req, Resp: resp}})
		return d
	}
	judgeAgainst(t, `topic t partitions=2
producer a transactional.id=app-v
a initTransactions
run
a beginTransaction
a send t-0 v0
run
inject batch t-1 pid=1000 epoch=0 seq=0 count=1 transactional
run
expect event "verifies t-1 for app-v pid=1000 epoch=0: TRANSACTION_ABORTABLE(120)"
`, verdictCase{"same code", run(120), Agree}, verdictCase{"appended", run(0), Differ})
}

// A coordinator's decision answered without a state change of its own is
// judged on that answer: a new id's producer id, as the InitProducerId
// answer carries it.
func TestJudgeReplyClaim(t *testing.T) {
	judgeAgainst(t, "producer a transactional.id=app-r\na initTransactions\nrun\nexpect event \"has no metadata for app-r: allocates pid=1000\"\n",
		verdictCase{"same id", txnRun("app-r", 1000, initAnswered()), Agree},
		verdictCase{"another id", txnRun("app-r", 1001, initAnswered()), Differ})
}

// The group coordinator holding offsets as pending is judged on its
// TxnOffsetCommit answer.
func TestJudgePendingOffsetsOnTheAnswer(t *testing.T) {
	run := func(code int16) *driver {
		commit := kmsg.NewPtrTxnOffsetCommitResponse()
		rt := kmsg.NewTxnOffsetCommitResponseTopic()
		rt.Topic, rt.Partitions = "x-t", []kmsg.TxnOffsetCommitResponseTopicPartition{{Partition: 0, ErrorCode: code}}
		commit.Topics = append(commit.Topics, rt)
		return txnRun("app-o", 1000, initAnswered(),
			wire.Exchange{Req: &kmsg.AddOffsetsToTxnRequest{}, Resp: &kmsg.AddOffsetsToTxnResponse{}},
			wire.Exchange{Req: &kmsg.TxnOffsetCommitRequest{}, Resp: commit})
	}
	judgeAgainst(t, "topic t\nproducer a transactional.id=app-o\na initTransactions\nrun\na beginTransaction\na sendOffsetsToTransaction g t-0=5\nrun\nexpect event \"holds {t-0=5} as pending for pid=1000\"\n",
		verdictCase{"accepted", run(0), Agree}, verdictCase{"refused", run(22), Differ})
}

package verify

import (
	"context"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/realkafka/wire"
	"github.com/eoslab/eoslab/engine/script"
)

// playSim runs a scenario on the simulation and returns its world and the
// last command (an expect line).
func playSim(t *testing.T, scn string) (*engine.World, script.Command, *script.Failure, []script.Command) {
	t.Helper()
	cmds, err := script.Parse("t.scn", []byte(scn))
	if err != nil {
		t.Fatal(err)
	}
	r := script.NewRunner()
	var fail *script.Failure
	for _, c := range cmds {
		_, fail, err = r.Exec(c)
		if err != nil {
			t.Fatal(err)
		}
	}
	return r.World, cmds[len(cmds)-1], fail, cmds
}

// wireRun is a driver whose broker run saw exchanges: an idempotent
// producer's InitProducerId (broker pid 5000) and one Produce to t-0
// answered with code and base offset.
func wireRun(code int16, base int64, produces int) *driver {
	d := &driver{ctx: context.Background(), prefix: "x-", decls: map[string]engine.DeclareProducer{"p": {Name: "p"}},
		cdecls: map[string]engine.DeclareConsumer{}, pids: map[int64]int64{5000: 1000}, obs: &observer{}}
	add := func(client string, x wire.Exchange) { d.obs.seen = append(d.obs.seen, observed{client: client, x: x}) }
	init := &kmsg.InitProducerIDRequest{ProducerID: -1, ProducerEpoch: -1}
	add("p", wire.Exchange{Req: init})
	add("p", wire.Exchange{Req: init, Resp: &kmsg.InitProducerIDResponse{ProducerID: 5000}})
	for range produces {
		req := kmsg.NewPtrProduceRequest()
		rp := kmsg.NewProduceRequestTopicPartition()
		rp.Records = buildBatch(engine.InjectBatch{ProducerID: 5000, Seq: 0, Values: []string{"a"}})
		req.Topics = []kmsg.ProduceRequestTopic{{Topic: "x-t", Partitions: []kmsg.ProduceRequestTopicPartition{rp}}}
		resp := kmsg.NewPtrProduceResponse()
		ap := kmsg.NewProduceResponseTopicPartition()
		ap.ErrorCode, ap.BaseOffset = code, base
		resp.Topics = []kmsg.ProduceResponseTopic{{Topic: "x-t", Partitions: []kmsg.ProduceResponseTopicPartition{ap}}}
		add("p", wire.Exchange{Req: req})
		add("p", wire.Exchange{Req: req, Resp: resp})
	}
	return d
}

// An event line is judged on the broker run's answer: it agrees with the
// answer the simulation's event stands for, differs from another one, and
// is not compared once the two runs' conversations differ.
func TestJudgeEventOnTheWire(t *testing.T) {
	w, c, fail, _ := playSim(t, "topic t\nproducer p\np send t-0 a\nrun\nexpect event \"receives m4 ProduceResponse t-0 NONE(0) baseOffset=0\"\n")
	if fail != nil {
		t.Fatalf("the simulation fails its own line: %s", fail.Got)
	}
	for _, tc := range []struct {
		name     string
		d        *driver
		want     Verdict
		contains string
	}{
		{"same answer", wireRun(0, 0, 1), Agree, "Produce answer for t-0 with NONE(0) baseOffset=0"},
		{"another offset", wireRun(0, 3, 1), Differ, "baseOffset=3"},
		{"another code", wireRun(45, -1, 1), Differ, "OUT_OF_ORDER_SEQUENCE_NUMBER"},
		{"two produces", wireRun(0, 0, 2), NotPlayed, "the wire conversations differ"},
	} {
		row := Row{}
		tc.d.judgeEvent(&row, c.Expect.(script.EventCheck), fail, w)
		text := row.Why + row.Sim + row.Kafka
		if row.Verdict != tc.want || !strings.Contains(text, tc.contains) {
			t.Errorf("%s: %v (%s), want %v with %q", tc.name, row.Verdict, text, tc.want, tc.contains)
		}
	}
}

// A kind of event with no broker counterpart stays simulation-only and
// says which kind.
func TestJudgeEventSimOnlyNamesKind(t *testing.T) {
	w, c, fail, _ := playSim(t, "topic t\nproducer p\np send t-0 a\nrun\nexpect event \"acknowledged at offset 0\"\n")
	row := Row{}
	wireRun(0, 0, 1).judgeEvent(&row, c.Expect.(script.EventCheck), fail, w)
	if row.Verdict != SimOnly || !strings.Contains(row.Why, "kind ") {
		t.Errorf("%v (%s), want simulation-only naming the kind", row.Verdict, row.Why)
	}
}

// A coordinator's epoch decision is judged on the InitProducerId answer
// that carries it: it agrees with the broker's answer with the same
// producer id and epoch, and differs from another.
func TestJudgeEpochEventOnInitAnswer(t *testing.T) {
	w, c, fail, _ := playSim(t, "topic t\nproducer p\np send t-0 a\nrun\nexpect event \"allocates pid=1000 epoch=0 for an idempotent producer\"\n")
	if fail != nil {
		t.Fatalf("the simulation fails its own line: %s", fail.Got)
	}
	other := wireRun(0, 0, 1)
	other.pids[5000] = 1001 // the broker's answer stands for another id
	for _, tc := range []struct {
		name     string
		d        *driver
		want     Verdict
		contains string
	}{
		{"same answer", wireRun(0, 0, 1), Agree, "InitProducerId answer to p: pid=1000 epoch=0"},
		{"another id", other, Differ, "pid=1001"},
	} {
		row := Row{}
		tc.d.judgeEvent(&row, c.Expect.(script.EventCheck), fail, w)
		text := row.Why + row.Sim + row.Kafka
		if row.Verdict != tc.want || !strings.Contains(text, tc.contains) {
			t.Errorf("%s: %v (%s), want %v with %q", tc.name, row.Verdict, text, tc.want, tc.contains)
		}
	}
}

// A leader's verification (KIP-890) is judged on the answer the leader
// gave the request it held: it agrees with the broker's Produce answer
// carrying the same code, and differs from another.
func TestJudgeVerificationOnTheAnswer(t *testing.T) {
	w, c, fail, _ := playSim(t, `topic t partitions=2
producer a transactional.id=app-v
a initTransactions
run
a beginTransaction
a send t-0 v0
run
inject batch t-1 pid=1000 epoch=0 seq=0 count=1 transactional
run
expect event "verifies t-1 for app-v pid=1000 epoch=0: TRANSACTION_ABORTABLE(120)"
`)
	if fail != nil {
		t.Fatalf("the simulation fails its own line: %s", fail.Got)
	}
	run := func(code int16) *driver {
		d := &driver{ctx: context.Background(), prefix: "x-", decls: map[string]engine.DeclareProducer{"a": {Name: "a"}},
			cdecls: map[string]engine.DeclareConsumer{}, pids: map[int64]int64{5000: 1000}, obs: &observer{}}
		req := kmsg.NewPtrProduceRequest()
		rp := kmsg.NewProduceRequestTopicPartition()
		rp.Partition = 1
		rp.Records = buildBatch(engine.InjectBatch{ProducerID: 5000, Seq: 0, Values: []string{"x"}})
		req.Topics = []kmsg.ProduceRequestTopic{{Topic: "x-t", Partitions: []kmsg.ProduceRequestTopicPartition{rp}}}
		resp := kmsg.NewPtrProduceResponse()
		ap := kmsg.NewProduceResponseTopicPartition()
		ap.Partition, ap.ErrorCode, ap.BaseOffset = 1, code, -1
		resp.Topics = []kmsg.ProduceResponseTopic{{Topic: "x-t", Partitions: []kmsg.ProduceResponseTopicPartition{ap}}}
		// a's own conversation, as the simulation's: each request
		// written, then answered.
		for _, x := range []wire.Exchange{
			{Req: &kmsg.InitProducerIDRequest{}, Resp: &kmsg.InitProducerIDResponse{ProducerID: 5000}},
			{Req: &kmsg.AddPartitionsToTxnRequest{}, Resp: &kmsg.AddPartitionsToTxnResponse{}},
			{Req: kmsg.NewPtrProduceRequest(), Resp: kmsg.NewPtrProduceResponse()},
		} {
			d.obs.seen = append(d.obs.seen, observed{client: "a", x: wire.Exchange{Req: x.Req}}, observed{client: "a", x: x})
		}
		d.obs.seen = append(d.obs.seen, observed{client: "expert", x: wire.Exchange{Req: req, Resp: resp}})
		return d
	}
	for _, tc := range []struct {
		name string
		code int16
		want Verdict
	}{{"same code", 120, Agree}, {"appended", 0, Differ}} {
		row := Row{}
		run(tc.code).judgeEvent(&row, c.Expect.(script.EventCheck), fail, w)
		if row.Verdict != tc.want {
			t.Errorf("%s: %v (%s%s%s), want %v", tc.name, row.Verdict, row.Why, row.Sim, row.Kafka, tc.want)
		}
	}
}

// A coordinator's decision answered without a state change of its own is
// judged on that answer: a new id's producer id, as the InitProducerId
// answer carries it.
func TestJudgeReplyClaim(t *testing.T) {
	w, c, fail, _ := playSim(t, "producer a transactional.id=app-r\na initTransactions\nrun\nexpect event \"has no metadata for app-r: allocates pid=1000\"\n")
	if fail != nil {
		t.Fatalf("the simulation fails its own line: %s", fail.Got)
	}
	run := func(simPID int64) *driver {
		decl := engine.DeclareProducer{Name: "a"}
		decl.Config.TransactionalID = "app-r"
		d := &driver{ctx: context.Background(), prefix: "x-", decls: map[string]engine.DeclareProducer{"a": decl},
			cdecls: map[string]engine.DeclareConsumer{}, pids: map[int64]int64{5000: simPID}, obs: &observer{}}
		x := wire.Exchange{Req: &kmsg.InitProducerIDRequest{ProducerID: -1, ProducerEpoch: -1}, Resp: &kmsg.InitProducerIDResponse{ProducerID: 5000}}
		d.obs.seen = append(d.obs.seen, observed{client: "a", x: wire.Exchange{Req: x.Req}}, observed{client: "a", x: x})
		return d
	}
	for _, tc := range []struct {
		name string
		pid  int64
		want Verdict
	}{{"same id", 1000, Agree}, {"another id", 1001, Differ}} {
		row := Row{}
		run(tc.pid).judgeEvent(&row, c.Expect.(script.EventCheck), fail, w)
		if row.Verdict != tc.want {
			t.Errorf("%s: %v (%s%s%s), want %v", tc.name, row.Verdict, row.Why, row.Sim, row.Kafka, tc.want)
		}
	}
}

// The group coordinator holding offsets as pending is judged on its
// TxnOffsetCommit answer.
func TestJudgePendingOffsetsOnTheAnswer(t *testing.T) {
	w, c, fail, _ := playSim(t, "topic t\nproducer a transactional.id=app-o\na initTransactions\nrun\na beginTransaction\na sendOffsetsToTransaction g t-0=5\nrun\nexpect event \"holds {t-0=5} as pending for pid=1000\"\n")
	if fail != nil {
		t.Fatalf("the simulation fails its own line: %s", fail.Got)
	}
	run := func(code int16) *driver {
		decl := engine.DeclareProducer{Name: "a"}
		decl.Config.TransactionalID = "app-o"
		d := &driver{ctx: context.Background(), prefix: "x-", decls: map[string]engine.DeclareProducer{"a": decl},
			cdecls: map[string]engine.DeclareConsumer{}, pids: map[int64]int64{5000: 1000}, obs: &observer{}}
		commit := kmsg.NewPtrTxnOffsetCommitResponse()
		rt := kmsg.NewTxnOffsetCommitResponseTopic()
		rt.Topic, rt.Partitions = "x-t", []kmsg.TxnOffsetCommitResponseTopicPartition{{Partition: 0, ErrorCode: code}}
		commit.Topics = append(commit.Topics, rt)
		for _, x := range []wire.Exchange{
			{Req: &kmsg.InitProducerIDRequest{}, Resp: &kmsg.InitProducerIDResponse{ProducerID: 5000}},
			{Req: &kmsg.AddOffsetsToTxnRequest{}, Resp: &kmsg.AddOffsetsToTxnResponse{}},
			{Req: &kmsg.TxnOffsetCommitRequest{}, Resp: commit},
		} {
			d.obs.seen = append(d.obs.seen, observed{client: "a", x: wire.Exchange{Req: x.Req}}, observed{client: "a", x: x})
		}
		return d
	}
	for _, tc := range []struct {
		name string
		code int16
		want Verdict
	}{{"accepted", 0, Agree}, {"refused", 22, Differ}} {
		row := Row{}
		run(tc.code).judgeEvent(&row, c.Expect.(script.EventCheck), fail, w)
		if row.Verdict != tc.want {
			t.Errorf("%s: %v (%s%s%s), want %v", tc.name, row.Verdict, row.Why, row.Sim, row.Kafka, tc.want)
		}
	}
}

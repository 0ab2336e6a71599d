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

// The coordinator's decision and the client taking it are two epoch
// events for one InitProducerId answer: the client's event agrees with
// that one answer. Before, it asked for the second such answer ("1 of
// them, want the 2-th") and differed.
func TestJudgeEpochEventOneAnswerTwoEvents(t *testing.T) {
	for _, line := range []string{
		`expect event "has pid=1000 epoch=0" actor=p`,
		`expect event kind=epoch actor=broker-1 count=1`,
	} {
		w, c, fail, _ := playSim(t, "topic t\nproducer p\np send t-0 a\nrun\n"+line+"\n")
		if fail != nil {
			t.Fatalf("%s: the simulation fails its own line: %s", line, fail.Got)
		}
		row := Row{}
		wireRun(0, 0, 1).judgeEvent(&row, c.Expect.(script.EventCheck), fail, w)
		if text := row.Why + row.Sim + row.Kafka; row.Verdict != Agree || !strings.Contains(text, "pid=1000 epoch=0") {
			t.Errorf("%s: %v (%s), want agrees with the answer pid=1000 epoch=0", line, row.Verdict, text)
		}
	}
}

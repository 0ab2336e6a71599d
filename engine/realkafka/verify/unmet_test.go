package verify

import (
	"os"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/realkafka/wire"
	"github.com/eoslab/eoslab/engine/script"
)

// playUnder runs a scenario on the simulation under transaction.version
// tv and returns its world, the last command (an expect line), its
// failure and the commands.
func playUnder(t *testing.T, tv int, scn string) (*engine.World, script.Command, *script.Failure, []script.Command) {
	t.Helper()
	cmds, err := script.Parse("t.scn", []byte(scn))
	if err != nil {
		t.Fatal(err)
	}
	r := script.NewRunner()
	r.PinTransactionVersion(tv)
	var fail *script.Failure
	for _, c := range cmds {
		if _, fail, err = r.Exec(c); err != nil {
			t.Fatal(err)
		}
	}
	return r.World, cmds[len(cmds)-1], fail, cmds
}

// A state line neither side meets, written for the other protocol, is
// judged by the value each side has on the line's subject: the same value
// agrees and the row shows it, another differs. s27 line 62 is
// transaction.version 1's (the timeout's fence answers the late EndTxn
// PRODUCER_FENCED); under 2 the simulation's producer has
// INVALID_TXN_STATE. Before, the row was not played ("neither the
// simulation (INVALID_TXN_STATE) nor Kafka (...) meets the line").
func TestJudgeNeitherByValues(t *testing.T) {
	src, err := os.ReadFile("../../testdata/scenarios/s27-timeout-driven-abort.scn")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	if len(lines) < 62 || lines[61] != "expect producer a error PRODUCER_FENCED" {
		t.Fatalf("s27 line 62 is %q; the test needs the producer error line", lines[61])
	}
	w, c, fail, cmds := playUnder(t, 2, strings.Join(lines[:62], "\n")+"\n")
	if fail == nil {
		t.Fatal("the simulation under transaction.version 2 meets the line; the test needs one it does not")
	}
	for _, tc := range []struct {
		name     string
		err      error
		want     Verdict
		contains string
	}{
		{"same value", kerr.InvalidTxnState, Agree, "which is transaction.version 1's (the simulation meets it there): both have producer a error INVALID_TXN_STATE"},
		{"another value", kerr.InvalidProducerEpoch, Differ, "INVALID_PRODUCER_EPOCH"},
	} {
		d := txnRun("payment-processor-1", 1000)
		d.cmds, d.simTV = cmds, 2
		d.prods = map[string]*producer{"a": {lastErr: tc.err}}
		row := Row{}
		d.judge(&row, c, fail, w)
		text := row.Neither + row.Why + row.Sim + row.Kafka
		if row.Verdict != tc.want || !strings.Contains(text, tc.contains) {
			t.Errorf("%s: %v (%s), want %v with %q", tc.name, row.Verdict, text, tc.want, tc.contains)
		}
	}
}

// A line neither side meets that the simulation does not meet under the
// other protocol either is no line of either protocol: it stays not
// played, whatever both sides show (a wrong line is not made to agree).
// So is one whose values are not of one fact (the producer has
// acknowledged nothing).
func TestJudgeNeitherWrongLine(t *testing.T) {
	for _, scn := range []string{
		"topic t\nproducer p\np send t-0 a\nrun\nexpect producer p offset 3\n",
		"topic t\nproducer p\np send t-0 a\nrun\nexpect response ProduceResponse to=p error=NOT_LEADER_OR_FOLLOWER\n",
		"topic t\nproducer p\nexpect producer p offset 3\n",
	} {
		w, c, fail, cmds := playUnder(t, 2, scn)
		d := wireRun(0, 0, 1)
		d.cmds, d.simTV = cmds, 2
		d.prods = map[string]*producer{"p": {hasAck: true}}
		row := Row{}
		d.judge(&row, c, fail, w)
		if row.Verdict != NotPlayed || !strings.Contains(row.Why, "neither") {
			t.Errorf("%s: %v (%s%s), want not played, neither meets the line", c.Text, row.Verdict, row.Why, row.Neither)
		}
	}
}

// txnScn is an unpinned scenario written under transaction.version 1:
// its last line, AddPartitionsToTxn from a, is a request the Java producer
// sends under the classic protocol only (KIP-890 part 2 adds partitions
// with the Produce itself).
const txnScn = "topic t\nproducer a transactional.id=tx\na initTransactions\nrun\na beginTransaction\na send t-0 v0\nrun\n" +
	"expect event \"AddPartitionsToTxn tx pid=1000 epoch=0 [t-0]\" kind=send actor=a\n"

// An event line the simulation does not meet under this protocol is
// judged by what its event stands for under the protocol the file was
// written for: the broker run has no such request either -> agrees. Before, the row was not played ("no event to look
// for on the broker").
func TestJudgeUnmetEventByOtherProtocol(t *testing.T) {
	w, c, fail, cmds := playUnder(t, 2, txnScn)
	if fail == nil {
		t.Fatal("the simulation under transaction.version 2 meets the line; the test needs one it does not")
	}
	add := &kmsg.AddPartitionsToTxnRequest{TransactionalID: "x-tx", ProducerID: 5000, ProducerEpoch: 0,
		Topics: []kmsg.AddPartitionsToTxnRequestTopic{{Topic: "x-t", Partitions: []int32{0}}}}
	find := &kmsg.FindCoordinatorRequest{CoordinatorKey: "x-tx", CoordinatorType: 1}
	for _, tc := range []struct {
		name     string
		req      kmsg.Request
		resp     kmsg.Response
		want     Verdict
		contains string
	}{
		{"none on the broker", find, &kmsg.FindCoordinatorResponse{}, Agree, "neither: the line is met under transaction.version 1, where its event stands for AddPartitionsToTxn from a pid=1000 epoch=0 on the broker; under this protocol neither side has it (the simulation 0 such"},
		// The broker run sent one: its conversation is not the
		// simulation's, which the guard of a met line says too.
		{"one on the broker", add, &kmsg.AddPartitionsToTxnResponse{}, NotPlayed, "the wire conversations differ"},
	} {
		d := txnRun("tx", 1000, initAnswered(), wire.Exchange{Req: tc.req, Resp: tc.resp}, producedTxn())
		d.cmds, d.simTV = cmds, 2
		row := Row{Line: c.Line}
		d.judgeEvent(&row, c.Expect.(script.EventCheck), fail, w)
		text := row.Neither + row.Why + row.Sim + row.Kafka
		if row.Verdict != tc.want || !strings.Contains(text, tc.contains) {
			t.Errorf("%s: %v (%s), want %v with %q", tc.name, row.Verdict, text, tc.want, tc.contains)
		}
	}
}

// A file that pins its protocol is not judged by the other one: its
// unmet line stays not played.
func TestJudgeUnmetEventPinned(t *testing.T) {
	scn := "config transaction.version=2\n" + txnScn
	w, c, fail, cmds := playUnder(t, 2, scn)
	d := txnRun("tx", 1000)
	d.cmds, d.simTV = cmds, 2
	row := Row{Line: c.Line}
	d.judgeEvent(&row, c.Expect.(script.EventCheck), fail, w)
	if row.Verdict != NotPlayed || !strings.Contains(row.Why, "no event to look for on the broker") {
		t.Errorf("%v (%s), want not played", row.Verdict, row.Why)
	}
}

// An answer's claim counts the simulation's answers by the test it counts
// the broker's by: the simulation's one Produce answer NONE for t-0 at
// base offset 0 is one, an answer at another offset none.
func TestSimAnswerCount(t *testing.T) {
	w, _, _, _ := playUnder(t, 2, "topic t\nproducer p\np send t-0 a\nrun\nexpect partition t-0 leo 1\n")
	d := wireRun(0, 0, 1)
	for _, tc := range []struct {
		off  int64
		want int
	}{{0, 1}, {3, 0}} {
		a := &answerSpec{"p", kmsg.Produce, true, func(x *obsAnswer) bool {
			return x.tp == d.name("t") && x.part == 0 && x.code == 0 && x.baseOffset == tc.off
		}}
		if n, known := d.simAnswerCount(w, a, false); !known || n != tc.want {
			t.Errorf("baseOffset %d: %d answers (known %v), want %d", tc.off, n, known, tc.want)
		}
	}
}

// producedTxn is a's transactional Produce of v0 to t-0, answered NONE at
// offset 0.
func producedTxn() wire.Exchange {
	req := kmsg.NewPtrProduceRequest()
	rp := kmsg.NewProduceRequestTopicPartition()
	rp.Records = buildBatch(engine.InjectBatch{ProducerID: 5000, Seq: 0, Transactional: true, Values: []string{"v0"}})
	req.Topics = []kmsg.ProduceRequestTopic{{Topic: "x-t", Partitions: []kmsg.ProduceRequestTopicPartition{rp}}}
	resp := kmsg.NewPtrProduceResponse()
	ap := kmsg.NewProduceResponseTopicPartition()
	resp.Topics = []kmsg.ProduceResponseTopic{{Topic: "x-t", Partitions: []kmsg.ProduceResponseTopicPartition{ap}}}
	return wire.Exchange{Req: req, Resp: resp}
}

// An absence whose text is a request's name ("AddPartitionsToTxn") is
// judged on the broker run: no such request from the file's clients
// agrees, one differs; so is an absence of a request of a client's (msg=
// actor=). Before, both were simulation-only ("the line names no event
// whose broker counterpart could be looked for").
func TestJudgeAbsenceOfARequest(t *testing.T) {
	add := &kmsg.AddPartitionsToTxnRequest{TransactionalID: "x-tx", ProducerID: 5000, ProducerEpoch: 0,
		Topics: []kmsg.AddPartitionsToTxnRequestTopic{{Topic: "x-t", Partitions: []int32{0}}}}
	// Under transaction.version 2 the leader's verification of the
	// Produce is an AddPartitionsToTxn between brokers: the commit's line
	// has none.
	for _, line := range []string{`expect no event "AddPartitionsToTxn" in=last`, `expect no event msg=AddPartitionsToTxn actor=a`, `expect no event "AddPartitionsToTxn" kind=send actor=a`} {
		w, c, fail, _ := playUnder(t, 2, strings.Replace(txnScn, "expect event \"AddPartitionsToTxn tx pid=1000 epoch=0 [t-0]\" kind=send actor=a", "a commitTransaction\nrun\n"+line, 1))
		if fail != nil {
			t.Fatalf("%s: the simulation fails its own line: %s", line, fail.Got)
		}
		for _, tc := range []struct {
			name string
			xs   []wire.Exchange
			want Verdict
		}{
			{"none on the broker", []wire.Exchange{initAnswered(), producedTxn()}, Agree},
			{"one on the broker", []wire.Exchange{initAnswered(), {Req: add, Resp: &kmsg.AddPartitionsToTxnResponse{}}, producedTxn()}, Differ},
		} {
			d := txnRun("tx", 1000, tc.xs...)
			row := Row{Line: c.Line}
			d.judgeEvent(&row, c.Expect.(script.EventCheck), fail, w)
			if row.Verdict != tc.want {
				t.Errorf("%s: %s: %v (%s%s%s), want %v", line, tc.name, row.Verdict, row.Why, row.Sim, row.Kafka, tc.want)
			}
		}
	}
}

// A line of the other protocol's words whose broker fact the simulation
// has here too (tv1's "sends m7 a -> broker-3 Produce t-0", tv2's Produce
// is m5, v12) is judged by that fact: Kafka has the Produce too -> agrees,
// naming the words. Before, not played.
func TestJudgeUnmetWordsSameFact(t *testing.T) {
	scn := strings.Replace(txnScn, "expect event \"AddPartitionsToTxn tx pid=1000 epoch=0 [t-0]\" kind=send actor=a", "expect event \"sends m7 a -> broker-3 Produce t-0\"", 1)
	w, c, fail, cmds := playUnder(t, 2, scn)
	if fail == nil {
		t.Fatal("the simulation under transaction.version 2 meets the line; the test needs one it does not")
	}
	d := txnRun("tx", 1000, initAnswered(), producedTxn())
	d.cmds, d.simTV = cmds, 2
	row := Row{Line: c.Line}
	d.judgeEvent(&row, c.Expect.(script.EventCheck), fail, w)
	if row.Verdict != Agree || !strings.Contains(row.Neither, "the line's words are transaction.version 1's") || !strings.Contains(row.Neither, "Produce from a for t-0 pid=1000 epoch=0 seq=0") {
		t.Errorf("%v (%s%s%s%s), want agrees on the Produce", row.Verdict, row.Neither, row.Why, row.Sim, row.Kafka)
	}
}

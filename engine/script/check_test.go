package script

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine"
)

// TestExpectationStringRoundTrip: every expect line of the scenario files
// and the doc parses into a typed expectation whose
// String parses back into the same value, and is a fixed point.
func TestExpectationStringRoundTrip(t *testing.T) {
	var srcs []string
	paths, _ := filepath.Glob(filepath.Join(scenarioDir, "*.scn"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, string(b))
	}
	blocks, _ := docBlocks(t)
	var page []string
	for _, b := range blocks {
		switch {
		case b.lang == "scenario" && b.name == "":
			page = append(page, b.lines...)
		case b.lang == "scenario":
			srcs = append(srcs, strings.Join(b.lines, "\n"))
		}
	}
	srcs = append(srcs, strings.Join(page, "\n"))
	n := 0
	for _, src := range srcs {
		cmds, err := Parse("x.scn", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		d := NewDecls()
		for _, c := range cmds {
			if c.Expect == nil {
				if _, err := ParseLine("x.scn", c.Line, c.Text, d); err != nil {
					t.Fatal(err)
				}
				continue
			}
			n++
			if c.Expect == nil {
				t.Fatalf("%s: no typed expectation", c.Text)
			}
			text := c.Expect.String()
			again, err := ParseLine("x.scn", 1, text, d)
			if err != nil {
				t.Errorf("%s: its String %q does not parse: %v", c.Text, text, err)
				continue
			}
			if !reflect.DeepEqual(again.Expect, c.Expect) {
				t.Errorf("%s: String %q parses to %#v, not %#v", c.Text, text, again.Expect, c.Expect)
			}
			if s := again.Expect.String(); s != text {
				t.Errorf("%s: String is not canonical: %q then %q", c.Text, text, s)
			}
		}
	}
	if n < 500 {
		t.Fatalf("only %d expect lines found", n)
	}
}

// TestExpectationCanonicalForm: options come back in the usage's order,
// errors without their code, and a value that needs quotes quoted.
func TestExpectationCanonicalForm(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"expect partition t-0 batch 0 values=a,b status=open pid=1000", "expect partition t-0 batch 0 pid=1000 status=open values=a,b"},
		{"expect producer A error PRODUCER_FENCED(90)", "expect producer A error PRODUCER_FENCED"},
		{"expect producer A error NONE", "expect producer A error none"},
		{"expect event t=3.. in=last \"two words\" count=2 kind=fence", "expect event \"two words\" kind=fence count=2 in=last t=3.."},
		{"expect response ProduceResponse error=none partition=t-0 to=A", "expect response ProduceResponse to=A partition=t-0 error=NONE"},
		{"expect txnlog tx record last epoch=1 state=Empty", "expect txnlog tx record last state=Empty epoch=1"},
		{"expect event x rule=\"handleInitProducerId\"", "expect event x rule=handleInitProducerId"},
	} {
		cmds, err := Parse("f.scn", []byte(preamble+tc.line))
		if err != nil {
			t.Fatalf("%s: %v", tc.line, err)
		}
		if got := cmds[len(cmds)-1].Expect.String(); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.line, got, tc.want)
		}
	}
}

// checkScenario runs a scenario and returns its runner.
func checkScenario(t *testing.T, src string) *Runner {
	t.Helper()
	cmds, err := Parse("c.scn", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r := NewRunner()
	for _, c := range cmds {
		if _, f, err := r.Exec(c); err != nil || f != nil {
			t.Fatalf("%s: %v %v", c.Text, err, f)
		}
	}
	return r
}

// TestNewChecksFound pins what the new checks report when they do not
// hold, and that they hold when they should; Check (no index) and a
// Runner (indexed) must agree.
func TestNewChecksFound(t *testing.T) {
	const setup = `topic t
producer A transactional.id=tx
A initTransactions
run
A beginTransaction
A send t-0 a
A commitTransaction
run
`
	r := checkScenario(t, setup)
	for _, tc := range []struct{ line, found, err string }{
		{line: "expect response ProduceResponse to=A partition=t-0 error=NONE baseOffset=0"},
		{line: "expect response ProduceResponse baseOffset=3", found: "m10 broker-3 -> A ProduceResponse t-0 NONE(0) baseOffset=0"},
		{line: "expect response FetchResponse", found: "no FetchResponse has been delivered"},
		{line: "expect response ProduceResponse to=A partition=t-0 from=broker-2", found: "no ProduceResponse to=A from=broker-2 partition=t-0 has been delivered"},
		{line: "expect response m3 pid=1000 epoch=0"},
		{line: "expect response m4 error=NONE pid=1000 epoch=0"},
		{line: "expect response m999", found: "m999 has not been sent"},
		{line: "expect response m4 baseOffset=0", err: "m4 is a InitProducerIdResponse, which has no baseOffset"},
		{line: "expect event kind=txnlog count=4"},
		{line: "expect event kind=txnlog count=2", found: "4 matching events, the newest: t=16 coordinator(broker-2): appends tx CompleteCommit pid=1000 epoch=0 to __transaction_state-16 (takes effect once replicated) [TransactionMarkerChannelManager.maybeWriteTxnCompletion: every marker acknowledged]"},
		{line: "expect event kind=fence", found: "no matching event"},
		{line: "expect event kind=fence in=last", found: "no matching event in the last command"},
		{line: "expect event \"zzz\" t=0..3", found: "no event contains it at t=0..3"},
		{line: "expect event kind=marker count=3", found: "1 matching events, the newest: t=15 t-0: appends COMMIT marker pid=1000 epoch=0 coordinatorEpoch=0 at offset 1 [ProducerAppendInfo.appendEndTxnMarker: epoch 0 >= stored 0, coordinatorEpoch 0 >= stored -1; transaction from offset 0 committed]"},
		{line: "expect no event kind=marker", found: "t=15 t-0: appends COMMIT marker pid=1000 epoch=0 coordinatorEpoch=0 at offset 1 [ProducerAppendInfo.appendEndTxnMarker: epoch 0 >= stored 0, coordinatorEpoch 0 >= stored -1; transaction from offset 0 committed]"},
		{line: "expect no event kind=marker t=0..14"},
		{line: "expect event kind=marker t=15..15 actor=t-0 count=1"},
		{line: "expect event msg=EndTxnResponse error=NONE kind=deliver actor=A"},
		{line: "expect no event error=PRODUCER_FENCED"},
		{line: "expect event reason=markers-complete kind=txnlog count=1"},
		{line: "expect event kind=marker tp=t-0 txn=tx pid=1000 epoch=0 reason=marker-accepted count=1"},
		{line: "expect event kind=seqcheck tp=t-0 pid=1000 reason=txn-first-offset count=1"},
		{line: "expect event kind=seqcheck pid=1001", found: "no matching event"},
		{line: "expect event kind=marker epoch=1", found: "no matching event"},
		{line: "expect event kind=send tp=t-0 txn=tx", found: "no matching event"},
		{line: "expect event reason=init-fence", found: "no matching event"},
		{line: "expect event msg=Produce kind=send pid=1000 epoch=0 count=1"},
		{line: "expect event \"appends tx Ongoing\" in=last", found: ""},
		{line: "expect txnlog tx states Empty,Ongoing,PrepareCommit,CompleteCommit"},
		{line: "expect txnlog tx states Empty", found: "Empty,Ongoing,PrepareCommit,CompleteCommit"},
		{line: "expect txnlog tx record 1 state=Ongoing pid=1000 prevPid=-1 epoch=0 partitions=t-0 timeout=60000 coordinatorEpoch=0"},
		{line: "expect txnlog tx record last partitions=t-0", found: "@3 CompleteCommit pid=1000 prevPid=-1 epoch=0 partitions=none timeout=60000 coordinatorEpoch=0"},
		{line: "expect txnlog tx record 7", found: "offset 7 of __transaction_state-16 holds no record of tx (its records are at 0,1,2,3)"},
		{line: "expect txn tx lastProducerEpoch -1"},
		{line: "expect txn tx lastProducerEpoch 0", found: "-1"},
	} {
		cmds, err := Parse("c.scn", []byte(setup+tc.line))
		if err != nil {
			t.Fatalf("%s: %v", tc.line, err)
		}
		c := cmds[len(cmds)-1]
		for _, how := range []string{"indexed", "plain"} {
			var ok bool
			var found string
			var err error
			if how == "plain" {
				ok, found, err = Check(r.World, c)
			} else {
				k := checker{w: r.World, idx: &r.events}
				ok, found, err = k.check(c.Expect)
			}
			switch {
			case tc.err != "":
				if err == nil || err.Error() != tc.err {
					t.Errorf("%s (%s): error %v, want %s", tc.line, how, err, tc.err)
				}
			case err != nil:
				t.Errorf("%s (%s): %v", tc.line, how, err)
			case tc.found == "" && !ok && !strings.Contains(tc.line, "in=last"):
				t.Errorf("%s (%s): does not hold: %s", tc.line, how, found)
			case tc.found != "" && (ok || found != tc.found):
				t.Errorf("%s (%s): holds=%v found %q, want %q", tc.line, how, ok, found, tc.found)
			}
		}
	}
}

// TestInLastIsTheLastCommand: in=last sees what the newest command did, and
// nothing before it; expect lines do not count as commands.
func TestInLastIsTheLastCommand(t *testing.T) {
	r := checkScenario(t, `topic t
producer A enable.idempotence=true
A send t-0 a
run
expect event "acknowledged" in=last
A send t-0 b
expect no event "acknowledged" in=last
expect event "sends" in=last count=1
run
expect event "acknowledged at offset 1" in=last
expect no event "acknowledged at offset 0" in=last
`)
	if len(r.Failures) > 0 {
		t.Fatal(r.Failures)
	}
}

// TestEventIndexFollowsTheWorld: a runner whose world is replaced, by a
// fresh world or a clone, does not answer from the old world's index.
func TestEventIndexFollowsTheWorld(t *testing.T) {
	const src = `topic t
producer A transactional.id=tx
A initTransactions
run
A beginTransaction
A send t-0 a
A commitTransaction
run
expect event kind=marker count=1
`
	r := checkScenario(t, src)
	exec := func(line string) *Failure {
		t.Helper()
		c, err := ParseLine("i.scn", 1, line, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, f, err := r.Exec(*c)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	old := r.World
	r.World = engine.New(engine.DefaultConfig())
	if f := exec("expect no event kind=txnlog"); f != nil {
		t.Errorf("a fresh world: %v", f)
	}
	r.World = old.Clone()
	if f := exec("expect event kind=txnlog count=4"); f != nil {
		t.Errorf("a clone: %v", f)
	}
}

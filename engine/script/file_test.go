package script

import (
	"errors"
	"github.com/eoslab/eoslab/engine"
	"reflect"
	"strings"
	"testing"
)

func parseErr(t *testing.T, src string) string {
	t.Helper()
	_, err := Parse("f.scn", []byte(src))
	if err == nil {
		return ""
	}
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error is %T, want ErrorList", err)
	}
	return err.Error()
}

// TestWholeFile checks what only shows across lines: every error reported in
// line order, no cascade after a broken declaration, declaration order, and
// the cluster's shape being fixed early.
func TestWholeFile(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"all errors, in order, no cascade",
			"topic t partitions=x\nproducer A acks=2\nA send t-5 v\nA poll\nB send t-0 x\n",
			"f.scn:1: topic t: partitions=x: expected a whole number from 1 to 64\n" +
				"f.scn:2: producer A: acks=2: expected 0, 1, all or -1\n" +
				"f.scn:4: A is a producer (line 2) and has no poll call; a producer's calls are initTransactions, beginTransaction, send, sendOffsetsToTransaction, commitTransaction, abortTransaction, flush or close\n" +
				"f.scn:5: B is not declared; declare it before its first use, e.g. \"producer B\""},
		{"use before declaration",
			"topic t\nA send t-0 x\nproducer A\n",
			"f.scn:2: A is not declared; declare it before its first use, e.g. \"producer A\""},
		{"topic used before declaration",
			"producer A\nA send t-0 x\ntopic t\n",
			"f.scn:2: send: t-0: topic t is not declared"},
		{"brokers after a topic",
			"topic t\nbrokers 5\n",
			"f.scn:2: brokers: brokers must come before every topic and client (topic t is declared on line 1)"},
		{"brokers after the start",
			"config latency.ms=2\nrun\nbrokers 5\n",
			"f.scn:3: brokers: brokers must come before every topic and client (the scenario started on line 2)"},
		{"internal partitions after a client",
			"topic t\nconsumer C group.id=g\nconfig offsets.topic.num.partitions=5\n",
			"f.scn:3: config: offsets.topic.num.partitions=5: must be set before every client (consumer C is declared on line 2)"},
		{"setting that may change later",
			"producer A\nrun\nconfig latency.ms=20 transaction.partition.verification.enable=false\n", ""},
		{"a consumer added halfway",
			"topic t\nproducer A\nA send t-0 x\nrun\nconsumer C topics=t\nC poll\n", ""},
		{"rf limited by brokers",
			"brokers 2\ntopic t rf=3\n",
			"f.scn:2: topic t: rf=3: expected a whole number from 1 to 2 (the number of brokers)"},
		{"internal partition counts",
			"config transaction.state.log.num.partitions=2\nproducer A transactional.id=x\nexpect txn x coordinator __transaction_state-2\n",
			"f.scn:3: expect txn coordinator: __transaction_state-2: topic __transaction_state has 2 partitions (__transaction_state-0..__transaction_state-1)"},
		{"group named by sendOffsetsToTransaction",
			"topic t\nproducer A transactional.id=x\nA sendOffsetsToTransaction grp t-0=1\nexpect group grp offset t-0 1\nrebalance grp\n",
			"f.scn:5: rebalance: grp: no consumer or processor joins this group"},
		{"two instances of one transactional id",
			"producer A transactional.id=x\nproducer B transactional.id=x\nexpect txn x epoch 1\n", ""},
		{"crlf, bom, comments and blank lines",
			"\xef\xbb\xbf# lesson\r\n\r\ntopic t\r\n  producer A   # the app\r\nA send t-0 x\r\n", ""},
		{"longest line", "#" + strings.Repeat("x", MaxLineBytes-1) + "\nrun", ""},
		{"line too long", "run\n" + strings.Repeat("x", MaxLineBytes+1),
			"f.scn:2: line is 4097 bytes long; the limit is 4096"},
		{"invalid utf-8", "topic t\nproducer A\nA send t-0 é\xff",
			"f.scn:3:13: invalid UTF-8 (byte 0xff); the file must be UTF-8 text"},
		{"control character", "step\x00", "f.scn:1:5: control character U+0000 (NUL) is not allowed"},
		{"carriage return inside a line", "step\r1", "f.scn:1:5: control character U+000D (CR) is not allowed"},
		// A terminal acts on these: ESC and the C1 controls start escape
		// sequences, and U+202E reverses what follows. They are refused
		// anywhere in a line, quotes and comments included.
		{"ESC in a value", "topic t\nproducer A\nA send t-0 a\x1b]0;pwned\x07", "f.scn:3:13: control character U+001B (ESC) is not allowed"},
		{"C1 control", "topic t\u009b2J", "f.scn:1:8: C1 control character U+009B (CSI) is not allowed"},
		{"right-to-left override in a name", "producer A\u202eB", "f.scn:1:11: bidirectional control U+202E (RLO, right-to-left override) is not allowed"},
		{"in quotes", "topic t\nproducer A\nA send t-0 \"x \u2066y\"", "f.scn:3:15: bidirectional control U+2066 (LRI, left-to-right isolate) is not allowed"},
		{"in a comment", "run # \u200f", "f.scn:1:7: bidirectional control U+200F (RLM, right-to-left mark) is not allowed"},
		// A refused line still declares what it declares: one error, no
		// cascade on the lines that use the name.
		{"refused declarations", "topic t\x1b\nproducer A\u202e\nA send t-0 x\n",
			"f.scn:1:8: control character U+001B (ESC) is not allowed\n" +
				"f.scn:2:11: bidirectional control U+202E (RLO, right-to-left override) is not allowed"},
		{"too long declaration", "topic t\nproducer A # " + strings.Repeat("x", 70000) + "\nA send t-0 x\n",
			"f.scn:2: line is 70013 bytes long; the limit is 4096"},
		{"escapes in quotes", "topic t\nproducer A\nA send t-0 \"say \\\"hi\\\" \\\\ bye\"", ""},
		{"empty file", "", ""},
	} {
		if got := parseErr(t, tc.src); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

func TestParseValues(t *testing.T) {
	cmds, err := Parse("f.scn", []byte("\xef\xbb\xbftopic t\r\nproducer A\r\nA send t-0 \"say \\\"hi\\\"\" x # done\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	c := cmds[2]
	if c.Line != 3 || c.File != "f.scn" || c.Text != `A send t-0 "say \"hi\"" x` {
		t.Errorf("got line %d file %q text %q", c.Line, c.File, c.Text)
	}
	want := engine.Send{Client: "A", TP: engine.TP{Topic: "t"}, Values: []string{`say "hi"`, "x"}}
	if !reflect.DeepEqual(c.Action, want) {
		t.Errorf("action %#v, want %#v", c.Action, want)
	}
	if got := c.Action.String(); got != c.Text {
		t.Errorf("canonical text %s, want %s", got, c.Text)
	}
	if cmds, err := Parse("f.scn", []byte("# nothing\n\n")); err != nil || cmds != nil {
		t.Errorf("comment-only file: %v, %v", cmds, err)
	}
}

// TestParseLine covers the sandbox's use: one line at a time, declarations
// kept across lines, and a failed line changing nothing.
func TestParseLine(t *testing.T) {
	d := NewDecls()
	if c, err := ParseLine("", 1, "   # just a comment", d); c != nil || err != nil {
		t.Fatalf("comment: %v, %v", c, err)
	}
	_, err := ParseLine("", 2, "producer A acks=2", d)
	var e *Error
	if !errors.As(err, &e) || e.Error() != "line 2: producer A: acks=2: expected 0, 1, all or -1" {
		t.Fatalf("got %v", err)
	}
	if d.KindOf("A") != NoClient {
		t.Fatal("a failed declaration changed the declarations")
	}
	if _, err := ParseLine("", 3, "producer A\n", d); err != nil {
		t.Fatal(err)
	}
	if d.KindOf("A") != Producer {
		t.Fatal("A was not declared")
	}
	if _, err := ParseLine("", 4, "A send t-0 x", d); err == nil || err.Error() != "line 4: send: t-0: topic t is not declared" {
		t.Fatalf("got %v", err)
	}
	if d.Started() {
		t.Fatal("a failed line started the cluster")
	}
	if c, err := ParseLine("x.scn", 0, "run", nil); err != nil || c.Line != 1 {
		t.Fatalf("line 0 with nil decls: %v, %v", c, err)
	}
}

func TestDecls(t *testing.T) {
	d := NewDecls()
	for i, line := range []string{
		"brokers 5", "config offsets.topic.num.partitions=7", "topic b partitions=3", "topic a",
		"producer P transactional.id=tx2", "consumer C group.id=g", "processor R input=a output=b group.id=h transactional.id=tx1",
	} {
		if _, err := ParseLine("f", i+1, line, d); err != nil {
			t.Fatal(err)
		}
	}
	c := d.Clone()
	if _, err := ParseLine("f", 9, "producer Q", c); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		got  any
		want any
	}{
		{d.Brokers(), 5},
		{d.Clients(), []string{"C", "P", "R"}},
		{c.Clients(), []string{"C", "P", "Q", "R"}},
		{d.Topics(), []string{"a", "b"}},
		{d.Groups(), []string{"g", "h"}},
		{d.TransactionalIDs(), []string{"tx1", "tx2"}},
		{d.Partitions("b"), 3},
		{d.Partitions("__consumer_offsets"), 7},
		{d.Partitions("__transaction_state"), 50},
		{d.Partitions("nope"), 0},
		{d.KindOf("R"), Processor},
		{d.KindOf("R").String(), "processor"},
		{NoClient.String(), "no client"},
	} {
		if !reflect.DeepEqual(tc.got, tc.want) {
			t.Errorf("got %v, want %v", tc.got, tc.want)
		}
	}
}

// TestSelectorsAndOffsets: each selector keeps the filters written after
// it, and TP=OFFSET options become offsets in order, apart from the named
// options among them.
func TestSelectorsAndOffsets(t *testing.T) {
	cmds, err := Parse("f.scn", []byte(preamble+
		"reorder Produce to=broker-1 partition=t-0 m7\n"+
		"delay EndTxn 50 from=A\n"+
		"A sendOffsetsToTransaction g t-0=5 generation=1 t-1=6\n"+
		"drop WriteTxnMarkers partition=__consumer_offsets-3\n"))
	if err != nil {
		t.Fatal(err)
	}
	n := len(cmds)
	for _, tc := range []struct {
		got, want engine.Action
	}{
		{cmds[n-4].Action, engine.Reorder{
			First:  engine.Selector{Kind: engine.MsgProduce, To: "broker-1", Partition: engine.TP{Topic: "t"}, HasPartition: true},
			Second: engine.Selector{ID: 7}}},
		{cmds[n-3].Action, engine.Delay{Msg: engine.Selector{Kind: engine.MsgEndTxn, From: "A"}, Ms: 50}},
		{cmds[n-2].Action, engine.SendOffsets{Client: "A", Group: "g", Generation: 1,
			Offsets: []engine.TPOffset{{TP: engine.TP{Topic: "t"}, Offset: 5}, {TP: engine.TP{Topic: "t", Partition: 1}, Offset: 6}}}},
		{cmds[n-1].Action, engine.Drop{Msg: engine.Selector{Kind: engine.MsgWriteTxnMarkers,
			Partition: engine.TP{Topic: "__consumer_offsets", Partition: 3}, HasPartition: true}}},
	} {
		if !reflect.DeepEqual(tc.got, tc.want) {
			t.Errorf("got  %#v\nwant %#v", tc.got, tc.want)
		}
	}
}

func TestKinds(t *testing.T) {
	cmds, err := Parse("f.scn", []byte(preamble+"A send t-0 x\nadvance 5\nrebalance app\ninject marker t-0 pid=1 epoch=0 result=abort\nexpect violations none\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cmds[len(cmds)-6:] {
		got = append(got, c.Kind().String())
	}
	if want := []string{"setup", "call", "step", "fault", "inject", "expect"}; !reflect.DeepEqual(got, want) {
		t.Errorf("kinds %v, want %v", got, want)
	}
	if (Command{}).Kind() != Unknown || CommandKind(99).String() != "unknown" {
		t.Error("a command without a form, or an out-of-range kind, is not unknown")
	}
}

func TestErrorText(t *testing.T) {
	l := ErrorList{Errors: []*Error{{File: "a.scn", Line: 7, Msg: "x"}, {File: "a.scn", Line: 2, Col: 3, Msg: "y"}, {Line: 4, Msg: "z"}}}
	l.sortErrors()
	if got, want := l.Error(), "a.scn:2:3: y\nline 4: z\na.scn:7: x"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestSuggestions(t *testing.T) {
	cands := []string{"commitTransaction", "commitSync", "step", "send", "sendOffsetsToTransaction"}
	for _, tc := range []struct{ word, want string }{
		{"comit", ""},
		{"commit", "commitTransaction"},
		{"commitTransacton", "commitTransaction"},
		{"stpe", "step"},
		{"STEP", "step"},
		{"sendOffsets", "sendOffsetsToTransaction"},
		{"xy", ""},
		{"12", ""},
		{strings.Repeat("z", 4000), ""},
	} {
		if got := closest(tc.word, cands); got != tc.want {
			t.Errorf("closest(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
}

// TestDeterministic: the same input gives the same commands and errors.
func TestDeterministic(t *testing.T) {
	src := []byte(preamble + "A send t-0 a b\nA sned t-0\nexpect txn tx state Ongoing\nrebalance zz\n")
	c1, e1 := Parse("f.scn", append(src, "run\n"...))
	c2, e2 := Parse("f.scn", append(src, "run\n"...))
	if !reflect.DeepEqual(c1, c2) || e1.Error() != e2.Error() {
		t.Fatal("two parses differ")
	}
}

// TestTables checks the tables themselves: each form is reachable and its
// usage names its verb, so a new row cannot silently shadow another.
func TestTables(t *testing.T) {
	seen := map[string]bool{}
	for verb, forms := range verbForms {
		for _, f := range forms {
			if !strings.HasPrefix(f.usage, verb+" ") && f.usage != verb {
				t.Errorf("%s: usage %q does not start with the verb", verb, f.usage)
			}
			key := verb
			for _, a := range f.args {
				key += " " + a.lit
			}
			if seen[key] {
				t.Errorf("two forms with literals %q", key)
			}
			seen[key] = true
			for _, o := range f.opts {
				if o.check == nil || o.ph == "" {
					t.Errorf("%s: option %s lacks a check or placeholder", f.usage, o.key)
				}
			}
			for _, a := range f.args {
				if a.lit == "" && a.check == nil {
					t.Errorf("%s: argument %s has no check", f.usage, a.name)
				}
			}
			if f.need == "" && f.maxArgs() != 0 {
				t.Errorf("%s: no need phrase", f.usage)
			}
		}
	}
	for name, f := range callForms {
		if !strings.HasPrefix(f.usage, "NAME "+name) || len(f.on) == 0 {
			t.Errorf("call %s: bad usage %q or no client kinds", name, f.usage)
		}
	}
}

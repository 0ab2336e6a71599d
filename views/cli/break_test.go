package cli

import (
	"strings"
	"testing"
)

// break finds the lost ACK: with idempotence off and the network allowed
// only to lose messages, the shortest schedule sends p1, delivers it,
// drops its answer and lets the retry land. The file it prints replays to
// the violation, and the same search prints the same file byte for byte.
func TestBreakFindsTheLostAckAndItReplays(t *testing.T) {
	args := []string{"break", "duplicate-record", "--off", "enable.idempotence", "--without", "duplicate", "--without", "delay"}
	code, out, errs := runCLI(t, args...)
	if code != 0 || !onlyProgress(errs) || !strings.HasPrefix(errs, "eoslab break: no schedule of 1 action(s) breaks duplicate-record (") {
		t.Fatalf("code %d err %q\n%s", code, errs, out)
	}
	for _, want := range []string{"producer P enable.idempotence=false\n", "P send t-0 p1\n", "deliver m1\n", "drop m2\n",
		"deliver m3\n", "expect violation duplicate-record\n", "[UnifiedLog.analyzeAndValidateProducerState", "# The schedule:\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("the schedule has no %q:\n%s", want, out)
		}
	}
	if _, again, _ := runCLI(t, args...); again != out {
		t.Fatalf("a second search printed another file:\n%s\n---\n%s", out, again)
	}
	f := writeFile(t, "broken.scn", out)
	code, tr, errs := runCLI(t, "run", f)
	if code != 0 || !strings.Contains(tr, "VIOLATION duplicate-record") {
		t.Fatalf("run of the schedule: code %d err %q\n%s", code, errs, tr)
	}
}

// onlyProgress reports whether every line of errs is a progress line.
func onlyProgress(errs string) bool {
	for _, l := range strings.SplitAfter(errs, "\n") {
		if l != "" && !strings.HasPrefix(l, "eoslab break: no schedule of ") {
			return false
		}
	}
	return true
}

// With idempotence on, no schedule of three actions duplicates a record:
// break says so, with the states it explored, and exits 1; a table too
// small stops the search with a message saying so.
func TestBreakSaysWhenNoneIsFound(t *testing.T) {
	code, out, errs := runCLI(t, "break", "duplicate-record", "--depth", "3")
	if code != 1 || !strings.HasPrefix(out, "no schedule of at most 3 actions breaks duplicate-record: ") ||
		!strings.Contains(out, "distinct states explored") || !strings.Contains(errs, "no schedule found") {
		t.Fatalf("code %d out %q err %q", code, out, errs)
	}
	code, out, _ = runCLI(t, "break", "duplicate-record", "--max-states", "20")
	if code != 1 || !strings.HasPrefix(out, "stopped: 20 distinct states is the most --max-states keeps") {
		t.Fatalf("code %d out %q", code, out)
	}
}

// A scenario file is the start: the search goes on from where it ends.
func TestBreakFromAFile(t *testing.T) {
	f := writeFile(t, "start.scn", "topic t\nproducer P enable.idempotence=false\nP send t-0 a\ndeliver m1\n")
	code, out, errs := runCLI(t, "break", "duplicate-record", "--without", "duplicate", "--without", "delay", f)
	if code != 0 || !strings.Contains(out, "P send t-0 a\ndeliver m1\n# The schedule:\ndrop m2\n") {
		t.Fatalf("code %d err %q\n%s", code, errs, out)
	}
}

func TestBreakRefusesBadInput(t *testing.T) {
	f := writeFile(t, "start.scn", "topic t\nproducer P\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"break"}, "needs a GUARANTEE: one of duplicate-sequence, duplicate-record"},
		{[]string{"break", "exactly-once"}, `no guarantee "exactly-once"; guarantees: duplicate-sequence`},
		{[]string{"break", "duplicate-record", "--off", "acks"}, `no safeguard "acks"; safeguards: enable.idempotence`},
		{[]string{"break", "duplicate-record", "--off", "isolation.level", f}, "isolation.level cannot be switched here: no consumer"},
		{[]string{"break", "duplicate-record", "--depth", "0"}, "--depth takes 1 to 40, not 0"},
		{[]string{"break", "duplicate-record", "--max-states", "-1"}, "--max-states takes a positive number"},
		{[]string{"break", "duplicate-record", "--without", "fire"}, `--without takes drop, duplicate, delay, crash, pause, not "fire"`},
		{[]string{"break", "duplicate-record", "--preset", "nope"}, `no sandbox preset "nope"`},
		{[]string{"break", "duplicate-record", "--preset", "zombie", f}, "a scenario file or --preset, not both"},
		{[]string{"break", "duplicate-record", f, "extra"}, "at most one scenario file"},
	} {
		code, out, errs := runCLI(t, c.args...)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: code %d out %q err %q, want %q", c.args, code, out, errs, c.want)
		}
	}
}

const lostAckScenario = `topic t
producer P
P send t-0 p1
deliver m1
deliver m2
deliver m3
drop m4
advance 30000
step
deliver m5
`

// compare flips idempotence: the deliveries of InitProducerId have no
// counterpart, the Produce of p1 is delivered in both (m3 in A, m1 in B)
// and decided otherwise, and B ends with p1 twice.
func TestCompareFlipsIdempotence(t *testing.T) {
	f := writeFile(t, "lost-ack.scn", lostAckScenario)
	code, out, errs := runCLI(t, "compare", f, "--flip", "enable.idempotence")
	if code != 0 || errs != "" {
		t.Fatalf("code %d err %q\n%s", code, errs, out)
	}
	want := []string{
		"A: as written (enable.idempotence=true)\nB: enable.idempotence=false\n",
		"first divergence at step 2: deliver m1\n  acts on P's InitProducerId, which B does not have then: no counterpart, left out of B\n",
		"first decision that differs, at step 4: A deliver m3, B deliver m1\n  both act on P's Produce of p1 to t-0\n",
		"  A decided: t=3 t-0: accepts pid=1000 epoch=0 seq=0 at offsets 0 [ProducerAppendInfo.checkSequence",
		"  B decided: t=1 t-0: appends values=p1 at offsets 0 (no producer id, no sequence check) [UnifiedLog.analyzeAndValidateProducerState",
		"steps of A with no counterpart in B: deliver m1, deliver m2\n",
		"outcome A:\n  t-0 (HW 1, LSO 1): p1@0\n  every monitor holds\n",
		"outcome B:\n  t-0 (HW 2, LSO 2): p1@0 p1@1\n  broken: duplicate-record (1): a record sent once was written twice\n",
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("compare does not say %q:\n%s", w, out)
		}
	}
	if _, again, _ := runCLI(t, "compare", f, "--flip", "enable.idempotence"); again != out {
		t.Fatalf("a second compare printed otherwise")
	}
}

func TestCompareRefusesBadInput(t *testing.T) {
	f := writeFile(t, "s.scn", lostAckScenario)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", f}, "needs --flip SAFEGUARD"},
		{[]string{"compare", "--flip", "enable.idempotence"}, "needs one scenario file"},
		{[]string{"compare", f, "--flip", "acks"}, `no safeguard "acks"`},
		{[]string{"compare", f, "--flip", "isolation.level"}, "isolation.level cannot be switched in"},
		{[]string{"compare", f + ".missing", "--flip", "enable.idempotence"}, "missing"},
	} {
		code, out, errs := runCLI(t, c.args...)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) {
			t.Errorf("%v: code %d out %q err %q, want %q", c.args, code, out, errs, c.want)
		}
	}
}

// --kafka 4 with a file starts its setup with transaction.version=2; a
// file that sets the version itself refuses the flag. The file's expect
// lines are left out of the schedule, which goes on from its end.
func TestBreakFileUnderKafka4(t *testing.T) {
	f := writeFile(t, "k.scn", "topic t\nproducer P enable.idempotence=false\nP send t-0 a\nexpect partition t-0 leo 0\n")
	code, out, errs := runCLI(t, "break", "duplicate-record", "--kafka", "4", f)
	if code != 0 || !strings.Contains(out, "\nconfig transaction.version=2\ntopic t\n") || strings.Contains(out, "\nexpect partition") ||
		!strings.Contains(out, "# (the file's 1 expect line(s) are left out)\n") {
		t.Fatalf("code %d err %q\n%s", code, errs, out)
	}
	g := writeFile(t, "v.scn", "config transaction.version=1\ntopic t\nproducer P\n")
	if code, _, errs := runCLI(t, "break", "any", "--kafka", "4", g); code != 2 || !strings.Contains(errs, "v.scn:1: the file sets transaction.version itself") {
		t.Fatalf("code %d err %q", code, errs)
	}
}

// GUARANTEE any stops at the first monitor broken (a batch appended twice
// breaks two at once; the file expects the first in the monitors' order).
func TestBreakAny(t *testing.T) {
	code, out, errs := runCLI(t, "break", "any", "--off", "eoslab.broker.dedup")
	if code != 0 || !strings.HasPrefix(out, "# eoslab break any: 5 action(s) break duplicate-sequence;") ||
		!strings.HasSuffix(out, "\nexpect violation duplicate-sequence\n") {
		t.Fatalf("code %d err %q\n%s", code, errs, out)
	}
}

package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
	"github.com/eoslab/eoslab/engine/termsafe"
	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/lessons/progress"
	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/adapt"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/sandbox"
)

// tuiRunner is the real runTUI, restored after a test replaces it.
var tuiRunner = runTUI

func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, &out, &errb)
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, name, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const okScenario = `topic t
producer A
A send t-0 hello
run
expect partition t-0 leo 1
expect producer A offset 0
`

func TestRunExitCodes(t *testing.T) {
	good := writeFile(t, "good.scn", okScenario)
	code, out, _ := runCLI(t, "run", good)
	if code != 0 || !strings.Contains(out, "t-0: accepts pid=1000 epoch=0 seq=0 at offsets 0") {
		t.Fatalf("run good: code %d\n%s", code, out)
	}

	bad := writeFile(t, "fails.scn", okScenario+"expect partition t-0 leo 7\n")
	code, out, errs := runCLI(t, "run", bad)
	if code != 1 || !strings.Contains(out, "fails.scn:7: expect partition t-0 leo 7") || !strings.Contains(out, "found: 1") {
		t.Fatalf("run failing expect: code %d\nout: %s\nerr: %s", code, out, errs)
	}

	broken := writeFile(t, "broken.scn", "topic t\nA send t-0 x\n")
	code, out, errs = runCLI(t, "run", broken)
	if code != 2 || out != "" || !strings.Contains(errs, "broken.scn:2: ") {
		t.Fatalf("run broken: code %d\nout: %q\nerr: %s", code, out, errs)
	}
	if strings.Contains(errs, "goroutine") || strings.Contains(errs, "panic") {
		t.Fatalf("a stack trace reached the user: %s", errs)
	}
}

func TestRunJSON(t *testing.T) {
	good := writeFile(t, "good.scn", okScenario)
	code, out, errs := runCLI(t, "run", "--json", good)
	if code != 0 {
		t.Fatalf("code %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	types := map[string]int{}
	var last map[string]any
	for i, l := range lines {
		var obj map[string]any
		if err := json.Unmarshal([]byte(l), &obj); err != nil {
			t.Fatalf("line %d is not JSON: %v: %s", i+1, err, l)
		}
		types[obj["type"].(string)]++
		last = obj
	}
	if types["event"] == 0 || types["expect"] != 2 || types["state"] != 1 || last["type"] != "state" {
		t.Fatalf("unexpected object types %v, last %v", types, last["type"])
	}
	parts := last["partitions"].([]any)
	p0 := parts[0].(map[string]any)
	if p0["partition"] != "t-0" || p0["logEndOffset"].(float64) != 1 {
		t.Fatalf("state partition: %v", p0)
	}
}

func TestRunIsDeterministic(t *testing.T) {
	f := filepath.Join("..", "..", "engine", "testdata", "scenarios", "story-zombie.scn")
	_, a, _ := runCLI(t, "run", f)
	_, b, _ := runCLI(t, "run", f)
	if a != b || a == "" {
		t.Fatal("two runs of the same scenario differ")
	}
}

func TestCheckAndHelp(t *testing.T) {
	good := writeFile(t, "good.scn", okScenario)
	broken := writeFile(t, "broken.scn", "topic t\nA comitTransaction\n")
	code, out, _ := runCLI(t, "check", good)
	if code != 0 || !strings.Contains(out, "good.scn: ok") {
		t.Fatalf("check good: %d %s", code, out)
	}
	code, _, errs := runCLI(t, "check", good, broken)
	if code != 2 || !strings.Contains(errs, "broken.scn:2: ") {
		t.Fatalf("check broken: %d %s", code, errs)
	}
	lesson := filepath.Join("..", "..", "lessons", "content")
	entries, _ := os.ReadDir(lesson)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".lesson") {
			if code, _, errs := runCLI(t, "check", filepath.Join(lesson, e.Name())); code != 0 {
				t.Fatalf("check %s: %s", e.Name(), errs)
			}
		}
	}
	for _, args := range [][]string{{"--help"}, {"help"}, {"help", "run"}, {"help", "scenario"}, {"help", "json"}, {"help", "rules"}, {"run", "--help"}, {"lessons"}} {
		if code, out, errs := runCLI(t, args...); code != 0 || out == "" {
			t.Fatalf("%v: code %d, err %s", args, code, errs)
		}
	}
	for _, args := range [][]string{{"frobnicate"}, {"help", "frob"}, {"run"}, {"run", "--bogus"}, {"lesson", "no-such-lesson"}, {"run", "missing.scn"}, {"check"}} {
		code, out, errs := runCLI(t, args...)
		if code != 2 || errs == "" || out != "" {
			t.Fatalf("%v: want exit 2 with a message, got %d out=%q err=%q", args, code, out, errs)
		}
	}
}

func TestRunLesson(t *testing.T) {
	code, out, errs := runCLI(t, "run", "--lesson", "zombie")
	if code != 0 || !strings.Contains(out, "PRODUCER_FENCED(90)") {
		t.Fatalf("run --lesson zombie: %d %s", code, errs)
	}
}

// noRawControls fails if CLI output holds a character a terminal acts on.
func noRawControls(t *testing.T, what, out string) {
	t.Helper()
	if e := termsafe.Escape(out); e != out {
		i := 0
		for i < len(out) && out[i] == e[i] {
			i++
		}
		t.Fatalf("%s: output holds a raw control near %q", what, out[max(0, i-30):min(len(out), i+30)])
	}
}

// The limits of issue 7, from the command line: a device that never ends,
// a file over the limit, a binary file. Each stops at once with exit 2 and
// a short message.
func TestInputLimits(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err == nil {
		code, out, errs := runCLI(t, "run", "/dev/zero")
		if code != 2 || out != "" || errs != "/dev/zero: not a regular file (a character device); eoslab reads files only\n" {
			t.Fatalf("run /dev/zero: %d %q %q", code, out, errs)
		}
	}

	// A sparse file: 17 MB long, nothing on disk, refused before reading.
	big := filepath.Join(t.TempDir(), "big.scn")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(script.MaxFileBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, cmd := range []string{"run", "check"} {
		code, _, errs := runCLI(t, cmd, big)
		if code != 2 || !strings.HasSuffix(errs, "big.scn: the file is larger than 16 MiB (16777216 bytes), the limit for a scenario or lesson file\n") {
			t.Fatalf("%s big.scn: %d %q", cmd, code, errs)
		}
	}

	bin := make([]byte, 1<<20)
	rand.New(rand.NewSource(9)).Read(bin)
	for _, name := range []string{"bin.scn", "bin.lesson"} {
		p := writeFile(t, name, string(bin))
		for _, cmd := range []string{"run", "check"} {
			if cmd == "run" && name == "bin.lesson" {
				continue
			}
			code, out, errs := runCLI(t, cmd, p)
			lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
			if code != 2 || out != "" || len(lines) != script.MaxErrors+1 || !strings.HasSuffix(lines[script.MaxErrors], " more errors") {
				t.Fatalf("%s %s: code %d, %d lines of errors, last %q", cmd, name, code, len(lines), lines[len(lines)-1])
			}
			noRawControls(t, cmd+" "+name, errs)
		}
	}
}

// A scenario and a lesson carrying ESC, a C1 control and U+202E are
// refused with file:line:column, and the messages carry no raw control.
func TestHostileFilesAreRefused(t *testing.T) {
	scn := writeFile(t, "hostile.scn", "topic t\x1b]0;x\x07\nproducer A\u009b\nA send t-0 a\u202eb\n")
	lesson := writeFile(t, "hostile.lesson", strings.Replace(strings.Replace(strings.Replace(lessonOK,
		"title: T", "title: T\x1b]0;pwned\x07", 1), "summary: S", "summary: S\u009b2J", 1), "say: It runs.", "say: It \u202eruns.", 1))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", scn}, scn + ":1:8: control character U+001B (ESC) is not allowed\n" +
			scn + ":2:11: C1 control character U+009B (CSI) is not allowed\n" +
			scn + ":3:13: bidirectional control U+202E (RLO, right-to-left override) is not allowed\n"},
		{[]string{"run", scn}, scn + ":1:8: control character U+001B (ESC) is not allowed\n" +
			scn + ":2:11: C1 control character U+009B (CSI) is not allowed\n" +
			scn + ":3:13: bidirectional control U+202E (RLO, right-to-left override) is not allowed\n"},
		{[]string{"check", lesson}, lesson + ":1:9: control character U+001B (ESC) is not allowed\n" +
			lesson + ":2:11: C1 control character U+009B (CSI) is not allowed\n" +
			lesson + ":11:11: bidirectional control U+202E (RLO, right-to-left override) is not allowed\n"},
	} {
		code, out, errs := runCLI(t, tc.args...)
		if code != 2 || out != "" || errs != tc.want {
			t.Errorf("%v: code %d\nout %q\n got %q\nwant %q", tc.args, code, out, errs, tc.want)
		}
	}
}

const lessonOK = `title: T
summary: S
level: basics
minutes: 5
setup:
  topic t
  producer A
step: one
  say: A sends.
  do: A send t-0 x
  say: It runs.
  do: run
`

// Nothing eoslab prints carries a raw control character: not the list,
// not a lesson played headless, not check, not a transcript, and not a
// file name given on the command line (the one text from outside that no
// parser reads).
func TestOutputHasNoRawControls(t *testing.T) {
	runs := [][]string{{"lessons"}, {"run", filepath.Join("..", "..", "engine", "testdata", "scenarios", "story-zombie.scn")},
		{"run", "--json", filepath.Join("..", "..", "engine", "testdata", "scenarios", "story-zombie.scn")},
		{"check", "no-such\x1b]0;pwned\x07.scn", "missing\u202e.lesson"}}
	for _, m := range lessons.All() {
		runs = append(runs, []string{"run", "--lesson", m.Name})
	}
	for _, args := range runs {
		_, out, errs := runCLI(t, args...)
		noRawControls(t, strings.Join(args, " "), out+errs)
	}
	_, _, errs := runCLI(t, "check", "no-such\x1b]0;pwned\x07.scn")
	if !strings.HasPrefix(errs, `no-such\x1b]0;pwned\x07.scn: cannot read`) {
		t.Fatalf("file name not escaped: %q", errs)
	}
}

// The nine-line runaway of issue 7 (a transaction committed while its
// partition has no leader, then the longest advance, repeated) finishes at
// once with a short transcript: the marker waits for a leader.
func TestRunawayAdvance(t *testing.T) {
	src := "topic t rf=1\nproducer a transactional.id=x\na initTransactions\nrun\na beginTransaction\na send t-0 v\nrun\ncrash broker-3\na commitTransaction\n" +
		strings.Repeat("advance 2147483647\n", 3)
	code, out, errs := runCLI(t, "run", writeFile(t, "runaway.scn", src))
	if code != 0 || strings.Count(out, "\n") > 100 {
		t.Fatalf("code %d, %d lines, %s", code, strings.Count(out, "\n"), errs)
	}
}

// The help states the limits the code enforces.
func TestHelpStatesTheLimits(t *testing.T) {
	l := engine.DefaultLimits()
	for _, want := range []string{
		strconv.Itoa(script.MaxFileBytes>>20) + " MiB",
		strconv.Itoa(script.MaxErrors) + " of a file",
		group(l.StepsPerAction) + " steps", group(int64(l.EventsPerAction)) + " events", group(int64(l.Events)) + " events in the whole scenario",
	} {
		if !strings.Contains(strings.ReplaceAll(runCommand().Long+checkCommand().Long, "\n", " "), want) {
			t.Errorf("the help does not say %q", want)
		}
	}
}

// group writes 2000000 as 2,000,000.
func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// fileLesson is a small, sound lesson, written to a file outside the repo.
const fileLesson = `title: A lesson from a file
summary: One record, appended
level: basics
minutes: 5
setup:
  topic t
  producer A

step: A sends
  say: A sends one record.
  do: A send t-0 x
  ask: How many records does t-0 hold after the next step?
  choice: one | expect partition t-0 leo 1
  choice: two | expect partition t-0 leo 2
  explain: One send, one record.

step: The leader appends
  say: The leader appends it.
  do: run
  expect: partition t-0 leo 1
`

// A lesson file opens in the player and plays headless from its path, from
// anywhere: `eoslab lesson PATH.lesson` and `eoslab run PATH.lesson`.
func TestLessonFiles(t *testing.T) {
	file := writeFile(t, "my.lesson", fileLesson)

	code, out, errs := runCLI(t, "run", file)
	if code != 0 || !strings.Contains(out, "# A lesson from a file") || !strings.Contains(out, "== step 2/2: The leader appends") ||
		!strings.Contains(out, "answer: 1) one") {
		t.Fatalf("run %s: code %d\nout: %s\nerr: %s", file, code, out, errs)
	}
	code, out2, _ := runCLI(t, "run", "--lesson", file)
	if code != 0 || out2 != out {
		t.Fatalf("run --lesson FILE: code %d, or a different transcript:\n%s", code, out2)
	}

	var opened tea.Model
	runTUI = func(m tea.Model) error { opened = built(m); return nil }
	defer func() { runTUI = tuiRunner }()
	if code, _, errs := runCLI(t, "lesson", file); code != 0 {
		t.Fatalf("lesson %s: code %d: %s", file, code, errs)
	}
	app, ok := opened.(views.App)
	if !ok || app.Session() == nil || app.Session().Title() != "A lesson from a file" || app.Session().Len() != 2 {
		t.Fatalf("lesson %s opened %T %+v", file, opened, opened)
	}
	// A plain name still opens a built-in lesson.
	opened = nil
	if code, _, errs := runCLI(t, "lesson", "zombie"); code != 0 || opened.(views.App).Session().Title() != "The zombie producer" {
		t.Fatalf("lesson zombie: code %d: %s", code, errs)
	}
}

// A broken lesson file is refused with file:line, by both commands; one
// whose checkpoint the engine does not bear out plays headless with exit 1
// but does not open in the player.
func TestLessonFileErrors(t *testing.T) {
	runTUI = func(tea.Model) error { t.Fatal("the player opened a broken lesson"); return nil }
	defer func() { runTUI = tuiRunner }()

	broken := writeFile(t, "broken.lesson", strings.Replace(fileLesson, "  do: A send t-0 x\n", "  do: A sned t-0 x\n", 1))
	for _, args := range [][]string{{"run", broken}, {"lesson", broken}, {"run", "--lesson", broken}} {
		code, out, errs := runCLI(t, args...)
		if code != 2 || out != "" || !strings.Contains(errs, "broken.lesson:11:") || strings.Count(errs, "\n") > 3 {
			t.Errorf("%v: code %d, out %q, err %q; want exit 2 with one error at broken.lesson:11", args, code, out, errs)
		}
	}
	wrong := writeFile(t, "wrong.lesson", strings.Replace(fileLesson, "expect partition t-0 leo 1\n  choice", "expect partition t-0 leo 3\n  choice", 1))
	code, out, errs := runCLI(t, "run", wrong)
	if code != 1 || !strings.Contains(out, "answer: none of the choices holds") || !strings.Contains(errs, "wrong.lesson:12:") {
		t.Errorf("run wrong.lesson: code %d\nout: %s\nerr: %s", code, out, errs)
	}
	code, _, errs = runCLI(t, "lesson", wrong)
	if code != 2 || !strings.Contains(errs, "wrong.lesson:12:") {
		t.Errorf("lesson wrong.lesson: code %d, err %q", code, errs)
	}
	code, _, errs = runCLI(t, "lesson", filepath.Join(t.TempDir(), "missing.lesson"))
	if code != 2 || !strings.Contains(errs, "missing.lesson: cannot read") {
		t.Errorf("lesson missing.lesson: code %d, err %q", code, errs)
	}
}

// txnScenario commits one transaction; its file says transaction.version=1.
const txnScenario = `config transaction.version=1
topic t
producer a transactional.id=x
a initTransactions
run
a beginTransaction
a send t-0 v
a commitTransaction
run
expect txn x state CompleteCommit
`

// TestRunKafkaFlag: --kafka 3|4 picks the transaction protocol whatever
// the file's config line says, and --json states it.
func TestRunKafkaFlag(t *testing.T) {
	f := writeFile(t, "txn.scn", txnScenario)
	code, out, errs := runCLI(t, "run", "--kafka", "4", f)
	if code != 0 || !strings.Contains(out, "scenario: config transaction.version=2") || !strings.Contains(out, "Produce v12 t-0") ||
		!strings.Contains(out, "EndTxn v5 x commit pid=1000 epoch=0") || strings.Contains(out, "a -> broker-3 AddPartitionsToTxn") {
		t.Fatalf("run --kafka 4: code %d err %s\n%s", code, errs, out)
	}
	code, out, _ = runCLI(t, "run", f)
	if code != 0 || strings.Contains(out, "v12") || !strings.Contains(out, "a -> broker-3 AddPartitionsToTxn x pid=1000 epoch=0 [t-0]") {
		t.Fatalf("run without --kafka: code %d\n%s", code, out)
	}
	tv2 := writeFile(t, "tv2.scn", strings.Replace(txnScenario, "version=1", "version=2", 1))
	code, out, _ = runCLI(t, "run", "--kafka=3", tv2)
	if code != 0 || strings.Contains(out, "v12") || !strings.Contains(out, "scenario: config transaction.version=1") {
		t.Fatalf("run --kafka=3 on a TV2 file: code %d\n%s", code, out)
	}
	for k, want := range map[string]float64{"3": 1, "4": 2} {
		code, out, _ = runCLI(t, "run", "--json", "--kafka", k, tv2)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		var state map[string]any
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &state); err != nil || code != 0 {
			t.Fatalf("--json --kafka %s: code %d, %v", k, code, err)
		}
		p := state["producers"].([]any)[0].(map[string]any)
		if state["transactionVersion"] != want || p["transactionVersion"] != want {
			t.Errorf("--json --kafka %s: transactionVersion %v, producer's %v, want %v", k, state["transactionVersion"], p["transactionVersion"], want)
		}
	}
	for _, args := range [][]string{{"run", "--kafka", "5", f}, {"run", "--kafka"}, {"run", "--kafka=2", f}, {"check", "--kafka", "4", f},
		{"run", "--kafka", "four", "--lesson", "zombie"}, {"lesson", "zombie", "--kafka", "3.9"}, {"lessons", "--kafka", "4"},
		{"run", "--json", "--kafka", "4", "--lesson", "zombie"}} {
		code, out, errs := runCLI(t, args...)
		if code != 2 || errs == "" || out != "" {
			t.Errorf("%v: want exit 2 with a message, got %d out=%q err=%q", args, code, out, errs)
		}
	}
	if code, out, _ := runCLI(t, "help", "run"); code != 0 || !strings.Contains(out, "--kafka 4   transaction.version=2") {
		t.Errorf("help run does not explain --kafka:\n%s", out)
	}
}

// TestLessonKafkaFlag: --kafka picks the version a lesson plays under, in
// the transcript (which says so) and in the player (which starts there).
func TestLessonKafkaFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--lesson", "abort"}, "kafka: 3.x, transaction.version=1\n"},
		{[]string{"run", "--kafka", "3", "--lesson", "abort"}, "kafka: 3.x, transaction.version=1\n"},
		{[]string{"run", "--kafka", "4", "--lesson", "abort"}, "kafka: 4.x, transaction.version=2\n"},
		{[]string{"run", "--kafka=4", "../../lessons/content/07-abort.lesson"}, "kafka: 4.x, transaction.version=2\n"},
	} {
		code, out, errs := runCLI(t, c.args...)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("%v: code %d err %q, want %q in:\n%.300s", c.args, code, errs, c.want, out)
		}
		// Under Kafka 4 the abort bumps the epoch: its markers carry 1.
		if k4 := strings.Contains(c.want, "4.x"); k4 != strings.Contains(out, "appends ABORT marker pid=1000 epoch=1") {
			t.Errorf("%v: the ABORT markers do not carry the version's epoch", c.args)
		}
	}

	var opened tea.Model
	runTUI = func(m tea.Model) error { opened = built(m); return nil }
	defer func() { runTUI = tuiRunner }()
	for _, args := range [][]string{{"lesson", "zombie", "--kafka", "4"}, {"lesson", "--kafka=4", "../../lessons/content/10-zombie.lesson"}} {
		opened = nil
		if code, _, errs := runCLI(t, args...); code != 0 || opened == nil {
			t.Fatalf("%v: code %d: %s", args, code, errs)
		}
		if k := opened.(views.App).Session().Frame().Kafka; k != 4 {
			t.Errorf("%v: the player opened under Kafka %d", args, k)
		}
	}
	opened = nil
	if code, _, _ := runCLI(t, "lesson", "zombie"); code != 0 || opened.(views.App).Session().Frame().Kafka != 3 {
		t.Errorf("lesson zombie does not open under Kafka 3")
	}
}

// The server's log escapes what a client sent: a request type or seat
// name with ESC reaches the operator's terminal as \x1b.
func TestServeLogEscapes(t *testing.T) {
	var b strings.Builder
	serveLog(&b).Printf("refused %s seat=%s", "exec\x1b]0;owned\x07", "\u202eseat")
	if got := b.String(); strings.ContainsAny(got, "\x1b\x07\u202e") || !strings.Contains(got, `exec\x1b]0;owned\x07`) {
		t.Fatalf("log line %q", got)
	}
}

// eoslab serve's bad flags and files exit 2 with a message, before
// anything listens; its help names every flag.
func TestServeFlags(t *testing.T) {
	dir := t.TempDir()
	badKey := writeFile(t, "pres.pub", "# the presenter\nssh-ed25519 not-base64\n")
	bigKey := writeFile(t, "big", strings.Repeat("#", 1<<20+1))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--nope"}, "eoslab serve: unknown flag --nope; serve takes --addr"},
		{[]string{"serve", "--max", "0"}, "--max takes a whole number of 1 or more"},
		{[]string{"serve", "--idle", "10ms"}, "--idle takes a duration of 1s or more"},
		{[]string{"serve", "--addr", "nowhere"}, "--addr needs HOST:PORT"},
		{[]string{"serve", "--lesson", "no-such-lesson"}, "no-such-lesson"},
		{[]string{"serve", "--presenter-key", badKey}, "pres.pub:2: expected a public key"},
		{[]string{"serve", "--solo", "--presenter-key", badKey}, "--solo has no presenter"},
		{[]string{"serve", "extra"}, "unexpected argument"},
		{[]string{"serve", "--kafka", "5"}, "--kafka takes 3"},
		{[]string{"serve", "--host-key", writeFile(t, "host", "not a key")}, "not an unencrypted SSH private key"},
		{[]string{"serve", "--host-key", "/dev/zero"}, "cannot read the host key: /dev/zero: not a regular file (a character device)"},
		{[]string{"serve", "--presenter-key", "/dev/zero"}, "cannot read the presenter key: /dev/zero: not a regular file (a character device)"},
		{[]string{"serve", "--host-key", bigKey}, "cannot read the host key: " + bigKey + ": larger than 1 MiB"},
	} {
		code, _, errOut := runCLI(t, c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
	code, out, _ := runCLI(t, "serve", "--help")
	for _, f := range []string{"--addr", "--lesson", "--code", "--presenter-key", "--max", "--idle", "--host-key", "--solo", "--kafka", "127.0.0.1:2222"} {
		if code != 0 || !strings.Contains(out, f) {
			t.Errorf("serve --help: exit %d, no %s", code, f)
		}
	}
	// The host key is made once and then reused.
	p := filepath.Join(dir, "state", "eoslab", "key")
	_, fp1, err := loadHostKey(p)
	if err != nil {
		t.Fatal(err)
	}
	_, fp2, err := loadHostKey(p)
	if err != nil || fp1 != fp2 {
		t.Fatalf("the host key changed on the second start: %s then %s (%v)", fp1, fp2, err)
	}
	// The host key follows the one state directory, EOSLAB_STATE_DIR first.
	t.Setenv(progress.EnvDir, dir)
	if got, _ := progress.HostKeyPath("", os.Getenv); got != filepath.Join(dir, progress.HostKeyFile) {
		t.Errorf("host key path %s", got)
	}
}

// TestMain keeps every test's progress out of the user's state directory.
// With EOSLAB_TEST_AS_MAIN=1 the test binary is eoslab itself, for the
// tests that run it in a pseudo-terminal (the arguments in
// EOSLAB_TEST_ARGS); with EOSLAB_TEST_AS_MAIN=argv it is eoslab with its
// own command line, for the tests that run it the way a shell does, under
// the name eoslab (TestBashCompletion), without a go build of the binary.
func TestMain(m *testing.M) {
	switch os.Getenv("EOSLAB_TEST_AS_MAIN") {
	case "1":
		os.Exit(Main(strings.Fields(os.Getenv("EOSLAB_TEST_ARGS")), os.Stdout, os.Stderr))
	case "argv":
		os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr))
	}
	dir, err := os.MkdirTemp("", "eoslab-state-")
	if err != nil {
		panic(err)
	}
	os.Setenv(progress.EnvDir, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func TestProgressCommand(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(progress.EnvDir, dir)
	code, out, errs := runCLI(t, "progress")
	if code != 0 || errs != "" || !hasFields(out, "lost-ack not started") || !strings.Contains(out, "No drill played yet") {
		t.Fatalf("code %d err %q out:\n%s", code, errs, out)
	}
	st := progress.Open(progress.Options{Dir: dir})
	st.Reached("lost-ack", 10, 10)
	st.Reached("abort", 4, 10)
	st.Answered("abort", 2, 1, true)
	st.Answered("abort", 3, 2, false)
	st.DrillDone(progress.Drill{Seed: 9, Right: 3, Total: 5, Revisit: []string{"transaction timeout"}})
	_, out, _ = runCLI(t, "progress")
	for _, want := range []string{"lost-ack finished", "abort at step 4 of 10, 1 of 2 answers right",
		"Continue with: eoslab lesson abort (at step 4)", "seed 9: 3 of 5 right; revisit: transaction timeout"} {
		if !hasFields(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if code, out, _ := runCLI(t, "progress", "--reset"); code != 0 || !strings.Contains(out, "Progress cleared") {
		t.Fatalf("reset: %d %q", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, progress.FileName)); !os.IsNotExist(err) {
		t.Fatal("reset left the file")
	}
	if code, _, errs := runCLI(t, "progress", "--bogus"); code != 2 || !strings.Contains(errs, "progress takes --reset") {
		t.Fatalf("bad flag: %d %q", code, errs)
	}
	// A corrupt file is reported, moved aside, and the command goes on.
	os.WriteFile(filepath.Join(dir, progress.FileName), []byte("garbage"), 0o600)
	if code, out, _ := runCLI(t, "progress"); code != 0 || !strings.Contains(out, "Progress starts afresh") {
		t.Fatalf("corrupt: %d %q", code, out)
	}
}

func TestDrillCommand(t *testing.T) {
	t.Setenv(progress.EnvDir, t.TempDir())
	var opened tea.Model
	runTUI = func(m tea.Model) error { opened = m; return nil }
	defer func() { runTUI = tuiRunner }()
	code, out, errs := runCLI(t, "drill", "--seed", "12", "--count=3")
	if code != 0 || errs != "" || out != "Drill seed 12: 0 of 3 right. Replay it with: eoslab drill --seed 12 --count 3 --kafka 3\n" {
		t.Fatalf("code %d err %q out %q", code, errs, out)
	}
	app, ok := opened.(views.App)
	if !ok || app.Session() != nil {
		t.Fatal("the drill did not open on the drill screen")
	}
	// esc leaves the drill for the home list eoslab opens on, sandbox and all.
	var m tea.Model = app
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if v := m.View(); !strings.Contains(v, "s sandbox") {
		t.Errorf("the home list after the drill has no sandbox:\n%s", v)
	}
	if code, out, _ := runCLI(t, "drill", "--seed=12", "--count", "2", "--kafka", "4"); code != 0 || !strings.HasSuffix(out, "--kafka 4\n") {
		t.Fatalf("--kafka 4: %d %q", code, out)
	}
	for _, tc := range []struct{ args []string }{
		{[]string{"drill", "--kafka", "5"}},
		{[]string{"drill", "--seed"}}, {[]string{"drill", "--seed", "-1"}}, {[]string{"drill", "--count", "0"}},
		{[]string{"drill", "--count=x"}}, {[]string{"drill", "extra"}}, {[]string{"drill", "--json"}},
	} {
		if code, out, errs := runCLI(t, tc.args...); code != 2 || out != "" || errs == "" {
			t.Errorf("%v: code %d out %q err %q", tc.args, code, out, errs)
		}
	}
	if code, out, _ := runCLI(t, "drill", "--help"); code != 0 || !strings.Contains(out, "--seed") {
		t.Fatalf("help: %d %q", code, out)
	}
}

// eoslab lessons is the learning path: every lesson with its number,
// level and minutes.
func TestLessonsListsThePath(t *testing.T) {
	_, out, _ := runCLI(t, "lessons")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2*len(lessons.All()) || len(lines) < 32 {
		t.Fatalf("%d lines for %d lessons:\n%s", len(lines), len(lessons.All()), out)
	}
	for i, m := range lessons.All() {
		want := fmt.Sprintf("%d. %s %s %d min %s", i+1, m.Name, m.Level, m.Minutes, m.Title)
		if got := strings.Join(strings.Fields(lines[2*i]), " "); got != want {
			t.Errorf("line %d: %q, want %q", 2*i+1, got, want)
		}
		if got := strings.TrimSpace(lines[2*i+1]); got != m.Summary {
			t.Errorf("line %d: %q, want the summary %q", 2*i+2, got, m.Summary)
		}
	}
}

// hasFields reports whether some line of out holds want, spaces aside.
func hasFields(out, want string) bool {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(strings.Join(strings.Fields(l), " "), want) {
			return true
		}
	}
	return false
}

// sandboxKeys are key sequences that end each preset in a state worth
// replaying: faults, a zombie, a crash.
var sandboxKeys = map[string][]string{
	"idempotent": {"1", "s", "n", "x", "R", "s", "n", "u", "R", "]", "p", "R"},
	"zombie":     {"i", "R", "b", "s", "R", "z", "]", "i", "R", "[", "z", "m", "R", "]", "]", "p", "R"},
	"ctp":        {"s", "n", "y", "R", "]", "]", "p", "R", "e", "R"},
	"replicated": {"s", "n", "c", "3", "R", "r", "3", "s", "R"},
}

func stateOf(t *testing.T, m tea.Model) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := json.NewEncoder(&b).Encode(m.(sandbox.Model).Session().(*adapt.Sandbox).World().State()); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestSandboxSaveReplays: w writes the branch as a scenario file in the
// current directory; 'eoslab run --json FILE' ends in the sandbox's state,
// and 'eoslab sandbox FILE' reopens it there. A second save never
// overwrites the first.
func TestSandboxSaveReplays(t *testing.T) {
	t.Chdir(t.TempDir())
	defer func() { runTUI = tuiRunner }()
	for i, p := range adapt.SandboxPresets() {
		var m tea.Model = views.NewSandbox(adapt.SandboxPresets(), withSandbox(views.Options{}).OpenSandbox, nil, withSandbox(views.Options{}))
		m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		press := func(k string) tea.Cmd {
			var cmd tea.Cmd
			msg := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
			m, cmd = m.Update(msg)
			return cmd
		}
		press(string(rune('1' + i)))
		for _, k := range sandboxKeys[p.Name] {
			press(k)
		}
		want := stateOf(t, m)
		if p.Name == "idempotent" && !bytes.Contains(want, []byte("duplicate-record")) {
			t.Fatalf("the keys made no duplicate: %s", want)
		}
		if n := m.(sandbox.Model).Session().Len(); n < len(sandboxKeys[p.Name])-4 {
			t.Fatalf("%s: only %d actions", p.Name, n)
		}
		var saved []string
		for range 2 {
			cmd := press("w")
			if cmd == nil {
				t.Fatalf("%s: w saved nothing", p.Name)
			}
			msg, ok := cmd().(sandbox.SavedMsg)
			if !ok || msg.Err != nil {
				t.Fatalf("%s: save: %+v", p.Name, msg)
			}
			m, _ = m.Update(msg)
			saved = append(saved, msg.Path)
		}
		if saved[0] != "sandbox-"+p.Name+".scn" || saved[1] != "sandbox-"+p.Name+"-2.scn" {
			t.Fatalf("%s: saved as %q", p.Name, saved)
		}
		code, out, errs := runCLI(t, "run", "--json", saved[0])
		if code != 0 {
			t.Fatalf("%s: run: code %d: %s", p.Name, code, errs)
		}
		lines := strings.SplitAfter(strings.TrimSuffix(out, "\n"), "\n")
		if got := lines[len(lines)-1] + "\n"; got != string(want) {
			t.Errorf("%s: the replay's state differs:\n%s\nsandbox:\n%s", p.Name, got, want)
		}
		var reopened tea.Model
		runTUI = func(m tea.Model) error { reopened = m; return nil }
		if code, _, errs := runCLI(t, "sandbox", saved[1]); code != 0 {
			t.Fatalf("%s: sandbox FILE: code %d: %s", p.Name, code, errs)
		}
		if got := stateOf(t, reopened); !bytes.Equal(got, want) {
			t.Errorf("%s: reopened state differs:\n%s\nwant:\n%s", p.Name, got, want)
		}
		runTUI = tuiRunner
	}
}

func TestSandboxCommandInput(t *testing.T) {
	defer func() { runTUI = tuiRunner }()
	runTUI = func(tea.Model) error { return nil }
	bad := writeFile(t, "bad.scn", "topic t\nA send t-0 x\n")
	code, out, errs := runCLI(t, "sandbox", bad)
	if code != 2 || out != "" || !strings.Contains(errs, "bad.scn:2: ") {
		t.Fatalf("bad file: code %d, err %q", code, errs)
	}
	if code, _, errs := runCLI(t, "sandbox", bad, bad); code != 2 || !strings.Contains(errs, "at most one") {
		t.Fatalf("two files: code %d, err %q", code, errs)
	}
	if code, _, errs := runCLI(t, "sandbox", "no-such-file.scn"); code != 2 || errs == "" {
		t.Fatalf("missing file: code %d, err %q", code, errs)
	}
	if code, out, _ := runCLI(t, "help", "sandbox"); code != 0 || !strings.Contains(out, "eoslab sandbox [--kafka 3|4] [FILE]") {
		t.Fatalf("help sandbox: %d %q", code, out)
	}
	if code, _, _ := runCLI(t, "sandbox"); code != 0 {
		t.Fatalf("sandbox: code %d", code)
	}
	if _, err := os.Stat("sandbox-idempotent.scn"); err == nil {
		t.Fatal("opening the sandbox wrote a file")
	}
}

// TestSandboxKafka4: --kafka 4 plays the presets under transaction.version
// 2; the zombie is fenced there too.
func TestSandboxKafka4(t *testing.T) {
	defer func() { runTUI = tuiRunner }()
	var m tea.Model
	runTUI = func(x tea.Model) error { m = x; return nil }
	if code, _, errs := runCLI(t, "sandbox", "--kafka", "4"); code != 0 {
		t.Fatalf("code %d: %s", code, errs)
	}
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	for _, k := range []string{"2", "i", "R", "b", "s", "R", "z", "]", "i", "R", "[", "z", "m", "R"} {
		m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)})
	}
	x := m.(sandbox.Model).Session().(*adapt.Sandbox)
	if v := x.World().Config().TransactionVersion; v != 2 {
		t.Fatalf("transaction.version %d", v)
	}
	for _, mo := range x.Monitors() {
		if !mo.Holds {
			t.Errorf("%s broke under Kafka 4: %q", mo.Name, mo.Cause)
		}
	}
	fenced := false
	for _, p := range x.Frame("", 0).Producers {
		fenced = fenced || p.Name == "A" && (p.Fenced || p.ErrorTone == model.ToneFenced)
	}
	if !fenced {
		t.Errorf("A is not fenced under Kafka 4:\n%s", x.Scenario())
	}
	if code, _, _ := runCLI(t, "sandbox", "--kafka", "4", "x.scn"); code != 2 {
		t.Errorf("--kafka with a file: code %d", code)
	}
}

// TestNoArgumentsOpensTheList: eoslab without arguments builds only the
// root command (newRoot without sub) and opens the lesson list; with
// an argument the whole tree is there.
func TestNoArgumentsOpensTheList(t *testing.T) {
	t.Setenv("EOSLAB_STATE_DIR", t.TempDir())
	var opened tea.Model
	runTUI = func(m tea.Model) error { opened = built(m); return nil }
	defer func() { runTUI = tuiRunner }()
	if code, out, errs := runCLI(t); code != 0 || out != "" || errs != "" {
		t.Fatalf("eoslab: code %d, out %q, err %q", code, out, errs)
	}
	if app, ok := opened.(views.App); !ok || app.Session() != nil {
		t.Fatalf("eoslab opened %T, not the lesson list", opened)
	}
	if code, out, _ := runCLI(t, "--help"); code != 0 || !strings.Contains(out, "sandbox") || !strings.Contains(out, "completion") {
		t.Errorf("eoslab --help: code %d\n%s", code, out)
	}
}

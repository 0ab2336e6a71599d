package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"eoslab/views"
)

// tuiRunner is the real runTUI, restored after a test replaces it.
var tuiRunner = runTUI

func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
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
	f := filepath.Join("engine", "testdata", "scenarios", "story-zombie.scn")
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
	lesson := filepath.Join("lessons", "content")
	entries, _ := os.ReadDir(lesson)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".lesson") {
			if code, _, errs := runCLI(t, "check", filepath.Join(lesson, e.Name())); code != 0 {
				t.Fatalf("check %s: %s", e.Name(), errs)
			}
		}
	}
	for _, args := range [][]string{{"--help"}, {"help"}, {"help", "run"}, {"help", "scenario"}, {"help", "json"}, {"run", "--help"}, {"lessons"}} {
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

// fileLesson is a small, sound lesson, written to a file outside the repo.
const fileLesson = `title: A lesson from a file
summary: One record, appended
level: beginner

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
	runTUI = func(m tea.Model) error { opened = m; return nil }
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

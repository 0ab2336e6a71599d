package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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

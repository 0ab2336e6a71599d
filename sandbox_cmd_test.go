package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"eoslab/views"
	"eoslab/views/adapt"
)

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
	if err := json.NewEncoder(&b).Encode(m.(views.Sandbox).Session().(*adapt.Sandbox).World().State()); err != nil {
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
		if n := m.(views.Sandbox).Session().Len(); n < len(sandboxKeys[p.Name])-4 {
			t.Fatalf("%s: only %d actions", p.Name, n)
		}
		var saved []string
		for range 2 {
			cmd := press("w")
			if cmd == nil {
				t.Fatalf("%s: w saved nothing", p.Name)
			}
			msg, ok := cmd().(views.SandboxSavedMsg)
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
	x := m.(views.Sandbox).Session().(*adapt.Sandbox)
	if v := x.World().Config.TransactionVersion; v != 2 {
		t.Fatalf("transaction.version %d", v)
	}
	for _, mo := range x.Monitors() {
		if !mo.Holds {
			t.Errorf("%s broke under Kafka 4: %q", mo.Name, mo.Cause)
		}
	}
	fenced := false
	for _, p := range x.Frame("", 0).Producers {
		fenced = fenced || p.Name == "A" && (p.Fenced || p.ErrorTone == views.ToneFenced)
	}
	if !fenced {
		t.Errorf("A is not fenced under Kafka 4:\n%s", x.Scenario())
	}
	if code, _, _ := runCLI(t, "sandbox", "--kafka", "4", "x.scn"); code != 2 {
		t.Errorf("--kafka with a file: code %d", code)
	}
}

package cli

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/lessons/progress"
	"github.com/eoslab/eoslab/views/sandbox"
)

// TestSandboxChallenge: --challenge N opens the sandbox on goal N's world
// with the goal shown; a goal that does not exist, or --challenge with a
// file or --kafka, is invalid input (exit 2).
func TestSandboxChallenge(t *testing.T) {
	defer func() { runTUI = tuiRunner }()
	t.Setenv(progress.EnvDir, t.TempDir())
	var m tea.Model
	runTUI = func(x tea.Model) error { m = x; return nil }
	if code, _, errs := runCLI(t, "sandbox", "--challenge", "5"); code != 0 {
		t.Fatalf("code %d: %s", code, errs)
	}
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if v := ansi.Strip(m.View()); !strings.Contains(v, "Goal 5 stall a read_committed consumer") {
		t.Fatalf("no goal on screen:\n%s", v)
	}
	if _, ok := m.(sandbox.Model).Session().Goal(); !ok {
		t.Fatal("the session has no goal")
	}
	for _, args := range [][]string{{"sandbox", "--challenge", "99"}, {"sandbox", "--challenge", "1", "--kafka", "4"},
		{"sandbox", "--challenge", "1", writeFile(t, "a.scn", okScenario)}} {
		if code, _, errs := runCLI(t, args...); code != 2 || errs == "" {
			t.Errorf("%v: code %d, err %q", args, code, errs)
		}
	}
}

package adapt

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/sandbox"
)

// TestSandboxBreakForMe: with idempotence off, X lists the guarantees,
// a digit starts the search as a command while the screen says it is
// searching, and the schedule found opens as a new branch, standing at
// its end with the guarantee broken, its steps narrated with the events
// and rules that decided them; the branch's file replays to the
// violation.
func TestSandboxBreakForMe(t *testing.T) {
	b := newSbox(t, "idempotent", 80, 24)
	b.press("1") // enable.idempotence=false: a new branch
	before := len(b.sb().Branches())
	b.press("X")
	if got := b.model().ScreenName(); got != "sandbox break" {
		t.Fatalf("X: screen %q", got)
	}
	digit := ""
	for i, m := range b.sb().Monitors() {
		if m.Name == engine.InvDuplicateRecord {
			digit = string(rune('1' + i))
		}
	}
	var cmd tea.Cmd
	b.m, cmd = b.m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(digit)})
	if cmd == nil || !b.model().Searching() || !strings.Contains(ansi.Strip(b.m.View()), "searching (at most 6 actions") {
		t.Fatalf("the digit started no search on screen:\n%s", ansi.Strip(b.m.View()))
	}
	msg := cmd()
	if _, ok := msg.(sandbox.BreakDoneMsg); !ok {
		t.Fatalf("the search reported %#v", msg)
	}
	b.m, _ = b.m.Update(msg)
	v := ansi.Strip(b.m.View())
	if got := b.model().ScreenName(); got != "sandbox narration" || !strings.Contains(v, "How \"no record was written twice\" breaks") ||
		!strings.Contains(v, "broken in 3 action(s): on a new branch") || !strings.Contains(v, "UnifiedLog.analyzeAndValidateProducerState") {
		t.Fatalf("no narration (%q):\n%s", got, v)
	}
	x := b.sb()
	if n := len(x.Branches()); n != before+1 || x.Pos() != x.Len() || x.Len() != 3 {
		t.Fatalf("branches %d (was %d), at %d/%d", n, before, x.Pos(), x.Len())
	}
	broken := false
	for _, m := range x.Monitors() {
		broken = broken || m.Name == engine.InvDuplicateRecord && !m.Holds
	}
	if !broken {
		t.Fatal("the new branch does not break the guarantee")
	}
	if _, err := playScenarioText(x.Scenario() + "expect violation " + engine.InvDuplicateRecord + "\n"); err != nil {
		t.Fatalf("the branch's file does not replay to the violation: %v", err)
	}
	b.press("esc")
	if got := b.model().ScreenName(); got != "sandbox" {
		t.Fatalf("esc: %q", got)
	}
}

// With every safeguard on, a shallow search finds nothing and says how
// many states it explored; the state bound stops a search and says so.
func TestSandboxBreakNone(t *testing.T) {
	x, err := OpenSandbox("idempotent")
	if err != nil {
		t.Fatal(err)
	}
	r := x.Break(engine.InvDuplicateRecord, model.BreakBounds{Depth: 2, MaxStates: 100000})()
	if r.Found || !strings.HasPrefix(r.Says, "none of at most 2 actions breaks it (") || r.States == 0 {
		t.Fatalf("%+v", r)
	}
	r = x.Break(engine.InvDuplicateRecord, model.BreakBounds{Depth: 6, MaxStates: 5})()
	if r.Found || !r.Full || !strings.HasPrefix(r.Says, "stopped at ") {
		t.Fatalf("%+v", r)
	}
	if err := x.OpenBreak(r); err == nil {
		t.Fatal("OpenBreak opened a search that found nothing")
	}
}

// playScenarioText plays src as eoslab run would; a failed expect line is
// an error.
func playScenarioText(src string) (*script.Runner, error) {
	cmds, err := script.Parse("saved.scn", []byte(src))
	if err != nil {
		return nil, err
	}
	r := script.NewRunner()
	if err := r.Play(cmds, func(script.Outcome) error { return nil }); err != nil {
		return nil, err
	}
	if len(r.Failures) > 0 {
		return nil, fmt.Errorf("%s:%d: %s", r.Failures[0].File, r.Failures[0].Line, r.Failures[0].Text)
	}
	return r, nil
}

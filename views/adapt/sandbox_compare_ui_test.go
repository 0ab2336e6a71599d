package adapt

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func (b *sbox) screen() string { return ansi.Strip(b.m.View()) }

// lostAckKeys plays the lost ACK on the idempotent preset: P sends, the
// network loses the ProduceResponse, the world runs until quiet.
func lostAckKeys(b *sbox) {
	b.press("s")
	b.selectWaiting("ProduceResponse", produceResponseTo("P"))
	b.press("x", "R")
}

// TestSandboxCompareKeys: C, then enter (the branch this one was made
// from), shows the first decision that differs, marked, with the rule
// that made it, and both logs and states; tab shows the other side at 80
// columns, esc goes back. Before, C did nothing.
func TestSandboxCompareKeys(t *testing.T) {
	b := newSbox(t, "idempotent", 80, 24)
	b.press("C")
	if v := b.screen(); b.model().ScreenName() != "sandbox" || !strings.Contains(v, "one branch only") {
		t.Fatalf("C with one branch: %s\n%s", b.model().ScreenName(), v)
	}
	// The teacher's question: what if idempotence were off when the ACK
	// is lost? Branch 2 has it off and loses the ACK; branch 3 is
	// branch 2 played again with it on.
	b.press("1")
	lostAckKeys(b)
	b.press("1")
	b.press("C")
	if v := b.screen(); b.model().ScreenName() != "sandbox choosing" || !strings.Contains(v, "enter 2 (the one it came from)") {
		t.Fatalf("C asks no question: %s\n%s", b.model().ScreenName(), v)
	}
	b.press("3")
	if v := b.screen(); !strings.Contains(v, "that is this branch") {
		t.Errorf("C then this branch's digit:\n%s", v)
	}
	b.press("z")
	if v := b.screen(); !strings.Contains(v, "press 1-3 for a branch") {
		t.Errorf("C then a key that picks nothing:\n%s", v)
	}
	b.press("enter")
	if got := b.model().ScreenName(); got != "sandbox comparing" {
		t.Fatalf("enter after C: %s\n%s", got, b.screen())
	}
	c, err := b.sb().Compare(1, 2)
	if err != nil || c.Decision == nil {
		t.Fatalf("Compare: %v %+v", err, c)
	}
	v := b.screen()
	for _, want := range []string{"Compare", "tab shows B", "first decision that differs", "A decided:", "B decided:",
		"▶", "the decision differs here", "Log of A"} {
		if !strings.Contains(v, want) {
			t.Errorf("the comparison at 80x24 lacks %q:\n%s", want, v)
		}
	}
	// B loses the ACK too: its ProduceResponse comes two steps later
	// there (InitProducerId first), and the replay steps to it.
	if len(c.Missing) != 0 || !strings.Contains(strings.Join(c.LogB, "; "), "drop m") {
		t.Errorf("B does not lose the ACK: missing %q, log %q", c.Missing, c.LogB)
	}
	if !strings.Contains(c.Decision.DecisionA+c.Decision.DecisionB, "[") {
		t.Errorf("no rule in the decisions: %+v", c.Decision)
	}
	b.press("tab")
	if v := b.screen(); !strings.Contains(v, "Log of B") || strings.Contains(v, "Log of A") || !strings.Contains(v, "tab shows A") {
		t.Errorf("tab does not show B:\n%s", v)
	}
	// The states: scroll down to B's end.
	for range 8 {
		b.press("pgdown")
	}
	if v := b.screen(); !strings.Contains(v, "State of B at its end") || !strings.Contains(v, "every monitor holds") {
		t.Errorf("B's state at its end is not on screen after pgdown:\n%s", v)
	}
	b.press("esc")
	if got := b.model().ScreenName(); got != "sandbox" {
		t.Errorf("esc from the comparison: %s", got)
	}

	// 200x60: side by side, A's every monitor holds beside B's broken one.
	w := newSbox(t, "idempotent", 200, 60)
	w.press("1")
	lostAckKeys(w)
	w.press("1", "C", "enter")
	v = w.screen()
	for _, want := range []string{"Log of A", "Log of B", "State of A at its end", "State of B at its end", "every monitor holds", "broken: duplicate-record"} {
		if !strings.Contains(v, want) {
			t.Errorf("the comparison at 200x60 lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "tab shows") {
		t.Errorf("side by side, the title still offers tab")
	}
}

// TestCompareParentGrewAfterReplay: the branch a switch was flipped from
// goes on after the replay; C compares the steps the replay had, and
// says nothing of the later ones. Before, Compare read past the map
// (index out of range).
func TestCompareParentGrewAfterReplay(t *testing.T) {
	x, err := OpenSandbox("idempotent")
	if err != nil {
		t.Fatal(err)
	}
	x.Exec("P send t-0 a")
	x.Toggle(0)
	x.Switch(0)
	x.Exec("run")
	c, err := x.Compare(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Missing) != 0 {
		t.Errorf("a step made after the replay is reported as missing: %q", c.Missing)
	}
}

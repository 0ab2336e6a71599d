package sandbox_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/views/internal/viewtest"
	"github.com/eoslab/eoslab/views/sandbox"
	"github.com/eoslab/eoslab/views/theme"
)

func burst(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// TestBurstActsPerKey: "sss" typed in one burst (one KeyRunes message
// of three runes, as Bubble Tea v1 reads quick keys) sends three times;
// in the prompt the same burst is text.
func TestBurstActsPerKey(t *testing.T) {
	sess := &session{}
	th := theme.New(theme.Options{NoColor: true})
	var m tea.Model = sandbox.New(nil, nil, sess, sandbox.Options{Theme: th, Help: help.New(), Keys: sandbox.DefaultKeyMap(), Draw: draw})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = m.Update(burst("sss"))
	if len(sess.ops) != 3 {
		t.Fatalf("burst \"sss\" made %d operations, want 3", len(sess.ops))
	}
	m, _ = m.Update(viewtest.Key(":"))
	m, _ = m.Update(burst("sss"))
	if !m.(sandbox.Model).Typing() || len(sess.ops) != 3 || !strings.Contains(ansi.Strip(m.View()), ": sss") {
		t.Fatalf("burst in the prompt: %d operations, view:\n%s", len(sess.ops), ansi.Strip(m.View()))
	}
}

// TestTooSmallActsOnlyOnQ: below 60x20 the keys wait (the screen says
// so); q leaves.
func TestTooSmallActsOnlyOnQ(t *testing.T) {
	sess := &session{}
	th := theme.New(theme.Options{NoColor: true})
	var m tea.Model = sandbox.New(nil, nil, sess, sandbox.Options{Theme: th, Help: help.New(), Keys: sandbox.DefaultKeyMap(), Draw: draw})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 20, Height: 8})
	for _, k := range []string{"[", "[", "s", "s", "R", "enter", "right"} {
		m, _ = m.Update(viewtest.Key(k))
	}
	m, _ = m.Update(burst("ss"))
	if len(sess.ops) != 0 {
		t.Fatalf("keys at 20x8 made %+v", sess.ops)
	}
	m, _ = m.Update(tea.WindowSizeMsg{Width: 100, Height: 12})
	want := "terminal too small for the sandbox: need 60x20 (have 100x12); resize to act; q quits"
	if v := m.View(); !strings.Contains(v, want) {
		t.Fatalf("view does not say %q:\n%s", want, v)
	}
	if _, cmd := m.Update(viewtest.Key("q")); cmd == nil || cmd() != tea.Quit() {
		t.Fatal("q at 100x12 does not leave")
	}
}

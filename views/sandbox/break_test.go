package sandbox_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/views/internal/viewtest"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/sandbox"
	"github.com/eoslab/eoslab/views/theme"
)

// breakSession searches and finds nothing.
type breakSession struct {
	session
	asked []model.BreakBounds
}

func (s *breakSession) Monitors() []model.Monitor {
	return []model.Monitor{{Name: "a", Sentence: "a holds", Holds: true}, {Name: "b", Sentence: "b is broken", Holds: false}}
}

func (s *breakSession) Break(monitor string, o model.BreakBounds) func() model.BreakResult {
	s.asked = append(s.asked, o)
	return func() model.BreakResult {
		return model.BreakResult{Monitor: monitor, Sentence: "a holds", States: 42, Says: "no schedule of at most 3 actions breaks it (42 distinct states explored)"}
	}
}

func (s *breakSession) OpenBreak(model.BreakResult) error { panic("nothing was found") }

// X offers only the guarantees that hold; the search runs as a command
// with the bounds given, and finding nothing says so with the states
// explored, staying on the branch it was on. A session that cannot
// search says so.
func TestBreakFindsNothing(t *testing.T) {
	sess := &breakSession{}
	th := theme.New(theme.Options{NoColor: true})
	var m tea.Model = sandbox.New(nil, nil, sess, sandbox.Options{Theme: th, Help: help.New(), Keys: sandbox.DefaultKeyMap(), Draw: draw,
		BreakBounds: model.BreakBounds{Depth: 3, MaxStates: 10}})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = m.Update(viewtest.Key("X"))
	if m.(sandbox.Model).ScreenName() != "sandbox break" {
		t.Fatalf("X: %q", m.(sandbox.Model).ScreenName())
	}
	m, cmd := m.Update(viewtest.Key("2")) // one guarantee holds: 2 picks nothing
	if cmd != nil || len(sess.asked) != 0 {
		t.Fatal("2 started a search for a broken guarantee")
	}
	m, cmd = m.Update(viewtest.Key("1"))
	if cmd == nil || len(sess.asked) != 1 || sess.asked[0] != (model.BreakBounds{Depth: 3, MaxStates: 10}) || !m.(sandbox.Model).Searching() {
		t.Fatalf("1: asked %v", sess.asked)
	}
	m, _ = m.Update(viewtest.Key("X"))
	if v := ansi.Strip(m.View()); !strings.Contains(v, "still searching") || !strings.Contains(v, "searching...  ·  step 0/0") {
		t.Fatalf("X while searching:\n%s", v)
	}
	m, _ = m.Update(cmd())
	v := ansi.Strip(m.View())
	if m.(sandbox.Model).Searching() || !strings.Contains(v, "no schedule of at most 3 actions breaks it (42 distinct states explored)") {
		t.Fatalf("the result is not on screen:\n%s", v)
	}
	var plain tea.Model = sandbox.New(nil, nil, &session{}, sandbox.Options{Theme: th, Help: help.New(), Keys: sandbox.DefaultKeyMap(), Draw: draw})
	plain, _ = plain.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	plain, _ = plain.Update(viewtest.Key("X"))
	if v := ansi.Strip(plain.View()); !strings.Contains(v, "this sandbox cannot search") {
		t.Fatalf("X without a search:\n%s", v)
	}
}

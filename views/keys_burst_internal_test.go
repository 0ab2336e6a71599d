package views

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/internal/viewtest"
	"github.com/eoslab/eoslab/views/model"
)

// burst is what Bubble Tea v1 delivers for keys typed quickly: one
// KeyRunes message holding every character.
func burst(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// TestBurstAnswersAQuestion: "> 2" typed in one burst goes to the
// question and answers it, as the two keys one by one do.
func TestBurstAnswersAQuestion(t *testing.T) {
	s := newStub(3, 12)
	s.cpAt = map[int]int{5: 2}
	open := func(string) (model.Session, error) { return s, nil }
	var m tea.Model = NewApp(nil, open, Options{StartLesson: "x"})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = m.Update(burst(">2"))
	if s.Pos() != 5 || s.answers[5] != 2 || !strings.Contains(m.View(), "step 5/12") {
		t.Fatalf("burst \">2\": at %d, answers %v; want at 5 with 2 answered", s.Pos(), s.answers)
	}
}

// TestTooSmallIgnoresKeys: below the smallest size only q and ctrl+c
// act, and the screen says so.
func TestTooSmallIgnoresKeys(t *testing.T) {
	s := newStub(3, 12)
	open := func(string) (model.Session, error) { return s, nil }
	var m tea.Model = NewApp(nil, open, Options{StartLesson: "x"})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 20, Height: 8})
	for _, k := range []string{"right", "right", "l", ">", " ", "enter"} {
		var cmd tea.Cmd
		if m, cmd = m.Update(viewtest.Key(k)); cmd != nil {
			t.Fatalf("%q at 20x8 gave a command", k)
		}
	}
	m, _ = m.Update(burst("ll"))
	m, _ = m.Update(tea.MouseMsg{Action: tea.MouseActionPress, Button: tea.MouseButtonWheelDown})
	wide, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	if s.Pos() != 0 || !strings.Contains(wide.View(), "step 0/12") {
		t.Fatalf("keys at 20x8 moved the lesson to %d", s.Pos())
	}
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 8})
	if v := m.View(); !strings.Contains(v, "need 60x18 (have 80x8); resize to act; q quits") {
		t.Fatalf("the too-small screen does not say what acts:\n%s", v)
	}
	for _, k := range []string{"q", "ctrl+c"} {
		if _, cmd := m.Update(viewtest.Key(k)); cmd == nil || cmd() != tea.Quit() {
			t.Fatalf("%s at 80x8 does not quit", k)
		}
	}
}

// TestEndKeepsTheTitle: at the lesson's end the title bar keeps the
// lesson's title beside "Lesson complete", and the help bar says how to
// restart and go back, at 80x24 and 60x20.
func TestEndKeepsTheTitle(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {60, 20}} {
		s := newStub(3, 4)
		s.cpAt = map[int]int{}
		open := func(string) (model.Session, error) { return s, nil }
		var m tea.Model = NewApp(nil, open, Options{StartLesson: "x"})
		m, _ = m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		for range 4 {
			m, _ = m.Update(viewtest.Key("right"))
		}
		lines := strings.Split(m.View(), "\n")
		top, foot := lines[0], lines[len(lines)-1]
		title := s.Title()[:min(len(s.Title()), 4)]
		if !strings.Contains(top, "Lesson complete.") || !strings.Contains(top, title) {
			t.Errorf("%v: title bar %q, want %q and the title", sz, top, "Lesson complete.")
		}
		if !strings.Contains(foot, "r restart") || !strings.Contains(foot, "esc lessons") {
			t.Errorf("%v: help bar %q lacks r restart or esc lessons", sz, foot)
		}
	}
}

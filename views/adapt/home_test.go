package adapt

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/internal/viewtest"
)

// TestHomeListAt80x24: the home list at 80x24 shows more than four of the
// lessons, under their levels as headings, and the cursor never rests on
// a heading.
func TestHomeListAt80x24(t *testing.T) {
	var m tea.Model = views.NewApp(Lessons(), Open, views.Options{})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	v := ansi.Strip(m.View())
	n := 0
	for _, l := range lessons.All() {
		if strings.Contains(v, l.Title) {
			n++
		}
	}
	if n <= 4 {
		t.Fatalf("%d lessons on the home screen at 80x24:\n%s", n, v)
	}
	for _, lv := range []string{"basics", "transactions"} {
		if !strings.Contains(v, "   "+lv+"\n") && !strings.Contains(v, " "+lv+" ") {
			t.Fatalf("no %s heading:\n%s", lv, v)
		}
	}
	for range 25 {
		m, _ = m.Update(viewtest.Key("down"))
		if _, ok := m.(views.App).Selected(); !ok {
			t.Fatalf("the cursor rests on a heading:\n%s", ansi.Strip(m.View()))
		}
	}
}

// TestQuitAsksWithALessonInProgress: q on the home list quits at once
// when no lesson is part way, and asks first when one is, as leaving a
// lesson does.
func TestQuitAsksWithALessonInProgress(t *testing.T) {
	var m tea.Model = views.NewApp(Lessons(), Open, views.Options{})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if _, cmd := m.Update(viewtest.Key("q")); cmd == nil || cmd() != tea.Quit() {
		t.Fatal("q on the home list with no lesson open did not quit")
	}
	p := openPlayer(t, "abort", 80, 24, views.Options{})
	p.to(2)
	p.press("esc")
	m, cmd := p.m.Update(viewtest.Key("q"))
	if cmd != nil {
		t.Fatal("q with a lesson in progress quit without asking")
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "Quit? Aborting a transaction is at step 2 of 10") {
		t.Fatalf("q did not ask:\n%s", v)
	}
	m, cmd = m.Update(viewtest.Key("n"))
	if cmd != nil || !strings.Contains(ansi.Strip(m.View()), "Staying.") {
		t.Fatal("another key after the question did not stay")
	}
	m, _ = m.Update(viewtest.Key("q"))
	if _, cmd = m.Update(viewtest.Key("y")); cmd == nil || cmd() != tea.Quit() {
		t.Fatal("y after the question did not quit")
	}
}

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

// goalSession is a session set a goal reached after its second action.
type goalSession struct{ session }

func (s *goalSession) Goal() (model.SandboxGoal, bool) {
	return model.SandboxGoal{Name: "two", Num: 3, Title: "act twice", Goal: "Press s twice.", Hint: "s is send.",
		Solution: []string{"topic t", "P send t-0 a1"}, Reached: s.pos >= 2, Found: "two actions"}, true
}

// With saving off (a served seat) reaching a goal says so in words,
// records it with no file, and saves nothing; the goal's line is on
// screen at every size the sandbox draws.
func TestGoalReachedSavingOff(t *testing.T) {
	sess := &goalSession{}
	var got []string
	th := theme.New(theme.Options{NoColor: true})
	var m tea.Model = sandbox.New(nil, nil, sess, sandbox.Options{Theme: th, Help: help.New(), Keys: sandbox.DefaultKeyMap(), Draw: draw,
		Reached: func(name, file string) { got = append(got, name+"|"+file) }})
	for _, sz := range [][2]int{{60, 20}, {80, 24}, {200, 60}} {
		m, _ = m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		if v := ansi.Strip(m.View()); !strings.Contains(v, "Goal 3 act twice") {
			t.Fatalf("%v: no goal line:\n%s", sz, v)
		}
	}
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	press := func(k string) tea.Cmd {
		var cmd tea.Cmd
		m, cmd = m.Update(viewtest.Key(k))
		viewtest.CheckScreen(t, m.View(), 80, 24, "after "+k)
		return cmd
	}
	press("s")
	if len(got) != 0 || strings.Contains(m.View(), "REACHED") {
		t.Fatalf("reached after one action: %v", got)
	}
	if cmd := press("s"); cmd != nil {
		t.Fatalf("saving is off, yet a command: %#v", cmd())
	}
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "REACHED goal 3") || !strings.Contains(v, "GOAL REACHED: two actions") {
		t.Fatalf("reaching does not say so:\n%s", v)
	}
	press("s")
	if len(got) != 1 || got[0] != "two|" {
		t.Fatalf("recorded %v, want once with no file", got)
	}
	if m.(sandbox.Model).GoalReached() != "two" {
		t.Fatal("GoalReached does not name the goal")
	}
	// g, g asks, any key but y keeps the solution hidden.
	press("g")
	press("g")
	press("n")
	if v := ansi.Strip(m.View()); strings.Contains(v, "Solution of goal") || m.(sandbox.Model).ScreenName() != "sandbox" {
		t.Fatalf("n showed the solution:\n%s", v)
	}
}

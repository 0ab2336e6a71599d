package adapt

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/lessons/challenges"
	"github.com/eoslab/eoslab/lessons/progress"
	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/home"
	"github.com/eoslab/eoslab/views/internal/viewtest"
)

// TestChallengesEntry: on the home screen, C opens the Challenges entry,
// which lists every goal of `eoslab challenges` with its level and, from
// the progress, a reached goal marked with a tick and the word (NO_COLOR
// and ASCII too); h shows the selected goal's hint; enter reports
// home.OpenChallengeMsg with the goal's name, which the root answers with
// the command that checks it; esc goes back to the lessons, where the
// entry is also a row of the list, after the Sandbox.
func TestChallengesEntry(t *testing.T) {
	st := progress.Open(progress.Options{Dir: t.TempDir()})
	defer st.Close()
	goals := challenges.All()
	st.ChallengeDone(goals[0].Name, goals[0].Kafka, "x.scn")
	for _, o := range []views.Options{{NoColor: true}, {ASCII: true}} {
		for _, sz := range [][2]int{{80, 24}, {60, 20}} {
			o.OpenSandbox = nil
			var m tea.Model = views.WithChallenges(views.NewApp(Lessons(), Open, o), Challenges(st))
			m, _ = m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			press := func(k string) tea.Cmd {
				var cmd tea.Cmd
				m, cmd = m.Update(viewtest.Key(k))
				return cmd
			}
			view := func() string { return ansi.Strip(m.View()) }
			press("C")
			v := view()
			if !strings.Contains(v, "Challenges") || !strings.Contains(v, "1 of "+itoa(len(goals))+" reached") {
				t.Fatalf("%v %v: C did not open the entry:\n%s", o, sz, v)
			}
			reached := "reached"
			for _, l := range strings.Split(v, "\n") {
				if strings.Contains(l, " 1. ") && !strings.Contains(l, reached) {
					t.Errorf("%v %v: goal 1 is not marked reached: %q", o, sz, l)
				}
				if strings.Contains(l, " 2. ") && strings.Contains(l, reached) {
					t.Errorf("%v %v: goal 2 is marked reached: %q", o, sz, l)
				}
			}
			// The cursor starts on the first goal not reached.
			if !strings.Contains(v, oneLine(goals[1].Goal)[:20]) {
				t.Errorf("%v %v: the entry does not show goal 2 in full:\n%s", o, sz, v)
			}
			press("h")
			if v := oneLine(view()); !strings.Contains(v, "Hint: "+oneLine(goals[1].Hint)[:20]) {
				t.Errorf("%v %v: h shows no hint:\n%s", o, sz, v)
			}
			for range len(goals) {
				press("down")
			}
			if v := view(); !strings.Contains(v, itoa(len(goals))+". ") {
				t.Errorf("%v %v: the last goal is not on screen after ↓:\n%s", o, sz, v)
			}
			cmd := press("enter")
			if cmd == nil {
				t.Fatalf("%v %v: enter reported nothing", o, sz)
			}
			msg := cmd()
			pick, ok := msg.(home.OpenChallengeMsg)
			if !ok || pick.Name != goals[len(goals)-1].Name {
				t.Fatalf("%v %v: enter reported %#v, want OpenChallengeMsg{%q}", o, sz, msg, goals[len(goals)-1].Name)
			}
			m, _ = m.Update(msg)
			if v := view(); !strings.Contains(v, "eoslab challenges check "+itoa(len(goals))+" FILE") {
				t.Errorf("%v %v: the root did not say how to check the goal:\n%s", o, sz, v)
			}
			press("esc")
			if v := view(); strings.Contains(v, "reached") || !strings.Contains(v, "Lessons") {
				t.Errorf("%v %v: esc did not go back to the lessons:\n%s", o, sz, v)
			}
		}
	}
	// Without goals there is no entry.
	var m tea.Model = views.WithChallenges(views.NewApp(Lessons(), Open, views.Options{}), nil)
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = m.Update(viewtest.Key("C"))
	if v := ansi.Strip(m.View()); strings.Contains(v, "reached") {
		t.Errorf("C opened an entry with no goals:\n%s", v)
	}
}

// TestChallengesListRow: the entry is also the list's last row; enter on
// it opens the goals.
func TestChallengesListRow(t *testing.T) {
	var m tea.Model = views.WithChallenges(views.NewApp(Lessons(), Open, views.Options{}), Challenges(nil))
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = m.Update(viewtest.Key("end"))
	if li, ok := m.(views.App).Selected(); !ok || li.Name != home.ChallengesEntry {
		t.Fatalf("the list's last row is %+v, want the Challenges entry", li)
	}
	m, _ = m.Update(viewtest.Key("enter"))
	if v := ansi.Strip(m.View()); !strings.Contains(v, "0 of "+itoa(len(challenges.All()))+" reached") {
		t.Errorf("enter on the row did not open the goals:\n%s", v)
	}
}

package drill

import (
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/internal/viewtest"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// stubDrill is two questions whose right answer is 1.
type stubDrill struct {
	pos      int
	answered [2]int
}

func (d *stubDrill) Seed() uint64 { return 5 }
func (d *stubDrill) Kafka() int   { return 3 }
func (d *stubDrill) Len() int     { return 2 }
func (d *stubDrill) Pos() int     { return d.pos }
func (d *stubDrill) Question() model.DrillQuestion {
	i := min(d.pos, 1)
	return model.DrillQuestion{Concept: "c", Lesson: "lesson-" + string(rune('a'+i)), Title: "T",
		Checkpoint: model.Checkpoint{Question: "Q?", Choices: []string{"yes", "no"}, Correct: 1,
			Answered: d.answered[i] != 0, Chosen: d.answered[i]}}
}
func (d *stubDrill) Answer(c int) (bool, bool) {
	if c < 1 || c > 2 {
		return false, false
	}
	d.answered[d.pos] = c
	return c == 1, true
}
func (d *stubDrill) Hint() (string, bool)       { return "", false }
func (d *stubDrill) Retry() (model.Drill, bool) { return nil, false }
func (d *stubDrill) Next() bool                 { d.pos++; return true }
func (d *stubDrill) Result() model.DrillResult {
	r := model.DrillResult{Seed: 5, Total: 2}
	for _, a := range d.answered {
		if a != 0 {
			r.Answered++
		}
		if a == 1 {
			r.Right++
		}
	}
	return r
}

func newTest(d model.Drill) Model {
	th := theme.New(theme.Options{NoColor: true})
	m := New(d, Options{Theme: th, Help: help.New(), Keys: DefaultKeyMap(), Draw: Draw{
		Pane: func(_ *theme.Theme, p PaneSpec) []string { return append([]string{p.Title}, p.Lines...) },
		Checkpoint: func(_ *theme.Theme, cp *model.Checkpoint, _ int) ([]string, []string) {
			if cp.Answered {
				return cp.Choices, []string{"answered"}
			}
			return cp.Choices, nil
		},
	}})
	m.SetSize(80, 24)
	return m
}

// press sends keys and returns the reports of the last one.
func press(m *Model, keys ...string) (tea.Cmd, []tea.Msg) {
	var cmd tea.Cmd
	var out []tea.Msg
	for _, k := range keys {
		*m, cmd, out = m.Update(viewtest.Key(k))
	}
	return cmd, out
}

// TestReports: the drill reports its score once, before it is left or a
// lesson is opened, and esc first closes an open help.
func TestReports(t *testing.T) {
	m := newTest(&stubDrill{})
	if _, out := press(&m, "esc"); !reflect.DeepEqual(out, []tea.Msg{LeftMsg{}}) {
		t.Errorf("esc before an answer reports %v, want only LeftMsg", out)
	}
	m = newTest(&stubDrill{})
	if _, out := press(&m, "2"); out != nil {
		t.Errorf("an answer reports %v, want nothing", out)
	}
	if !strings.Contains(m.View(), "answered") {
		t.Errorf("the answer's verdict is not shown:\n%s", m.View())
	}
	_, out := press(&m, "o")
	want := []tea.Msg{ScoredMsg{Result: model.DrillResult{Seed: 5, Total: 2, Answered: 1}}, OpenLessonMsg{Name: "lesson-a"}}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("o after an answer reports %v, want %v", out, want)
	}
	if _, out := press(&m, "?"); out != nil || !m.HelpShown() {
		t.Errorf("? reports %v, help shown %v; want nothing, true", out, m.HelpShown())
	}
	if _, out := press(&m, "esc"); out != nil || m.HelpShown() {
		t.Errorf("esc with the help open reports %v, help shown %v; want nothing, false", out, m.HelpShown())
	}
	if _, out := press(&m, "esc"); !reflect.DeepEqual(out, []tea.Msg{LeftMsg{}}) {
		t.Errorf("esc after the score went up reports %v, want only LeftMsg (the score once)", out)
	}
	if cmd, _ := press(&m, "ctrl+c"); cmd == nil {
		t.Error("ctrl+c returns no command, want tea.Quit")
	}
}

// TestChoiceDigit: the digit pressed is the choice answered; one past the
// choices says so and answers nothing.
func TestChoiceDigit(t *testing.T) {
	d := &stubDrill{}
	m := newTest(d)
	press(&m, "3")
	if d.answered[0] != 0 || !strings.Contains(m.View(), "There is no choice 3: press 1-2.") {
		t.Fatalf("3 of 2 choices answered %d, view:\n%s", d.answered[0], m.View())
	}
	press(&m, "2")
	if d.answered[0] != 2 {
		t.Errorf("2 answered %d", d.answered[0])
	}
}

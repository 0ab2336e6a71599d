package sandbox_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/internal/viewtest"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/sandbox"
	"github.com/eoslab/eoslab/views/theme"
)

// teacher is a session of two branches (branch 2 made from branch 1,
// the one it is on) that compares, names, saves every branch and
// switches Kafka, recording what it was asked.
type teacher struct {
	session
	names    []string
	compared [][2]int
	renamed  []string
	kafka    int
}

func (s *teacher) Branch() int { return 1 }
func (s *teacher) Branches() []model.BranchInfo {
	return []model.BranchInfo{{Name: s.names[0], Parent: -1}, {Name: s.names[1], Parent: 0}}
}
func (s *teacher) Compare(a, b int) (model.Comparison, error) {
	s.compared = append(s.compared, [2]int{a, b})
	d := &model.Divergence{StepA: 1, StepB: 1, LineA: "step", LineB: "step", DecisionA: "appends [rule A]", DecisionB: "refuses [rule B]"}
	return model.Comparison{A: s.names[a], B: s.names[b], LogA: []string{"step"}, LogB: []string{"step"}, First: d, Decision: d}, nil
}
func (s *teacher) Rename(i int, name string) error {
	if name == "" {
		return errors.New("a branch needs a name")
	}
	s.names[i] = name
	s.renamed = append(s.renamed, name)
	return nil
}
func (s *teacher) SetNote(int, int, string) error { return nil }
func (s *teacher) ScenarioAll() string            { return "every branch\n" }
func (s *teacher) SwitchKafka() (string, error)   { s.kafka++; return "Kafka 4", nil }

func run(t *testing.T, sess model.SandboxSession, save func(string, []byte) (string, error)) func(k string) tea.Cmd {
	th := theme.New(theme.Options{NoColor: true})
	var m tea.Model = sandbox.New(nil, nil, sess, sandbox.Options{Theme: th, Help: help.New(), Keys: sandbox.DefaultKeyMap(), Draw: draw, Save: save})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	return func(k string) tea.Cmd {
		var cmd tea.Cmd
		m, cmd = m.Update(viewtest.Key(k))
		viewtest.CheckScreen(t, m.View(), 80, 24, "after "+k)
		last = m.(sandbox.Model)
		if cmd != nil && k == "w" {
			m, _ = m.Update(cmd())
		}
		return cmd
	}
}

// last is the sandbox after the last key run pressed.
var last sandbox.Model

// TestTeacherKeysWithoutTheirSession: a session that cannot compare,
// name or switch Kafka gets a message for C, v and n, not a panic.
func TestTeacherKeysWithoutTheirSession(t *testing.T) {
	press := run(t, &session{}, nil)
	for k, want := range map[string]string{"C": "cannot compare", "v": "plays one Kafka"} {
		press(k)
		if !strings.Contains(last.Flash(), want) {
			t.Errorf("%s: %q", k, last.Flash())
		}
	}
	press("B")
	press("n")
	if !strings.Contains(last.Flash(), "keeps no names") || last.ScreenName() != "sandbox branches" {
		t.Errorf("n: %q on %s", last.Flash(), last.ScreenName())
	}
}

// TestTeacherKeys: C then enter compares with the branch this one was
// made from (A the older); n renames through the session; w writes every
// branch; v asks the session for the other Kafka.
func TestTeacherKeys(t *testing.T) {
	s := &teacher{names: []string{"branch 1", "branch 2"}}
	var saved []byte
	press := run(t, s, func(name string, data []byte) (string, error) { saved = data; return name, nil })
	press("C")
	if last.ScreenName() != "sandbox choosing" || !strings.Contains(last.Flash(), "enter 1 (the one it came from)") {
		t.Fatalf("C: %s %q", last.ScreenName(), last.Flash())
	}
	press("enter")
	if len(s.compared) != 1 || s.compared[0] != [2]int{0, 1} || last.ScreenName() != "sandbox comparing" {
		t.Fatalf("enter after C: compared %v, on %s", s.compared, last.ScreenName())
	}
	press("esc")
	press("B")
	press("n")
	for _, r := range " two" {
		press(string(r))
	}
	press("enter")
	if len(s.renamed) != 1 || s.renamed[0] != "branch 2 two" || last.ScreenName() != "sandbox branches" {
		t.Errorf("n: renamed %q, on %s", s.renamed, last.ScreenName())
	}
	press("esc")
	press("w")
	if string(saved) != "every branch\n" {
		t.Errorf("w saved %q", saved)
	}
	press("v")
	if s.kafka != 1 || !strings.Contains(last.Flash(), "Kafka 4") {
		t.Errorf("v: %d, %q", s.kafka, last.Flash())
	}
}

// TestCompareMarkIsStyledNotEscaped: in colour, the marker of the first
// decision that differs is drawn, not printed as escape text. Before, the
// styled marker went through the text cleaning and showed as \x1b[...
func TestCompareMarkIsStyledNotEscaped(t *testing.T) {
	s := &teacher{names: []string{"branch 1", "branch 2"}}
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	th := theme.New(theme.Options{Renderer: r})
	var m tea.Model = sandbox.New(nil, nil, s, sandbox.Options{Theme: th, Help: help.New(), Keys: sandbox.DefaultKeyMap(), Draw: textDraw, Save: nil})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	for _, k := range []string{"C", "enter"} {
		m, _ = m.Update(viewtest.Key(k))
	}
	if v := m.View(); strings.Contains(v, `\x1b`) || !strings.Contains(v, "first decision that differs") {
		t.Errorf("the comparison:\n%s", v)
	}
}

// textBox is a pane that draws its body's first lines, cut to its width.
type textBox struct {
	box
	body content.Content
}

func (b *textBox) SetContent(_ []string, c content.Content, _ content.Range) { b.body = c }
func (b *textBox) Lines() []string {
	out := b.box.Lines()
	for i := 0; b.body != nil && i < min(len(out), b.body.Len()); i++ {
		out[i] = cells.Fit(b.body.Line(i), b.w, "")
	}
	return out
}

var textDraw = func() sandbox.Draw {
	d := draw
	d.NewPane = func(*theme.Theme, bool) sandbox.Pane { return &textBox{} }
	return d
}()

package sandbox_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/internal/viewtest"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/sandbox"
	"github.com/eoslab/eoslab/views/theme"
)

// The sandbox stands alone: a session of its own (no engine) and a Draw
// of its own (no views/pane, no views/panels) run it, as a component.

// session is a world of one branch that records the ops it is given.
type session struct {
	ops  []model.Op
	pos  int
	line string // what Do answers, when set
}

func (s *session) Title() string                            { return "fake" }
func (s *session) Frame(string, int64) model.Frame          { return model.Frame{} }
func (s *session) Pos() int                                 { return s.pos }
func (s *session) Len() int                                 { return len(s.ops) }
func (s *session) Seek(k int)                               { s.pos = k }
func (s *session) Waiting() []model.WaitItem                { return nil }
func (s *session) Clients() []model.SandboxClient           { return []model.SandboxClient{{Name: "P"}} }
func (s *session) Brokers() int                             { return 1 }
func (s *session) Exec(string) (string, error)              { return "", nil }
func (s *session) Complete(string) []string                 { return nil }
func (s *session) Monitors() []model.Monitor                { return nil }
func (s *session) Safeguards() []model.Safeguard            { return nil }
func (s *session) Toggle(model.SafeguardID) (string, error) { return "", nil }
func (s *session) Branch() int                              { return 0 }
func (s *session) Switch(int) error                         { return nil }
func (s *session) Problems() []string                       { return nil }
func (s *session) Scenario() string                         { return "topic t\n" }
func (s *session) SaveName() string                         { return "sandbox-fake.scn" }
func (s *session) Goal() (model.SandboxGoal, bool)          { return model.SandboxGoal{}, false }
func (s *session) Branches() []model.BranchInfo {
	return []model.BranchInfo{{Name: "branch 1", Len: len(s.ops), Parent: -1}}
}
func (s *session) Do(op model.Op) (string, error) {
	s.ops = append(s.ops, op)
	s.pos = len(s.ops)
	if s.line != "" {
		return s.line, nil
	}
	return "P send t-0 a1", nil
}

// box is a pane drawn as blank lines of its size.
type box struct{ w, h int }

func (b *box) SetSize(w, h int)                                    { b.w, b.h = w, h }
func (b *box) SetFocused(bool)                                     {}
func (b *box) SetTitle(string)                                     {}
func (b *box) SetContent([]string, content.Content, content.Range) {}
func (b *box) ScrollPage(bool)                                     {}
func (b *box) Update(tea.Msg) tea.Cmd                              { return nil }
func (b *box) Lines() []string {
	out := make([]string, b.h)
	for i := range out {
		out[i] = cells.Repeat(" ", b.w)
	}
	return out
}

var draw = sandbox.Draw{
	NewPane: func(*theme.Theme, bool) sandbox.Pane { return &box{} },
	NewPanels: func(*theme.Theme) sandbox.PanelFunc {
		return func(layout.PanelID, *model.Frame, int) ([]string, content.Content, content.Range) {
			return nil, content.Lines(nil), content.NoRange
		}
	},
	Flow: func(_ int, lead string, items []string, sep string, _ int) []string {
		return []string{lead + strings.Join(items, sep)}
	},
	KeyLines: func(*theme.Theme, int, [][]key.Binding) []string { return nil },
	Legend:   func(*theme.Theme, int) []string { return nil },
}

func TestStandsAlone(t *testing.T) {
	sess := &session{}
	var saved []string
	th := theme.New(theme.Options{NoColor: true})
	var m tea.Model = sandbox.New(nil, nil, sess, sandbox.Options{Theme: th, Help: help.New(), Keys: sandbox.DefaultKeyMap(), Draw: draw,
		Save: func(name string, _ []byte) (string, error) { saved = append(saved, name); return name, nil }})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	press := func(k string) tea.Cmd {
		var cmd tea.Cmd
		m, cmd = m.Update(viewtest.Key(k))
		viewtest.CheckScreen(t, m.View(), 80, 24, "after "+k)
		return cmd
	}
	press("s")
	if len(sess.ops) != 1 || sess.ops[0].Kind != model.OpCall || sess.ops[0].Call != model.CallSend || sess.ops[0].Client != "P" {
		t.Fatalf("s made %+v", sess.ops)
	}
	if cmd := press("q"); cmd != nil || m.(sandbox.Model).ScreenName() != "sandbox leaving" {
		t.Fatalf("q with branch 1 not saved: screen %q", m.(sandbox.Model).ScreenName())
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "leave? branch 1 is not saved") {
		t.Fatalf("q does not ask:\n%s", v)
	}
	press("esc")
	cmd := press("w")
	if cmd == nil {
		t.Fatal("w gave no save command")
	}
	m, _ = m.Update(cmd())
	if len(saved) != 1 || !strings.Contains(ansi.Strip(m.View()), "saved as sandbox-fake.scn") {
		t.Fatalf("w saved %v:\n%s", saved, ansi.Strip(m.View()))
	}
	// Saved: q leaves, which a program of its own ends with tea.Quit.
	sb, _, out := m.(sandbox.Model).Step(viewtest.Key("q"))
	if _, ok := out.(sandbox.LeftMsg); !ok {
		t.Fatalf("q after w reported %#v", out)
	}
	if _, cmd := sb.Update(viewtest.Key("q")); cmd == nil || cmd() != tea.Quit() {
		t.Fatal("q in the sandbox as a program of its own does not quit")
	}
}

// A status message wider than the screen ends in an ellipsis, never a
// bare cut.
func TestStatusCutShowsEllipsis(t *testing.T) {
	sess := &session{line: "P send t-0 " + strings.Repeat("x", 100) + " END"}
	th := theme.New(theme.Options{NoColor: true})
	var m tea.Model = sandbox.New(nil, nil, sess, sandbox.Options{Theme: th, Help: help.New(), Keys: sandbox.DefaultKeyMap(), Draw: draw})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = m.Update(viewtest.Key("s"))
	found := false
	for _, l := range strings.Split(ansi.Strip(m.View()), "\n") {
		if strings.Contains(l, "xxxxxxxx") {
			found = true
			if l = strings.TrimRight(l, " "); !strings.HasSuffix(l, th.Sym.Ellipsis) || ansi.StringWidth(l) > 80 {
				t.Errorf("status cut without an ellipsis: %q", l)
			}
		}
	}
	if !found {
		t.Fatalf("no status line:\n%s", ansi.Strip(m.View()))
	}
}

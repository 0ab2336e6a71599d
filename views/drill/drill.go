// Package drill is the interview drill screen: a question at a time on a
// frozen situation, its choices, the verdict, and at the end the score
// with the concepts to revisit. It is a component: it imports only the
// foundations (the view-model, the theme, the layout, a pane's content,
// the text measuring), never another component, the root, the engine or
// the lessons. What it needs from other components (the pane's box, the
// checkpoint's lines) comes down as functions in Draw, and what the root
// must act on (the score, leaving, a lesson to open) goes up as messages.
package drill

import (
	"strconv"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/internal/keyset"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// KeyMap holds the drill screen's keys.
type KeyMap struct {
	Answer key.Binding
	// Choices are Answer's digits one by one: which choice a key picks.
	Choices []key.Binding
	Hint    key.Binding
	Retry   key.Binding // a drill of just the missed concepts
	Next    key.Binding
	Open    key.Binding // the lesson that teaches the question
	Up      key.Binding
	Down    key.Binding
	Home    key.Binding
	Help    key.Binding
	// QuitNow leaves the program.
	QuitNow key.Binding
}

// DefaultKeyMap returns the default drill keys. Answering, going on,
// scrolling, the help and quitting are the keys the player and the panes
// use, with the drill's words.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Answer:  key.NewBinding(key.WithKeys("1", "2", "3", "4"), key.WithHelp("1-4", "answer")),
		Choices: keyset.Digits(4),
		Hint:    key.NewBinding(key.WithKeys("h"), key.WithHelp("h", "hint (costs the point)")),
		Retry:   key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "drill the missed concepts")),
		Next:    key.NewBinding(key.WithKeys("right", "l", " ", "enter"), key.WithHelp("→", "next question")),
		Open:    key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "open the lesson")),
		Up:      key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "scroll")),
		Down:    key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "scroll")),
		Home:    key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "lessons")),
		Help:    key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		QuitNow: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit eoslab")),
	}
}

// ASCII returns the key map with ASCII-only help texts.
func (k KeyMap) ASCII() KeyMap {
	for _, b := range []*key.Binding{&k.Next, &k.Up, &k.Down, &k.Hint, &k.Retry} {
		theme.ASCIIHelp(b)
	}
	return k
}

// PaneSpec is a titled box the drill draws its text in.
type PaneSpec struct {
	W, H    int
	Title   string
	Focused bool
	Lines   []string
	// Anchor is the range the box keeps in sight.
	Anchor content.Range
	// Offset is the first line shown; with Relative, how far from where
	// the anchor put it (0 leaves the anchor's place).
	Offset   int
	Relative bool
}

// Draw is what the drill draws with other components' code, passed down
// by the root because a component does not import another.
type Draw struct {
	// Pane draws a box of p.W x p.H.
	Pane func(th *theme.Theme, p PaneSpec) []string
	// Checkpoint is a question's lines and, once answered, its result's.
	Checkpoint func(th *theme.Theme, cp *model.Checkpoint, w int) (question, result []string)
}

// Options are the plain values a drill screen is made with.
type Options struct {
	Theme *theme.Theme
	// Help draws the help bar and the full help, styled by the root.
	Help help.Model
	Keys KeyMap
	Draw Draw
}

// ScoredMsg reports a drill's score, once, when the drill ends or is
// left with at least one answer.
type ScoredMsg struct{ Result model.DrillResult }

// LeftMsg reports that the learner left the drill for the lesson list.
type LeftMsg struct{}

// OpenLessonMsg asks for the lesson that teaches a question.
type OpenLessonMsg struct{ Name string }

// Model is the drill screen.
type Model struct {
	opts Options
	d    model.Drill
	w, h int
	// off is how far the situation is scrolled, and qoff how far the
	// answered question's pane is scrolled from where its verdict shows.
	off, qoff int
	// reported is set once the drill's score went up.
	reported bool
	// retry is set for a drill of the concepts another drill missed,
	// which no --seed replays.
	retry bool
	msg   string
	// note is the root's status line, shown when the drill has none.
	note     string
	showFull bool
}

// New is the drill screen on d.
func New(d model.Drill, opts Options) Model { return Model{opts: opts, d: d} }

// SetSize sets the screen's size.
func (m *Model) SetSize(w, h int) {
	m.w, m.h = max(w, 0), max(h, 0)
	m.opts.Help.Width = m.w
}

// SetTheme restyles the screen, with the help drawn in the new theme.
func (m *Model) SetTheme(th *theme.Theme, h help.Model) {
	m.opts.Theme, m.opts.Help = th, h
	m.opts.Help.Width = m.w
}

// SetNote sets the status shown when the drill has no message of its own.
func (m *Model) SetNote(s string) { m.note = s }

// Open reports whether there is a drill to show.
func (m Model) Open() bool { return m.d != nil }

// HelpShown reports whether the full help is open.
func (m Model) HelpShown() bool { return m.showFull }

// Update handles a key. The reports come back with the model, not as
// commands, so the root acts on them in the same Update: the score is
// recorded and the screen changed before the next key, as a test that
// calls Update sees them.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd, []tea.Msg) {
	km, ok := msg.(tea.KeyMsg)
	if !ok || m.d == nil {
		return m, nil, nil
	}
	var out []tea.Msg
	cmd := m.key(km, &out)
	return m, cmd, out
}

func (m *Model) key(km tea.KeyMsg, out *[]tea.Msg) tea.Cmd {
	k := m.opts.Keys
	m.msg = ""
	switch {
	case keyAny(km, k.QuitNow):
		return tea.Quit
	case keyAny(km, k.Help):
		m.showFull = !m.showFull
		return nil
	case keyAny(km, k.Home):
		if m.showFull {
			m.showFull = false
			return nil
		}
		m.finish(out)
		*out = append(*out, LeftMsg{})
		return nil
	case keyAny(km, k.Up) && m.answered():
		// Once answered, the arrows scroll the verdict, the pane with the
		// focus: the situation was read before the answer.
		bottom, _, _ := m.split()
		m.qoff = max(-len(bottom), min(m.qoff-1, len(bottom)))
		return nil
	case keyAny(km, k.Down) && m.answered():
		bottom, _, _ := m.split()
		m.qoff = max(-len(bottom), min(m.qoff+1, len(bottom)))
		return nil
	case keyAny(km, k.Up):
		m.off = max(m.off-1, 0)
		return nil
	case keyAny(km, k.Down):
		lines := m.top()
		_, topH, _ := m.split()
		m.off = max(0, min(m.off+1, max(len(lines)-(topH-2), 0)))
		return nil
	}
	m.act(km, out)
	return nil
}

// act handles the keys that answer and move through the drill.
func (m *Model) act(km tea.KeyMsg, out *[]tea.Msg) {
	k := m.opts.Keys
	d := m.d
	over := d.Pos() >= d.Len()
	switch {
	case keyAny(km, k.Answer) && !over:
		q := d.Question()
		if q.Checkpoint.Answered {
			m.msg = "Already answered. Press " + k.Next.Help().Key + " for the next question."
			return
		}
		c := keyset.Digit(km, k.Choices)
		if _, ok := d.Answer(c); !ok {
			m.msg = "There is no choice " + km.String() + ": press " + answerRange(len(q.Checkpoint.Choices)) + "."
		}
	case keyAny(km, k.Hint) && !over:
		if d.Question().HintShown {
			m.msg = "The hint is shown under the choices."
			return
		}
		if _, ok := d.Hint(); !ok {
			m.msg = "Already answered: the explanation is below the choices."
			return
		}
		m.msg = "Hint shown: a right answer to this question now earns no point."
	case keyAny(km, k.Retry) && over:
		nd, ok := d.Retry()
		if !ok {
			m.msg = "Nothing was missed: there is no concept to drill again."
			return
		}
		m.finish(out)
		*m = Model{opts: m.opts, d: nd, w: m.w, h: m.h, retry: true, note: m.note, showFull: m.showFull}
	case keyAny(km, k.Next) && !over:
		if !d.Question().Checkpoint.Answered {
			m.msg = "Answer first: press " + answerRange(len(d.Question().Checkpoint.Choices)) + "."
			return
		}
		d.Next()
		m.off, m.qoff = 0, 0
		if d.Pos() >= d.Len() {
			m.finish(out)
		}
	case keyAny(km, k.Next) && over:
		*out = append(*out, LeftMsg{})
	case keyAny(km, k.Open):
		if name := m.lesson(); name != "" {
			m.finish(out)
			*out = append(*out, OpenLessonMsg{Name: name})
		}
	}
}

// lesson is the lesson o opens: the current question's once it is
// answered, or at the end the first concept to revisit.
func (m Model) lesson() string {
	d := m.d
	if d.Pos() >= d.Len() {
		if r := d.Result().Revisit; len(r) > 0 {
			return r[0].Lesson
		}
		return ""
	}
	if q := d.Question(); q.Checkpoint.Answered {
		return q.Lesson
	}
	return ""
}

// finish reports the drill's score once, when it ends or is left with at
// least one answer.
func (m *Model) finish(out *[]tea.Msg) {
	if m.d == nil || m.reported {
		return
	}
	r := m.d.Result()
	if r.Answered == 0 {
		return
	}
	m.reported = true
	*out = append(*out, ScoredMsg{Result: r})
}

// answered reports whether the current question is answered.
func (m Model) answered() bool {
	d := m.d
	return d != nil && d.Pos() < d.Len() && d.Question().Checkpoint.Answered
}

// keyAny matches a binding whether or not it is enabled now.
func keyAny(km tea.KeyMsg, b key.Binding) bool {
	b.SetEnabled(true)
	return key.Matches(km, b)
}

func answerRange(n int) string {
	if n <= 1 {
		return "1"
	}
	return "1-" + strconv.Itoa(min(n, 4))
}

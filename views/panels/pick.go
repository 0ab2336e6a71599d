package panels

// Pick is the cursor on the Timeline's rows: the learner picks a message
// on the diagram itself and reads its fields (producer id, epoch,
// sequence, partitions, transactional id, error code, the rule that
// decided) in a box. The root keeps a Pick, gives it the keys first while
// it is on, draws the Timeline from Mark's frame and shows Box; the fields
// come from the session (model.MessageSource). The cursor follows a
// message by its number, so that stepping keeps it on the same message
// while the message is on screen.

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/model"
)

// PickKeyMap are the cursor's keys.
type PickKeyMap struct {
	// Toggle puts the cursor on the newest message, or takes it away.
	Toggle key.Binding
	Up     key.Binding
	Down   key.Binding
	// Leave takes the cursor away.
	Leave key.Binding
}

// DefaultPickKeyMap: t picks, ↑/↓ (k/j) move, t or esc leave. t is free in
// the player and in the sandbox.
func DefaultPickKeyMap() PickKeyMap {
	return PickKeyMap{
		Toggle: key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "pick a message on the Timeline")),
		Up:     key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "earlier message")),
		Down:   key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "later message")),
		Leave:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close the message")),
	}
}

// Pick is the cursor: off, or on one message.
type Pick struct {
	Keys PickKeyMap
	on   bool
	id   int64 // the picked message's number (model.Arrow.ID)
}

// NewPick is a cursor that is off.
func NewPick() Pick { return Pick{Keys: DefaultPickKeyMap()} }

// On reports whether a message is picked: the root then gives the
// cursor's keys to Update before its own.
func (m Pick) On() bool { return m.on }

// Off is the cursor taken away.
func (m Pick) Off() Pick { m.on = false; return m }

// Picked is the picked message's number, and whether one is.
func (m Pick) Picked() (int64, bool) { return m.id, m.on }

// Update handles a key against the frame's Timeline. handled says the key
// was the cursor's: the root does nothing more with it.
func (m Pick) Update(msg tea.Msg, f *model.Frame) (_ Pick, handled bool) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, false
	}
	tl := f.Timeline
	switch {
	case key.Matches(km, m.Keys.Toggle):
		if m.on || len(tl) == 0 {
			m.on = false
			return m, true
		}
		m.on, m.id = true, tl[len(tl)-1].ID
		return m, true
	case !m.on:
		return m, false
	case key.Matches(km, m.Keys.Leave):
		m.on = false
		return m, true
	case key.Matches(km, m.Keys.Up):
		m.move(tl, -1)
		return m, true
	case key.Matches(km, m.Keys.Down):
		m.move(tl, 1)
		return m, true
	}
	return m, false
}

// move steps the cursor d rows; from a message no longer on the Timeline,
// it starts at the newest.
func (m *Pick) move(tl []model.Arrow, d int) {
	if len(tl) == 0 {
		return
	}
	i := m.index(tl)
	if i < 0 {
		i = len(tl) - 1
	} else {
		i = min(max(i+d, 0), len(tl)-1)
	}
	m.id = tl[i].ID
}

// index is the picked message's place on the Timeline, or -1.
func (m Pick) index(tl []model.Arrow) int {
	for i := len(tl) - 1; i >= 0; i-- {
		if tl[i].ID == m.id {
			return i
		}
	}
	return -1
}

// Mark is the frame with the picked row marked (model.Arrow.Picked), for
// Timeline; the frame itself is not changed. The marked frame's
// Key is 0 (unknown: drawn afresh), so that no drawing cache mistakes it
// for the unmarked one; the Timeline's lines are still kept one by one
// (they are keyed by their arrow). Pass it to the Timeline alone.
func (m Pick) Mark(f model.Frame) model.Frame {
	if !m.on {
		return f
	}
	i := m.index(f.Timeline)
	if i < 0 {
		return f
	}
	tl := append([]model.Arrow(nil), f.Timeline...)
	tl[i].Picked = true
	f.Timeline = tl
	f.Key = 0
	return f
}

// Box is the picked message's box: its fields from src, as of the frame
// drawn, or nil when nothing is picked, the message has left the
// Timeline or src cannot say.
func (m Pick) Box(f *model.Frame, src model.MessageSource, p Painter) []string {
	if !m.on || src == nil || m.index(f.Timeline) < 0 {
		return nil
	}
	fields, ok := src.Message(m.id)
	if !ok {
		return nil
	}
	return MessageBox(fields, p)
}

// Draw is the Timeline with the cursor and, above its rows, the picked
// message's box: the box in full when the pane has rows (its height) to
// spare, else its short form. The pane keeps the picked row in view (the
// anchor). With nothing picked it is Timeline's drawing.
func (m Pick) Draw(f *model.Frame, src model.MessageSource, p Painter, rows int) ([]string, content.Content, content.Range) {
	marked := m.Mark(*f)
	head, body, anchor := Timeline(&marked, p)
	if !m.on || src == nil || m.index(f.Timeline) < 0 {
		return head, body, anchor
	}
	fields, ok := src.Message(m.id)
	if !ok {
		return head, body, anchor
	}
	box := MessageBox(fields, p)
	if rows < len(box)+len(head)+6 {
		box = MessageLines(fields, p)
	}
	rule := p.muted(cells.Repeat(p.Theme.Sym.Boundary, max(p.Width, 1)))
	return append(append(append([]string(nil), box...), rule), head...), body, anchor
}

package player

import (
	"strconv"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/pane"
	"github.com/eoslab/eoslab/views/panels"
	"github.com/eoslab/eoslab/views/theme"
)

// testDraw lends the player the real pane and panels, as the root does:
// the tests may import other components, the player's code may not.
var testDraw = Draw{
	NewPane: func(th *theme.Theme, text bool) Pane {
		var p pane.Model
		if text {
			p = pane.NewText(th)
		} else {
			p = pane.New(th)
		}
		return &p
	},
	NewPanels:   func(th *theme.Theme, cached bool) Panels { return panels.NewPlayer(th, cached) },
	Changed:     panels.Changed,
	HasDetails:  panels.HasDetails,
	ProgressBar: panels.ProgressBar,
}

// newTest is a player of session s at w x h, with the options o (its
// theme, keys and Draw filled in when left empty).
func newTest(s model.Session, w, h int, o Options) Model {
	if o.Theme == nil {
		o.Theme = theme.New(theme.Options{})
	}
	if o.Keys.Next.Keys() == nil {
		o.Keys = DefaultKeyMap()
	}
	if o.Draw.NewPane == nil {
		o.Draw = testDraw
	}
	o.Help = help.New()
	m := New(o)
	m.SetSize(w, h)
	m.Open(s, "test", false)
	m.syncKeys()
	return m
}

// press sends m the key named k (a rune, or "right", "left", "tab").
func press(m Model, k string) (Model, []tea.Msg) {
	km := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
	switch k {
	case "right":
		km = tea.KeyMsg{Type: tea.KeyRight}
	case "left":
		km = tea.KeyMsg{Type: tea.KeyLeft}
	case "tab":
		km = tea.KeyMsg{Type: tea.KeyTab}
	case "esc":
		km = tea.KeyMsg{Type: tea.KeyEsc}
	}
	m, _, out := m.Update(km)
	return m, out
}

// frames is a session that steps through fixed frames, frames[i] at
// step i; a checkpoint in a frame blocks until answered.
type frames struct {
	pos    int
	frames []model.Frame
}

func (s *frames) Title() string { return "frames" }
func (s *frames) Len() int      { return len(s.frames) - 1 }
func (s *frames) Pos() int      { return s.pos }
func (s *frames) Next() bool {
	if s.pos >= s.Len() {
		return false
	}
	s.pos++
	return true
}
func (s *frames) Back() bool {
	if s.pos == 0 {
		return false
	}
	s.pos--
	return true
}
func (s *frames) Restart()                { s.pos = 0 }
func (s *frames) Answer(int) (bool, bool) { return false, false }
func (s *frames) Frame() model.Frame      { return s.frames[s.pos] }

// longFrame is a frame with key k whose partition has n batches, with a
// producer and an event each.
func longFrame(k uint64, n int) model.Frame {
	f := model.Frame{Key: k, Step: int(k), Steps: 2}
	pv := model.PartitionView{Name: "t-0", Leader: "broker-1", HW: int64(2 * n), LSO: int64(2 * n), LEO: int64(2 * n)}
	for i := range n {
		pv.Rows = append(pv.Rows, model.LogRow{First: int64(2 * i), Last: int64(2*i + 1), PID: 4000, Values: []string{"v" + strconv.Itoa(i)},
			Status: model.StatusCommitted, Changed: i == n-int(k)})
		f.Producers = append(f.Producers, model.ProducerView{Name: "p-" + strconv.Itoa(i)})
		f.Events = append(f.Events, model.EventLine{Text: "event " + strconv.Itoa(i) + " of a frame long enough to wrap in the event log's pane, as a real one does"})
	}
	f.Partitions = []model.PartitionView{pv}
	f.NewEvents = 3
	return f
}

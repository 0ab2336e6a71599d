package views

import (
	"strconv"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/internal/viewtest"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
)

// The mouse wheel scrolls the pane under the pointer, whichever pane has
// the focus: a notch down over a panel's slot scrolls that panel a line
// and leaves every other pane where it was; a notch up scrolls it back.
func TestWheelScrollsThePaneUnderThePointer(t *testing.T) {
	open := func(string) (model.Session, error) { return bigSession{}, nil }
	var m tea.Model = NewApp([]model.LessonInfo{{Name: "a", Title: "A"}}, open, Options{StartLesson: "a"})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	m, _ = m.Update(viewtest.Key("right"))
	offsets := func(a App) [layout.NumPanels]int {
		var o [layout.NumPanels]int
		for i := range a.panes {
			o[i] = a.panes[i].Offset()
		}
		return o
	}
	wheel := func(b tea.MouseButton, r layout.Rect) {
		m, _ = m.Update(tea.MouseMsg{X: r.X + r.W/2, Y: r.Y + r.H/2, Button: b, Action: tea.MouseActionPress})
	}
	a := m.(App)
	if a.focus != layout.PanelNarration {
		t.Fatalf("focus %v, want the lesson", a.focus)
	}
	tried := 0
	for i, s := range a.place.Slots {
		p := a.activeIn(s)
		if i == a.stepSlot() || !a.panes[p].CanScroll() {
			continue
		}
		tried++
		// A notch towards the end of the body first, unless it is there
		// already; then a notch back.
		there, back, step := tea.MouseButtonWheelDown, tea.MouseButtonWheelUp, 1
		if a.panes[p].Offset() > 0 {
			there, back, step = back, there, -1
		}
		before := offsets(m.(App))
		wheel(there, s.Rect)
		want := before
		want[p] += step
		if got := offsets(m.(App)); got != want {
			t.Errorf("a notch over %v's slot: offsets %v, want %v", p, got, want)
		}
		wheel(back, s.Rect)
		if got := offsets(m.(App)); got != before {
			t.Errorf("a notch back over %v's slot: offsets %v, want %v", p, got, before)
		}
	}
	if tried == 0 {
		t.Fatalf("no slot with a pane that scrolls: %+v", a.place.Slots)
	}
}

// bigSession is one step whose partition, producers and events are longer
// than any pane.
type bigSession struct{}

func (bigSession) Title() string           { return "big" }
func (bigSession) Len() int                { return 1 }
func (bigSession) Pos() int                { return 1 }
func (bigSession) Next() bool              { return false }
func (bigSession) Back() bool              { return false }
func (bigSession) Restart()                {}
func (bigSession) Answer(int) (bool, bool) { return false, false }
func (bigSession) Frame() model.Frame      { return longFrame(1, 200) }

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

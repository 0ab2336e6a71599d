package player

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
)

// The mouse wheel scrolls the pane under the pointer, whichever pane has
// the focus: a notch down over a panel's slot scrolls that panel a line
// and leaves every other pane where it was; a notch up scrolls it back.
func TestWheelScrollsThePaneUnderThePointer(t *testing.T) {
	big := longFrame(1, 200)
	m := newTest(&frames{pos: 1, frames: []model.Frame{big, big}}, 200, 60, Options{})
	m, _ = press(m, "right")
	offsets := func(m Model) [layout.NumPanels]int {
		var o [layout.NumPanels]int
		for i := range m.panes {
			o[i] = m.panes[i].Offset()
		}
		return o
	}
	wheel := func(b tea.MouseButton, r layout.Rect) {
		m, _, _ = m.Update(tea.MouseMsg{X: r.X + r.W/2, Y: r.Y + r.H/2, Button: b, Action: tea.MouseActionPress})
	}
	if m.focus != layout.PanelNarration {
		t.Fatalf("focus %v, want the lesson", m.focus)
	}
	tried := 0
	for i, s := range m.place.Slots {
		p := m.activeIn(s)
		if i == m.stepSlot() || !m.panes[p].CanScroll() {
			continue
		}
		tried++
		// A notch towards the end of the body first, unless it is there
		// already; then a notch back.
		there, back, step := tea.MouseButtonWheelDown, tea.MouseButtonWheelUp, 1
		if m.panes[p].Offset() > 0 {
			there, back, step = back, there, -1
		}
		before := offsets(m)
		wheel(there, s.Rect)
		want := before
		want[p] += step
		if got := offsets(m); got != want {
			t.Errorf("a notch over %v's slot: offsets %v, want %v", p, got, want)
		}
		wheel(back, s.Rect)
		if got := offsets(m); got != before {
			t.Errorf("a notch back over %v's slot: offsets %v, want %v", p, got, before)
		}
	}
	if tried == 0 {
		t.Fatalf("no slot with a pane that scrolls: %+v", m.place.Slots)
	}
}

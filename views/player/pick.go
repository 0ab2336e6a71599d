package player

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// The Timeline's message cursor (Picker) in the player: the toggle key (t)
// picks while the Timeline has the focus, which is where the learner reads
// the diagram; elsewhere it says so. The cursor lasts while the Timeline
// keeps the focus: tab, a step or esc let go of it, as they let go of a
// picked panel.

// pickToggle is the cursor's toggle key.
func (m *Model) pickToggle() key.Binding { return m.pick.Keys()[0] }

// pickKey gives a key to the cursor first, and reports whether it took
// it: with the cursor on, its keys; with it off, the toggle.
func (m *Model) pickKey(km tea.KeyMsg) bool {
	if m.pick == nil {
		return false
	}
	if m.pick.On() {
		if !m.pick.Update(km, m.frame) {
			return false
		}
		m.setTimeline()
		return true
	}
	toggle := m.pickToggle()
	if !key.Matches(km, toggle) {
		return false
	}
	if m.focus != layout.PanelTimeline {
		m.Say(theme.Muted, "Tab to the Timeline first: "+toggle.Help().Key+" picks a message there.")
		return true
	}
	m.pick.Update(km, m.frame)
	if !m.pick.On() {
		m.Say(theme.Muted, "No message on the Timeline yet.")
	}
	m.setTimeline()
	return true
}

// dropPick takes the cursor away, and reports whether it was on.
func (m *Model) dropPick() bool {
	if m.pick == nil || !m.pick.On() {
		return false
	}
	m.pick.Off()
	return true
}

// timelineContent is the Timeline panel's content: with the cursor on,
// drawn by the cursor with the picked message's box over it.
func (m *Model) timelineContent() ([]string, content.Content, content.Range) {
	r := m.rectOf(layout.PanelTimeline)
	w := max(r.W-3, 0)
	if m.Picking() {
		src, _ := m.sess.(model.MessageSource)
		return m.pick.Timeline(m.th, m.frame, src, w, max(r.H-2, 0))
	}
	return m.panels.Panel(layout.PanelTimeline, m.frame, w)
}

// setTimeline draws the Timeline's pane again after the cursor moved,
// keeping the picked row in view.
func (m *Model) setTimeline() {
	if m.sess == nil || m.placeErr != nil {
		return
	}
	h, b, a := m.timelineContent()
	if !m.Picking() {
		a = content.NoRange
	}
	m.panes[layout.PanelTimeline].SetContent(h, b, a)
}

// pickHelp are the cursor's entries for the help bar: the toggle while
// the Timeline has the focus, the cursor's keys while it is on.
func (m *Model) pickHelp() []key.Binding {
	if m.pick == nil || m.open != NoOverlay || m.sess == nil || (m.focus != layout.PanelTimeline && !m.pick.On()) {
		return nil
	}
	ks := m.pick.Keys()
	toggle, up, down, leave := ks[0], ks[1], ks[2], ks[3]
	if !m.pick.On() {
		what := "pick a message"
		if m.w < 100 {
			what = "pick" // the bar at 80 columns has room for this
		}
		toggle.SetHelp(toggle.Help().Key, what)
		return []key.Binding{toggle}
	}
	move := key.NewBinding(key.WithKeys(append(up.Keys(), down.Keys()...)...), key.WithHelp(scrollHelp(m.th.ASCII), "earlier/later"))
	closing := key.NewBinding(key.WithKeys(append(leave.Keys(), toggle.Keys()...)...),
		key.WithHelp(leave.Help().Key+"/"+toggle.Help().Key, "close message"))
	return []key.Binding{move, closing}
}

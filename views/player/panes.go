package player

import (
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// cycleFocus moves focus to the next (or previous) panel in tab order,
// which starts at the lesson. Focusing a panel picks it: its slot shows it
// from now on, until the next lesson.
func (m *Model) cycleFocus(d int) {
	n := int(layout.NumPanels)
	order := func(p layout.PanelID) int { return (int(p) + 1) % n } // the lesson first
	next := (order(m.focus) + d%n + n) % n
	m.focusOn(layout.PanelID((next + n - 1) % n))
}

// toLesson gives the focus back to the lesson when a step runs, so the
// arrow keys scroll its new text, and lets go of a panel the learner
// picked: a pick is for the step it was made at, and the slots follow the
// new step.
func (m *Model) toLesson() {
	m.focus = layout.PanelNarration
	m.recent = nil
	m.dropPick()
}

// unfocus is esc on a focused panel: the lesson has the focus and the
// slots follow the step again.
func (m *Model) unfocus() {
	m.toLesson()
	m.refresh(true)
}

// wheel scrolls the pane under the pointer with the mouse wheel, a line a
// notch, as the arrow keys do; off every pane (the header, the help bar)
// it scrolls the focused one (the lesson when none is).
func (m *Model) wheel(mm tea.MouseMsg) {
	if mm.Action != tea.MouseActionPress || m.sess == nil || m.placeErr != nil {
		return
	}
	if mm.Button != tea.MouseButtonWheelUp && mm.Button != tea.MouseButtonWheelDown {
		return
	}
	if m.open != NoOverlay {
		m.overlay.Handle(mm)
		return
	}
	m.paneAt(mm.X, mm.Y).Handle(mm)
}

// paneAt is the pane drawn at cell (x, y), as View draws them, or the
// focused one when none is.
func (m *Model) paneAt(x, y int) Pane {
	if m.place.Narration.Contains(x, y) {
		return m.panes[layout.PanelNarration]
	}
	step := m.stepSlot()
	for i, s := range m.place.Slots {
		switch {
		case !s.Rect.Contains(x, y):
		case i == step:
			return m.stepPane
		default:
			return m.panes[m.activeIn(s)]
		}
	}
	return m.panes[m.focus]
}

// stepSlot is the slot that shows the step view, or -1: while the player
// follows a step that names its subjects (no panel picked), the largest
// slot that shares several panels. A layout with one slot a panel shows
// every panel already.
//
// Where the layout pairs the Timeline with the Partitions (layout.Paired),
// the step view never takes the Timeline's slot: the subjects it gathers
// are state (log rows, coordinator records, clients), which is what the
// other slot shows, and the messages that made them stay in view beside
// them. Below 30 rows that pair is two slots, and the step view takes the
// Partitions' one.
func (m *Model) stepSlot() int {
	if len(m.frame.Show) == 0 || m.focus != layout.PanelNarration || len(m.recent) > 0 {
		return -1
	}
	paired := layout.Paired(m.place.Width)
	best, area := -1, 0
	for i, s := range m.place.Slots {
		if paired && slices.Contains(s.Panels, layout.PanelTimeline) {
			continue
		}
		if len(s.Panels) > 1 && s.W*s.H > area {
			best, area = i, s.W*s.H
		}
	}
	return best
}

// layoutStepPane fills the step view for the slot it is drawn in.
func (m *Model) layoutStepPane() {
	i := m.stepSlot()
	if i < 0 {
		return
	}
	r := m.place.Slots[i].Rect
	m.stepPane.SetSize(r.W, r.H)
	m.stepPane.SetFocused(false)
	lines, tab := m.panels.Step(m.frame, max(r.W-3, 0), max(r.H-2, 0))
	m.stepPane.SetContent(nil, content.Lines(lines), content.NoRange)
	title := "[" + tab + "]"
	for _, q := range m.place.Slots[i].Panels {
		title += m.th.Text(theme.TextFaint, " ") + m.titleFor(q, false)
	}
	m.stepPane.SetTitle(title)
}

func (m *Model) focusOn(p layout.PanelID) {
	m.focus = p
	if p != layout.PanelTimeline && m.dropPick() {
		m.setTimeline()
	}
	if p != layout.PanelNarration {
		r := []layout.PanelID{p}
		for _, q := range m.recent {
			if q != p {
				r = append(r, q)
			}
		}
		m.recent = r
	}
	m.layoutPanes()
}

// activeIn is the panel a slot shows: the focused panel if it is there,
// else the one of its panels the learner picked last, else the one the
// steps brought forward (follow), else its first.
func (m *Model) activeIn(s layout.Slot) layout.PanelID {
	if slices.Contains(s.Panels, m.focus) {
		return m.focus
	}
	for _, p := range m.recent {
		if slices.Contains(s.Panels, p) {
			return p
		}
	}
	if p, ok := m.shown[s.Panels[0]]; ok && slices.Contains(s.Panels, p) {
		return p
	}
	return s.Panels[0]
}

// followOrder is the order in which a slot prefers the panels a step
// changed: what a consumer returned, then the logs, then a coordinator's
// decision (shown when it is all the step changed), then the clients; the
// timeline and the events change on nearly every step.
var followOrder = []layout.PanelID{layout.PanelConsumers, layout.PanelPartitions, layout.PanelCoordinator, layout.PanelProducers, layout.PanelTimeline, layout.PanelEvents}

// costFollowOrder is the order in a lesson that counts costs, when the
// step changed the cost table: the table (in the Producers panel) is
// what such a lesson is about.
var costFollowOrder = []layout.PanelID{layout.PanelProducers, layout.PanelConsumers, layout.PanelPartitions, layout.PanelCoordinator, layout.PanelTimeline, layout.PanelEvents}

// follow brings forward, in each slot the learner has not picked a panel
// of, the panel the last step changed.
func (m *Model) follow() {
	if m.frame.Step == 0 {
		// Before the first step only the setup happened: the slots show
		// their first panel (the producers: who is who).
		clear(m.shown)
		return
	}
	order := followOrder
	if m.frame.Cost != nil && slices.ContainsFunc(m.frame.Cost.Rows, func(x model.CostRow) bool { return x.Changed }) {
		order = costFollowOrder
	}
	for _, s := range m.place.Slots {
		if len(s.Panels) < 2 {
			continue
		}
		chosen := layout.PanelID(-1)
		for _, p := range order {
			if slices.Contains(s.Panels, p) && m.draw.Changed(m.frame, p) {
				chosen = p
				break
			}
		}
		// In a lesson that counts costs, a step that changed no state
		// (only the timeline and the events, or nothing: a step that
		// reads the bill) shows the cost table.
		if m.frame.Cost != nil && slices.Contains(s.Panels, layout.PanelProducers) &&
			(chosen < 0 || chosen == layout.PanelTimeline || chosen == layout.PanelEvents) {
			chosen = layout.PanelProducers
		}
		if chosen >= 0 {
			m.shown[s.Panels[0]] = chosen
		}
	}
}

// rectOf is where a panel is drawn; a hidden tab gets its slot's rectangle.
func (m *Model) rectOf(p layout.PanelID) layout.Rect {
	if p == layout.PanelNarration {
		return m.place.Narration
	}
	if i := m.place.SlotOf(p); i >= 0 {
		return m.place.Slots[i].Rect
	}
	return layout.Rect{}
}

// bodyRect is everything between the header and the help bar: where the
// help and the detail view are drawn.
func (m *Model) bodyRect() layout.Rect { return layout.Rect{X: 0, Y: 1, W: m.w, H: max(m.h-2, 0)} }

// layoutPanes sizes, titles and focuses the panes for the placement.
func (m *Model) layoutPanes() {
	for p := range layout.NumPanels {
		r := m.rectOf(p)
		m.panes[p].SetSize(r.W, r.H)
		m.panes[p].SetFocused(p == m.focus)
	}
	m.layoutStepPane()
	for _, s := range m.place.Slots {
		m.panes[m.activeIn(s)].SetTitle(m.slotTitle(s))
	}
	r := m.place.Narration
	m.panes[layout.PanelNarration].SetTitle(m.titleFor(layout.PanelNarration, true) + "  " + m.draw.ProgressBar(m.th, m.frame.Step, m.frame.Steps, r.W-14))
	m.panes[layout.PanelNarration].SetFooter(m.narrationFooter())
	b := m.bodyRect()
	m.overlay.SetSize(b.W, b.H)
	m.overlay.SetFocused(true)
}

// narrationFooter is drawn in the lesson pane's bottom border: the keys
// that answer a pending question and open the step's details.
func (m *Model) narrationFooter() string {
	var parts []string
	if cp := m.frame.Checkpoint; cp.Open() {
		if m.opts.Presenter {
			parts = append(parts, "a reveal")
		} else {
			parts = append(parts, m.answerKeys()+" answer")
		}
	}
	if m.draw.HasDetails(m.frame) {
		parts = append(parts, m.keys.Details.Help().Key+" "+m.th.Sym.Note+" details")
	}
	if len(parts) == 0 {
		return ""
	}
	return m.th.Text(theme.TextAccent, strings.Join(parts, m.th.Sym.Sep))
}

// refresh reads the session's frame and rebuilds every pane's content. With
// reveal set (a step ran, or the lesson opened), each pane scrolls to show
// what the last step changed, and slots follow the step.
func (m *Model) refresh(reveal bool) {
	if m.sess == nil {
		return
	}
	f := m.sess.Frame()
	m.frame = &f
	m.place = m.base
	if m.placeErr != nil {
		m.layoutPanes()
		return
	}
	type drawn struct {
		head   []string
		body   content.Content
		anchor content.Range
	}
	draw := func(p layout.PanelID) drawn {
		if p == layout.PanelTimeline {
			h, b, a := m.timelineContent()
			return drawn{h, b, a}
		}
		// One cell of margin inside the right border.
		h, b, a := m.panels.Panel(p, m.frame, max(m.rectOf(p).W-3, 0))
		return drawn{h, b, a}
	}
	// The lesson pane first: its length decides how much room it takes
	// from the panels (a question with its choices must fit).
	narr := draw(layout.PanelNarration)
	m.place = m.base.WithNarration(narr.body.Len() + len(narr.head))
	// Then the panels, whose lengths decide how the rows of a full
	// layout share the height (the widths, which the drawing depends on,
	// stay).
	var ds [layout.NumPanels]drawn
	for p := range layout.NumPanels {
		ds[p] = narr
		if p != layout.PanelNarration {
			ds[p] = draw(p)
		}
	}
	m.place = m.place.WithRows(func(p layout.PanelID) int { return len(ds[p].head) + ds[p].body.Len() })
	if reveal {
		m.follow()
	}
	m.layoutPanes()
	for p := range layout.NumPanels {
		d := ds[p]
		anchor := d.anchor
		if !reveal && (p != layout.PanelTimeline || !m.Picking()) {
			anchor = content.NoRange
		}
		m.panes[p].SetContent(d.head, d.body, anchor)
	}
	m.layoutPanes()
	m.layoutStepPane()
	m.refreshOverlay()
}

// refreshOverlay fills the help or detail view for the current frame.
func (m *Model) refreshOverlay() {
	b := m.bodyRect()
	m.overlay.SetSize(b.W, b.H)
	w := max(b.W-4, 0)
	switch m.open {
	case DetailsOverlay:
		m.overlay.SetTitle(m.th.Text(theme.TextTitle, "Details") + m.th.Text(theme.TextFaint, "  (d or esc closes)"))
		m.overlay.SetContent(nil, m.withSide(m.panels.Details(m.frame, w), w), content.NoRange)
	case HelpOverlay:
		m.overlay.SetTitle(m.th.Text(theme.TextTitle, "Help") + m.th.Text(theme.TextFaint, "  (? or esc closes)"))
		m.overlay.SetContent(nil, m.panels.Help(m.fullKeys(), m.lookingAtTimeline(), w), content.NoRange)
	}
	m.overlay.SetFooter("")
}

// withSide appends the side panel (Options.Side) to the details, when it
// has lines for the step.
func (m *Model) withSide(details content.Content, w int) content.Content {
	side := m.opts.Side
	if side == nil || side.Lines == nil {
		return details
	}
	lines := side.Lines(m.frame, w)
	if len(lines) == 0 {
		return details
	}
	out := make(content.Lines, 0, details.Len()+len(lines)+2)
	for i := range details.Len() {
		out = append(out, details.Line(i))
	}
	out = append(out, "", " "+m.th.Text(theme.TextTitle, side.Title))
	for _, l := range lines {
		out = append(out, " "+l)
	}
	return out
}

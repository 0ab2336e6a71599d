package views

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/internal/keyset"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/pane"
	"github.com/eoslab/eoslab/views/panels"
	"github.com/eoslab/eoslab/views/theme"
)

func keyIs(km tea.KeyMsg, b key.Binding) bool { return b.Enabled() && key.Matches(km, b) }

// keyAny matches a binding whether or not it is enabled now, so a key that
// cannot act gets an explanation instead of silence. (key.Matches ignores
// disabled bindings.)
func keyAny(km tea.KeyMsg, b key.Binding) bool {
	b.SetEnabled(true)
	return key.Matches(km, b)
}

// playerKey handles a key on the player screen.
func (a *App) playerKey(km tea.KeyMsg) tea.Cmd {
	a.flash = ""
	k := a.keys
	if keyAny(km, k.QuitNow) {
		return tea.Quit
	}
	if a.opts.Follow && a.followerRefuses(km) {
		a.say(theme.Muted, "The presenter moves the lesson: tab, scroll, d and ? are yours.")
		return nil
	}
	if a.leaving {
		// q asked "leave this lesson?": y (or q again) leaves, any other
		// key stays where it is and does nothing else.
		a.leaving = false
		if keyAny(km, k.Leave) || keyAny(km, k.Quit) {
			a.closeLesson()
		} else {
			a.say(theme.Muted, "Staying in the lesson.")
		}
		return nil
	}
	switch {
	case keyAny(km, k.Quit):
		a.leaving = true
		a.stop()
		a.say(theme.Open, "Leave this lesson? y leaves, keeping your place; other keys stay.")
		return nil
	case keyAny(km, k.List):
		if a.showFull || a.showDetail {
			a.showFull, a.showDetail = false, false
			return nil
		}
		if a.focus != layout.PanelNarration || len(a.recent) > 0 {
			// A focused panel lets go first: the slots follow the
			// lesson again, and a second esc leaves.
			a.unfocus()
			a.say(theme.Muted, "Following the lesson again; esc again returns to the list.")
			return nil
		}
		a.closeLesson()
		return nil
	case keyAny(km, k.Help):
		a.showFull = !a.showFull
		a.showDetail = false
		a.overlay.SetOffset(0)
		a.refreshOverlay()
		return nil
	case keyAny(km, k.Details):
		a.showDetail = !a.showDetail
		a.showFull = false
		a.overlay.SetOffset(0)
		a.refreshOverlay()
		return nil
	}
	if a.showFull || a.showDetail {
		// An open overlay takes the scroll keys; the lesson keys close it
		// and act as usual.
		if a.overlay.Scrolls(km) {
			*a.overlay, _ = a.overlay.Update(km)
			return nil
		}
		a.showFull, a.showDetail = false, false
	}
	switch {
	case keyAny(km, k.Next):
		return a.manualNext()
	case keyAny(km, k.Back):
		a.stop()
		if a.sess.Back() {
			a.toLesson()
			a.refresh(true)
		} else {
			a.say(theme.Muted, "This is the start of the lesson.")
		}
	case keyAny(km, k.First):
		a.stop()
		if !a.sess.Back() {
			a.say(theme.Muted, "This is the start of the lesson.")
			break
		}
		for a.sess.Back() {
		}
		a.refresh(true)
		a.say(theme.Muted, "The start of the lesson.")
	case keyAny(km, k.Last):
		a.stop()
		a.jumpForward()
	case keyAny(km, k.PlayPause):
		return a.togglePlay()
	case keyAny(km, k.Slower):
		return a.setSpeed(a.speed - 1)
	case keyAny(km, k.Faster):
		return a.setSpeed(a.speed + 1)
	case keyAny(km, k.Restart):
		a.stop()
		a.sess.Restart()
		a.refresh(true)
		a.say(theme.Muted, "Back to the start.")
	case keyAny(km, k.Answer):
		a.answer(km)
	case keyAny(km, k.Kafka):
		a.switchKafka()
	case keyAny(km, k.Focus):
		a.cycleFocus(1)
	case keyAny(km, k.FocusBack):
		a.cycleFocus(-1)
	default:
		p := &a.panes[a.focus]
		*p, _ = p.Update(km)
	}
	return nil
}

// followerRefuses reports whether a key would move, play, answer or leave
// the lesson, which a following seat cannot do; esc still closes an
// overlay.
func (a *App) followerRefuses(km tea.KeyMsg) bool {
	k := a.keys
	if keyAny(km, k.List) {
		return !a.showFull && !a.showDetail
	}
	return slices.ContainsFunc([]key.Binding{k.Next, k.Back, k.First, k.Last, k.PlayPause, k.Slower, k.Faster, k.Restart, k.Answer, k.Kafka, k.Quit},
		func(b key.Binding) bool { return keyAny(km, b) })
}

// blocked says why Next cannot run now, or "" when it can.
func (a *App) blocked() string {
	if a.sess == nil {
		return "no lesson"
	}
	if cp := a.frame.Checkpoint; cp != nil && !cp.Answered {
		return "question"
	}
	if a.sess.Pos() >= a.sess.Len() {
		return "end"
	}
	return ""
}

func (a *App) explainBlocked(why string) {
	switch why {
	case "question":
		if a.opts.Presenter {
			a.say(theme.Open, "The class is answering: a reveals.")
			break
		}
		a.say(theme.Open, "Answer the question first: press "+a.answerKeys()+".")
	case "end":
		a.say(theme.Committed, "End of the lesson: r restarts, esc returns to the list.")
	}
}

// advance runs one step and reports whether it did.
func (a *App) advance() bool {
	if why := a.blocked(); why != "" {
		a.explainBlocked(why)
		return false
	}
	if !a.sess.Next() {
		a.refresh(true)
		a.explainBlocked(a.blocked())
		return false
	}
	a.toLesson()
	a.refresh(true)
	a.checkFinished()
	if a.sess.Pos() >= a.sess.Len() {
		a.say(theme.Committed, a.th.Glyph(theme.Committed)+" Lesson complete. r restarts, esc returns to the list.")
	}
	return true
}

// jumpForward goes on as far as the lesson lets it without the learner:
// to the end, or to the first question not answered yet. Steps not shown
// before are run on the way, but only the last one is drawn.
func (a *App) jumpForward() {
	if why := a.blocked(); why != "" {
		a.explainBlocked(why)
		return
	}
	for a.sess.Next() {
	}
	a.refresh(true)
	a.checkFinished()
	if why := a.blocked(); why != "" {
		a.explainBlocked(why)
	}
}

func (a *App) manualNext() tea.Cmd {
	ok := a.advance()
	if !a.playing {
		return nil
	}
	if !ok || a.blocked() != "" {
		a.stop()
		return nil
	}
	// A manual step restarts the autoplay interval: the old tick is stale.
	a.gen++
	return a.tick()
}

// stepDelay is how long autoplay leaves the current step on screen: the
// chosen speed for a step of paceWords words, and proportionally longer for
// a longer step (an answered question adds its explanation), so a long step
// is never cut short.
func (a *App) stepDelay() time.Duration {
	d := speeds[a.speed]
	words := cells.WordCount(a.frame.Title) + cells.WordCount(a.frame.Narration)
	if cp := a.frame.Checkpoint; cp != nil && cp.Answered {
		words += cells.WordCount(cp.Explanation)
	}
	if words > paceWords {
		d = d * time.Duration(words) / paceWords
	}
	return d
}

func (a *App) tick() tea.Cmd {
	gen := a.gen
	tick := a.opts.Tick
	if tick == nil {
		tick = tea.Tick
	}
	return tick(a.stepDelay(), func(_ time.Time) tea.Msg { return autoplayMsg{gen: gen} })
}

func (a *App) stop() {
	if a.playing {
		a.playing = false
		a.gen++
	}
}

// togglePlay starts or stops autoplay. Starting starts the clock: the
// current step stays for its full time before the next one runs.
func (a *App) togglePlay() tea.Cmd {
	if a.playing {
		a.stop()
		a.say(theme.Paused, "Paused.")
		return nil
	}
	if why := a.blocked(); why != "" {
		a.explainBlocked(why)
		return nil
	}
	a.playing = true
	a.gen++
	return a.tick()
}

func (a *App) onTick(m autoplayMsg) tea.Cmd {
	if !a.playing || m.gen != a.gen || a.screen != screenPlayer {
		return nil // stale: paused, stepped by hand or re-timed since
	}
	if a.showFull || a.showDetail || a.leaving {
		// The learner is reading the help or a detail view, or deciding
		// to leave: autoplay waits, and tries again a step's time later.
		return a.tick()
	}
	if !a.advance() || a.blocked() != "" {
		a.stop()
		if why := a.blocked(); why != "" {
			a.explainBlocked(why)
		}
		return nil
	}
	return a.tick()
}

func (a *App) setSpeed(i int) tea.Cmd {
	a.speed = max(0, min(i, len(speeds)-1))
	a.say(theme.Muted, "Autoplay: "+speedText(speeds[a.speed])+" a step, more for a long one.")
	if !a.playing {
		return nil
	}
	a.gen++
	return a.tick()
}

func (a *App) answerKeys() string {
	n := 4
	if cp := a.frame.Checkpoint; cp != nil {
		n = max(1, min(len(cp.Choices), 4))
	}
	if n == 1 {
		return "1"
	}
	return "1-" + strconv.Itoa(n)
}

func (a *App) answer(km tea.KeyMsg) {
	cp := a.frame.Checkpoint
	if cp == nil {
		return
	}
	if cp.Answered {
		a.say(theme.Muted, "Already answered. Press "+a.keys.Next.Help().Key+" to go on.")
		return
	}
	choice := keyset.Digit(km, a.keys.Choices)
	if choice < 1 || choice > len(cp.Choices) {
		a.say(theme.Open, "There is no choice "+km.String()+": press "+a.answerKeys()+".")
		return
	}
	correct, ok := a.sess.Answer(choice)
	if !ok {
		return
	}
	if p := a.opts.Progress; p != nil {
		p.Answered(a.name, a.sess.Pos(), choice, correct)
	}
	a.refresh(true)
	a.focusOn(layout.PanelNarration)
	if correct {
		a.say(theme.Correct, a.th.Glyph(theme.Correct)+" Correct! Press "+a.keys.Next.Help().Key+" to see it happen.")
	} else {
		a.say(theme.Wrong, a.th.Glyph(theme.Wrong)+" Not quite. Read why, then press "+a.keys.Next.Help().Key+".")
	}
}

func (a *App) say(k theme.Kind, s string) { a.flash, a.flashKind = s, k }

// cycleFocus moves focus to the next (or previous) panel in tab order,
// which starts at the lesson. Focusing a panel picks it: its slot shows it
// from now on, until the next lesson.
func (a *App) cycleFocus(d int) {
	n := int(layout.NumPanels)
	order := func(p layout.PanelID) int { return (int(p) + 1) % n } // the lesson first
	next := (order(a.focus) + d%n + n) % n
	a.focusOn(layout.PanelID((next + n - 1) % n))
}

// toLesson gives the focus back to the lesson when a step runs, so the
// arrow keys scroll its new text, and lets go of a panel the learner
// picked: a pick is for the step it was made at, and the slots follow the
// new step.
func (a *App) toLesson() {
	a.focus = layout.PanelNarration
	a.recent = nil
}

// unfocus is esc on a focused panel: the lesson has the focus and the
// slots follow the step again.
func (a *App) unfocus() {
	a.toLesson()
	a.refresh(true)
}

// playerWheel scrolls the pane under the pointer with the mouse wheel, a
// line a notch, as the arrow keys do; off every pane (the header, the help
// bar) it scrolls the focused one (the lesson when none is).
func (a *App) playerWheel(m tea.MouseMsg) {
	if m.Action != tea.MouseActionPress || a.sess == nil || a.placeErr != nil {
		return
	}
	if m.Button != tea.MouseButtonWheelUp && m.Button != tea.MouseButtonWheelDown {
		return
	}
	if a.showFull || a.showDetail {
		*a.overlay, _ = a.overlay.Update(m)
		return
	}
	p := a.paneAt(m.X, m.Y)
	*p, _ = p.Update(m)
}

// paneAt is the pane drawn at cell (x, y), as View draws them, or the
// focused one when none is.
func (a *App) paneAt(x, y int) *pane.Model {
	if a.place.Narration.Contains(x, y) {
		return &a.panes[layout.PanelNarration]
	}
	step := a.stepSlot()
	for i, s := range a.place.Slots {
		switch {
		case !s.Rect.Contains(x, y):
		case i == step:
			return a.stepPane
		default:
			return &a.panes[a.activeIn(s)]
		}
	}
	return &a.panes[a.focus]
}

// stepSlot is the slot that shows the step view, or -1: while the player
// follows a step that names its subjects (no panel picked), the largest
// slot that shares several panels. A layout with one slot a panel shows
// every panel already.
func (a *App) stepSlot() int {
	if len(a.frame.Show) == 0 || a.focus != layout.PanelNarration || len(a.recent) > 0 {
		return -1
	}
	best, area := -1, 0
	for i, s := range a.place.Slots {
		if len(s.Panels) > 1 && s.W*s.H > area {
			best, area = i, s.W*s.H
		}
	}
	return best
}

// layoutStepPane fills the step view for the slot it is drawn in.
func (a *App) layoutStepPane() {
	i := a.stepSlot()
	if i < 0 {
		return
	}
	r := a.place.Slots[i].Rect
	a.stepPane.SetSize(r.W, r.H)
	a.stepPane.SetFocused(false)
	p := panels.Painter{Theme: a.th, Width: max(r.W-3, 0), Cache: a.cache}
	a.stepPane.SetContent(nil, content.Lines(panels.Step(&a.frame, p, max(r.H-2, 0))), content.NoRange)
	title := "[" + p.StepTab() + "]"
	for _, q := range a.place.Slots[i].Panels {
		title += a.th.Text(theme.TextFaint, " ") + a.titleFor(q, false)
	}
	a.stepPane.SetTitle(title)
}

func (a *App) focusOn(p layout.PanelID) {
	a.focus = p
	if p != layout.PanelNarration {
		r := []layout.PanelID{p}
		for _, q := range a.recent {
			if q != p {
				r = append(r, q)
			}
		}
		a.recent = r
	}
	a.layoutPanes()
}

// activeIn is the panel a slot shows: the focused panel if it is there,
// else the one of its panels the learner picked last, else the one the
// steps brought forward (follow), else its first.
func (a *App) activeIn(s layout.Slot) layout.PanelID {
	if slices.Contains(s.Panels, a.focus) {
		return a.focus
	}
	for _, p := range a.recent {
		if slices.Contains(s.Panels, p) {
			return p
		}
	}
	if p, ok := a.shown[s.Panels[0]]; ok && slices.Contains(s.Panels, p) {
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
func (a *App) follow() {
	if a.frame.Step == 0 {
		// Before the first step only the setup happened: the slots show
		// their first panel (the producers: who is who).
		clear(a.shown)
		return
	}
	order := followOrder
	if a.frame.Cost != nil && slices.ContainsFunc(a.frame.Cost.Rows, func(x model.CostRow) bool { return x.Changed }) {
		order = costFollowOrder
	}
	for _, s := range a.place.Slots {
		if len(s.Panels) < 2 {
			continue
		}
		chosen := layout.PanelID(-1)
		for _, p := range order {
			if slices.Contains(s.Panels, p) && panels.Changed(&a.frame, p) {
				chosen = p
				break
			}
		}
		// In a lesson that counts costs, a step that changed no state
		// (only the timeline and the events, or nothing: a step that
		// reads the bill) shows the cost table.
		if a.frame.Cost != nil && slices.Contains(s.Panels, layout.PanelProducers) &&
			(chosen < 0 || chosen == layout.PanelTimeline || chosen == layout.PanelEvents) {
			chosen = layout.PanelProducers
		}
		if chosen >= 0 {
			a.shown[s.Panels[0]] = chosen
		}
	}
}

// rectOf is where a panel is drawn; a hidden tab gets its slot's rectangle.
func (a *App) rectOf(p layout.PanelID) layout.Rect {
	if p == layout.PanelNarration {
		return a.place.Narration
	}
	if i := a.place.SlotOf(p); i >= 0 {
		return a.place.Slots[i].Rect
	}
	return layout.Rect{}
}

// bodyRect is everything between the header and the help bar: where the
// help and the detail view are drawn.
func (a *App) bodyRect() layout.Rect { return layout.Rect{X: 0, Y: 1, W: a.w, H: max(a.h-2, 0)} }

// layoutPanes sizes, titles and focuses the panes for the placement.
func (a *App) layoutPanes() {
	for p := range layout.NumPanels {
		r := a.rectOf(p)
		a.panes[p].SetSize(r.W, r.H)
		a.panes[p].SetFocused(p == a.focus)
	}
	a.layoutStepPane()
	for _, s := range a.place.Slots {
		a.panes[a.activeIn(s)].SetTitle(a.slotTitle(s))
	}
	r := a.place.Narration
	a.panes[layout.PanelNarration].SetTitle(a.titleFor(layout.PanelNarration, true) + "  " + panels.ProgressBar(a.th, a.frame.Step, a.frame.Steps, r.W-14))
	a.panes[layout.PanelNarration].SetFooter(a.narrationFooter())
	b := a.bodyRect()
	a.overlay.SetSize(b.W, b.H)
	a.overlay.SetFocused(true)
}

// narrationFooter is drawn in the lesson pane's bottom border: the keys
// that answer a pending question and open the step's details.
func (a *App) narrationFooter() string {
	var parts []string
	if cp := a.frame.Checkpoint; cp.Open() {
		if a.opts.Presenter {
			parts = append(parts, "a reveal")
		} else {
			parts = append(parts, a.answerKeys()+" answer")
		}
	}
	if panels.HasDetails(&a.frame) {
		parts = append(parts, a.keys.Details.Help().Key+" "+a.th.Sym.Note+" details")
	}
	if len(parts) == 0 {
		return ""
	}
	return a.th.Text(theme.TextAccent, strings.Join(parts, a.th.Sym.Sep))
}

// refresh reads the session's frame and rebuilds every pane's content. With
// reveal set (a step ran, or the lesson opened), each pane scrolls to show
// what the last step changed, and slots follow the step.
func (a *App) refresh(reveal bool) {
	if a.sess == nil {
		return
	}
	a.frame = a.sess.Frame()
	a.place = a.base
	if a.placeErr != nil {
		a.layoutPanes()
		return
	}
	f := &a.frame
	build := panelBuilders // the sandbox's panels, and the lesson's narration
	build[layout.PanelNarration] = panels.Narration
	draw := func(p layout.PanelID) panels.Drawn {
		// One cell of margin inside the right border.
		k := panels.DrawKey{Frame: f.Key, Width: max(a.rectOf(p).W-3, 0)}
		if p == layout.PanelNarration {
			k.Checkpoint = panels.CheckpointOf(f.Checkpoint)
		}
		return a.cache.Draw(p, k, f, a.th, build[p])
	}
	// The lesson pane first: its length decides how much room it takes
	// from the panels (a question with its choices must fit).
	narr := draw(layout.PanelNarration)
	a.place = a.base.WithNarration(narr.Body.Len() + len(narr.Head))
	if reveal {
		a.follow()
	}
	a.layoutPanes()
	for p := range layout.NumPanels {
		d := narr
		if p != layout.PanelNarration {
			d = draw(p)
		}
		anchor := d.Anchor
		if !reveal {
			anchor = content.NoRange
		}
		a.panes[p].SetContent(d.Head, d.Body, anchor)
	}
	a.layoutPanes()
	a.layoutStepPane()
	a.refreshOverlay()
}

// refreshOverlay fills the help or detail view for the current frame.
func (a *App) refreshOverlay() {
	b := a.bodyRect()
	a.overlay.SetSize(b.W, b.H)
	p := panels.Painter{Theme: a.th, Width: max(b.W-4, 0), Cache: a.cache}
	switch {
	case a.showDetail:
		a.overlay.SetTitle(a.th.Text(theme.TextTitle, "Details") + a.th.Text(theme.TextFaint, "  (d or esc closes)"))
		a.overlay.SetContent(nil, panels.Details(&a.frame, p), content.NoRange)
	case a.showFull:
		a.overlay.SetTitle(a.th.Text(theme.TextTitle, "Help") + a.th.Text(theme.TextFaint, "  (? or esc closes)"))
		a.overlay.SetContent(nil, panels.Indent(p.HelpLines(p.KeyLines(a.fullKeys()), a.lookingAtTimeline())), content.NoRange)
	}
	a.overlay.SetFooter("")
}

// kafkaLabel names the transaction protocol in force, as the header shows
// it: "Kafka 3.x · classic" for transaction.version 1, "Kafka 4.x ·
// KIP-890" for 2. It is "" for a session that does not say.
func (a *App) kafkaLabel(f *model.Frame) string {
	k := f.Kafka
	switch f.Protocol {
	case 1:
		k = 3
	case 2:
		k = 4
	}
	switch k {
	case 3:
		return "Kafka 3.x" + a.th.Sym.Sep + "classic"
	case 4:
		return "Kafka 4.x" + a.th.Sym.Sep + "KIP-890"
	}
	return ""
}

// otherKafka is the version the version key switches to.
func otherKafka(k int) int {
	if k == 4 {
		return 3
	}
	return 4
}

// switchKafka plays the lesson under the other Kafka version: the session
// restarts it and replays to the same step, and the status line says what
// the replay kept and where it stopped.
func (a *App) switchKafka() {
	sw, ok := a.sess.(model.KafkaSwitcher)
	if !ok || a.frame.Kafka == 0 {
		a.say(theme.Muted, "This lesson plays under one Kafka version only.")
		return
	}
	a.stop()
	r := sw.SwitchKafka(otherKafka(a.frame.Kafka))
	a.kafka = r.Kafka
	a.toLesson()
	a.showFull, a.showDetail = false, false
	a.refresh(true)
	msg := switchedText(r)
	if p := a.frame.Protocol; p != 0 && p != r.Kafka-2 {
		// The lesson set the protocol itself (an upgrade or a downgrade
		// on the way): the header names that one, not the one chosen.
		msg = "Kafka " + strconv.Itoa(r.Kafka) + ".x chosen; at this step the lesson sets its own protocol."
	}
	a.say(theme.Open, msg)
}

// switchedText is the status line after a version switch, short enough
// for an 80-column header: where the replay stopped, the answers kept,
// and an answer that the switch made right or wrong.
func switchedText(r model.Switched) string {
	s := "Now Kafka " + strconv.Itoa(r.Kafka) + ".x"
	switch {
	case r.Asked > 0:
		s += ": step " + strconv.Itoa(r.Asked) + " asks its question anew"
	case r.Pos > 0 && len(r.Flipped) == 0:
		s += ", at step " + strconv.Itoa(r.Pos)
	}
	if r.Kept > 0 {
		s += "; " + strconv.Itoa(r.Kept) + " answer" + panels.Plural(r.Kept) + " kept"
	}
	if len(r.Flipped) > 0 {
		now := "wrong"
		if r.NowRight {
			now = "right"
		}
		s += "; at step " + strconv.Itoa(r.Flipped[0]) + " your answer is now " + now
	}
	return s + "."
}

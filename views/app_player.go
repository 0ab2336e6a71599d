package views

import (
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"eoslab/views/theme"
)

func keyIs(km tea.KeyMsg, b key.Binding) bool { return b.Enabled() && key.Matches(km, b) }

// keyAny matches a binding whether or not it is enabled now, so a key that
// cannot act gets an explanation instead of silence. (key.Matches ignores
// disabled bindings.)
func keyAny(km tea.KeyMsg, b key.Binding) bool {
	k := km.String()
	for _, s := range b.Keys() {
		if s == k {
			return true
		}
	}
	return false
}

// playerKey handles a key on the player screen.
func (a *App) playerKey(km tea.KeyMsg) tea.Cmd {
	a.flash = ""
	k := a.keys
	switch {
	case keyAny(km, k.Quit):
		return tea.Quit
	case keyAny(km, k.List):
		if a.showFull {
			a.showFull = false
			return nil
		}
		a.closeLesson()
		return nil
	case keyAny(km, k.Help):
		a.showFull = !a.showFull
	case keyAny(km, k.Next):
		return a.manualNext()
	case keyAny(km, k.Back):
		a.stop()
		if a.sess.Back() {
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

func (a *App) tick() tea.Cmd {
	gen := a.gen
	return tea.Tick(speeds[a.speed], func(_ time.Time) tea.Msg { return autoplayMsg{gen: gen} })
}

func (a *App) stop() {
	if a.playing {
		a.playing = false
		a.gen++
	}
}

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
	if !a.advance() || a.blocked() != "" {
		a.stop()
		return nil
	}
	return a.tick()
}

func (a *App) onTick(m autoplayMsg) tea.Cmd {
	if !a.playing || m.gen != a.gen || a.screen != screenPlayer {
		return nil // stale: paused, stepped by hand or re-timed since
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
	a.speed = clamp(i, 0, len(speeds)-1)
	a.say(theme.Muted, "Autoplay: "+speedText(speeds[a.speed])+" a step.")
	if !a.playing {
		return nil
	}
	a.gen++
	return a.tick()
}

func (a *App) answerKeys() string {
	n := 4
	if cp := a.frame.Checkpoint; cp != nil {
		n = clamp(len(cp.Choices), 1, 4)
	}
	if n == 1 {
		return "1"
	}
	return "1-" + itoa(n)
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
	choice := int(km.String()[0] - '0')
	if choice < 1 || choice > len(cp.Choices) {
		a.say(theme.Open, "There is no choice "+km.String()+": press "+a.answerKeys()+".")
		return
	}
	correct, ok := a.sess.Answer(choice)
	if !ok {
		return
	}
	a.refresh(true)
	a.focusOn(PanelNarration)
	if correct {
		a.say(theme.Correct, a.th.Glyph(theme.Correct)+" Correct! Press "+a.keys.Next.Help().Key+" to see it happen.")
	} else {
		a.say(theme.Wrong, a.th.Glyph(theme.Wrong)+" Not quite. Read why, then press "+a.keys.Next.Help().Key+".")
	}
}

func (a *App) say(k theme.Kind, s string) { a.flash, a.flashKind = s, k }

// cycleFocus moves focus to the next (or previous) panel in tab order.
func (a *App) cycleFocus(d int) {
	n := int(numPanels)
	a.focusOn(PanelID(((int(a.focus)+d)%n + n) % n))
}

func (a *App) focusOn(p PanelID) {
	a.focus = p
	r := []PanelID{p}
	for _, q := range a.recent {
		if q != p {
			r = append(r, q)
		}
	}
	a.recent = r
	a.layoutPanes()
}

// activeIn is the panel a slot shows: the most recently focused of its
// panels, or its first.
func (a *App) activeIn(s Slot) PanelID {
	for _, p := range a.recent {
		for _, q := range s.Panels {
			if p == q {
				return p
			}
		}
	}
	return s.Panels[0]
}

// rectOf is where a panel is drawn; a hidden tab gets its slot's rectangle.
func (a *App) rectOf(p PanelID) Rect {
	if p == PanelNarration {
		return a.place.Narration
	}
	if i := a.place.SlotOf(p); i >= 0 {
		return a.place.Slots[i].Rect
	}
	return Rect{}
}

// layoutPanes sizes, titles and focuses the panes for the placement.
func (a *App) layoutPanes() {
	for p := range numPanels {
		r := a.rectOf(p)
		a.panes[p].SetSize(r.W, r.H)
		a.panes[p].SetFocused(p == a.focus)
	}
	for _, s := range a.place.Slots {
		a.panes[a.activeIn(s)].SetTitle(a.slotTitle(s))
	}
	r := a.place.Narration
	a.panes[PanelNarration].SetTitle(a.titleFor(PanelNarration, true) + "  " + progress(a.th, a.frame.Step, a.frame.Steps, r.W-14))
	a.keysPane.SetSize(r.W, r.H)
	a.keysPane.SetTitle(a.th.Text(theme.TextTitle, "Keys") + a.th.Text(theme.TextFaint, "  (? or esc closes)"))
}

// refresh reads the session's frame and rebuilds every pane's content. With
// reveal set, each pane scrolls to show what the last step changed.
func (a *App) refresh(reveal bool) {
	if a.sess == nil {
		return
	}
	a.frame = a.sess.Frame()
	a.layoutPanes()
	if a.placeErr != nil {
		return
	}
	f := &a.frame
	build := [numPanels]func(*Frame, painter) ([]string, Content, Range){
		PanelProducers:   producersContent,
		PanelPartitions:  partitionsContent,
		PanelCoordinator: coordinatorContent,
		PanelConsumers:   consumersContent,
		PanelTimeline:    timelineContent,
		PanelEvents:      eventsContent,
		PanelNarration:   narrationContent,
	}
	for p := range numPanels {
		// One cell of margin inside the right border.
		k := panelDrawKey{frame: f.Key, w: max(a.rectOf(p).W-3, 0)}
		if p == PanelNarration {
			k.cp = cpStateOf(f.Checkpoint)
		}
		d, ok := a.cache.get(p, k)
		if !ok {
			head, body, anchor := build[p](f, painter{th: a.th, w: k.w, cache: a.cache})
			d = panelDraw{key: k, head: head, body: memo(body), anchor: anchor}
			a.cache.put(p, d)
		}
		anchor := d.anchor
		if !reveal {
			anchor = noRange
		}
		a.panes[p].SetContent(d.head, d.body, anchor)
	}
	a.layoutPanes()
}

// panelChanged reports whether the last step changed something a panel
// shows, so a hidden tab can say so.
func panelChanged(f *Frame, p PanelID) bool {
	switch p {
	case PanelProducers:
		return anyOf(f.Producers, func(x ProducerView) bool { return x.Changed })
	case PanelPartitions:
		return anyOf(f.Partitions, func(x PartitionView) bool { return x.Changed })
	case PanelCoordinator:
		return anyOf(f.Coordinators, func(x CoordinatorView) bool { return x.Changed })
	case PanelConsumers:
		return anyOf(f.Consumers, func(x ConsumerView) bool { return x.Changed })
	case PanelTimeline:
		return anyOf(f.Timeline, func(x Arrow) bool { return x.Step == f.Step })
	case PanelEvents:
		return f.NewEvents > 0
	}
	return false
}

func anyOf[T any](xs []T, ok func(T) bool) bool {
	for _, x := range xs {
		if ok(x) {
			return true
		}
	}
	return false
}

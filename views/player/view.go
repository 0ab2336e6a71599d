package player

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"

	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/internal/keyset"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// titleFor is a panel's name as a tab: styled by focus, and marked when the
// last step changed something in it.
func (m *Model) titleFor(p layout.PanelID, active bool) string {
	name := p.String()
	var s string
	switch {
	case p == m.focus:
		s = m.th.Text(theme.TextFocusTitle, name)
	case active:
		s = m.th.Text(theme.TextTitle, name)
	default:
		s = m.th.Text(theme.TextFaint, name)
	}
	if m.draw.Changed(m.frame, p) {
		s += m.th.Render(theme.Changed, m.th.Glyph(theme.Changed))
	}
	return s
}

// lookingAtTimeline reports whether the Timeline is what the learner looks
// at: it has the focus, or it is the panel a shared slot shows (the one
// slot of a small terminal). The help then puts the Timeline's legend
// first.
func (m *Model) lookingAtTimeline() bool {
	if m.focus == layout.PanelTimeline {
		return true
	}
	for _, s := range m.place.Slots {
		if len(s.Panels) > 1 && m.activeIn(s) == layout.PanelTimeline {
			return true
		}
	}
	return false
}

// slotTitle lists a slot's panels as tabs, the shown one first in brackets
// when there are several, so the active tab reads without colour.
func (m *Model) slotTitle(s layout.Slot) string {
	act := m.activeIn(s)
	if len(s.Panels) == 1 {
		return m.titleFor(act, true)
	}
	out := ""
	for i, p := range s.Panels {
		if i > 0 {
			out += m.th.Text(theme.TextFaint, " ")
		}
		t := m.titleFor(p, p == act)
		if p == act {
			t = "[" + t + "]"
		}
		out += t
	}
	return out
}

// syncKeys enables exactly the bindings that can act now, which is what the
// help bar shows.
func (m *Model) syncKeys() {
	k := &m.keys
	on := m.sess != nil
	why := notBlocked
	if on {
		why = m.blocked()
	}
	cp := m.frame.Checkpoint
	k.Next.SetEnabled(on && why == notBlocked)
	k.Back.SetEnabled(on && m.sess.Pos() > 0)
	k.PlayPause.SetEnabled(on && (m.playing || why == notBlocked))
	if m.playing {
		k.PlayPause.SetHelp("p", "pause")
	} else {
		k.PlayPause.SetHelp("p", "play")
	}
	k.Slower.SetEnabled(on && m.speed > 0)
	k.Faster.SetEnabled(on && m.speed < len(speeds)-1)
	k.Restart.SetEnabled(on && m.sess.Pos() > 0)
	k.Answer.SetEnabled(on && cp.Open())
	if on {
		k.Answer.SetHelp(m.answerKeys(), "answer")
	}
	if m.opts.Presenter {
		k.Answer.SetHelp("a", "reveal")
	}
	if m.opts.Follow {
		for _, b := range []*key.Binding{&k.Next, &k.Back, &k.First, &k.Last, &k.PlayPause, &k.Slower, &k.Faster, &k.Restart, &k.Quit} {
			b.SetEnabled(false)
		}
	}
	k.Focus.SetEnabled(on)
	k.FocusBack.SetEnabled(on)
	k.Details.SetEnabled(on)
	// A class plays the Kafka version eoslab serve started it with.
	k.Kafka.SetEnabled(on && m.frame.Kafka != 0 && !m.opts.Follow && !m.opts.Presenter)
	if on && m.frame.Kafka != 0 {
		k.Kafka.SetHelp("v", "switch to Kafka "+strconv.Itoa(otherKafka(m.frame.Kafka)))
	}
	if m.open == DetailsOverlay {
		k.Details.SetHelp("d", "close details")
	} else {
		k.Details.SetHelp("d", "details")
	}
	overlay := on && m.open != NoOverlay
	// While a message is picked, esc closes it (the cursor takes it).
	k.List.SetEnabled((on && !m.opts.Follow && !m.Picking()) || overlay || m.open == HelpOverlay)
	switch {
	case m.open == HelpOverlay:
		k.List.SetHelp("esc", "close help")
	case overlay:
		k.List.SetHelp("esc", "close")
	default:
		k.List.SetHelp("esc", "lessons")
	}
	k.Help.SetEnabled(true)
	k.Quit.SetEnabled(true)
	if on {
		k.Quit.SetHelp("q", "leave")
	} else {
		k.Quit.SetHelp("q", "quit")
	}
	scroll := on && m.scrollPane().CanScroll()
	m.panes[m.focus].SetScrollEnabled(scroll)
	m.overlay.SetScrollEnabled(scroll)
}

// scrollPane is the pane the scroll keys move: an open overlay, else the
// focused panel.
func (m *Model) scrollPane() Pane {
	if m.open != NoOverlay {
		return m.overlay
	}
	return m.panes[m.focus]
}

// helpRank ranks the player's help entries: lower goes first when
// space runs out. Scrolling the lesson ranks high: when the text is longer
// than its pane, the help bar is where the learner learns how to read on.
var helpRank = map[string]int{"Kafka's side": 8, "switch to Kafka 3": 2, "switch to Kafka 4": 2, "restart": 1, "slower": 3, "faster": 3, "panels": 4, "scroll": 5,
	"play": 6, "pause": 6, "lessons": 7, "details": 8, "close details": 8, "back": 9,
	"scroll lesson": 10, "scroll details": 10, "scroll help": 10,
	"pick a message": 4, "pick": 4, "earlier/later": 11, "close message": 10}

// endRank is helpRank at the lesson's end, where restart and lessons
// rank above every other entry.
var endRank = func() map[string]int {
	r := maps.Clone(helpRank)
	r["restart"], r["lessons"] = 100, 100
	return r
}()

// helpKeys are the candidates for the player's help bar, before fitting.
func (m *Model) helpKeys() []key.Binding {
	k := m.keys
	what := "scroll"
	switch {
	case m.open == DetailsOverlay:
		what = "scroll details"
	case m.open == HelpOverlay:
		what = "scroll help"
	case m.focus == layout.PanelNarration:
		what = "scroll lesson"
	}
	// The root's side panel, while shown with the keys, takes the scroll
	// keys, its key and esc before the player sees them.
	onSide := m.sideScroll != "" && m.open == NoOverlay
	if onSide {
		what = m.sideScroll
	}
	scroll := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp(scrollHelp(m.th.ASCII), what))
	// While a message is picked, ↑/↓ move the cursor (pickHelp).
	scroll.SetEnabled(onSide || (m.scrollPane().ScrollEnabled() && (m.open != NoOverlay || !m.Picking())))
	// The speed keys act only while playing.
	ks := make([]key.Binding, 0, 16)
	ks = append(ks, k.Answer, scroll)
	if !onSide {
		ks = append(ks, m.pickHelp()...)
	}
	ks = append(ks, k.Next, k.Back, k.Details, k.PlayPause)
	if m.playing {
		ks = append(ks, k.Slower, k.Faster)
	}
	side := m.sideKey()
	side.SetEnabled(side.Enabled() && m.open == NoOverlay) // the root acts on it over the panels only
	list := k.List
	if onSide && m.sideBack != "" {
		// The side key and esc do the same there: one entry.
		keys := append(slices.Clone(side.Keys()), list.Keys()...)
		side = key.NewBinding(key.WithKeys(keys...), key.WithHelp(side.Help().Key+"/"+list.Help().Key, m.sideBack))
		list.SetEnabled(false)
	}
	return append(ks, k.Restart, k.Kafka, side, k.Focus, list, k.Help, k.Quit)
}

// sideKey is the root's key for the side panel (Options.Side.Key), off
// when there is none.
func (m *Model) sideKey() key.Binding {
	if s := m.opts.Side; s != nil && len(s.Key.Keys()) > 0 {
		return s.Key
	}
	return key.NewBinding(key.WithDisabled())
}

// helpBar is the player's help bar. It is drawn again only when the
// keys that can act or the width change: the help model renders every
// entry with lipgloss, several times while fitting it.
func (m *Model) helpBar() string {
	ks := m.helpKeys()
	var b strings.Builder
	b.WriteString(strconv.Itoa(m.w))
	for _, k := range ks {
		if k.Enabled() {
			h := k.Help()
			b.WriteString("\x00" + h.Key + "\x01" + h.Desc)
		}
	}
	sig := b.String()
	if line, ok := m.helpDrawn.Get(sig); ok {
		return line
	}
	rank := helpRank
	if m.sess.Pos() >= m.sess.Len() {
		// At the lesson's end, restarting or going back to the list is
		// what is left to do: the title bar says "Lesson complete" and
		// the help bar keeps r and esc.
		rank = endRank
	}
	if m.sideScroll != "" && m.open == NoOverlay {
		// The side's keys rank as the lesson's scroll and back do.
		rank = maps.Clone(rank)
		rank[m.sideScroll], rank[m.sideBack] = helpRank["scroll lesson"], helpRank["back"]
	}
	line := m.help.ShortHelpView(keyset.Fit(*m.help, ks, rank, m.w))
	m.helpDrawn.Put(sig, line)
	return line
}

func scrollHelp(ascii bool) string {
	if ascii {
		return "up/down"
	}
	return "↑/↓"
}

// fullKeys are the columns of the full help.
func (m *Model) fullKeys() [][]key.Binding {
	k, sk := m.keys, m.opts.ScrollKeys
	cols := [][]key.Binding{
		{k.Next, k.Back, k.First, k.Last, k.Restart, k.Answer},
		{k.PlayPause, k.Slower, k.Faster, k.Details, k.Kafka, m.sideKey()},
		{k.Focus, k.FocusBack, sk.Up, sk.Down},
		{sk.PageUp, sk.PageDown, sk.Top, sk.Bottom},
	}
	if m.pick != nil {
		// The cursor's keys, on the Timeline (tab to it first).
		pk := m.pick.Keys()
		if m.th.ASCII {
			for i := range pk {
				theme.ASCIIHelp(&pk[i])
			}
		}
		cols = append(cols, pk)
	}
	return append(cols, []key.Binding{k.Help, k.List, k.Quit, k.QuitNow})
}

// View draws the player: the header, the panels in their slots (or the
// help or details over them) and the help bar. Every line fits the width
// and there are never more lines than the height.
func (m Model) View() string {
	if m.w <= 0 || m.h <= 0 || m.sess == nil {
		return ""
	}
	if m.placeErr != nil {
		return layout.Center(m.placeErr.Error(), m.w, m.h)
	}
	pl := m.place
	blocks := []layout.Block{
		{Rect: pl.Header, Lines: []string{m.headerLine()}, Exact: false},
		{Rect: pl.Help, Lines: []string{m.helpBar()}, Exact: false},
	}
	if m.open != NoOverlay {
		blocks = append(blocks, layout.Block{Rect: m.bodyRect(), Lines: m.overlay.Lines(), Exact: true})
		return layout.Compose(m.w, m.h, blocks)
	}
	step := m.stepSlot()
	for i, s := range pl.Slots {
		if i == step {
			blocks = append(blocks, layout.Block{Rect: s.Rect, Lines: m.stepPane.Lines(), Exact: true})
			continue
		}
		blocks = append(blocks, layout.Block{Rect: s.Rect, Lines: m.panes[m.activeIn(s)].Lines(), Exact: true})
	}
	blocks = append(blocks, layout.Block{Rect: pl.Narration, Lines: m.panes[layout.PanelNarration].Lines(), Exact: true})
	return layout.Compose(m.w, m.h, blocks)
}

// kafkaLabel names the transaction protocol in force, as the header shows
// it: "Kafka 3.x · classic" for transaction.version 1, "Kafka 4.x ·
// KIP-890" for 2. It is "" for a session that does not say.
func (m *Model) kafkaLabel(f *model.Frame) string {
	k := f.Kafka
	switch f.Protocol {
	case 1:
		k = 3
	case 2:
		k = 4
	}
	switch k {
	case 3:
		return "Kafka 3.x" + m.th.Sym.Sep + "classic"
	case 4:
		return "Kafka 4.x" + m.th.Sym.Sep + "KIP-890"
	}
	return ""
}

// headerLine is the app name and lesson title on the left, and a message or
// the autoplay state on the right.
func (m *Model) headerLine() string {
	th := m.th
	left := th.Text(theme.TextHeader, " eoslab ") + " "
	if v := m.kafkaLabel(m.frame); v != "" {
		left += th.Text(theme.TextAccent, v) + "  "
	}
	left += th.Text(theme.TextBold, cells.Clean(m.sess.Title()))
	var right string
	switch {
	case m.flash != "":
		right = th.Render(m.flashKind, m.flash)
	case m.opts.Follow:
		right = th.Text(theme.TextFaint, "following the presenter")
	case m.playing:
		right = th.Text(theme.TextAccent, th.Sym.Play+" playing") + th.Text(theme.TextFaint, " "+speedText(speeds[m.speed])+"/step")
	default:
		right = th.Text(theme.TextFaint, th.Sym.Pause+" paused  p plays")
	}
	right += " "
	lw := m.w - cells.Width(right) - 1
	if lw < 20 && m.flash != "" {
		// A message matters more than the title, which is on the list.
		app := th.Text(theme.TextHeader, " eoslab ")
		return app + " " + cells.Fit(right, m.w-cells.Width(app)-1, th.Sym.Ellipsis)
	}
	if lw < 20 {
		return cells.Fit(left, m.w, th.Sym.Ellipsis)
	}
	return cells.Fit(left, lw, th.Sym.Ellipsis) + " " + right
}

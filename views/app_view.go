package views

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"

	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/pane"
	"github.com/eoslab/eoslab/views/panels"
	"github.com/eoslab/eoslab/views/theme"
)

func speedText(d time.Duration) string {
	return fmt.Sprintf("%.1fs", d.Seconds())
}

// titleFor is a panel's name as a tab: styled by focus, and marked when the
// last step changed something in it.
func (a *App) titleFor(p layout.PanelID, active bool) string {
	name := p.String()
	var s string
	switch {
	case p == a.focus:
		s = a.th.Text(theme.TextFocusTitle, name)
	case active:
		s = a.th.Text(theme.TextTitle, name)
	default:
		s = a.th.Text(theme.TextFaint, name)
	}
	if panels.Changed(&a.frame, p) {
		s += a.th.Render(theme.Changed, a.th.Glyph(theme.Changed))
	}
	return s
}

// lookingAtTimeline reports whether the Timeline is what the learner looks
// at: it has the focus, or it is the panel a shared slot shows (the one
// slot of a small terminal). The help then puts the Timeline's legend
// first.
func (a *App) lookingAtTimeline() bool {
	if a.focus == layout.PanelTimeline {
		return true
	}
	for _, s := range a.place.Slots {
		if len(s.Panels) > 1 && a.activeIn(s) == layout.PanelTimeline {
			return true
		}
	}
	return false
}

// slotTitle lists a slot's panels as tabs, the shown one first in brackets
// when there are several, so the active tab reads without colour.
func (a *App) slotTitle(s layout.Slot) string {
	act := a.activeIn(s)
	if len(s.Panels) == 1 {
		return a.titleFor(act, true)
	}
	out := ""
	for i, p := range s.Panels {
		if i > 0 {
			out += a.th.Text(theme.TextFaint, " ")
		}
		t := a.titleFor(p, p == act)
		if p == act {
			t = "[" + t + "]"
		}
		out += t
	}
	return out
}

// syncKeys enables exactly the bindings that can act now, which is what the
// help bar shows.
func (a *App) syncKeys() {
	k := &a.keys
	inPlayer := a.screen == screenPlayer && a.sess != nil
	why := ""
	if inPlayer {
		why = a.blocked()
	}
	cp := a.frame.Checkpoint
	k.Next.SetEnabled(inPlayer && why == "")
	k.Back.SetEnabled(inPlayer && a.sess.Pos() > 0)
	k.PlayPause.SetEnabled(inPlayer && (a.playing || why == ""))
	if a.playing {
		k.PlayPause.SetHelp("p", "pause")
	} else {
		k.PlayPause.SetHelp("p", "play")
	}
	k.Slower.SetEnabled(inPlayer && a.speed > 0)
	k.Faster.SetEnabled(inPlayer && a.speed < len(speeds)-1)
	k.Restart.SetEnabled(inPlayer && a.sess.Pos() > 0)
	k.Answer.SetEnabled(inPlayer && cp.Open())
	if inPlayer {
		k.Answer.SetHelp(a.answerKeys(), "answer")
	}
	if a.opts.Presenter {
		k.Answer.SetHelp("a", "reveal")
	}
	if a.opts.Follow {
		for _, b := range []*key.Binding{&k.Next, &k.Back, &k.First, &k.Last, &k.PlayPause, &k.Slower, &k.Faster, &k.Restart, &k.Quit} {
			b.SetEnabled(false)
		}
	}
	k.Focus.SetEnabled(inPlayer)
	k.FocusBack.SetEnabled(inPlayer)
	k.Details.SetEnabled(inPlayer)
	// A class plays the Kafka version eoslab serve started it with.
	k.Kafka.SetEnabled(inPlayer && a.frame.Kafka != 0 && !a.opts.Follow && !a.opts.Presenter)
	if inPlayer && a.frame.Kafka != 0 {
		k.Kafka.SetHelp("v", "switch to Kafka "+strconv.Itoa(otherKafka(a.frame.Kafka)))
	}
	if a.showDetail {
		k.Details.SetHelp("d", "close details")
	} else {
		k.Details.SetHelp("d", "details")
	}
	overlay := inPlayer && (a.showFull || a.showDetail)
	k.List.SetEnabled((inPlayer && !a.opts.Follow) || overlay || a.showFull)
	switch {
	case a.showFull:
		k.List.SetHelp("esc", "close help")
	case overlay:
		k.List.SetHelp("esc", "close")
	default:
		k.List.SetHelp("esc", "lessons")
	}
	k.Help.SetEnabled(true)
	k.Quit.SetEnabled(true)
	if inPlayer {
		k.Quit.SetHelp("q", "leave")
	} else {
		k.Quit.SetHelp("q", "quit")
	}

	scroll := inPlayer && a.scrollPane().CanScroll()
	for _, pk := range []*pane.KeyMap{&a.panes[a.focus].KeyMap, &a.overlay.KeyMap} {
		for _, b := range []*key.Binding{&pk.Up, &pk.Down, &pk.PageUp, &pk.PageDown, &pk.Top, &pk.Bottom} {
			b.SetEnabled(scroll)
		}
	}
}

// scrollPane is the pane the scroll keys move: an open overlay, else the
// focused panel.
func (a *App) scrollPane() *pane.Model {
	if a.showFull || a.showDetail {
		return a.overlay
	}
	return &a.panes[a.focus]
}

// shortKeys are the bindings of the one-line help bar, in display order.
// When they do not fit, the least useful are left out first, so "q quit"
// survives a narrow terminal and "r restart" does not crowd it out.
func (a *App) shortKeys() []key.Binding {
	if a.screen == screenHome {
		ks := a.home.HelpKeys()
		if a.home.Filtering() {
			return ks
		}
		return a.fitHelp(append(ks, a.keys.Help, a.keys.Quit), nil)
	}
	return a.fitHelp(a.playerKeys(), playerHelpRank)
}

// playerHelpRank ranks the player's help entries: lower goes first when
// space runs out. Scrolling the lesson ranks high: when the text is longer
// than its pane, the help bar is where the learner learns how to read on.
var playerHelpRank = map[string]int{"switch to Kafka 3": 2, "switch to Kafka 4": 2, "restart": 1, "slower": 3, "faster": 3, "panels": 4, "scroll": 5,
	"play": 6, "pause": 6, "lessons": 7, "details": 8, "close details": 8, "back": 9,
	"scroll lesson": 10, "scroll details": 10, "scroll help": 10}

// playerKeys are the candidates for the player's help bar, before fitting.
func (a *App) playerKeys() []key.Binding {
	k := a.keys
	what := "scroll"
	switch {
	case a.showDetail:
		what = "scroll details"
	case a.showFull:
		what = "scroll help"
	case a.focus == layout.PanelNarration:
		what = "scroll lesson"
	}
	scroll := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp(scrollHelp(a.th.ASCII), what))
	scroll.SetEnabled(a.scrollPane().KeyMap.Up.Enabled())
	// The speed keys act only while playing.
	ks := []key.Binding{k.Answer, scroll, k.Next, k.Back, k.Details, k.PlayPause}
	if a.playing {
		ks = append(ks, k.Slower, k.Faster)
	}
	return append(ks, k.Restart, k.Kafka, k.Focus, k.List, k.Help, k.Quit)
}

// playerHelp is the player's help bar. It is drawn again only when the
// keys that can act or the width change: the help model renders every
// entry with lipgloss, several times while fitting it.
func (a *App) playerHelp() string {
	ks := a.playerKeys()
	var b strings.Builder
	b.WriteString(strconv.Itoa(a.w))
	for _, k := range ks {
		if k.Enabled() {
			h := k.Help()
			b.WriteString("\x00" + h.Key + "\x01" + h.Desc)
		}
	}
	sig := b.String()
	if line, ok := a.helpDrawn.get(sig); ok {
		return line
	}
	line := a.help.ShortHelpView(a.fitHelp(ks, playerHelpRank))
	a.helpDrawn.put(sig, line)
	return line
}

// fitHelp drops disabled bindings, then the lowest-ranked ones until the
// help line fits the width.
func (a *App) fitHelp(ks []key.Binding, rank map[string]int) []key.Binding {
	var out []key.Binding
	for _, b := range ks {
		if b.Enabled() {
			out = append(out, b)
		}
	}
	// Measure without the help model's own clipping (Width 0 is unlimited).
	measure := *a.help
	measure.Width = 0
	for len(out) > 1 && cells.Width(measure.ShortHelpView(out)) > a.w {
		drop, low := -1, 1<<30
		for i, b := range out {
			if r, ok := rank[b.Help().Desc]; ok && r < low {
				drop, low = i, r
			}
		}
		if drop < 0 {
			break
		}
		out = append(out[:drop], out[drop+1:]...)
	}
	return out
}

func scrollHelp(ascii bool) string {
	if ascii {
		return "up/down"
	}
	return "↑/↓"
}

// fullKeys are the columns of the full help.
func (a *App) fullKeys() [][]key.Binding {
	k := a.keys
	if a.screen == screenHome {
		return [][]key.Binding{a.home.HelpKeys(), {k.Help, k.Quit}}
	}
	pk := a.paneKeys
	return [][]key.Binding{
		{k.Next, k.Back, k.First, k.Last, k.Restart, k.Answer},
		{k.PlayPause, k.Slower, k.Faster, k.Details, k.Kafka},
		{k.Focus, k.FocusBack, pk.Up, pk.Down},
		{pk.PageUp, pk.PageDown, pk.Top, pk.Bottom},
		{k.Help, k.List, k.Quit, k.QuitNow},
	}
}

// View implements tea.Model. Every line fits the terminal's width and there
// are never more lines than its height.
func (a App) View() string {
	s := a.view()
	if a.th.ASCII {
		s = cells.ASCIIOnly(s)
	}
	return s
}

func (a App) view() string {
	if a.w <= 0 || a.h <= 0 {
		return ""
	}
	if a.screen == screenSandbox && a.sandbox != nil {
		return a.sandbox.View()
	}
	if a.placeErr != nil {
		return layout.Center(a.placeErr.Error(), a.w, a.h)
	}
	if a.screen == screenDrill && a.drill.Open() {
		d := a.drill
		d.SetNote(a.home.Status())
		return d.View()
	}
	if a.screen == screenHome || a.sess == nil {
		return a.homeView()
	}
	pl := a.place
	blocks := []layout.Block{
		{Rect: pl.Header, Lines: []string{a.headerLine()}, Exact: false},
		{Rect: pl.Help, Lines: []string{a.playerHelp()}, Exact: false},
	}
	if a.showFull || a.showDetail {
		blocks = append(blocks, layout.Block{Rect: a.bodyRect(), Lines: a.overlay.Lines(), Exact: true})
		return layout.Compose(a.w, a.h, blocks)
	}
	step := a.stepSlot()
	for i, s := range pl.Slots {
		if i == step {
			blocks = append(blocks, layout.Block{Rect: s.Rect, Lines: a.stepPane.Lines(), Exact: true})
			continue
		}
		blocks = append(blocks, layout.Block{Rect: s.Rect, Lines: a.panes[a.activeIn(s)].Lines(), Exact: true})
	}
	blocks = append(blocks, layout.Block{Rect: pl.Narration, Lines: a.panes[layout.PanelNarration].Lines(), Exact: true})
	return layout.Compose(a.w, a.h, blocks)
}

func (a App) homeView() string {
	home := *a.home
	var full []string
	if a.showFull {
		full = append([]string{""}, cells.SplitLines(a.help.FullHelpView(a.fullKeys()))...)
		home.SetSize(a.w, max(a.h-2-len(full), 0))
	}
	lines := append(cells.SplitLines(home.View()), full...)
	status := a.home.StatusLine()
	return layout.Compose(a.w, a.h, []layout.Block{
		{Rect: layout.Rect{X: 0, Y: 0, W: a.w, H: a.h - 2}, Lines: lines, Exact: false},
		{Rect: layout.Rect{X: 0, Y: a.h - 2, W: a.w, H: 1}, Lines: []string{" " + status}, Exact: false},
		{Rect: layout.Rect{X: 0, Y: a.h - 1, W: a.w, H: 1}, Lines: []string{a.help.ShortHelpView(a.shortKeys())}, Exact: false},
	})
}

// headerLine is the app name and lesson title on the left, and a message or
// the autoplay state on the right.
func (a App) headerLine() string {
	th := a.th
	left := th.Text(theme.TextHeader, " eoslab ") + " "
	if v := a.kafkaLabel(&a.frame); v != "" {
		left += th.Text(theme.TextAccent, v) + "  "
	}
	left += th.Text(theme.TextBold, cells.Clean(a.sess.Title()))
	var right string
	switch {
	case a.flash != "":
		right = th.Render(a.flashKind, a.flash)
	case a.opts.Follow:
		right = th.Text(theme.TextFaint, "following the presenter")
	case a.playing:
		right = th.Text(theme.TextAccent, th.Sym.Play+" playing") + th.Text(theme.TextFaint, " "+speedText(speeds[a.speed])+"/step")
	default:
		right = th.Text(theme.TextFaint, th.Sym.Pause+" paused  p plays")
	}
	right += " "
	lw := a.w - cells.Width(right) - 1
	if lw < 20 && a.flash != "" {
		// A message matters more than the title, which is on the list.
		app := th.Text(theme.TextHeader, " eoslab ")
		return app + " " + cells.Fit(right, a.w-cells.Width(app)-1, th.Sym.Ellipsis)
	}
	if lw < 20 {
		return cells.Fit(left, a.w, th.Sym.Ellipsis)
	}
	return cells.Fit(left, lw, th.Sym.Ellipsis) + " " + right
}

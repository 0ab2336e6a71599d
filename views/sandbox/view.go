package sandbox

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// The sandbox's screen: a header, the safeguards bar, the waiting list and
// the guarantee monitors on the left, the player's panels on the right (the
// Timeline first), a broken monitor's cause chain under them until it is
// dismissed, and a status line (or the prompt) above the help line.

// Smallest sandbox screen. It is two lines taller than the player's
// (layout.MinHeight): the sandbox has a safeguards bar and a status line
// the player has not, above the same panels.
const (
	minW = 60
	minH = 20
)

// tooSmall reports whether the terminal is below the smallest screen:
// the view says so, and only q acts.
func (s Model) tooSmall() bool { return s.w < minW || s.h < minH }

// areas is where every part of the sandbox goes for one size.
type areas struct {
	header, goal, bar, list, mons, main, side, cause, status, help, body layout.Rect
}

// wide reports whether the Timeline and a second panel fit side by side.
func (s *Model) wide() bool { return s.w >= 150 && s.h >= 30 }

// barLines is the safeguards bar, one switch an item: its key, a tick or a
// cross with a word, the setting as written, and "not a Kafka setting" for
// the teaching-only switches.
func (s *Model) barLines() []string {
	th := s.th
	var items, na []string
	for i, g := range s.guards {
		if !g.Available {
			na = append(na, strconv.Itoa(i+1))
			continue
		}
		st := th.Mark(theme.Committed, "on")
		if !g.On {
			st = th.Mark(theme.Violated, "OFF")
		}
		label := cells.Clean(g.Key) + "=" + cells.Clean(g.Value)
		if !s.wide() {
			label = compactGuard(g)
		}
		it := th.Text(theme.TextAccent, strconv.Itoa(i+1)) + " " + label + " " + st
		if g.NotKafka && s.wide() {
			it += th.Text(theme.TextFaint, " (not a Kafka setting)")
		}
		items = append(items, it)
	}
	if len(na) > 0 {
		items = append(items, th.Text(theme.TextFaint, strings.Join(na, ",")+": n/a here"))
	}
	if !s.wide() {
		items = append(items, th.Text(theme.TextFaint, "*not a Kafka setting"))
	}
	lead := th.Text(theme.TextBold, " Safeguards ")
	return s.opts.Draw.Flow(s.w-1, lead, items, th.Text(theme.TextFaint, " "+th.Sym.Sep+" "), 1)
}

// compactGuard is a switch's label on a narrow screen: the value where it
// says more than on or off, and a star on the teaching-only switches.
func compactGuard(g model.Safeguard) string {
	switch g.ID {
	case model.GuardIdempotence:
		return "idempotence"
	case model.GuardIsolation, model.GuardOffsets:
		if g.ID == model.GuardOffsets {
			return "offsets=" + cells.Clean(g.Value)
		}
		// The safeguard's name, whatever the setting: with on or OFF
		// after it, "read_uncommitted OFF" would say the opposite.
		return "read_committed"
	case model.GuardDedup:
		return "dedup*"
	case model.GuardFencing:
		return "fencing*"
	}
	return "LSO*"
}

func (s *Model) rects() areas {
	var r areas
	bar := len(s.bar)
	r.header = layout.Rect{X: 0, Y: 0, W: s.w, H: 1}
	g := s.goalRows()
	r.goal = layout.Rect{X: 0, Y: 1, W: s.w, H: g}
	r.bar = layout.Rect{X: 0, Y: 1 + g, W: s.w, H: bar}
	r.status = layout.Rect{X: 0, Y: s.h - 2, W: s.w, H: 1}
	r.help = layout.Rect{X: 0, Y: s.h - 1, W: s.w, H: 1}
	top := 1 + g + bar
	bodyH := max(s.h-top-2, 0)
	r.body = layout.Rect{X: 0, Y: top, W: s.w, H: bodyH}
	left := max(25, min(s.w*2/5, 60))
	monH := min(len(s.monitors)+2, bodyH/2+1)
	r.list = layout.Rect{X: 0, Y: top, W: left, H: bodyH - monH}
	r.mons = layout.Rect{X: 0, Y: top + bodyH - monH, W: left, H: monH}
	rw := s.w - left
	causeH := 0
	if s.shown != "" {
		causeH = min(s.causeLen(rw-4)+2, bodyH/2)
	}
	mainH := bodyH - causeH
	r.cause = layout.Rect{X: left, Y: top + mainH, W: rw, H: causeH}
	if s.wide() {
		mw := rw * 3 / 5
		r.main = layout.Rect{X: left, Y: top, W: mw, H: mainH}
		r.side = layout.Rect{X: left + mw, Y: top, W: rw - mw, H: mainH}
	} else {
		r.main = layout.Rect{X: left, Y: top, W: rw, H: mainH}
	}
	return r
}

// mainPanel and sidePanel are the panels on the right: on a wide screen
// the Timeline and the one tab picks, else the one tab picks.
func (s *Model) mainPanel() layout.PanelID {
	if s.wide() {
		return layout.PanelTimeline
	}
	return s.right
}

func (s *Model) sidePanel() layout.PanelID {
	return layout.Beside(s.right)
}

// layout sizes the panes and fills them from the values read by refresh.
func (s *Model) layout() {
	if s.sess == nil || s.w < minW || s.h < minH {
		return
	}
	r := s.rects()
	s.fillPanel(s.mainPanel(), r.main)
	if s.wide() {
		s.fillPanel(s.sidePanel(), r.side)
	}
	s.fillList()
	s.fillMonitors(r.mons)
	s.fillCause(r.cause)
	if s.mode.overlay() {
		s.fillOverlay(r.body)
	}
}

func (s *Model) fillPanel(id layout.PanelID, rc layout.Rect) {
	// One cell of margin inside the right border.
	head, body, anchor := s.panel(id, &s.frame, max(rc.W-3, 0))
	p := s.panes[id]
	p.SetSize(rc.W, rc.H)
	title := s.th.Text(theme.TextTitle, id.String())
	if !s.wide() {
		title += s.th.Text(theme.TextFaint, "  tab: "+s.nextPanel().String())
	} else if id != layout.PanelTimeline {
		title += s.th.Text(theme.TextFaint, "  tab: "+s.nextPanel().String())
	}
	p.SetTitle(title)
	p.SetContent(head, body, anchor)
}

// fillList draws the waiting list: the selected item in full, the others
// on one line each.
func (s *Model) fillList() {
	if s.sess == nil || s.w < minW || s.h < minH {
		return
	}
	r := s.rects().list
	th := s.th
	w := max(r.W-3, 1)
	var lines []string
	sel := 0
	for i, it := range s.waiting {
		text := it.Kind + " " + cells.Clean(it.Text)
		if !it.Timer {
			text = "m" + strconv.FormatInt(it.ID, 10) + " " + text
		} else {
			text = "timer " + text
		}
		due := th.Text(theme.TextFaint, " (in "+strconv.FormatInt(it.In, 10)+" ms)")
		if i == s.sel {
			sel = len(lines)
			for j, l := range cells.Wrap(text, w-2) {
				lead := "  "
				if j == 0 {
					lead = th.Text(theme.TextAccent, s.th.Sym.Cursor) + " "
				}
				lines = append(lines, lead+th.Text(theme.TextBold, l))
			}
			lines[len(lines)-1] += due
			continue
		}
		lines = append(lines, "  "+cells.Fit(text, w-2, th.Sym.Ellipsis))
	}
	if len(lines) == 0 {
		lines = cells.Wrap("Nothing is waiting. "+s.waitingHint()+"; : takes any scenario line.", w)
		for i := range lines {
			lines[i] = th.Text(theme.TextFaint, lines[i])
		}
	}
	s.list.SetSize(r.W, r.H)
	s.list.SetFocused(true)
	s.list.SetTitle(th.Text(theme.TextFocusTitle, "Waiting") + th.Text(theme.TextFaint, " "+strconv.Itoa(len(s.waiting))+"  enter delivers, x drops"))
	s.list.SetContent(nil, content.Lines(lines), content.Range{From: sel, To: sel})
}

func (s *Model) fillMonitors(r layout.Rect) {
	th := s.th
	var lines []string
	broken := 0
	for _, m := range s.monitors {
		// Borders and margin take 3 cells, the glyph and a space more,
		// and "BROKEN " 7.
		text, room := m.Sentence, r.W-4-cells.Width(th.Glyph(theme.Committed))
		if !m.Holds {
			room = r.W - 4 - cells.Width(th.Glyph(theme.Violated)) - 7
		}
		if cells.Width(text) > room && m.Short != "" {
			text = m.Short
		}
		if m.Holds {
			lines = append(lines, th.Mark(theme.Committed, text))
			continue
		}
		broken++
		lines = append(lines, th.Mark(theme.Violated, "BROKEN "+text))
	}
	s.mons.SetSize(r.W, r.H)
	title := th.Text(theme.TextTitle, "Guarantees") + th.Text(theme.TextFaint, " "+strconv.Itoa(len(s.monitors)-broken)+" hold")
	if broken > 0 {
		title += " " + th.Render(theme.Violated, strconv.Itoa(broken)+" broken")
	}
	s.mons.SetTitle(title)
	s.mons.SetContent(nil, content.Lines(lines), content.NoRange)
}

// causeLines is the cause chain on screen, wrapped to w.
func (s *Model) causeLines(w int) []string {
	if c := &s.causeMemo; c.lines != nil && c.w == w {
		return c.lines
	}
	out := s.wrapCause(w)
	s.causeMemo.w, s.causeMemo.lines = w, out
	return out
}

func (s *Model) wrapCause(w int) []string {
	for _, m := range s.monitors {
		if m.Name != s.shown {
			continue
		}
		var out []string
		for i, c := range m.Cause {
			lead := strconv.Itoa(i+1) + ". "
			for j, l := range cells.Wrap(cells.Clean(c), max(w-len(lead), 8)) {
				if j == 0 {
					out = append(out, s.th.Text(theme.TextAccent, lead)+l)
				} else {
					out = append(out, cells.Repeat(" ", len(lead))+l)
				}
			}
		}
		return out
	}
	return nil
}

func (s *Model) causeLen(w int) int { return len(s.causeLines(w)) }

func (s *Model) fillCause(r layout.Rect) {
	if s.shown == "" {
		return
	}
	sentence := ""
	for _, m := range s.monitors {
		if m.Name == s.shown {
			sentence = m.Sentence
		}
	}
	s.cause.SetSize(r.W, r.H)
	s.cause.SetFocused(true)
	s.cause.SetTitle(s.th.Mark(theme.Violated, "Why \""+sentence+"\" broke") + s.th.Text(theme.TextFaint, "  esc dismisses; ! marks it on the Timeline"))
	s.cause.SetContent(nil, content.Lines(s.causeLines(max(r.W-4, 10))), content.NoRange)
}

func (s *Model) fillOverlay(r layout.Rect) {
	w := max(r.W-4, 0)
	s.over.SetSize(r.W, r.H)
	s.over.SetFocused(true)
	if s.mode == modeComparing {
		s.fillCompare(w)
		return
	}
	var lines []string
	if s.mode == modeSolution {
		s.fillSolution(r)
		return
	}
	if s.mode == modeBreakPick || s.mode == modeNarrate {
		s.fillBreak(r)
		return
	}
	if s.mode == modeBranches {
		s.over.SetTitle(s.th.Text(theme.TextTitle, "Branches") + s.th.Text(theme.TextFaint, "  1-9 switches, n names, N notes it, a notes this step, esc closes"))
		for i, b := range s.branches {
			l := strconv.Itoa(i+1) + "  " + b.Name + ": " + strconv.Itoa(b.Len) + " action(s)"
			if b.Parent >= 0 && b.At > 0 {
				l += ", from " + s.branches[b.Parent].Name + " at step " + strconv.Itoa(b.At)
			} else if b.Parent >= 0 {
				l += ", " + s.branches[b.Parent].Name + "'s actions played again"
			}
			if i == s.sess.Branch() {
				l = s.th.Text(theme.TextAccent, s.th.Sym.Cursor) + " " + s.th.Text(theme.TextBold, l) + "  (you are here, step " + strconv.Itoa(s.sess.Pos()) + ")"
			} else {
				l = "  " + l
			}
			lines = append(lines, l)
			lines = append(lines, s.branchNotes(b, w)...)
		}
		lines = append(lines, "", s.th.Text(theme.TextFaint, "Going back (←) and then acting starts a new branch; the old one stays here."))
	} else {
		s.over.SetTitle(s.th.Text(theme.TextTitle, "Sandbox help") + s.th.Text(theme.TextFaint, "  ? or esc closes"))
		lines = append(lines, s.th.RenderBold(theme.Plain, "Keys"))
		lines = append(lines, s.opts.Draw.KeyLines(s.th, w, s.keys.full(s.gl != nil && s.gl.on))...)
		for _, t := range []string{"",
			"Every key is one action and one line of the scenario language; the status line shows it. : takes any line (tab completes, up/down recall). w saves the branch as a scenario file.",
			"", "The safeguards bar switches Kafka settings (1-3) and three teaching-only switches (4-6) that no Kafka has. Switching one plays your actions again on a new branch.",
			"", "A broken guarantee shows the events that led to it, oldest first; the Timeline marks their messages with !."} {
			lines = append(lines, cells.Wrap(t, w)...)
		}
		lines = append(lines, "")
		lines = append(lines, s.opts.Draw.Legend(s.th, w)...)
	}
	// One cell of margin from the border, as the player's prose has.
	for i, l := range lines {
		lines[i] = " " + l
	}
	s.over.SetContent(nil, content.Lines(lines), content.NoRange)
}

// View implements tea.Model.
func (s Model) View() string {
	v := s.view()
	if s.th.ASCII {
		v = cells.ASCIIOnly(v)
	}
	return v
}

func (s Model) view() string {
	if s.w <= 0 || s.h <= 0 {
		return ""
	}
	if s.tooSmall() {
		msg := "terminal too small for the sandbox: need " + strconv.Itoa(minW) + "x" + strconv.Itoa(minH) +
			" (have " + strconv.Itoa(s.w) + "x" + strconv.Itoa(s.h) + "); resize to act; q quits"
		if s.mode == modeLeaving {
			msg = s.flash + " (y leaves)"
		}
		return layout.Center(msg, s.w, s.h)
	}
	if s.mode == modePicking {
		return s.pickerView()
	}
	r := s.rects()
	blocks := []layout.Block{
		{Rect: r.header, Lines: []string{s.headerLine()}, Exact: false},
		{Rect: r.bar, Lines: s.bar, Exact: false},
		{Rect: r.status, Lines: []string{s.statusLine()}, Exact: false},
		{Rect: r.help, Lines: []string{s.helpLine()}, Exact: false},
	}
	if !r.goal.Empty() {
		blocks = append(blocks, layout.Block{Rect: r.goal, Lines: s.goalLines(), Exact: false})
	}
	if s.mode.overlay() {
		return layout.Compose(s.w, s.h, append(blocks, layout.Block{Rect: r.body, Lines: s.over.Lines(), Exact: true}))
	}
	blocks = append(blocks,
		layout.Block{Rect: r.list, Lines: s.list.Lines(), Exact: true},
		layout.Block{Rect: r.mons, Lines: s.mons.Lines(), Exact: true},
		layout.Block{Rect: r.main, Lines: s.panes[s.mainPanel()].Lines(), Exact: true})
	if s.wide() {
		blocks = append(blocks, layout.Block{Rect: r.side, Lines: s.panes[s.sidePanel()].Lines(), Exact: true})
	}
	if s.shown != "" && !r.cause.Empty() {
		blocks = append(blocks, layout.Block{Rect: r.cause, Lines: s.cause.Lines(), Exact: true})
	}
	return layout.Compose(s.w, s.h, blocks)
}

func (s Model) headerLine() string {
	th := s.th
	left := th.Text(theme.TextHeader, " eoslab sandbox ") + " " + th.Text(theme.TextBold, cells.Clean(s.sess.Title()))
	right := s.searchTag() + "step " + strconv.Itoa(s.sess.Pos()) + "/" + strconv.Itoa(s.sess.Len())
	if n := len(s.branches); n > 1 {
		right += th.Text(theme.TextFaint, " "+th.Sym.Sep+" ") + "branch " + strconv.Itoa(s.sess.Branch()+1) + "/" + strconv.Itoa(n)
	}
	if c, ok := s.current(); ok {
		tag := ""
		if c.Paused {
			tag = " " + th.Tag(theme.Paused)
		}
		if c.Crashed {
			tag = " " + th.Tag(theme.Crashed)
		}
		right += th.Text(theme.TextFaint, " "+th.Sym.Sep+" ") + "client " + th.Text(theme.TextAccent, cells.Clean(c.Name)) + tag + th.Text(theme.TextFaint, " [ ]")
	}
	right += " "
	lw := s.w - cells.Width(right) - 1
	if lw < 16 {
		return cells.Fit(left+" "+right, s.w, th.Sym.Ellipsis)
	}
	return cells.Fit(left, lw, th.Sym.Ellipsis) + " " + right
}

func (s Model) statusLine() string {
	if s.mode == modeNaming {
		return s.nameStatus()
	}
	if s.mode == modePrompting {
		return s.input.View()
	}
	if s.flash != "" {
		// One row: a longer message ends in an ellipsis, never a bare
		// cut (the messages put their important words first).
		return " " + s.th.Render(s.flashKind, cells.Fit(s.flash, max(s.w-1, 1), s.th.Sym.Ellipsis))
	}
	return ""
}

func (s Model) helpLine() string {
	if s.mode == modePrompting {
		if s.perr != "" {
			// The error goes right under the line it is about, which
			// stays as typed so it can be fixed.
			return cells.Fit(" "+s.th.Mark(theme.Violated, s.perr)+s.th.Text(theme.TextFaint, "  (fix it and press enter; esc closes)"), s.w, s.th.Sym.Ellipsis)
		}
		sug := s.input.MatchedSuggestions()
		line := s.th.Text(theme.TextFaint, " enter runs, tab completes, up/down recall, esc closes")
		if len(sug) > 0 {
			line = " " + s.th.Text(theme.TextFaint, "tab: ")
			for i, x := range sug[:min(len(sug), 6)] {
				if i > 0 {
					line += s.th.Text(theme.TextFaint, ", ")
				}
				line += cells.Clean(x)
			}
		}
		return cells.Fit(line, s.w, s.th.Sym.Ellipsis)
	}
	if s.mode == modeNaming {
		return s.nameHelp()
	}
	if s.mode.overlay() {
		return cells.Fit(" "+s.th.Text(theme.TextFaint, "up/down scroll, esc closes"), s.w, s.th.Sym.Ellipsis)
	}
	if s.mode == modeLeaving {
		return cells.Fit(" "+s.th.Text(theme.TextFaint, "y leaves; n, esc or any other key stays (w then saves every branch)"), s.w, s.th.Sym.Ellipsis)
	}
	// The short help is the same for a width: made once (lipgloss
	// renders it slowly), as the player's is.
	if d := s.helpDrawn; d.w == s.w {
		return d.line
	}
	l := s.help.ShortHelpView(s.keys.short())
	*s.helpDrawn = helpLine{w: s.w, line: l}
	return l
}

func (s Model) pickerView() string {
	th := s.th
	lines := []string{"", "  " + th.Text(theme.TextHeader, " Sandbox ") + "  " + th.Text(theme.TextBold, "Pick a starting world"), ""}
	for i, p := range s.presets {
		lead := "  "
		title := strconv.Itoa(i+1) + ". " + p.Title
		if i == s.pick {
			lead = th.Text(theme.TextAccent, th.Sym.Cursor) + " "
			title = th.Text(theme.TextAccent, title)
		}
		lines = append(lines, "  "+lead+title)
		for _, l := range cells.Wrap(p.Summary, max(s.w-10, 10)) {
			lines = append(lines, "       "+th.Text(theme.TextFaint, l))
		}
		lines = append(lines, "")
	}
	lines = append(lines, cells.Wrap("  Nothing moves until you act: you pick which message is delivered, lost or repeated, and switch safeguards off to see what they protect.", s.w-2)...)
	blocks := []layout.Block{
		{Rect: layout.Rect{X: 0, Y: 0, W: s.w, H: s.h - 2}, Lines: lines, Exact: false},
		{Rect: layout.Rect{X: 0, Y: s.h - 2, W: s.w, H: 1}, Lines: []string{s.statusLine()}, Exact: false},
		{Rect: layout.Rect{X: 0, Y: s.h - 1, W: s.w, H: 1}, Lines: []string{s.help.ShortHelpView(pickerHelp(s.keys, len(s.presets)))}, Exact: false},
	}
	return layout.Compose(s.w, s.h, blocks)
}

// pickerHelp is the preset picker's short help: what pickKey does, not
// the world's keys (enter opens a preset there; it delivers nothing).
func pickerHelp(k KeyMap, n int) []key.Binding {
	return []key.Binding{
		key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑↓", "choose")),
		key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter/1-"+strconv.Itoa(max(n, 1)), "open")),
		k.Quit,
	}
}

// Package pane is the bordered, titled, scrollable box every panel of the
// player, the sandbox and the drill is drawn in. It knows nothing of Kafka
// or of any other component: its parent hands it a title and Content, and
// routes it the keys and the mouse wheel.
package pane

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/theme"
)

// KeyMap holds the keys that scroll the focused pane.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
}

// DefaultKeyMap returns the default scrolling keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "scroll up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "scroll down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "b"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "f"), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g/home", "top")),
		Bottom:   key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G/end", "bottom")),
	}
}

// ASCII returns the pane key map with ASCII-only help texts.
func (k KeyMap) ASCII() KeyMap {
	for _, b := range []*key.Binding{&k.Up, &k.Down} {
		theme.ASCIIHelp(b)
	}
	return k
}

// Model is a bordered, titled, scrollable box: the frame of every player
// panel. It knows nothing of Kafka; the root gives it a title and content.
//
// A text pane (NewText: the lesson, the help, a step's details) scrolls
// through a bubbles viewport, which holds its lines and handles its scroll
// keys. The panels of the stage scroll on their own, over Content whose
// lines are made only when they come on screen: a partition log or an event
// log has hundreds of lines, and the viewport wants every line made up
// front. BenchmarkPaneFirstDraw draws the partitions panel of the largest
// frame the adapter makes (two 500-batch logs) in a 120x40 slot both ways:
// the viewport took 6.2 ms and 13,879 allocations, the lazy pane 0.47 ms
// and 1,196 (the best of four runs on a loaded two-core machine). A
// keystroke has 1 ms, so the stage keeps the lazy pane.
type Model struct {
	KeyMap KeyMap
	// vp, in a text pane (text set), holds the lines and the scroll
	// position.
	vp      viewport.Model
	text    bool
	th      *theme.Theme
	title   string
	footer  string   // drawn in the bottom border, on the left
	header  []string // lines that stay put above the scrolling body
	body    *content.Memo
	w, h    int
	off     int
	focused bool
	// drawn keeps the last rendered lines, shared by the pane's copies.
	drawn *paneDrawn
}

// New returns an empty pane.
func New(th *theme.Theme) Model {
	return Model{KeyMap: DefaultKeyMap(), th: th, body: content.MemoOf(nil), drawn: &paneDrawn{}}
}

// NewText returns an empty pane that scrolls through a viewport: for
// text of a few dozen lines, which it makes in full when it is set.
func NewText(th *theme.Theme) Model {
	p := New(th)
	p.vp, p.text = viewport.New(0, 0), true
	p.vp.MouseWheelEnabled = false
	p.syncKeys()
	return p
}

// syncKeys gives the viewport the pane's scroll keys; the keys it has of
// its own (half pages, sideways) are switched off, as the player uses them.
func (p *Model) syncKeys() {
	if !p.text {
		return
	}
	off := key.NewBinding(key.WithDisabled())
	p.vp.KeyMap = viewport.KeyMap{Up: p.KeyMap.Up, Down: p.KeyMap.Down, PageUp: p.KeyMap.PageUp, PageDown: p.KeyMap.PageDown,
		HalfPageUp: off, HalfPageDown: off, Left: off, Right: off}
}

// SetSize sets the outer size, borders included.
func (p *Model) SetSize(w, h int) {
	p.w, p.h = max(w, 0), max(h, 0)
	if p.text {
		p.vp.Width, p.vp.Height = max(p.w-2, 0), p.bodyHeight()
	}
	p.clamp()
}

// SetTheme sets the theme the pane draws with.
func (p *Model) SetTheme(th *theme.Theme) { p.th = th }

// SetTitle sets the title drawn in the top border; it may be styled.
func (p *Model) SetTitle(s string) { p.title = s }

// SetFooter sets a short text drawn in the bottom border, on the left; it
// may be styled. The scroll position keeps the right.
func (p *Model) SetFooter(s string) { p.footer = s }

// SetFocused marks the pane as the one that receives scroll keys.
func (p *Model) SetFocused(f bool) { p.focused = f }

// Focused reports whether the pane has focus.
func (p Model) Focused() bool { return p.focused }

// SetContent replaces the header and body. If anchor is a range, the body
// scrolls just enough to show it (its start wins when it does not fit):
// that is how a new step brings what changed into view.
//
// Each body line is made once, the first time it is drawn; passing the
// same body again (a *memoLines from an earlier call) keeps what was made.
func (p *Model) SetContent(header []string, body content.Content, anchor content.Range) {
	p.header = header
	p.body = content.MemoOf(body)
	if p.text {
		lines := make([]string, p.body.Len())
		for i := range lines {
			lines[i] = p.body.Line(i)
		}
		p.vp.Height = p.bodyHeight()
		p.vp.SetContent(strings.Join(lines, "\n"))
	}
	p.reveal(anchor)
}

func (p *Model) reveal(r content.Range) {
	if r.From >= 0 {
		bh := p.bodyHeight()
		if _, ok := p.body.Content.(content.Sticky); ok && bh > 1 {
			bh-- // a heading may take the first row
		}
		if r.To >= p.off+bh {
			p.off = r.To - bh + 1
		}
		if r.From < p.off {
			p.off = r.From
		}
	}
	p.clamp()
}

func (p Model) bodyHeight() int { return max(p.h-2-len(p.header), 0) }

// sticky is the heading drawn on the first body row at offset off, if any.
func (p Model) sticky(off int) (string, bool) {
	st, ok := p.body.Content.(content.Sticky)
	if !ok || off <= 0 || off >= p.body.Len() || p.bodyHeight() < 2 {
		return "", false
	}
	return st.StickyAt(off)
}

// maxOff is the last offset: the one that shows the last line. A heading
// on the first row takes a line's place, so the body may scroll one more.
func (p *Model) maxOff() int {
	m := max(p.body.Len()-p.bodyHeight(), 0)
	if _, ok := p.sticky(m); ok {
		m++
	}
	return m
}

func (p *Model) clamp() {
	p.off = max(0, min(p.off, p.maxOff()))
	if p.text {
		p.vp.SetYOffset(p.off)
		p.off = p.vp.YOffset
	}
}

// Offset is the index of the first body line on screen.
func (p Model) Offset() int { return p.off }

// SetOffset scrolls the body to line off, as far as it goes.
func (p *Model) SetOffset(off int) {
	p.off = off
	p.clamp()
}

// Uncached makes the pane draw afresh every time, which the cache tests
// compare with the cached drawing.
func (p *Model) Uncached() { p.drawn = nil }

// Update scrolls a focused pane with its keys, and any pane with the mouse
// wheel, a line a notch: the parent sends a tea.MouseMsg to the pane under
// the pointer (layout says where each pane is).
func (p Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if mm, ok := msg.(tea.MouseMsg); ok {
		return p.wheel(mm), nil
	}
	km, ok := msg.(tea.KeyMsg)
	if !ok || !p.focused {
		return p, nil
	}
	if p.text {
		p.syncKeys()
		switch {
		case key.Matches(km, p.KeyMap.Top):
			p.vp.GotoTop()
		case key.Matches(km, p.KeyMap.Bottom):
			p.vp.GotoBottom()
		default:
			p.vp, _ = p.vp.Update(km)
		}
		p.off = p.vp.YOffset
		return p, nil
	}
	page := max(p.bodyHeight()-1, 1)
	switch {
	case key.Matches(km, p.KeyMap.Up):
		p.off--
	case key.Matches(km, p.KeyMap.Down):
		p.off++
	case key.Matches(km, p.KeyMap.PageUp):
		p.off -= page
	case key.Matches(km, p.KeyMap.PageDown):
		p.off += page
	case key.Matches(km, p.KeyMap.Top):
		p.off = 0
	case key.Matches(km, p.KeyMap.Bottom):
		p.off = p.maxOff()
	}
	p.clamp()
	return p, nil
}

// Handle is Update in place, for a parent that holds the pane behind an
// interface (views/player's Pane) rather than as a value.
func (p *Model) Handle(msg tea.Msg) { *p, _ = p.Update(msg) }

// SetScrollEnabled switches the scroll keys on or off; a parent switches
// them on only while the body can scroll, so its help bar shows them only
// then.
func (p *Model) SetScrollEnabled(on bool) {
	for _, b := range []*key.Binding{&p.KeyMap.Up, &p.KeyMap.Down, &p.KeyMap.PageUp, &p.KeyMap.PageDown, &p.KeyMap.Top, &p.KeyMap.Bottom} {
		b.SetEnabled(on)
	}
}

// ScrollEnabled reports whether the scroll keys are on (SetScrollEnabled).
func (p Model) ScrollEnabled() bool { return p.KeyMap.Up.Enabled() }

// ScrollPage scrolls a focused pane a page down (or up), as its page keys
// do; a parent with keys of its own for paging calls it.
func (p *Model) ScrollPage(down bool) {
	if !p.focused {
		return
	}
	if p.text {
		if down {
			p.vp.PageDown()
		} else {
			p.vp.PageUp()
		}
		p.off = p.vp.YOffset
		return
	}
	page := max(p.bodyHeight()-1, 1)
	if down {
		p.off += page
	} else {
		p.off -= page
	}
	p.clamp()
}

// wheel scrolls a line for a notch of the mouse wheel.
func (p Model) wheel(m tea.MouseMsg) Model {
	if m.Action != tea.MouseActionPress {
		return p
	}
	switch m.Button {
	case tea.MouseButtonWheelUp:
		p.SetOffset(p.off - 1)
	case tea.MouseButtonWheelDown:
		p.SetOffset(p.off + 1)
	}
	return p
}

// Scrolls reports whether km is one of the pane's scroll keys, enabled
// or not.
func (p Model) Scrolls(km tea.KeyMsg) bool {
	k := p.KeyMap
	for _, b := range []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom} {
		b.SetEnabled(true)
		if key.Matches(km, b) {
			return true
		}
	}
	return false
}

// CanScroll reports whether the body is longer than the pane.
func (p Model) CanScroll() bool { return p.body.Len() > p.bodyHeight() }

// Lines renders the pane as exactly h lines of exactly w cells. The
// result is shared with the pane's cache: read it, do not change it.
func (p Model) Lines() []string {
	if p.w <= 0 || p.h <= 0 {
		return nil
	}
	k := paneDrawKey{body: p.body, title: p.title, footer: p.footer, off: p.off, w: p.w, h: p.h, focused: p.focused}
	if lines, ok := p.drawn.get(k, p.header); ok {
		return lines
	}
	out := p.render()
	p.drawn.put(k, p.header, out)
	return out
}

func (p Model) render() []string {
	out := make([]string, 0, p.h)
	if p.w < 2 || p.h < 2 {
		for range p.h {
			out = append(out, cells.Repeat(" ", p.w))
		}
		return out
	}
	box, bk := p.th.Border, theme.Muted
	if p.focused {
		box, bk = p.th.Focused, theme.Accent
	}
	bs := func(s string) string { return p.th.Render(bk, s) }
	inner := p.w - 2
	ell := p.th.Sym.Ellipsis
	v := bs(box.Vertical)

	// Top border with the title.
	title := ""
	if p.title != "" && inner >= 4 {
		title = " " + cells.Clip(p.title, inner-3, ell) + " "
	}
	top := box.TopLeft + box.Horizontal
	if inner < 1 {
		top = box.TopLeft
	}
	out = append(out, bs(top)+title+bs(cells.Repeat(box.Horizontal, inner-1-cells.Width(title))+box.TopRight))

	rows := p.h - 2
	for i := 0; i < rows && i < len(p.header); i++ {
		out = append(out, p.drawn.boxLine(v, p.header[i], inner, ell))
	}
	bh := p.bodyHeight()
	n := p.body.Len()
	rowsLeft := bh
	if h, ok := p.sticky(p.off); ok {
		out = append(out, p.drawn.boxLine(v, h, inner, ell))
		rowsLeft--
	}
	for i := 0; i < rowsLeft; i++ {
		s := ""
		if j := p.off + i; j < n {
			s = p.body.Line(j)
		}
		out = append(out, p.drawn.boxLine(v, s, inner, ell))
	}

	// Bottom border with the scroll position.
	info := ""
	if n > bh && bh > 0 {
		up, down := " ", " "
		if p.off > 0 {
			up = p.th.Sym.ScrollUp
		}
		if p.off+rowsLeft < n {
			down = p.th.Sym.ScrollDown
		}
		last := min(p.off+rowsLeft, n)
		info = " " + up + " " + strconv.Itoa(p.off+1) + "-" + strconv.Itoa(last) + "/" + strconv.Itoa(n) + " " + down + " "
		if cells.Width(info) > inner-2 {
			info = ""
		}
	}
	// The footer goes after one cell of border, as the title does.
	lead, foot := "", ""
	if p.footer != "" && inner-cells.Width(info) >= 8 {
		lead, foot = box.Horizontal, " "+cells.Clip(p.footer, inner-cells.Width(info)-5, ell)+" "
	}
	used := cells.Width(lead) + cells.Width(foot) + cells.Width(info)
	fill := max(inner-used-1, 0)
	out = append(out, bs(box.BottomLeft+lead)+foot+bs(cells.Repeat(box.Horizontal, fill))+info+bs(cells.Repeat(box.Horizontal, inner-fill-used)+box.BottomRight))
	return out
}

// spaces pads the lines of a pane: a slice of it costs no allocation.
var spaces = strings.Repeat(" ", 512)

// boxLine is s fitted to inner cells between two vertical borders v, as
// v+cells.Fit(s, inner, ell)+v, made in one allocation when s fits.
func boxLine(v, s string, inner int, ell string) string {
	if inner <= 0 {
		return v + v
	}
	if sw := cells.Width(s); sw <= inner && inner-sw <= len(spaces) {
		return v + s + spaces[:inner-sw] + v
	}
	return v + cells.Fit(s, inner, ell) + v
}

// View renders the pane.
func (p Model) View() string { return layout.JoinLines(p.Lines()) }

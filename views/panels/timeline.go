package panels

import (
	"slices"
	"strings"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// timeline draws the message sequence diagram: one column (a lifeline) per
// actor and a row per message, its arrow across the lifelines and its
// label in a lane to the right of them.
//
// The label lane is why no label ever covers a lifeline: a label drawn
// above its arrow would cross every lifeline between its ends (from a
// client to broker-3 it crosses four), and with nine actors in 80 columns
// there is no free space between two lifelines for even a message name.
// The lane also puts the label on its arrow's row, so the few rows of a
// small terminal show more messages, and it lines the state words up in
// one column. A label longer than the lane goes on to a second row, which
// keeps its end (the error code, the offset) readable; one longer still
// ends with an ellipsis, and the event log has every message in full.
//
// When the actors' full names would leave the lane too narrow, the diagram
// draws their short names (Actor.Short: "b1" for broker-1) with a key in
// the header, rather than scrolling sideways: the learner sees every
// lifeline at once, which is what a sequence diagram is for, and a
// scrolled-off column would hide where a message goes.
//
// What a message's row shows depends on its state at the frame's step
// (Arrow.State), in shape and in words, never in colour alone:
//
//	│───►│  delivered: the shaft reaches the receiver, with a filled head
//	│─▷··│  → in flight: half way, with a hollow head
//	│─╳··│  ╳ dropped: half way, ending in a cross
//	│───╳│  ╳ lost: at the receiver, which is down, ending in a cross
//
// Answers have dashed shafts, a duplicate a double one; a delayed message
// has the word "delayed". timelineLegend draws these same rows with the
// same code for the help screen.
type timeline struct {
	p       Painter
	f       *model.Frame
	names   []string // the names the header draws, full or short
	idx     map[string]int
	short   bool // the header draws short names, with a key
	gutter  int
	centers []int
	spacing int // cells from one lifeline to the next
	laneX   int // the first cell of the label lane
	rows    []tlRow
	// stickyAt and sticky are the last arrow row drawn above its label's
	// second row (timelineLines.StickyAt); stickyAt is 0 for none.
	stickyAt int
	sticky   string
	// tagW caches the width of each state word with its glyph.
	tagW map[string]int
	// geom says what besides its arrow a row's line is drawn from: the
	// width, the lifelines and their names (tlLineKey).
	geom string
	// buf is the cell line being drawn, reused from line to line: lines
	// are drawn one at a time, on the one goroutine that draws.
	buf cellLine
}

// The diagram's geometry.
const (
	// tlMinSpacing is the least distance between two lifelines: a
	// lifeline, two shaft cells and a head ("│──►│"), which still tells
	// "half way" (in flight, dropped) from "arrived".
	tlMinSpacing = 4
	// tlMaxSpacing caps the distance when there is room to spare: longer
	// arrows say nothing more, and the room goes to the labels.
	tlMaxSpacing = 14
	// tlLaneWant is the label lane the layout tries to keep: wide enough
	// for most labels with a state word ("╳ dropped: ProduceResponse t-0
	// NONE(0) baseOffset=0" is 51 cells).
	tlLaneWant = 48
)

func Timeline(f *model.Frame, p Painter) ([]string, content.Content, content.Range) {
	actors := f.Actors
	if len(actors) == 0 {
		actors = actorsOf(f.Timeline)
	}
	if len(actors) == 0 {
		return nil, content.Lines{p.muted("  (no messages yet)")}, content.NoRange
	}
	t := &timeline{p: p, f: f}
	t.layout(actors)
	header := t.headerLines(actors)
	if len(f.Timeline) == 0 {
		return header, content.Lines{p.muted("  (no messages yet)")}, content.NoRange
	}
	t.plan()
	t.geom = t.geometry(actors)
	anchor := anchorOf(len(t.rows), func(i int) bool { return f.Timeline[t.rows[i].arrow].Changed })
	if picked := anchorOf(len(t.rows), func(i int) bool { return f.Timeline[t.rows[i].arrow].Picked }); picked.From >= 0 {
		// The learner's cursor is what the pane keeps in view.
		anchor = picked
	}
	return header, timelineLines{t}, anchor
}

// timelineLines is the diagram's body. A message whose label takes two
// rows is a section: scrolled so that its second row is the first on
// screen, the pane draws its arrow row above it, so no label's end shows
// without its arrow.
type timelineLines struct{ t *timeline }

func (l timelineLines) Len() int          { return len(l.t.rows) }
func (l timelineLines) Line(i int) string { return l.t.line(i) }

func (l timelineLines) StickyAt(i int) (string, bool) {
	t := l.t
	if i <= 0 || i >= len(t.rows) || !t.rows[i].more {
		return "", false
	}
	// The pane asks on every draw, for the same row while it does not
	// scroll: keep the last one drawn.
	if t.stickyAt != i {
		t.stickyAt, t.sticky = i, t.line(i-1)
	}
	return t.sticky, true
}

// tlRow is one row of the diagram: a message's arrow row, or the row
// below it that holds the rest of a label too long for the lane.
type tlRow struct {
	arrow int32 // index in Frame.Timeline
	more  bool  // the label's second row
}

// maxLabelRows is how many rows a label may take: the second keeps the
// end of a long label, which is where the error code or the offset is.
// A label longer still ends with an ellipsis.
const maxLabelRows = 2

// plan gives each message its rows: one, or two when its label is longer
// than the lane. A label's length is taken in bytes, which is its width in
// cells for the ASCII the engine writes and more than that for any other
// text: measuring every label in cells on every frame would cost more than
// the rare extra row.
func (t *timeline) plan() {
	laneW := t.p.Width - t.laneX
	t.rows = make([]tlRow, 0, len(t.f.Timeline))
	for i := range t.f.Timeline {
		a := &t.f.Timeline[i]
		t.rows = append(t.rows, tlRow{arrow: int32(i)})
		// With no lane at all, an error answer still takes a second
		// row, for its code.
		room := laneW - t.tagsWidth(a) - t.errWidth(a)
		if len(shortLabel(a, a.Label, room, laneW-2)) > room && (laneW > 0 || a.Code != "") {
			t.rows = append(t.rows, tlRow{arrow: int32(i), more: true})
		}
	}
}

// actorsOf lists the senders and receivers of the arrows, for a frame
// that names no actors.
func actorsOf(arrows []model.Arrow) []model.Actor {
	seen := map[string]bool{}
	var out []model.Actor
	for _, a := range arrows {
		for _, s := range []string{a.From, a.To} {
			if !seen[s] {
				seen[s] = true
				out = append(out, model.Actor{Name: s})
			}
		}
	}
	return out
}

func shortName(a model.Actor) string {
	if a.Short == "" {
		return a.Name
	}
	return a.Short
}

// layout places the lifelines and the label lane. The full names are drawn
// when, each in its own column, they leave the lane tlLaneWant cells; else
// the short names are. Spare room widens the columns up to tlMaxSpacing and
// then goes to the lane.
func (t *timeline) layout(actors []model.Actor) {
	maxStep := int64(0)
	for _, a := range t.f.Timeline {
		maxStep = max(maxStep, int64(a.Step))
	}
	t.gutter = 2 + digits(maxStep) + 1
	n := len(actors)
	avail := t.p.Width - t.gutter
	fullW, shortW := 0, 0
	for _, a := range actors {
		fullW = max(fullW, cells.Width(cells.Clean(a.Name)))
		shortW = max(shortW, cells.Width(cells.Clean(shortName(a))))
	}
	// A name is at most spacing-1 cells, so that neighbours keep a space
	// between them.
	least := max(tlMinSpacing, fullW+1)
	if avail-n*least < tlLaneWant {
		least = max(tlMinSpacing, shortW+1)
		t.short = shortW < fullW
	}
	s := min(max((avail-tlLaneWant)/n, least), max(tlMaxSpacing, least))
	t.spacing = s
	t.names = make([]string, n)
	t.idx = make(map[string]int, n)
	t.centers = make([]int, n)
	for i, a := range actors {
		t.names[i] = cells.Clean(a.Name)
		if t.short {
			t.names[i] = cells.Clean(shortName(a))
		}
		if _, dup := t.idx[a.Name]; !dup {
			t.idx[a.Name] = i
		}
		t.centers[i] = t.gutter + s*i + s/2
	}
	// One cell of air between the last lifeline's column and the lane:
	// a three-cell name there, or a message an actor sends itself,
	// would otherwise run into the label.
	t.laneX = t.gutter + s*n + 1
}

// headerLines name the lifelines, each name centred over its line, and,
// when the names are short, give the key to them: "b1 broker-1, b2
// broker-2". The key goes in the lane of the names row when it fits
// there, else on rows of its own below the names, across the width: the
// fewer rows the header takes, the more messages a small terminal shows.
func (t *timeline) headerLines(actors []model.Actor) []string {
	var b strings.Builder
	b.WriteString(cells.Repeat(" ", t.gutter))
	x := t.gutter
	for i, name := range t.names {
		name = cells.Clip(name, max(t.spacing-1, 1), t.p.Theme.Sym.Ellipsis)
		nw := cells.Width(name)
		start := max(x, t.centers[i]-nw/2)
		b.WriteString(cells.Repeat(" ", start-x))
		b.WriteString(t.p.Bold(name))
		x = start + nw
	}
	names := b.String()
	if !t.short {
		return []string{names}
	}
	var key []string
	for _, a := range actors {
		if sh := shortName(a); sh != a.Name {
			key = append(key, t.p.Bold(cells.Clean(sh))+" "+t.p.muted(cells.Clean(a.Name)))
		}
	}
	const sep = ", "
	if laneW := t.p.Width - t.laneX; laneW > 0 {
		if rows := (Painter{Theme: t.p.Theme, Width: laneW}).Flow("", key, sep, 0); len(rows) == 1 && cells.Width(rows[0]) <= laneW {
			return []string{names + cells.Repeat(" ", t.laneX-x) + rows[0]}
		}
	}
	out := []string{names}
	for _, r := range (Painter{Theme: t.p.Theme, Width: t.p.Width - t.gutter}).Flow("", key, sep, 0) {
		out = append(out, cells.Repeat(" ", t.gutter)+r)
	}
	return out
}

// cellLine is one line of the diagram as one-cell glyphs with a style each.
type cellLine struct {
	g []string
	k []theme.Kind
}

// blank is a row of the lifelines alone, from the left edge to the lane.
func (t *timeline) blank() cellLine {
	if len(t.buf.g) != t.laneX {
		t.buf = cellLine{g: make([]string, t.laneX), k: make([]theme.Kind, t.laneX)}
	}
	c := t.buf
	clear(c.k)
	for i := range c.g {
		c.g[i] = " "
	}
	for _, x := range t.centers {
		c.set(x, t.p.Theme.Sym.Lifeline, theme.Muted)
	}
	return c
}

func (c cellLine) set(x int, g string, k theme.Kind) {
	if x >= 0 && x < len(c.g) {
		c.g[x], c.k[x] = g, k
	}
}

// render styles cells [from, to) in runs of one style.
func (t *timeline) render(c cellLine, from, to int, bold bool) string {
	to = min(to, len(c.g))
	var b strings.Builder
	for i := from; i < to; {
		j := i
		var run strings.Builder
		for j < to && c.k[j] == c.k[i] {
			run.WriteString(c.g[j])
			j++
		}
		if bold && c.k[i] != theme.Muted {
			b.WriteString(t.p.Theme.RenderBold(c.k[i], run.String()))
		} else {
			b.WriteString(t.p.Theme.Render(c.k[i], run.String()))
		}
		i = j
	}
	return b.String()
}

// arrowKind is the colour of a message's arrow and label: its state first
// (lost, in flight), then what it carries.
func arrowKind(a *model.Arrow) theme.Kind {
	switch {
	case a.State == model.ArrowDropped || a.State == model.ArrowLost:
		return theme.Dropped
	case a.State == model.ArrowInFlight && a.Delayed:
		return theme.Delayed
	case a.State == model.ArrowInFlight:
		return theme.InFlight
	case a.Error:
		return theme.Aborted
	case a.Duplicate:
		return theme.Duplicate
	case a.Delayed:
		return theme.Delayed
	}
	return theme.Plain
}

// arrowTag is one word a label starts with, and the kind whose glyph and
// colour it takes.
type arrowTag struct {
	kind theme.Kind
	word string
}

// arrowTags are the words that say what happened to a message, the state
// first; a delivered message that was neither copied nor delayed has none.
// The legend lists these same words.
func arrowTags(a *model.Arrow, th *theme.Theme) []arrowTag {
	var out []arrowTag
	switch a.State {
	case model.ArrowInFlight:
		out = append(out, arrowTag{theme.InFlight, th.Word(theme.InFlight)})
	case model.ArrowDropped:
		out = append(out, arrowTag{theme.Dropped, th.Word(theme.Dropped)})
	case model.ArrowLost:
		out = append(out, arrowTag{theme.Dropped, "lost"})
	}
	if a.Duplicate {
		out = append(out, arrowTag{theme.Duplicate, th.Word(theme.Duplicate)})
	}
	if a.Delayed {
		out = append(out, arrowTag{theme.Delayed, th.Word(theme.Delayed)})
	}
	return out
}

// tags draws a message's state words, each with its glyph, and the
// separator that leads to its label; empty when it has none.
func (t *timeline) tags(a *model.Arrow, bold bool) string {
	th := t.p.Theme
	paint := th.Render
	if bold {
		paint = th.RenderBold
	}
	var b strings.Builder
	tags := arrowTags(a, th)
	for i, tag := range tags {
		if i > 0 {
			b.WriteString(paint(tag.kind, tagSep))
		}
		b.WriteString(paint(tag.kind, th.Glyph(tag.kind)+" "+tag.word))
	}
	if len(tags) > 0 {
		b.WriteString(paint(arrowKind(a), tagEnd))
	}
	return b.String()
}

// The punctuation between a label's state words, and after them: words,
// not the theme's separator, which in ASCII is "|" and would read as one
// more lifeline.
const (
	tagSep = ", "
	tagEnd = ": "
)

// tagsWidth is the width of tags(a), worked out without drawing them.
func (t *timeline) tagsWidth(a *model.Arrow) int {
	if t.tagW == nil {
		t.tagW = map[string]int{}
	}
	w, n := 0, 0
	for _, tag := range arrowTags(a, t.p.Theme) {
		tw, ok := t.tagW[tag.word]
		if !ok {
			tw = cells.Width(t.p.Theme.Glyph(tag.kind) + " " + tag.word)
			t.tagW[tag.word] = tw
		}
		w += tw
		n++
	}
	if n == 0 {
		return 0
	}
	return w + (n-1)*len(tagSep) + len(tagEnd)
}

// errWidth is the width of the mark before the label of an error answer.
func (t *timeline) errWidth(a *model.Arrow) int {
	if !a.Error {
		return 0
	}
	return cells.Width(t.p.Theme.Glyph(theme.Aborted)) + 1
}

// labelText is the message's label after its tags: the error mark and
// the text, made safe to draw, its name shortened where the rows would
// cut it (shortLabel). w is the room for the label on its first row, w2
// on its second (0: it has one).
func (t *timeline) labelText(a *model.Arrow, w, w2 int) string {
	text := cells.Clean(a.Label)
	if a.Error {
		w -= t.errWidth(a)
	}
	text = shortLabel(a, text, w, w2)
	if a.Error {
		text = t.p.Theme.Glyph(theme.Aborted) + " " + text
	}
	return text
}

// minFirstRow is the least room beside the tags that a label's first row
// takes words in (splitLabel): with less, the label starts on the second.
const minFirstRow = 8

// shortLabel is label, a's label as drawn, with the message's name
// (a.Name, a.NameTail bytes from the end) shortened where the rows would
// cut it: to a.Short, or a.Shortest when that is cut too (which the row
// then clips). Cut mid-word ("AddPartitionsToTx…", "InitProducerIdRe
// sponse") a name reads as nothing; shortened, it still names the
// request. A name shown whole stays whole. w is the room on the label's
// first row, w2 on its second (0: it has one).
func shortLabel(a *model.Arrow, label string, w, w2 int) string {
	n := len(a.Name)
	at := len(label) - a.NameTail - n // where the name starts in label
	if n == 0 || at < 0 || label[at:at+n] != a.Name {
		// No name, or a label that drawing made safe changed (Clean).
		return label
	}
	// whole says whether a name of m bytes shows whole, as splitLabel
	// and the rows' clipping lay the label out.
	lim2 := w2
	if a.NameTail > 0 {
		lim2-- // more follows: a clipped second row ends in an ellipsis
	}
	whole := func(m int) bool {
		if w2 > 0 && w < minFirstRow {
			return at+m <= lim2 // the label starts on the second row
		}
		// The name is on the first row, or, after a mark that is a word
		// of its own ("! ", ">> "), first on the second.
		return at+m <= w || (at > 0 && m <= lim2)
	}
	if whole(n) {
		return label
	}
	best := ""
	for _, c := range [2]string{a.Short, a.Shortest} {
		if c == "" || len(c) >= n {
			continue
		}
		best = c
		if whole(len(c)) {
			break
		}
	}
	if best == "" {
		return label
	}
	return label[:at] + best + label[at+n:]
}

// arrow draws a message's arrow from column ca to column cb on c.
func (t *timeline) arrow(c cellLine, a *model.Arrow, ca, cb int, k theme.Kind) {
	th := t.p.Theme
	sym := th.Sym
	if ca == cb {
		c.set(ca+1, sym.Self, k)
		return
	}
	shaft := sym.Line
	if a.Reply {
		shaft = sym.Dashed
	}
	if a.Duplicate {
		shaft = sym.Copy
	}
	dir, head := 1, sym.Right
	if cb < ca {
		dir, head = -1, sym.Left
	}
	end, mid := cb-dir, (ca+cb)/2
	if slices.Contains(t.centers, mid) {
		// Half way is another actor's lifeline: a head or cross on it,
		// or next to it, would read as arriving there. Stop half a
		// column short.
		mid -= dir * max(t.spacing/2, 1)
	}
	switch a.State {
	case model.ArrowInFlight:
		end, head = mid, sym.FlightRight
		if dir < 0 {
			head = sym.FlightLeft
		}
	case model.ArrowDropped:
		end, head = mid, th.Glyph(theme.Dropped)
	case model.ArrowLost:
		head = th.Glyph(theme.Dropped)
	}
	for x := ca + dir; x != end; x += dir {
		c.set(x, shaft, k)
	}
	c.set(end, head, k)
	if end != cb-dir {
		// The rest of the way, faint, so that a message stopped half
		// way still shows where it was going. The lifelines it passes
		// stay whole.
		for x := end + dir; x != cb; x += dir {
			if !slices.Contains(t.centers, x) {
				c.set(x, sym.Path, theme.Muted)
			}
		}
	}
}

// line draws the row of message i: the gutter (the change mark, and the
// step that sent it on the first message of each step), the lifelines with
// the arrow, and the label in the lane.
// geometry is the part of tlLineKey that is the same for every row of the
// diagram.
func (t *timeline) geometry(actors []model.Actor) string {
	var b strings.Builder
	for _, n := range []int{t.p.Width, t.gutter, t.spacing, t.laneX} {
		b.WriteString(itoa(n))
		b.WriteByte(',')
	}
	for i, a := range actors {
		b.WriteString(a.Name)
		b.WriteByte(0)
		b.WriteString(t.names[i])
		b.WriteByte(0)
	}
	return b.String()
}

// tlLineKey is what a row's line is drawn from: its message, whether it
// shows the step's number, whether it is the label's second row or the
// first of two, and the diagram's geometry. Neighbouring frames show
// mostly the same messages, so the lines are kept across frames
// (Cache.timelineLine).
type tlLineKey struct {
	a                     model.Arrow
	th                    *theme.Theme
	geom                  string
	showStep, more, split bool
}

func (t *timeline) line(i int) string {
	row := t.rows[i]
	k := tlLineKey{a: t.f.Timeline[row.arrow], th: t.p.Theme, geom: t.geom, more: row.more,
		showStep: !row.more && (row.arrow == 0 || t.f.Timeline[row.arrow-1].Step != t.f.Timeline[row.arrow].Step),
		split:    i+1 < len(t.rows) && t.rows[i+1].more}
	if t.p.Cache == nil || t.geom == "" {
		return t.draw(&k)
	}
	return t.p.Cache.timelineLine(&k, t.draw)
}

// draw is the line of the row k says.
func (t *timeline) draw(k *tlLineKey) string {
	row := tlRow{more: k.more}
	a := &k.a
	gut := t.p.mark(a.Changed)
	if a.Picked {
		// The cursor, in the mark's second cell: a glyph, so that the
		// picked row shows without colour too.
		gut = t.pickMark(a.Changed)
	}
	if k.showStep {
		gut += cells.PadLeft(itoa(a.Step), t.gutter-3) + " "
	} else {
		gut += cells.Repeat(" ", t.gutter-2)
	}
	c := t.blank()
	ak := arrowKind(a)
	from, okF := t.idx[a.From]
	to, okT := t.idx[a.To]
	if okF && okT && !row.more {
		t.arrow(c, a, t.centers[from], t.centers[to], ak)
	}
	s := gut + t.render(c, t.gutter, t.laneX, a.Changed)
	laneW := t.p.Width - t.laneX
	if laneW <= 0 && (!row.more || a.Code == "") {
		return s
	}
	paint := t.p.Theme.Render
	if a.Changed || a.Picked {
		paint = t.p.Theme.RenderBold
	}
	lead := t.tags(a, a.Changed)
	if !okF || !okT {
		lead = t.p.Theme.Render(ak, "?") + " " + lead
	}
	first, rest, wide := t.labelText(a, laneW-cells.Width(lead), 0), "", false
	if k.split || row.more {
		first, rest, wide = t.splitKeepingCode(a, laneW, cells.Width(lead))
	}
	if row.more && wide {
		// The code is wider than the lane: its row, which has no arrow,
		// draws it from further left, over the lifelines' cells of this
		// one row, rather than cut it.
		codeW, text := cells.Width(a.Code), rest
		if len(rest) > len(a.Code) {
			codeW += cells.Width(t.p.Theme.Sym.Ellipsis)
		}
		x := max(0, min(t.laneX+2, t.p.Width-codeW))
		if codeW > t.p.Width {
			// Only the code fits, and only just: the rest goes.
			text = a.Code
		}
		text = cells.Clip(text, t.p.Width-x, t.p.Theme.Sym.Ellipsis)
		if x < t.gutter {
			return cells.Repeat(" ", x) + paint(ak, text)
		}
		return gut + t.render(c, t.gutter, x, a.Changed) + paint(ak, text)
	}
	if row.more {
		// The rest of the label, indented under its start.
		return s + "  " + paint(ak, cells.Clip(rest, laneW-2, t.p.Theme.Sym.Ellipsis))
	}
	return s + cells.Clip(lead+paint(ak, first), laneW, t.p.Theme.Sym.Ellipsis)
}

// pickMark is the gutter's first two cells on the picked row: the change
// mark, if any, and the cursor.
func (t *timeline) pickMark(changed bool) string {
	th := t.p.Theme
	first := " "
	if changed {
		first = th.Render(theme.Changed, th.Glyph(theme.Changed))
	}
	return first + th.RenderBold(theme.Plain, cells.Clip(th.Sym.Cursor, 1, ""))
}

// splitKeepingCode is splitLabel for a label of laneW cells after a lead
// of leadW, which keeps an error answer's code whole on one of the two
// rows: when the split at a space or a row's end would cut it, the first
// row takes what comes before the code and the second starts with it,
// the rest after it shortened first. wide says the code does not fit the
// second row's room in the lane.
func (t *timeline) splitKeepingCode(a *model.Arrow, laneW, leadW int) (first, rest string, wide bool) {
	first, rest = t.splitLabel(a, laneW-leadW, laneW-2)
	text := t.labelText(a, laneW-leadW, laneW-2)
	code := a.Code
	at := len(text) - a.CodeTail - len(code) // where the code starts in text
	if code == "" || at < 0 || text[at:at+len(code)] != code {
		// No code, or a label that drawing made safe changed (Clean).
		return first, rest, false
	}
	ell := cells.Width(t.p.Theme.Sym.Ellipsis)
	// shows reports whether row, which starts at byte from of text,
	// shows the code whole in w cells (clipped, a row keeps w-ell cells
	// and an ellipsis).
	shows := func(row string, from, w int) bool {
		end := at + len(code) - from
		if from > at || end > len(row) {
			return false
		}
		if cells.Width(row) > w {
			w -= ell
		}
		return cells.Width(row[:end]) <= w
	}
	if shows(first, 0, laneW-leadW) || shows(rest, len(text)-len(rest), laneW-2) {
		return first, rest, false
	}
	first, rest = strings.TrimRight(text[:at], " "), text[at:]
	return first, rest, !shows(rest, at, laneW-2)
}

// splitLabel cuts a message's label in two at a space: what fits in w
// cells on its first row, and the rest for the second, which has w2.
func (t *timeline) splitLabel(a *model.Arrow, w, w2 int) (first, rest string) {
	text := t.labelText(a, w, w2)
	if w < minFirstRow {
		// Too little room beside the tags for a word or two: the whole
		// label goes on the second row.
		return "", text
	}
	lines := t.p.Wrap(text, w)
	if len(lines) == 0 {
		return "", ""
	}
	// The rest is the text after the first row, not the other rows joined
	// with spaces: a word ansi.Wrap cut at the end of a row would come
	// back with a space inside it ("ProduceRe sponse"). The first row is
	// a prefix of the text as wrap cleans it (one space between words).
	norm := strings.Join(strings.Fields(cells.Clean(text)), " ")
	if len(lines[0]) > len(norm) {
		return lines[0], ""
	}
	return lines[0], strings.TrimLeft(norm[len(lines[0]):], " ")
}

// timelineLegend explains the diagram's rows: each drawn by the code that
// draws the Timeline, so the legend cannot drift from it.
func timelineLegend(p Painter) [][2]string {
	t := &timeline{p: p, f: &model.Frame{}, centers: []int{0, 5}, spacing: 5, laneX: 6}
	th := p.Theme
	sample := func(a model.Arrow) string {
		c := t.blank()
		k := arrowKind(&a)
		if a.Reply {
			t.arrow(c, &a, 5, 0, k)
		} else {
			t.arrow(c, &a, 0, 5, k)
		}
		s := t.render(c, 0, t.laneX, false)
		if tags := arrowTags(&a, th); len(tags) > 0 {
			tag := tags[len(tags)-1]
			s += " " + th.Render(tag.kind, th.Glyph(tag.kind)+" "+tag.word)
		}
		return s
	}
	return [][2]string{
		{sample(model.Arrow{State: model.ArrowDelivered}), "a request, delivered"},
		{sample(model.Arrow{State: model.ArrowDelivered, Reply: true}), "an answer, delivered"},
		{sample(model.Arrow{State: model.ArrowInFlight}), "sent, not arrived yet at this step (going back a step draws a message in flight again)"},
		{sample(model.Arrow{State: model.ArrowInFlight, Reply: true}), "an answer on its way"},
		{sample(model.Arrow{State: model.ArrowDropped}), "the network lost it on the way"},
		{sample(model.Arrow{State: model.ArrowLost}), "it reached a host that is down, and was lost there"},
		{sample(model.Arrow{State: model.ArrowDelivered, Duplicate: true}), "a second copy of a message, made by the network"},
		{sample(model.Arrow{State: model.ArrowDelivered, Delayed: true}), "the network held it back (it may have arrived since)"},
		{th.Render(theme.Aborted, th.Glyph(theme.Aborted)), "an answer that carries an error code"},
		{"  " + th.Sym.Self, "a message from a broker to itself: the partition leader asks the coordinator on its own broker"},
		{p.mark(true) + "3", "the last step sent, delivered or lost it; 3 is the step that sent it (each step's first message has its number)"},
		{th.RenderBold(theme.Plain, "b1") + " " + th.Render(theme.Muted, "broker-1"), "a short name and its key, when the full names leave the labels too little room"},
		{"InitPidResp", "a message's short name, where its label has too little room: AddPartitions for AddPartitionsToTxn, InitPid for InitProducerId, Resp for Response"},
	}
}

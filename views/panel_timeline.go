package views

import (
	"strings"

	"eoslab/views/theme"
)

// timeline draws the message sequence diagram: one column (a lifeline) per
// actor, and for each message a label line and an arrow line. Requests have
// solid shafts, replies dashed ones, and a message the network dropped stops
// half way at a cross, with the word "dropped".
type timeline struct {
	p       painter
	f       *Frame
	actors  []string
	idx     map[string]int
	gutter  int
	centers []int
	lineW   int
	// buf is the cell line being drawn, reused from line to line: lines
	// are drawn one at a time, on the one goroutine that draws.
	buf cellLine
}

func timelineContent(f *Frame, p painter) ([]string, Content, Range) {
	t := &timeline{p: p, f: f}
	t.actors = f.Actors
	if len(t.actors) == 0 {
		t.actors = actorsOf(f.Timeline)
	}
	if len(t.actors) == 0 {
		return nil, textLines{p.muted("  (no messages yet)")}, noRange
	}
	t.idx = make(map[string]int, len(t.actors))
	for i, a := range t.actors {
		if _, dup := t.idx[a]; !dup {
			t.idx[a] = i
		}
	}
	maxStep := int64(0)
	for _, a := range f.Timeline {
		maxStep = max(maxStep, int64(a.Step))
	}
	t.gutter = 2 + digits(maxStep) + 1
	colW := max((p.w-t.gutter)/len(t.actors), 3)
	t.centers = make([]int, len(t.actors))
	for i := range t.actors {
		t.centers[i] = t.gutter + colW*i + colW/2
	}
	t.lineW = t.gutter + colW*len(t.actors)

	header := t.headerLines()
	if len(f.Timeline) == 0 {
		return header, textLines{p.muted("  (no messages yet)")}, noRange
	}
	anchor := anchorOf(len(f.Timeline), func(i int) bool { return f.Timeline[i].Step == f.Step })
	if anchor.From >= 0 {
		anchor = Range{2 * anchor.From, 2*anchor.To + 1}
	}
	return header, lazyLines{n: 2 * len(f.Timeline), f: t.line}, anchor
}

func actorsOf(arrows []Arrow) []string {
	seen := map[string]bool{}
	var out []string
	for _, a := range arrows {
		for _, s := range []string{a.From, a.To} {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// headerLines name the lifelines, each name centred over its line. When a
// name is wider than a column, the names go on two staggered rows (every
// other actor on the second), where each may take nearly two columns: a
// clipped "broker-" would not say which broker. Only a name wider still is
// clipped, with an ellipsis.
func (t *timeline) headerLines() []string {
	colW := t.lineW - t.gutter
	if len(t.actors) > 0 {
		colW /= len(t.actors)
	}
	all := make([]int, len(t.actors))
	stagger := false
	for i, a := range t.actors {
		all[i] = i
		stagger = stagger || width(clean(a)) > colW-1
	}
	if !stagger || len(t.actors) < 2 {
		return []string{t.headerRow(all, colW-1)}
	}
	var even, odd []int
	for i := range t.actors {
		if i%2 == 0 {
			even = append(even, i)
		} else {
			odd = append(odd, i)
		}
	}
	return []string{t.headerRow(even, 2*colW-1), t.headerRow(odd, 2*colW-1)}
}

// headerRow draws the names of the actors idx, each at most maxW cells.
func (t *timeline) headerRow(idx []int, maxW int) string {
	var b strings.Builder
	x := 0
	for _, i := range idx {
		name := clip(clean(t.actors[i]), max(maxW, 1), t.p.th.Sym.Ellipsis)
		nw := width(name)
		start := max(x, t.centers[i]-nw/2)
		b.WriteString(repeat(" ", start-x))
		b.WriteString(t.p.bold(name))
		x = start + nw + 1
		b.WriteString(" ")
	}
	return strings.TrimRight(b.String(), " ")
}

// cellLine is one line of the diagram as one-cell glyphs with a style each.
type cellLine struct {
	g []string
	k []theme.Kind
}

func (t *timeline) blank() cellLine {
	if len(t.buf.g) != t.lineW {
		t.buf = cellLine{g: make([]string, t.lineW), k: make([]theme.Kind, t.lineW)}
	}
	c := t.buf
	clear(c.k)
	for i := range c.g {
		c.g[i] = " "
	}
	for _, x := range t.centers {
		if x < t.lineW {
			c.g[x], c.k[x] = t.p.th.Sym.Lifeline, theme.Muted
		}
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
			b.WriteString(t.p.th.RenderBold(c.k[i], run.String()))
		} else {
			b.WriteString(t.p.th.Render(c.k[i], run.String()))
		}
		i = j
	}
	return b.String()
}

func (t *timeline) kindOf(a *Arrow) theme.Kind {
	switch {
	case a.Dropped:
		return theme.Dropped
	case a.Error:
		return theme.Aborted
	case a.Reply:
		return theme.Plain
	default:
		return theme.InFlight
	}
}

func (t *timeline) line(i int) string {
	th := t.p.th
	a := &t.f.Timeline[i/2]
	cur := a.Step == t.f.Step
	c := t.blank()
	k := t.kindOf(a)
	from, okF := t.idx[a.From]
	to, okT := t.idx[a.To]

	// The gutter: the step number on a step's first label line.
	gut := repeat(" ", t.gutter)
	if i%2 == 0 && (i == 0 || t.f.Timeline[i/2-1].Step != a.Step) {
		gut = t.p.mark(cur) + padLeft(itoa(a.Step), t.gutter-3) + " "
	} else if cur {
		gut = t.p.mark(true) + repeat(" ", t.gutter-2)
	}
	if !okF || !okT {
		if i%2 == 1 {
			return gut
		}
		return gut + th.Render(k, "? "+clean(a.Label))
	}
	ca, cb := t.centers[from], t.centers[to]
	lo, hi := min(ca, cb), max(ca, cb)

	if i%2 == 0 {
		start := lo + 2
		if from == to {
			start = ca + 3
		}
		label := clean(a.Label)
		if a.Error {
			label = th.Glyph(theme.Aborted) + " " + label
		}
		if a.Dropped {
			label += " " + th.Glyph(theme.Dropped) + " dropped"
		}
		// A label too long for the room right of its arrow moves left
		// (over the lifelines, as every label is drawn) rather than lose
		// its last words: those are the error code or the offset.
		if lw := width(label); start+lw > t.p.w {
			start = max(t.p.w-lw, t.gutter)
		}
		avail := t.p.w - start
		if avail < 4 {
			return gut + t.render(c, t.gutter, t.lineW, false)
		}
		label = clip(label, avail, th.Sym.Ellipsis)
		styled := th.Render(k, label)
		if cur {
			styled = th.RenderBold(k, label)
		}
		s := gut + t.render(c, t.gutter, start, false) + styled
		if end := start + width(label) + 1; end < t.lineW {
			s += " " + t.render(c, end, t.lineW, false)
		}
		return s
	}

	switch {
	case from == to:
		c.set(ca+1, th.Sym.Self, k)
	case a.Dropped:
		mid := (lo + hi) / 2
		for x := lo + 1; x < hi; x++ {
			if (ca < cb && x < mid) || (ca > cb && x > mid) {
				c.set(x, th.Sym.Line, k)
			}
		}
		c.set(mid, th.Glyph(theme.Dropped), theme.Dropped)
	default:
		shaft := th.Sym.Line
		if a.Reply {
			shaft = th.Sym.Dashed
		}
		for x := lo + 1; x < hi; x++ {
			c.set(x, shaft, k)
		}
		if ca < cb {
			c.set(cb-1, th.Sym.Right, k)
		} else {
			c.set(cb+1, th.Sym.Left, k)
		}
	}
	return gut + t.render(c, t.gutter, t.lineW, cur)
}

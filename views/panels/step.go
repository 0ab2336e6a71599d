package panels

import (
	"sort"
	"strings"

	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// The step view is what a shared slot shows while the player follows the
// lesson and the step names its subjects (Frame.Show): the rows of each
// subject, from every panel, in the room the slot has. A step about an
// abort thus shows the PrepareAbort record and both partitions' markers at
// once, where one panel at a time would show one of them.

// stepBlock is one subject, drawn two ways: in full (a heading and its
// rows) when there is room, and as one line (the heading and the row the
// step is about) when there is not.
type stepBlock struct {
	head  string
	rows  []string
	focus int // the first row the step is about: the first it changed, or the last
	last  int // the last row the step is about, which the window keeps in view
	brief string
	// tiny is the shortest form, for packing several subjects a line;
	// empty means brief.
	tiny string
	// cols is the column heads drawn under head when rows show; empty
	// when the rows say what they are.
	cols string
	// prio ranks each row for a window too small for all of them:
	// prioNamed first (what the step changed, what a consumer of the
	// step returned, or a row whose value the step's text names), then
	// prioMark (the LSO line while it holds readers
	// back), then the other rows, then the producer-state entries.
	prio []int
	// where is the tab that holds every row, for the "more" line.
	where string
}

// Row priorities of a stepBlock.
const (
	prioState = iota
	prioRow
	prioMark
	prioNamed
)

// pick is which g rows of b show, in order: the highest priority first,
// nearest the row the step is about among equals.
func (b *stepBlock) pick(g int) []int {
	idx := make([]int, len(b.rows))
	for i := range idx {
		idx[i] = i
	}
	last := max(b.last, b.focus)
	dist := func(i int) int {
		switch {
		case i < b.focus:
			return 2*(b.focus-i) + 1 // rows before the window come after the ones below it
		case i > last:
			return 2 * (i - last)
		}
		return -(i - b.focus) // within the rows the step is about, the last first
	}
	prio := func(i int) int {
		switch {
		case i >= b.focus && i <= last:
			return prioNamed
		case i < len(b.prio):
			return b.prio[i]
		}
		return prioRow
	}
	sort.SliceStable(idx, func(x, y int) bool {
		if px, py := prio(idx[x]), prio(idx[y]); px != py {
			return px > py
		}
		return dist(idx[x]) < dist(idx[y])
	})
	idx = idx[:g]
	sort.Ints(idx)
	return idx
}

// Step draws the subjects of f in h lines of the painter's width.
// Every subject keeps at least its one-line form; rows are given out one
// subject at a time, what the step names first. A subject that cannot
// show all its rows says how many it leaves out and where they are; its
// one-line form counts them too. When even the one-line forms do not
// fit, they stand in columns.
func Step(f *model.Frame, p Painter, h int) []string {
	var blocks []stepBlock
	for _, s := range f.Show {
		if b, ok := p.stepBlock(f, s); ok {
			blocks = append(blocks, b)
		}
	}
	n := len(blocks)
	if n == 0 || h <= 0 {
		return nil
	}
	for i := range blocks {
		if k := len(blocks[i].rows) - 1; k > 0 {
			blocks[i].brief += p.muted(" +" + itoa(k) + " more")
			if blocks[i].tiny != "" {
				blocks[i].tiny += p.muted(" +" + itoa(k))
			}
		}
	}
	if n > h {
		return p.packBriefs(blocks, h)
	}
	// give[i] is how many rows block i shows; -1 is its one-line form.
	give := make([]int, n)
	left := h - n
	for i := range give {
		give[i] = -1
	}
	for more := true; more && left > 0; {
		more = false
		for i := range blocks {
			b := &blocks[i]
			next := max(give[i]+1, 1)
			if next > len(b.rows) {
				continue
			}
			if left > 0 {
				give[i] = next
				left--
				more = true
			}
		}
	}
	// Lines left over say, on their own line, how many rows a subject
	// leaves out and where they are, and then name the columns; without
	// them the heading counts the rows left out.
	moreLine := make([]bool, n)
	cols := make([]bool, n)
	for i := range blocks {
		if left > 0 && give[i] >= 0 && give[i] < len(blocks[i].rows) {
			moreLine[i] = true
			left--
		}
	}
	for i := range blocks {
		if left > 0 && give[i] > 0 && blocks[i].cols != "" {
			cols[i] = true
			left--
		}
	}
	var out []string
	for i, b := range blocks {
		if give[i] < 0 {
			out = append(out, b.brief)
			continue
		}
		k := len(b.rows) - give[i]
		head := b.head
		if k > 0 && !moreLine[i] {
			head += p.muted("  " + p.Theme.Sym.Ellipsis + " +" + itoa(k) + " more")
		}
		out = append(out, head)
		if cols[i] {
			out = append(out, b.cols)
		}
		for _, j := range b.pick(give[i]) {
			out = append(out, b.rows[j])
		}
		if moreLine[i] {
			out = append(out, "  "+p.muted(p.Theme.Sym.Ellipsis+" "+itoa(k)+" more row"+Plural(k)+": "+b.where))
		}
	}
	return out
}

// packBriefs lays the shortest forms of more subjects than lines side by
// side, each on the first line with room for it, so four subjects fit in
// three lines of a 60-column terminal; a subject no line has room for
// is cut at the end of the emptiest.
func (p Painter) packBriefs(blocks []stepBlock, h int) []string {
	const gap = "   "
	out := make([]string, h)
	for _, b := range blocks {
		t := b.tiny
		if t == "" {
			t = b.brief
		}
		placed := false
		for i := range out {
			need := cells.Width(t)
			if out[i] != "" {
				need += len(gap)
			}
			if cells.Width(out[i])+need <= p.Width {
				if out[i] != "" {
					out[i] += gap
				}
				out[i] += t
				placed = true
				break
			}
		}
		if !placed {
			i := 0
			for j := range out {
				if cells.Width(out[j]) < cells.Width(out[i]) {
					i = j
				}
			}
			if out[i] != "" {
				out[i] += gap
			}
			out[i] = cells.Fit(out[i]+t, p.Width, p.Theme.Sym.Ellipsis)
		}
	}
	return out
}

func (p Painter) stepBlock(f *model.Frame, s model.Subject) (stepBlock, bool) {
	sep := p.muted(p.Theme.Sym.Sep)
	switch s.Kind {
	case model.SubjectPartition:
		for i := range f.Partitions {
			pv := &f.Partitions[i]
			if pv.Name != s.Name {
				continue
			}
			l := newPartLog(pv, p)
			b := stepBlock{head: l.Line(0), cols: l.Line(1), where: "tab to Partitions"}
			named := consumedAt(f, pv.Name)
			// focusRow is the last row the step changed, or the last row,
			// for the one-line form; the full form starts at the first
			// row the step changed.
			var focusRow *model.LogRow
			first := -1
			for j := range l.Len() {
				it := l.item(j)
				switch it.kind {
				case piTitle, piHeads, piEmpty, piBlank:
					continue
				case piCachedTitle:
					// Each entry below says what it is (producer state),
					// so a window that starts under the title still reads.
					continue
				case piCached:
					b.rows = append(b.rows, "  "+p.muted("producer state ")+strings.TrimLeft(l.Line(j), " "))
					b.prio = append(b.prio, prioState)
					continue
				case piBoundary:
					// The LSO line while it holds read_committed readers
					// below the high watermark: what a step about an open
					// transaction is about.
					pr := prioRow
					if it.lso && pv.LSO < pv.HW {
						pr = prioMark
					}
					b.prio = append(b.prio, pr)
				case piRow:
					r := &pv.Rows[it.row]
					pr := prioRow
					if r.Changed || r.Named || named.covers(r.First, r.Last) {
						pr = prioNamed
					}
					b.prio = append(b.prio, pr)
					if r.Changed && first < 0 {
						first = len(b.rows)
					}
					if r.Changed || focusRow == nil || !focusRow.Changed {
						b.focus, focusRow = len(b.rows), r
					}
				}
				b.rows = append(b.rows, l.Line(j))
			}
			b.last = b.focus
			if first >= 0 {
				b.focus = first
			}
			b.brief = p.mark(pv.Changed) + p.Bold(cells.Clean(pv.Name)) + "  LSO " + i64(pv.LSO) + sep + "HW " + i64(pv.HW) + sep
			if focusRow != nil {
				b.brief += "@" + focusRow.Offsets() + " " + rowWords(focusRow)
				b.tiny = p.mark(pv.Changed) + p.Bold(cells.Clean(pv.Name)) + " @" + focusRow.Offsets() + " " + rowWords(focusRow)
			} else {
				b.brief += p.muted("empty log")
				b.rows, b.focus = nil, 0
			}
			return b, true
		}
	case model.SubjectTxnLog:
		for i := range f.Coordinators {
			c := &f.Coordinators[i]
			if c.TxnID != s.Name {
				continue
			}
			head := p.mark(c.Changed) + p.Bold("txn "+cells.Clean(c.TxnID)) + " " +
				p.Theme.RenderBold(toneKind(c.Tone), "["+cells.Clean(c.State())+"]") + p.muted(" writes to "+cells.Clean(c.Partition)+":")
			b := stepBlock{head: head}
			for j, w := range c.Writes {
				b.rows = append(b.rows, "  "+p.mark(j == len(c.Writes)-1 && c.Changed)+cells.Fit(cells.Clean(w), max(p.Width-4, 10), p.Theme.Sym.Ellipsis))
			}
			for _, w := range c.Appending {
				b.rows = append(b.rows, "  "+p.mark(c.Changed)+p.Theme.Render(theme.InFlight, cells.Fit(p.Theme.Sym.Ellipsis+" appending "+cells.Clean(w), max(p.Width-4, 10), p.Theme.Sym.Ellipsis)))
			}
			b.focus = len(b.rows) - 1
			b.brief = p.mark(c.Changed) + p.Bold("txn "+cells.Clean(c.TxnID))
			switch {
			case len(c.Appending) > 0:
				b.brief += " " + p.Theme.Render(theme.InFlight, "appending "+cells.Clean(c.Appending[len(c.Appending)-1]))
			case len(c.Writes) > 0:
				b.brief += " " + cells.Clean(c.Writes[len(c.Writes)-1])
			default:
				b.brief += " " + p.muted("no records")
			}
			return b, true
		}
	case model.SubjectConsumer:
		for i := range f.Consumers {
			c := &f.Consumers[i]
			if c.Name != s.Name {
				continue
			}
			pos := make([]string, len(c.Positions))
			for j, o := range c.Positions {
				pos[j] = cells.Clean(o.Partition) + ":" + i64(o.Offset)
			}
			b := stepBlock{focus: -1, where: "tab to Consumers"}
			var got []string
			for j, r := range c.Records {
				b.rows = append(b.rows, "  "+p.mark(r.Changed)+p.muted("got ")+cells.Clean(r.Partition)+"@"+i64(r.Offset)+" "+cells.Clean(r.Value))
				pr := prioRow
				if r.Changed {
					pr = prioNamed
				}
				b.prio = append(b.prio, pr)
				if r.Changed && b.focus < 0 {
					b.focus = j
				}
				if r.Changed {
					b.last = j
				}
				if r.Changed {
					got = append(got, cells.Clean(r.Value))
				}
			}
			if b.focus < 0 {
				b.focus = max(len(c.Records)-1, 0)
			}
			b.brief = p.mark(c.Changed) + p.Bold(cells.Clean(c.Name)) + p.muted(" ("+cells.Clean(c.Isolation)+") ")
			switch {
			case len(got) > 0:
				b.brief += "got " + strings.Join(got, ", ")
			case len(c.Records) > 0:
				r := c.Records[len(c.Records)-1]
				b.brief += p.muted("last got ") + cells.Clean(r.Value)
			default:
				b.brief += p.muted("got nothing")
			}
			b.tiny = strings.Replace(b.brief, p.muted(" ("+cells.Clean(c.Isolation)+") "), " ", 1)
			if len(pos) > 0 {
				b.brief += p.muted(" at ") + strings.Join(pos, " ")
			}
			// The full form counts what the step returned above its
			// rows; with nothing returned it is the one-line form.
			b.head = b.brief
			if len(got) > 0 {
				b.head = p.mark(c.Changed) + p.Bold(cells.Clean(c.Name)) + p.muted(" ("+cells.Clean(c.Isolation)+") ") +
					"got " + itoa(len(got)) + " record" + Plural(len(got)) + p.muted(" this step")
			}
			return b, true
		}
	case model.SubjectProducer:
		for _, pr := range f.Producers {
			if pr.Name != s.Name {
				continue
			}
			lines := p.producerLines(pr)
			b := stepBlock{rows: lines[1:], focus: len(lines) - 2, where: "tab to Producers"}
			b.brief = p.mark(pr.Changed) + p.Bold(cells.Clean(pr.Name))
			if pr.ProducerID >= 0 {
				b.brief += " producerId " + i64(pr.ProducerID) + " epoch " + itoa(int(pr.Epoch))
			}
			if pr.State != "" {
				b.brief += " " + p.Theme.Render(toneKind(pr.StateTone), cells.Clean(pr.State))
			}
			if pr.LastError != "" {
				b.brief += " " + p.Theme.Render(toneKind(pr.ErrorTone), cells.Clean(pr.LastError))
			}
			// The one-line form leads the full one too: the producer id
			// and epoch are what a step about a producer is about.
			b.head = b.brief
			if len(b.rows) == 0 {
				b.focus = 0
			}
			return b, true
		}
	}
	return stepBlock{}, false
}

// offsetSet is the offsets of one partition that consumers returned in
// the last step.
type offsetSet []int64

// covers says whether any of the offsets is in first..last.
func (o offsetSet) covers(first, last int64) bool {
	for _, x := range o {
		if x >= first && x <= max(first, last) {
			return true
		}
	}
	return false
}

// consumedAt is the offsets of partition name that a consumer returned in
// the last step: rows the step names as surely as the ones it wrote.
func consumedAt(f *model.Frame, name string) offsetSet {
	var o offsetSet
	for i := range f.Consumers {
		for _, r := range f.Consumers[i].Records {
			if r.Changed && r.Partition == name {
				o = append(o, r.Offset)
			}
		}
	}
	return o
}

// rowWords is a log row in a few words: its values, or its marker.
func rowWords(r *model.LogRow) string {
	if r.Kind != model.RowData {
		return r.Kind.String() + " marker"
	}
	vals := make([]string, len(r.Values))
	for i, v := range r.Values {
		vals[i] = cells.Clean(v)
	}
	return strings.Join(vals, ",") + " " + r.Status.String()
}

// StepTab is the step view's name in a slot's title.
func (p Painter) StepTab() string {
	return p.Theme.Text(theme.TextTitle, "This step")
}

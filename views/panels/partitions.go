package panels

import (
	"strings"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// A partition log is drawn as a list of items: the title, the column heads,
// one item per batch, a boundary line wherever the LSO or the high watermark
// falls between batches, and the producer-state cache. Items are cheap
// structs; only the ones on screen are styled.
type pitemKind uint8

const (
	piTitle pitemKind = iota
	piHeads
	piRow
	piBoundary
	piCachedTitle
	piCached
	piEmpty
	piBlank
)

type pitem struct {
	kind    pitemKind
	row     int   // piRow: index into Rows; piCached: index into cacheGroups
	at      int64 // piBoundary: the offset
	lso, hw bool  // piBoundary: which marks fall here
}

// partLog is one partition's items and column widths. A log has a row
// per batch, hundreds of them, and a frame shows a screenful: the rows'
// items are not kept but worked out from their index (item), with the few
// other items around them held in pre, bounds and post.
type partLog struct {
	p                             Painter
	pv                            *model.PartitionView
	pre                           []pitem      // the title, the column heads, "(empty log)"
	bounds                        []pbound     // the boundary lines among the rows, in order
	post                          []pitem      // the producer-state cache
	groups                        []cacheGroup // the producers' entries, in order
	offW, pidW, seqW, valW, statW int
	showPID, showSeq              bool
	title                         string // Line(0), once StickyAt has made it
}

// pbound is a boundary line drawn just above row before (after the last
// row when before is len(Rows)).
type pbound struct {
	before int
	it     pitem
}

func (l *partLog) Len() int { return len(l.pre) + len(l.pv.Rows) + len(l.bounds) + len(l.post) }

// item is the item on line i.
func (l *partLog) item(i int) pitem {
	if i < len(l.pre) {
		return l.pre[i]
	}
	i -= len(l.pre)
	if mid := len(l.pv.Rows) + len(l.bounds); i >= mid {
		return l.post[i-mid]
	}
	for k, b := range l.bounds {
		switch at := b.before + k; {
		case i == at:
			return b.it
		case i < at:
			return pitem{kind: piRow, row: i - k}
		}
	}
	return pitem{kind: piRow, row: i - len(l.bounds)}
}

func newPartLog(pv *model.PartitionView, p Painter) *partLog {
	l := &partLog{p: p, pv: pv}
	l.pre = append(l.pre, pitem{kind: piTitle}, pitem{kind: piHeads})
	if len(pv.Rows) == 0 {
		l.pre = append(l.pre, pitem{kind: piEmpty})
	}
	// Boundaries: a line before the first batch that reaches the offset, so
	// "LSO 4" sits between the batch ending at 3 and the one starting at 4.
	lsoDone, hwDone := false, false
	boundary := func(before int, lastOfNext int64, end bool) {
		lso := !lsoDone && (end || lastOfNext >= pv.LSO)
		hw := !hwDone && (end || lastOfNext >= pv.HW)
		if lso || hw {
			at := pv.LSO
			if !lso {
				at = pv.HW
			}
			l.bounds = append(l.bounds, pbound{before: before, it: pitem{kind: piBoundary, at: at, lso: lso, hw: hw}})
			lsoDone = lsoDone || lso
			hwDone = hwDone || hw
		}
	}
	var maxPID, maxOff int64
	var maxEpoch int16
	l.seqW = 3
	for i := range pv.Rows {
		r := &pv.Rows[i]
		if !lsoDone || !hwDone {
			boundary(i, r.Last, false)
		}
		maxPID, maxEpoch = max(maxPID, r.PID), max(maxEpoch, r.Epoch)
		maxOff = max(maxOff, r.Last, r.First)
		l.seqW = max(l.seqW, len(r.Seqs))
	}
	boundary(len(pv.Rows), 0, true)

	l.groups = groupCached(pv.Entries, pv.Cached)
	l.post = make([]pitem, 0, 1+len(l.groups))
	l.post = append(l.post, pitem{kind: piCachedTitle})
	for i := range l.groups {
		l.post = append(l.post, pitem{kind: piCached, row: i})
	}

	// Column widths: fixed columns first, the values get what is left, and
	// narrow panes drop the pid and seq columns before the values vanish.
	l.offW = max(3, 2*digits(maxOff)+2)
	l.pidW = max(6, digits(maxPID)+1+digits(int64(maxEpoch)))
	l.seqW = min(l.seqW, 11)
	l.statW = cells.Width(p.Theme.Tag(theme.Committed))
	l.showPID, l.showSeq = true, true
	fixed := func() int {
		n := 2 + l.offW + 2 + 2 + l.statW
		if l.showPID {
			n += l.pidW + 2
		}
		if l.showSeq {
			n += l.seqW + 2
		}
		return n
	}
	if p.Width-fixed() < 8 {
		l.showPID = false
	}
	if p.Width-fixed() < 8 {
		l.showSeq = false
	}
	l.valW = max(p.Width-fixed(), 3)
	return l
}

// cacheGroup is one producer's entry at a leader and its cached batches.
type cacheGroup struct {
	pid     int64
	epoch   int16
	batches []model.CachedBatch
}

// groupCached groups the cached batches by producer, one group per entry;
// batches of a producer without an entry (a session that does not list
// entries) get a group of their own.
func groupCached(es []model.ProducerEntry, cs []model.CachedBatch) []cacheGroup {
	out := make([]cacheGroup, 0, len(es))
	idx := map[int64]int{}
	for _, e := range es {
		idx[e.PID] = len(out)
		out = append(out, cacheGroup{pid: e.PID, epoch: e.Epoch})
	}
	for _, c := range cs {
		i, ok := idx[c.PID]
		if !ok {
			i = len(out)
			idx[c.PID] = i
			out = append(out, cacheGroup{pid: c.PID, epoch: c.Epoch})
		}
		out[i].batches = append(out[i].batches, c)
		out[i].epoch = c.Epoch
	}
	return out
}

// StickyAt keeps the partition's title (name, leader, LEO, HW, LSO) in
// view while its rows scroll.
func (l *partLog) StickyAt(i int) (string, bool) {
	if i <= 0 {
		return "", false
	}
	// The pane asks whenever it sizes, scrolls or draws.
	if l.title == "" {
		l.title = l.Line(0)
	}
	return l.title, true
}

// changed reports whether item i is what the last step changed: a new or
// changed batch, and, in a partition the step touched, its producer-state
// cache, which a step that appends usually changes too. Revealing them
// together shows a retry's batch and the entry that recognises it.
func (l *partLog) changed(i int) bool {
	switch it := l.item(i); it.kind {
	case piRow:
		return l.pv.Rows[it.row].Changed
	case piCachedTitle, piCached:
		return l.pv.Changed && len(l.groups) > 0
	}
	return false
}

// changedRange is the lines from the first to the last that changed
// says the step changed, found from the rows, without going through the
// lines one by one.
func (l *partLog) changedRange() content.Range {
	r := content.NoRange
	rows := l.pv.Rows
	for i := range rows {
		if rows[i].Changed {
			if r.From < 0 {
				r.From = l.lineOfRow(i)
			}
			r.To = l.lineOfRow(i)
		}
	}
	if l.pv.Changed && len(l.groups) > 0 {
		first := len(l.pre) + len(rows) + len(l.bounds)
		if r.From < 0 {
			r.From = first
		}
		r.To = l.Len() - 1
	}
	return r
}

// lineOfRow is the line row i is drawn on.
func (l *partLog) lineOfRow(i int) int {
	n := len(l.pre) + i
	for _, b := range l.bounds {
		if b.before <= i {
			n++
		}
	}
	return n
}

func (l *partLog) Line(i int) string {
	p, pv, th := l.p, l.pv, l.p.Theme
	it := l.item(i)
	switch it.kind {
	case piTitle:
		s := p.mark(pv.Changed) + p.Bold(cells.Clean(pv.Name))
		if pv.Leader != "" {
			s += p.muted(" @ " + cells.Clean(pv.Leader))
		}
		return s + "   LEO " + i64(pv.LEO) + p.muted(th.Sym.Sep) + "HW " + i64(pv.HW) + p.muted(th.Sym.Sep) + "LSO " + i64(pv.LSO)
	case piHeads:
		return p.muted(l.cells("off", "pid:ep", "seq", "value", "status"))
	case piEmpty:
		return "  " + p.muted("(empty log)")
	case piBoundary:
		return l.boundaryLine(it)
	case piRow:
		return l.rowLine(&pv.Rows[it.row])
	case piCachedTitle:
		if len(l.groups) == 0 {
			return "  " + p.muted("producer state cache: empty")
		}
		return "  " + p.muted("producer state cache (last 5 batches per producer):")
	case piCached:
		g := l.groups[it.row]
		if len(g.batches) == 0 {
			return "    pid " + pidEpoch(g.pid, g.epoch) + "  " + p.muted("no batches cached: a newer epoch cleared them")
		}
		parts := make([]string, len(g.batches))
		for j, c := range g.batches {
			parts[j] = "seq " + seqRange(c.FirstSeq, c.LastSeq) + "@" + i64(c.Offset)
		}
		return "    pid " + pidEpoch(g.pid, g.epoch) + "  " + strings.Join(parts, p.muted(th.Sym.Sep))
	}
	return ""
}

func seqRange(a, b int32) string {
	if a == b {
		return itoa(int(a))
	}
	return itoa(int(a)) + ".." + itoa(int(b))
}

// cells lays out one table line from unstyled cell texts.
func (l *partLog) cells(off, pid, seq, val, status string) string {
	var b strings.Builder
	b.WriteString("  ")
	b.WriteString(padRight(off, l.offW))
	b.WriteString("  ")
	if l.showPID {
		b.WriteString(padRight(pid, l.pidW))
		b.WriteString("  ")
	}
	if l.showSeq {
		b.WriteString(padRight(seq, l.seqW))
		b.WriteString("  ")
	}
	b.WriteString(cells.Fit(val, l.valW, l.p.Theme.Sym.Ellipsis))
	b.WriteString("  ")
	b.WriteString(status)
	return b.String()
}

// rowKey is what a row's line is drawn from: the row, by value and its
// values by identity (a session keeps a batch's values in one array from
// frame to frame), and the table's geometry. Neighbouring frames show
// mostly the same rows, so the lines are kept across frames
// (Cache.logRowLine).
type rowKey struct {
	first, last                   int64
	pid                           int64
	epoch                         int16
	kind                          model.RowKind
	status                        model.RowStatus
	changed, showPID, showSeq     bool
	seqs                          string
	vals                          *string
	nvals                         int
	offW, pidW, seqW, valW, statW int
	th                            *theme.Theme
}

func (l *partLog) rowLine(r *model.LogRow) string {
	if l.p.Cache == nil || len(r.Values) == 0 {
		return l.drawRow(r)
	}
	k := rowKey{first: r.First, last: r.Last, pid: r.PID, epoch: r.Epoch, kind: r.Kind, status: r.Status,
		changed: r.Changed, showPID: l.showPID, showSeq: l.showSeq, seqs: r.Seqs, vals: &r.Values[0], nvals: len(r.Values),
		offW: l.offW, pidW: l.pidW, seqW: l.seqW, valW: l.valW, statW: l.statW, th: l.p.Theme}
	return l.p.Cache.logRowLine(&k, r.Values, func() string { return l.drawRow(r) })
}

func (l *partLog) drawRow(r *model.LogRow) string {
	p, th := l.p, l.p.Theme
	k := statusKind(r.Status)
	var val string
	if r.Kind == model.RowData {
		vals := make([]string, len(r.Values))
		for i, v := range r.Values {
			vals[i] = cells.Clean(v)
		}
		val = cells.Fit(strings.Join(vals, ", "), l.valW, th.Sym.Ellipsis)
		if r.Status == model.StatusAborted {
			val = th.Render(theme.Aborted, val)
		}
	} else {
		mk := theme.Committed
		if r.Kind == model.RowAbort {
			mk = theme.Aborted
		}
		// Cut, "COMMIT mark" would read as a word: the kind alone first,
		// and an ellipsis where even that does not fit.
		name := r.Kind.String() + " marker"
		if cells.Width(name) > l.valW {
			name = r.Kind.String()
		}
		val = th.RenderBold(mk, cells.Fit(name, l.valW, th.Sym.Ellipsis))
	}
	status := th.Tag(k)
	if k == theme.Plain {
		status = p.muted(th.Glyph(theme.Plain) + " plain")
	}
	line := l.cells(r.Offsets(), pidEpoch(r.PID, r.Epoch), cells.Clean(r.Seqs), val, status)
	if r.Changed {
		return p.mark(true) + th.Render(theme.Changed, line[2:l.offW+2]) + line[l.offW+2:]
	}
	return line
}

func (l *partLog) boundaryLine(it pitem) string {
	p, pv, th := l.p, l.pv, l.p.Theme
	var label string
	var k theme.Kind
	switch {
	case it.lso && it.hw:
		label, k = "LSO = HW = "+i64(pv.HW)+": both isolation levels read below", theme.Committed
	case it.lso:
		label, k = "LSO "+i64(pv.LSO)+": read_committed reads below", theme.Committed
	default:
		label, k = "HW "+i64(pv.HW)+": read_uncommitted reads below", theme.InFlight
	}
	b := th.Sym.Boundary
	s := "  " + cells.Repeat(b, 2) + " " + label + " "
	return th.Render(k, s+cells.Repeat(b, p.Width-cells.Width(s)))
}

// Partitions draws every partition log, side by side when the pane
// is wide enough for two tables.
func Partitions(f *model.Frame, p Painter) ([]string, content.Content, content.Range) {
	n := len(f.Partitions)
	if n == 0 {
		return nil, content.Lines{p.muted("  (no partitions)")}, content.NoRange
	}
	const gap = 2
	k, cp := p.columns(50, gap, n)
	cols := make([][]content.Content, k)
	anchor := content.NoRange
	for c := 0; c < k; c++ {
		var parts []content.Content
		for i := c; i < n; i += k {
			if len(parts) > 0 {
				parts = append(parts, content.Lines{""})
			}
			parts = append(parts, newPartLog(&f.Partitions[i], cp))
		}
		cols[c] = parts
	}
	stacks := make([]content.Content, k)
	for c, parts := range cols {
		st := stack(parts)
		stacks[c] = st
		a := st.changedRange()
		if a.From >= 0 && (anchor.From < 0 || a.From < anchor.From) {
			anchor.From = a.From
		}
		anchor.To = max(anchor.To, a.To)
	}
	if k == 1 {
		return nil, stacks[0], anchor
	}
	return nil, columns(stacks, cp.Width, gap, p.Theme.Sym.Ellipsis), anchor
}

// stacked is several contents one below the other.
type stacked struct {
	parts []content.Content
	start []int
	n     int
}

func stack(parts []content.Content) *stacked {
	s := &stacked{parts: parts}
	for _, c := range parts {
		s.start = append(s.start, s.n)
		s.n += c.Len()
	}
	return s
}

func (s *stacked) Len() int { return s.n }

func (s *stacked) locate(i int) (content.Content, int) {
	lo, hi := 0, len(s.start)-1
	for lo < hi {
		m := (lo + hi + 1) / 2
		if s.start[m] <= i {
			lo = m
		} else {
			hi = m - 1
		}
	}
	return s.parts[lo], i - s.start[lo]
}

func (s *stacked) Line(i int) string {
	c, j := s.locate(i)
	return c.Line(j)
}

// StickyAt is the heading of the part line i is in, when that part has
// headings (a partition log, a consumer).
func (s *stacked) StickyAt(i int) (string, bool) {
	c, j := s.locate(i)
	if st, ok := c.(content.Sticky); ok {
		return st.StickyAt(j)
	}
	return "", false
}

// changedRange is the lines of the partition logs that the last step
// changed (partLog.changedRange), from the first to the last.
func (s *stacked) changedRange() content.Range {
	r := content.NoRange
	for k, c := range s.parts {
		l, ok := c.(*partLog)
		if !ok {
			continue
		}
		if a := l.changedRange(); a.From >= 0 {
			if r.From < 0 {
				r.From = s.start[k] + a.From
			}
			r.To = s.start[k] + a.To
		}
	}
	return r
}

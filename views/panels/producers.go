package panels

import (
	"strings"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// Producers draws each producer client: its identity (transactional
// id, producerId and epoch), its TransactionManager state, the next sequence
// per partition, what is in flight, and how it failed.
func Producers(f *model.Frame, p Painter) ([]string, content.Content, content.Range) {
	var out []string
	var heads []int
	anchor := content.NoRange
	table := content.NoRange // the cost table's rows
	if f.Cost != nil && len(f.Cost.Rows) > 0 {
		// The table comes first: a lesson that counts costs is about it,
		// so a step's changes point at its rows, not at a producer below.
		heads = append(heads, 0)
		var rows []content.Range
		out, rows = p.costLines(f.Cost)
		// The changed rows; the heading, line 0, sticks when the pane
		// scrolls to them.
		table = content.Range{From: rows[0].From, To: rows[len(rows)-1].To}
		for i, r := range f.Cost.Rows {
			if r.Changed {
				if anchor.From < 0 {
					anchor.From = rows[i].From
				}
				anchor.To = rows[i].To
			}
		}
	}
	if len(f.Producers) == 0 {
		return nil, content.Lines(append(out, p.muted("  (no producers)"))), anchor
	}
	for i, pr := range f.Producers {
		if i > 0 || len(out) > 0 {
			out = append(out, "")
		}
		start := len(out)
		heads = append(heads, start)
		out = append(out, p.producerLines(pr)...)
		if pr.Changed && anchor.From < 0 {
			anchor = content.Range{From: start, To: len(out) - 1}
		}
	}
	if anchor.From < 0 && table.From >= 0 {
		// Nothing changed (a step that only reads the bill, or a pane
		// that scrolled away at another size): the table's top again.
		anchor = content.Range{From: 0, To: table.To}
	}
	return nil, content.Sections{Lines: out, Heads: heads}, anchor
}

func (p Painter) producerLines(pr model.ProducerView) []string {
	th := p.Theme
	lines := []string{p.mark(pr.Changed) + p.Bold(cells.Clean(pr.Name))}
	if pr.TransactionalID != "" {
		lines = append(lines, p.Flow("  transactional.id ", []string{cells.Clean(pr.TransactionalID)}, "", 4)...)
	} else {
		lines = append(lines, "  "+p.muted("no transactional.id"))
	}
	switch {
	case pr.NotIdempotent:
		lines = append(lines, p.Flow("  ", []string{p.muted("not idempotent:"), p.muted("no producerId,"), p.muted("no sequence numbers")}, " ", 4)...)
	case pr.ProducerID < 0:
		lines = append(lines, "  "+p.muted("no producerId yet"))
	default:
		lines = append(lines, p.Flow("  ", []string{"producerId " + p.Bold(i64(pr.ProducerID)), "epoch " + p.Bold(itoa(int(pr.Epoch)))}, "  ", 2)...)
	}
	if pr.State != "" && !pr.NotIdempotent {
		lines = append(lines, p.Flow("  state ", []string{th.Render(toneKind(pr.StateTone), cells.Clean(pr.State))}, "", 4)...)
	}
	if len(pr.NextSeq) > 0 && !pr.NotIdempotent {
		parts := make([]string, len(pr.NextSeq))
		for i, s := range pr.NextSeq {
			parts[i] = cells.Clean(s.Partition) + ":" + itoa(int(s.Seq))
		}
		lines = append(lines, p.Flow("  next seq ", parts, "  ", 4)...)
	}
	if pr.InFlight > 0 {
		lines = append(lines, "  "+th.Mark(theme.InFlight, itoa(pr.InFlight)+" in flight"))
	}
	var tags []string
	if pr.Fenced {
		tags = append(tags, th.Tag(theme.Fenced))
	}
	if pr.Paused {
		tags = append(tags, th.Mark(theme.Paused, "paused (GC pause)"))
	}
	if pr.Crashed {
		tags = append(tags, th.Tag(theme.Crashed))
	}
	if len(tags) > 0 {
		lines = append(lines, p.Flow("  ", tags, "  ", 2)...)
	}
	if pr.LastError != "" {
		lines = append(lines, p.Flow("  last error ", []string{th.Mark(toneKind(pr.ErrorTone), cells.Clean(pr.LastError))}, "", 4)...)
	}
	return lines
}

// costCols are the cost table's request columns: a short heading (the
// legend below the table spells each out) and the count it shows.
var costCols = []struct {
	head string
	n    func(r *model.CostRow) int
}{
	{"Produce", func(r *model.CostRow) int { return r.Produce }},
	{"Init", func(r *model.CostRow) int { return r.Init }},
	{"Find", func(r *model.CostRow) int { return r.Find }},
	{"Add", func(r *model.CostRow) int { return r.Add }},
	{"End", func(r *model.CostRow) int { return r.End }},
	{"TxnOff", func(r *model.CostRow) int { return r.TxnOffsets }},
}

// Cost table geometry: the longest bar, the widest client name, and the
// narrowest bar worth drawing.
const (
	costBarMax  = 12
	costBarMin  = 3
	costNameMax = 8
)

// costLines draws the cost table: a heading row, then per producer
// client its requests by kind, its round trips as a number and a bar (the
// bar only repeats the number, so neither colour nor the bar is the only
// signal), and the WriteTxnMarkers and markers of its transactions ("-"
// for a client without a transactional.id); a legend spells out the
// headings. A pane too narrow for the table's columns (a side column at
// 160x48) gets each client on two or three rows instead: its round trips
// and bar, then its non-zero counts by kind. rows are the lines of each
// client.
func (p Painter) costLines(c *model.CostView) (lines []string, rows []content.Range) {
	nameW := len("Cost")
	maxTotal := 0
	for i := range c.Rows {
		nameW = max(nameW, min(cells.Width(cells.Clean(c.Rows[i].Client)), costNameMax))
		maxTotal = max(maxTotal, c.Rows[i].Total)
	}
	totalW := max(len("total"), len(itoa(maxTotal)))
	// The cells of a full row without its bar: gutter, name, the request
	// columns, total, WTM and markers.
	fixed := 2 + nameW + 1 + totalW + len(" WTM markers")
	for _, col := range costCols {
		fixed += 1 + len(col.head)
	}
	if barW := min(costBarMax, p.Width-fixed-1); barW >= costBarMin || p.Width >= fixed {
		return p.costTable(c, nameW, totalW, max(barW, 0), maxTotal)
	}
	return p.costStacked(c, nameW, maxTotal)
}

// costBar is a row's bar: its total against the largest, at least one
// cell when it is not zero.
func (p Painter) costBar(total, maxTotal, barW int) string {
	n := 0
	if maxTotal > 0 && total > 0 {
		n = max(1, (total*barW+maxTotal/2)/maxTotal)
	}
	return p.Theme.Text(theme.TextBarDone, cells.Repeat(p.Theme.Sym.BarFull, n)) + cells.Repeat(" ", barW-n)
}

func (p Painter) costName(r *model.CostRow, nameW int) string {
	name := cells.Clip(cells.Clean(r.Client), costNameMax, p.Theme.Sym.Ellipsis)
	return p.mark(r.Changed) + p.Bold(name) + cells.Repeat(" ", nameW-cells.Width(name))
}

func (p Painter) costTable(c *model.CostView, nameW, totalW, barW, maxTotal int) ([]string, []content.Range) {
	if barW < costBarMin {
		barW = 0
	}
	var b strings.Builder
	b.WriteString("  " + p.Bold("Cost") + cells.Repeat(" ", nameW-len("Cost")))
	for _, col := range costCols {
		b.WriteString(" " + p.muted(col.head))
	}
	b.WriteString(" " + p.muted(cells.PadLeft("total", totalW)))
	if barW > 0 {
		b.WriteString(" " + cells.Repeat(" ", barW))
	}
	b.WriteString(" " + p.muted("WTM") + " " + p.muted("markers"))
	out := []string{b.String()}
	rows := make([]content.Range, len(c.Rows))
	for i := range c.Rows {
		r := &c.Rows[i]
		rows[i] = content.Range{From: len(out), To: len(out)}
		b.Reset()
		b.WriteString(p.costName(r, nameW))
		for _, col := range costCols {
			cell := cells.PadLeft(itoa(col.n(r)), len(col.head))
			if col.n(r) == 0 {
				cell = p.muted(cell)
			}
			b.WriteString(" " + cell)
		}
		b.WriteString(" " + p.Bold(cells.PadLeft(itoa(r.Total), totalW)))
		if barW > 0 {
			b.WriteString(" " + p.costBar(r.Total, maxTotal, barW))
		}
		if r.Transactional {
			b.WriteString(" " + cells.PadLeft(itoa(r.MarkerRequests), len("WTM")) + " " + cells.PadLeft(itoa(r.Markers), len("markers")))
		} else {
			b.WriteString(" " + p.muted(cells.PadLeft("-", len("WTM"))) + " " + p.muted(cells.PadLeft("-", len("markers"))))
		}
		out = append(out, strings.TrimRight(b.String(), " "))
	}
	return append(out, p.costLegend()...), rows
}

func (p Painter) costStacked(c *model.CostView, nameW, maxTotal int) ([]string, []content.Range) {
	out := []string{"  " + p.Bold("Cost") + p.muted(" (requests = round trips)")}
	totalW := len(itoa(maxTotal))
	barW := min(costBarMax, p.Width-(2+nameW+1+totalW+1))
	rows := make([]content.Range, len(c.Rows))
	for i := range c.Rows {
		r := &c.Rows[i]
		from := len(out)
		line := p.costName(r, nameW) + " " + p.Bold(cells.PadLeft(itoa(r.Total), totalW))
		if barW >= costBarMin {
			line += " " + p.costBar(r.Total, maxTotal, barW)
		}
		out = append(out, strings.TrimRight(line, " "))
		var kinds []string
		for _, col := range costCols {
			if n := col.n(r); n > 0 {
				kinds = append(kinds, col.head+" "+itoa(n))
			}
		}
		if r.Transactional {
			kinds = append(kinds, "WTM "+itoa(r.MarkerRequests), "markers "+itoa(r.Markers))
		}
		if len(kinds) > 0 {
			out = append(out, p.Flow("    ", kinds, p.muted(" · "), 4)...)
		}
		rows[i] = content.Range{From: from, To: len(out) - 1}
	}
	return append(out, p.costLegend()...), rows
}

// costLegend spells out the table's headings.
func (p Painter) costLegend() []string {
	words := []string{"total:", "requests", "sent,", "each", "a", "round", "trip.", "Init InitProducerId,", "Find FindCoordinator,",
		"Add AddPartitionsToTxn", "and", "AddOffsetsToTxn,", "End EndTxn,", "TxnOff TxnOffsetCommit,", "WTM WriteTxnMarkers", "for", "its", "transactions."}
	for i := range words {
		words[i] = p.muted(words[i])
	}
	return p.Flow("  ", words, " ", 2)
}

package panels

import (
	"strings"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// Consumers draws the consumer groups' offsets, when there are
// groups, above the consumers side by side, so a read_committed and a
// read_uncommitted reader of the same partitions can be compared line by
// line: what each has returned, and where each will fetch next.
func Consumers(f *model.Frame, p Painter) ([]string, content.Content, content.Range) {
	head, body, anchor := consumerColumns(f, p)
	if len(f.Groups) == 0 {
		return head, body, anchor
	}
	groups, ga := p.groupLines(f.Groups)
	n := groups.Len()
	if ga.From < 0 && anchor.From >= 0 {
		ga = content.Range{From: anchor.From + n, To: anchor.To + n}
	}
	return head, stack([]content.Content{groups, body}), ga
}

// groupLines is each group's offsets at its coordinator, a few lines a
// group: "Group g offsets (generation 2)", then the committed offsets and
// the pending transactional ones with the producer id whose transaction
// holds them. The words say which is which; colour only repeats them.
func (p Painter) groupLines(gs []model.GroupView) (content.Sections, content.Range) {
	var out []string
	var heads []int
	anchor := content.NoRange
	for i := range gs {
		g := &gs[i]
		from := len(out)
		heads = append(heads, from)
		out = append(out, p.mark(g.Changed)+p.Bold("Group "+cells.Clean(g.ID)+" offsets")+
			p.muted(" (generation "+itoa(int(g.Generation))+")"))
		committed := make([]string, len(g.Committed))
		for j, c := range g.Committed {
			committed[j] = p.Theme.Render(theme.Committed, cells.Clean(c.Partition)+":"+i64(c.Offset))
		}
		out = append(out, p.offsetsRow("    committed      ", committed)...)
		pending := make([]string, len(g.Pending))
		for j, o := range g.Pending {
			pending[j] = p.Theme.Render(theme.Open, cells.Clean(o.Partition)+":"+i64(o.Offset)) + p.muted(" pid "+i64(o.ProducerID))
		}
		out = append(out, p.offsetsRow("    pending (txn)  ", pending)...)
		if g.Changed && anchor.From < 0 {
			anchor = content.Range{From: from, To: len(out) - 1}
		}
		out = append(out, "")
	}
	return content.Sections{Lines: out, Heads: heads}, anchor
}

// offsetsRow is one row of a group's offsets after its label, flowed
// under it, or "none".
func (p Painter) offsetsRow(label string, items []string) []string {
	if len(items) == 0 {
		items = []string{p.muted("none")}
	}
	return p.Flow(label, items, ", ", 19)
}

// consumerColumns draws the consumers side by side.
func consumerColumns(f *model.Frame, p Painter) ([]string, content.Content, content.Range) {
	n := len(f.Consumers)
	if n == 0 {
		return nil, content.Lines{p.muted("  (no consumers)")}, content.NoRange
	}
	const gap = 2
	k, cp := p.columns(22, gap, n)
	var cols []content.Content
	anchor := content.NoRange
	for c := 0; c < k; c++ {
		var parts []content.Content
		start := 0
		for i := c; i < n; i += k {
			if len(parts) > 0 {
				parts = append(parts, content.Lines{""})
				start++
			}
			cl := cp.consumerLines(&f.Consumers[i])
			if a := cl.anchor(); a.From >= 0 {
				a = content.Range{From: a.From + start, To: a.To + start}
				if anchor.From < 0 || a.From < anchor.From {
					anchor.From = a.From
				}
				anchor.To = max(anchor.To, a.To)
			}
			parts = append(parts, cl)
			start += cl.Len()
		}
		cols = append(cols, stack(parts))
	}
	if k == 1 {
		return nil, cols[0], anchor
	}
	return nil, columns(cols, cp.Width, gap, p.Theme.Sym.Ellipsis), anchor
}

// consumerCol is one consumer: a few header lines, then its records, which
// are styled only when drawn (a consumer may have returned thousands).
type consumerCol struct {
	p    Painter
	head []string
	recs []model.ConsumedRecord
}

func (c *consumerCol) Len() int { return len(c.head) + len(c.recs) }

func (c *consumerCol) Line(i int) string {
	if i < len(c.head) {
		return c.head[i]
	}
	r := &c.recs[i-len(c.head)]
	// One cell of indent under "returned N records:", not two: side by
	// side, "▸ orders-0@0 order-42" must fit a narrow column whole.
	return " " + c.p.mark(r.Changed) + c.p.muted(cells.Clean(r.Partition)+"@"+i64(r.Offset)) + " " + cells.Clean(r.Value)
}

// StickyAt keeps the consumer's name and isolation level in view while
// its records scroll.
func (c *consumerCol) StickyAt(i int) (string, bool) {
	if i <= 0 || len(c.head) < 2 {
		return "", false
	}
	return c.head[0] + " " + strings.TrimSpace(c.head[1]), true
}

func (c *consumerCol) anchor() content.Range {
	a := anchorOf(len(c.recs), func(i int) bool { return c.recs[i].Changed })
	if a.From < 0 {
		return a
	}
	return content.Range{From: a.From + len(c.head), To: a.To + len(c.head)}
}

func (p Painter) consumerLines(c *model.ConsumerView) *consumerCol {
	th := p.Theme
	iso := cells.Clean(c.Isolation)
	k := theme.Open
	if c.ReadCommitted {
		k = theme.Committed
	}
	out := []string{p.mark(c.Changed) + p.Bold(cells.Clean(c.Name)), "  " + th.RenderBold(k, iso)}
	if c.Group != "" {
		out = append(out, "  group "+cells.Clean(c.Group))
	}
	if len(c.Positions) > 0 {
		ps := make([]string, len(c.Positions))
		for i, po := range c.Positions {
			ps[i] = cells.Clean(po.Partition) + ":" + i64(po.Offset)
		}
		out = append(out, p.Flow("  position ", ps, " ", 4)...)
	}
	out = append(out, "  "+p.muted("returned "+itoa(len(c.Records))+" record"+Plural(len(c.Records))+":"))
	if len(c.Records) == 0 {
		out = append(out, "   "+p.muted("(nothing yet)"))
	}
	return &consumerCol{p: p, head: out, recs: c.Records}
}

func Plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

package panels

import (
	"strings"

	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// MessageBox is the box of a message picked on the Timeline: its number,
// kind and route, where it is, then each field it carries on a row of its
// own (the producer's id, epoch and sequence, the partitions, the
// transactional id, the error code) and the rule that decided, as the
// event log cites it. An error code carries the error glyph, so it does
// not rest on colour.
func MessageBox(m model.MessageFields, p Painter) []string {
	th := p.Theme
	w := min(max(p.Width, 20), layout.MaxProse)
	head := cells.Clean(m.Name + " " + m.Kind + "  " + m.From + " -> " + m.To)
	out := []string{p.Bold(cells.Clip(head, w, th.Sym.Ellipsis)) + p.muted("  ("+m.State.String()+")")}
	const keyW = 17 // "transactional.id" and a space
	row := func(key, value string, k theme.Kind) {
		if value == "" {
			return
		}
		lines := p.Wrap(cells.Clean(value), max(w-keyW-2, 8))
		for i, l := range lines {
			lead := "  " + key + cells.Repeat(" ", keyW-cells.Width(key))
			if i > 0 {
				lead = cells.Repeat(" ", keyW+2)
			}
			out = append(out, p.muted(lead)+th.Render(k, l))
		}
	}
	row("partitions", strings.Join(m.Partitions, ", "), theme.Plain)
	row("transactional.id", m.TransactionalID, theme.Plain)
	row("producerId", m.ProducerID, theme.Plain)
	row("producerEpoch", m.Epoch, theme.Plain)
	row("baseSequence", m.Sequence, theme.Plain)
	if m.Code != "" {
		code, k := m.Code, theme.Plain
		if m.Error {
			code, k = th.Glyph(theme.Aborted)+" "+m.Code, theme.Aborted
		}
		row("error code", code, k)
	}
	rule := m.Rule
	switch {
	case rule != "":
	case m.State == model.ArrowInFlight && m.Code == "":
		rule = "(not delivered yet)"
	default:
		rule = "(the event log cites no rule for it)"
	}
	row("decided by", rule, theme.Plain)
	row("then", m.Then, theme.Plain)
	row("body", m.Body, theme.Muted)
	return out
}

// MessageLines is the short form of MessageBox, for a pane of few rows:
// the fields flowed on as few lines as the width needs, then the rule
// that decided on at most two.
func MessageLines(m model.MessageFields, p Painter) []string {
	th := p.Theme
	items := []string{p.Bold(cells.Clean(m.Name+" "+m.Kind)) + p.muted(" ("+m.State.String()+")")}
	add := func(key, value string) {
		if value != "" {
			items = append(items, p.muted(key+" ")+cells.Clean(value))
		}
	}
	if len(m.Partitions) > 0 {
		items = append(items, cells.Clean(strings.Join(m.Partitions, ",")))
	}
	add("txn", m.TransactionalID)
	add("pid", m.ProducerID)
	add("epoch", m.Epoch)
	add("seq", m.Sequence)
	if m.Error {
		items = append(items, th.Render(theme.Aborted, th.Glyph(theme.Aborted)+" "+cells.Clean(m.Code)))
	}
	out := p.Flow(" ", items, p.muted(" "+th.Sym.Sep+" "), 1)
	if m.Rule != "" {
		rule := p.Wrap("decided by "+cells.Clean(m.Rule), max(p.Width-1, 8))
		if len(rule) > 2 {
			rule = []string{rule[0], cells.Clip(rule[1]+" "+th.Sym.Ellipsis+" "+th.Sym.Ellipsis, max(p.Width-1, 8), th.Sym.Ellipsis)}
		}
		for _, l := range rule {
			out = append(out, " "+p.muted(l))
		}
	}
	return out
}

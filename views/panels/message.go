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
	const keyW = 16
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

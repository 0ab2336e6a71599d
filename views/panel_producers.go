package views

import "eoslab/views/theme"

// producersContent draws each producer client: its identity (transactional
// id, producerId and epoch), its TransactionManager state, the next sequence
// per partition, what is in flight, and how it failed.
func producersContent(f *Frame, p painter) ([]string, Content, Range) {
	if len(f.Producers) == 0 {
		return nil, textLines{p.muted("  (no producers)")}, noRange
	}
	var out []string
	var heads []int
	anchor := noRange
	for i, pr := range f.Producers {
		if i > 0 {
			out = append(out, "")
		}
		start := len(out)
		heads = append(heads, start)
		out = append(out, p.producerLines(pr)...)
		if pr.Changed && anchor.From < 0 {
			anchor = Range{start, len(out) - 1}
		}
	}
	return nil, sections{out, heads}, anchor
}

func (p painter) producerLines(pr ProducerView) []string {
	th := p.th
	lines := []string{p.mark(pr.Changed) + p.bold(clean(pr.Name))}
	if pr.TransactionalID != "" {
		lines = append(lines, p.flow("  transactional.id ", []string{clean(pr.TransactionalID)}, "", 4)...)
	} else {
		lines = append(lines, "  "+p.muted("no transactional.id"))
	}
	switch {
	case pr.NotIdempotent:
		lines = append(lines, p.flow("  ", []string{p.muted("not idempotent:"), p.muted("no producerId,"), p.muted("no sequence numbers")}, " ", 4)...)
	case pr.ProducerID < 0:
		lines = append(lines, "  "+p.muted("no producerId yet"))
	default:
		lines = append(lines, p.flow("  ", []string{"producerId " + p.bold(i64(pr.ProducerID)), "epoch " + p.bold(itoa(int(pr.Epoch)))}, "  ", 2)...)
	}
	if pr.State != "" && !pr.NotIdempotent {
		lines = append(lines, p.flow("  state ", []string{th.Render(toneKind(pr.StateTone), clean(pr.State))}, "", 4)...)
	}
	if len(pr.NextSeq) > 0 && !pr.NotIdempotent {
		parts := make([]string, len(pr.NextSeq))
		for i, s := range pr.NextSeq {
			parts[i] = clean(s.Partition) + ":" + itoa(int(s.Seq))
		}
		lines = append(lines, p.flow("  next seq ", parts, "  ", 4)...)
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
		lines = append(lines, p.flow("  ", tags, "  ", 2)...)
	}
	if pr.LastError != "" {
		lines = append(lines, p.flow("  last error ", []string{th.Mark(toneKind(pr.ErrorTone), clean(pr.LastError))}, "", 4)...)
	}
	return lines
}

package panels

import (
	"fmt"
	"strings"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// Kafka draws "Kafka's side" of a step played live: what Kafka said of
// the checkpoint the step reveals and of each fact of the step, then the
// cluster as it is after the step: each partition's log with its batch
// headers and markers, HW and LSO and who holds the LSO, the leader's
// producer state, the coordinators' transactions, the consumers'
// positions and the groups' committed offsets. Every verdict and state
// has a glyph and a word, so nothing is told by colour alone. The first
// lines are the ones to read (a cluster gone, the verdicts); the range is
// the verdicts'.
func Kafka(k *model.KafkaSide, p Painter) ([]string, content.Content, content.Range) {
	var b kafkaLines
	b.p = p
	th := p.Theme
	head := "Kafka's side"
	if k.Cluster != "" {
		head += th.Sym.Sep + cells.Clean(k.Cluster)
	}
	head += fmt.Sprintf("%stransaction.version=%d", th.Sym.Sep, k.TV)
	b.wrap(head, p.Bold)
	if k.Gone != "" {
		b.wrapMark(theme.Violated, "cluster gone: "+k.Gone+" (the rest is what it showed last)")
	}
	anchor := content.Range{From: len(b.out), To: len(b.out)}
	if v := k.Reveal; v != nil {
		b.wrapMark(verdictKind(v.Kind), fmt.Sprintf("checkpoint of step %d, after the reveal: %s", v.Asked+1, v.Words))
	}
	if k.NotPlayed != "" {
		b.wrapMark(theme.Muted, k.NotPlayed)
	}
	if k.Behind != "" {
		b.wrapMark(theme.InFlight, k.Behind)
	}
	if len(k.Facts) > 0 {
		b.section("Facts of the step")
		for _, f := range k.Facts {
			b.fact(f)
		}
	}
	anchor.To = max(anchor.From, len(b.out)-1)
	if x, ok := renumbered(k); ok {
		b.out = append(b.out, "")
		b.wrap(fmt.Sprintf("pid %s: Kafka's producer id %d, the simulation's %d.", pidText(x), x.Broker, x.Sim), p.muted)
	}
	for _, pt := range k.Partitions {
		b.partition(pt)
	}
	if len(k.Txns) > 0 {
		b.section("Transactions (DescribeTransactions)")
		for _, t := range k.Txns {
			b.txn(t)
		}
	}
	if len(k.Consumers) > 0 {
		b.section("Consumers (positions as the client keeps them)")
		for _, c := range k.Consumers {
			b.positions(c, "position")
		}
	}
	if len(k.Groups) > 0 {
		b.section("Groups (committed offsets)")
		for _, g := range k.Groups {
			b.positions(g, "committed")
		}
	}
	for _, pr := range k.Problems {
		b.wrapMark(theme.Violated, "refused: "+pr)
	}
	if len(k.Partitions) == 0 && len(k.Txns) == 0 && k.Gone == "" {
		b.out = append(b.out, p.muted("  (nothing on the cluster yet)"))
	}
	return nil, content.Sections{Lines: b.out, Heads: b.heads}, anchor
}

// KafkaBox is Kafka's lines cut to h lines (a last line says how many
// more there are), for a screen with no scrolling pane.
func KafkaBox(k *model.KafkaSide, p Painter, h int) []string {
	_, c, _ := Kafka(k, p)
	n := c.Len()
	out := make([]string, 0, min(n, h))
	for i := 0; i < n && len(out) < h; i++ {
		if len(out) == h-1 && n > h {
			out = append(out, p.muted(fmt.Sprintf("%s %d more lines", p.Theme.Sym.ScrollDown, n-i)))
			break
		}
		out = append(out, cells.Clip(c.Line(i), p.Width, p.Theme.Sym.Ellipsis))
	}
	return out
}

type kafkaLines struct {
	p     Painter
	out   []string
	heads []int
}

// wrap is plain text wrapped, its continuation lines indented, each line
// drawn with style (nil: as it is).
func (b *kafkaLines) wrap(s string, style func(string) string) {
	for i, l := range b.p.Wrap(cells.Clean(s), max(b.p.Width-2, 8)) {
		if style != nil {
			l = style(l)
		}
		if i > 0 {
			l = "  " + l
		}
		b.out = append(b.out, l)
	}
}

// wrapMark is a glyph and its words in the kind's style, wrapped.
func (b *kafkaLines) wrapMark(k theme.Kind, s string) {
	th := b.p.Theme
	if g := th.Glyph(k); g != "" {
		s = g + " " + s
	}
	b.wrap(s, func(l string) string { return th.Render(k, l) })
}

func (b *kafkaLines) section(title string) {
	b.out = append(b.out, "")
	b.heads = append(b.heads, len(b.out))
	b.out = append(b.out, b.p.Bold(title))
}

func verdictKind(v model.KafkaVerdictKind) theme.Kind {
	switch v {
	case model.KafkaAgreed:
		return theme.Correct
	case model.KafkaOtherwise:
		return theme.Wrong
	case model.KafkaOtherwiseKnown:
		return theme.Delayed
	default:
		return theme.Muted
	}
}

// verdictWord is the verdict's word, beside its glyph.
func verdictWord(v model.KafkaVerdictKind) string {
	switch v {
	case model.KafkaAgreed:
		return "agreed"
	case model.KafkaOtherwise:
		return "otherwise"
	case model.KafkaOtherwiseKnown:
		return "known"
	case model.KafkaSimOnly:
		return "sim only"
	}
	return "not played"
}

func (b *kafkaLines) fact(f model.KafkaFact) {
	p, th := b.p, b.p.Theme
	k := verdictKind(f.Verdict)
	tag := th.Mark(k, verdictWord(f.Verdict))
	lead := "  " + padRight(tag, 14) + " "
	lw := cells.Width(lead)
	for i, l := range p.Wrap(cells.Clean(f.Expect), max(p.Width-lw, 8)) {
		if i == 0 {
			l = lead + l
		} else {
			l = cells.Repeat(" ", lw) + l
		}
		b.out = append(b.out, l)
	}
	if f.Verdict != model.KafkaAgreed {
		for _, l := range p.Wrap(cells.Clean(f.Words), max(p.Width-6, 8)) {
			b.out = append(b.out, "      "+p.muted(l))
		}
	}
}

// renumbered is the first producer id of Kafka's that is not the
// simulation's, if any.
func renumbered(k *model.KafkaSide) (model.KafkaPID, bool) {
	for _, pt := range k.Partitions {
		for _, b := range pt.Batches {
			if b.PID.Mapped && b.PID.Sim != b.PID.Broker {
				return b.PID, true
			}
		}
	}
	return model.KafkaPID{}, false
}

// pidText is a broker's producer id, with the simulation's in brackets
// when they differ.
func pidText(p model.KafkaPID) string {
	switch {
	case p.Broker < 0:
		return "-"
	case p.Mapped && p.Sim != p.Broker:
		return fmt.Sprintf("%d(%d)", p.Broker, p.Sim)
	}
	return i64(p.Broker)
}

func seqText(base int32, n int) string {
	if base < 0 {
		return "-"
	}
	if n <= 1 {
		return itoa(int(base))
	}
	return fmt.Sprintf("%d..%d", base, int(base)+n-1)
}

func offText(first, last int64) string {
	if first == last {
		return i64(first)
	}
	return fmt.Sprintf("%d..%d", first, last)
}

func (b *kafkaLines) partition(pt model.KafkaPartition) {
	p, th := b.p, b.p.Theme
	b.section(cells.Clean(pt.Name))
	items := []string{"HW " + p.Bold(i64(pt.HW)), "LSO " + p.Bold(i64(pt.LSO))}
	if pt.Holder.Broker >= 0 {
		items = append(items, th.Mark(theme.Open, fmt.Sprintf("LSO held by pid %s epoch %d (open transaction)", pidText(pt.Holder), pt.HolderEpoch)))
	} else if pt.LSO >= 0 && pt.LSO == pt.HW {
		items = append(items, p.muted("LSO = HW: nothing held back"))
	}
	b.out = append(b.out, p.Flow("  ", items, "  ", 4)...)
	if pt.Err != "" {
		b.wrapMark(theme.Violated, pt.Err)
	}
	if len(pt.Batches) == 0 {
		b.out = append(b.out, p.muted("  (empty log)"))
	} else {
		b.batches(pt.Batches)
	}
	for _, pr := range pt.Producers {
		txn := p.muted("no open transaction")
		if pr.TxnStart >= 0 {
			txn = th.Mark(theme.Open, "transaction open from offset "+i64(pr.TxnStart))
		}
		b.out = append(b.out, p.Flow("  ", []string{"producer " + pidText(pr.PID), "epoch " + itoa(int(pr.Epoch)), "last seq " + seqText(pr.LastSeq, 1), txn}, "  ", 4)...)
	}
}

// batches is the log as a table: offsets, producer id (the simulation's
// in brackets), epoch, sequences, kind and fate; the values where the
// width allows.
func (b *kafkaLines) batches(bs []model.KafkaBatch) {
	p, th := b.p, b.p.Theme
	rows := make([][]string, len(bs))
	for i, x := range bs {
		var kind string
		switch {
		case x.Control:
			kind = th.Mark(statusKind(x.Status), x.Marker+" marker")
		case x.Transactional:
			kind = th.Mark(statusKind(x.Status), "txn "+th.Word(statusKind(x.Status)))
		default:
			kind = "data"
		}
		seq := seqText(x.BaseSeq, x.Records)
		if x.Control {
			seq = "-"
		}
		rows[i] = []string{offText(x.BaseOffset, x.LastOffset), pidText(x.PID), epochText(x), seq, kind, strings.Join(x.Values, ",")}
	}
	header := []string{"OFFSET", "PID", "EPOCH", "SEQ", "KIND", "VALUES"}
	widths := make([]int, len(header))
	for c := range header {
		widths[c] = cells.Width(header[c])
		for _, r := range rows {
			widths[c] = max(widths[c], cells.Width(r[c]))
		}
	}
	line := func(r []string, bold bool) string {
		var sb strings.Builder
		sb.WriteString("  ")
		used := 2
		for c, s := range r {
			if c == len(r)-1 {
				if room := p.Width - used; room >= 6 {
					sb.WriteString(cells.Clip(s, room, th.Sym.Ellipsis))
				}
				break
			}
			if bold {
				s = p.muted(s)
			}
			sb.WriteString(padRight(s, widths[c]+2))
			used += widths[c] + 2
		}
		return strings.TrimRight(sb.String(), " ")
	}
	b.out = append(b.out, line(header, true))
	for _, r := range rows {
		b.out = append(b.out, line(r, false))
	}
}

func epochText(x model.KafkaBatch) string {
	if x.PID.Broker < 0 {
		return "-"
	}
	return itoa(int(x.Epoch))
}

func (b *kafkaLines) txn(t model.KafkaTxn) {
	p, th := b.p, b.p.Theme
	items := []string{p.Bold(cells.Clean(t.ID)), th.Mark(txnStateKind(t.Tone), cells.Clean(t.State)), "pid " + pidText(t.PID), "epoch " + itoa(int(t.Epoch))}
	if len(t.Partitions) > 0 {
		items = append(items, "partitions "+strings.Join(t.Partitions, " "))
	}
	b.out = append(b.out, p.Flow("  ", items, "  ", 4)...)
	if t.Err != "" {
		b.wrapMark(theme.Violated, t.Err)
	}
}

// txnStateKind is a state's kind: toneKind's, with a glyph for each that
// means something (Muted has none; Plain's dot stays).
func txnStateKind(t model.Tone) theme.Kind {
	if t == model.ToneIdle {
		return theme.Plain
	}
	return toneKind(t)
}

func (b *kafkaLines) positions(kp model.KafkaPositions, what string) {
	p := b.p
	items := []string{p.Bold(cells.Clean(kp.Name))}
	if len(kp.Offsets) == 0 {
		items = append(items, p.muted("no "+what+" yet"))
	}
	for _, o := range kp.Offsets {
		it := fmt.Sprintf("%s %s %d", what, cells.Clean(o.Partition), o.Offset)
		if o.Fetched {
			it += " (its last Fetch; no record yet)"
		}
		items = append(items, it)
	}
	b.out = append(b.out, p.Flow("  ", items, "  ", 4)...)
	if kp.Err != "" {
		b.wrapMark(theme.Violated, kp.Err)
	}
}

package drill

import (
	"strconv"
	"strings"

	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// stateLines is a compact summary of a frozen world, for the drill: one
// line per producer, partition, transaction and consumer, and the
// messages still in flight. Every state carries its word, so the summary
// reads the same without colour. The lines are plain text: they are
// wrapped after they are made, and wrapping escapes a style's codes.
func stateLines(th *theme.Theme, f *model.Frame, w int) []string {
	var out []string
	add := func(s string) {
		for i, l := range cells.Wrap(s, max(w-6, 8)) {
			if i > 0 {
				l = "    " + l
			}
			out = append(out, "  "+l)
		}
	}
	for _, p := range f.Producers {
		add(producerSummary(th, &p))
	}
	for _, c := range f.Coordinators {
		add(coordinatorSummary(&c))
	}
	for _, p := range f.Partitions {
		add(partitionSummary(&p))
	}
	for _, c := range f.Consumers {
		add(consumerSummary(&c))
	}
	if fl := inFlight(f.Timeline, f.Actors); fl != "" {
		add("in flight: " + fl)
	}
	return out
}

func producerSummary(th *theme.Theme, p *model.ProducerView) string {
	parts := []string{"producer " + cells.Clean(p.Name)}
	switch {
	case p.NotIdempotent:
		parts = append(parts, "idempotence off")
	case p.ProducerID < 0:
		parts = append(parts, "no producer id yet")
	default:
		parts = append(parts, "pid "+strconv.FormatInt(p.ProducerID, 10)+" epoch "+strconv.Itoa(int(p.Epoch)))
	}
	if p.TransactionalID != "" {
		parts = append(parts, "transactional.id "+cells.Clean(p.TransactionalID))
	}
	if p.State != "" {
		parts = append(parts, cells.Clean(p.State))
	}
	switch {
	case p.Crashed:
		parts = append(parts, th.Glyph(theme.Crashed)+" crashed")
	case p.Paused:
		parts = append(parts, th.Glyph(theme.Paused)+" paused")
	}
	if p.LastError != "" {
		parts = append(parts, "error "+cells.Clean(p.LastError))
	}
	return strings.Join(parts, ", ")
}

func coordinatorSummary(c *model.CoordinatorView) string {
	s := "coordinator of " + cells.Clean(c.TxnID) + ": "
	if st := c.State(); st != "" {
		s += cells.Clean(st)
	} else {
		s += "no entry"
	}
	if c.ProducerID >= 0 {
		s += ", pid " + strconv.FormatInt(c.ProducerID, 10) + " epoch " + strconv.Itoa(int(c.Epoch))
	}
	if len(c.Partitions) > 0 {
		s += ", partitions " + cells.Clean(strings.Join(c.Partitions, " "))
	}
	return s
}

// partitionSummary is a partition's offsets and its last few batches.
func partitionSummary(p *model.PartitionView) string {
	s := cells.Clean(p.Name) + ": LEO " + strconv.FormatInt(p.LEO, 10) + ", HW " + strconv.FormatInt(p.HW, 10) +
		", LSO " + strconv.FormatInt(p.LSO, 10)
	rows := p.Rows
	const shown = 4
	if len(rows) > shown {
		s += ", ..."
		rows = rows[len(rows)-shown:]
	}
	var rs []string
	for _, r := range rows {
		rs = append(rs, rowSummary(&r))
	}
	if len(rs) > 0 {
		s += "; " + strings.Join(rs, "; ")
	} else {
		s += "; empty"
	}
	return s
}

func rowSummary(r *model.LogRow) string {
	at := "@" + r.Offsets() + " "
	if r.Kind != model.RowData {
		return at + r.Kind.String() + " marker pid " + strconv.FormatInt(r.PID, 10)
	}
	s := at + cells.Clean(strings.Join(r.Values, ","))
	if r.PID >= 0 {
		s += " (pid " + strconv.FormatInt(r.PID, 10) + " seq " + cells.Clean(r.Seqs) + ")"
	}
	if r.Status != model.StatusPlain {
		s += " " + r.Status.String()
	}
	return s
}

func consumerSummary(c *model.ConsumerView) string {
	s := "consumer " + cells.Clean(c.Name) + " (" + cells.Clean(c.Isolation) + ")"
	if len(c.Records) == 0 {
		return s + ": nothing read"
	}
	var vs []string
	for _, r := range c.Records {
		vs = append(vs, cells.Clean(r.Value))
	}
	return s + " read: " + strings.Join(vs, ", ")
}

// inFlight names the messages still on the network, oldest first. A
// broker is named by its role alone: which broker leads what is this
// simulation's detail, not something an interview asks.
func inFlight(arrows []model.Arrow, actors []model.Actor) string {
	broker := map[string]bool{}
	for _, a := range actors {
		broker[a.Name] = a.Broker
	}
	name := func(n string) string {
		if broker[n] {
			return "a broker"
		}
		return cells.Clean(n)
	}
	var out []string
	for _, a := range arrows {
		if a.State == model.ArrowInFlight {
			out = append(out, name(a.From)+" -> "+name(a.To)+" "+cells.Clean(a.Label))
		}
	}
	return strings.Join(out, "; ")
}

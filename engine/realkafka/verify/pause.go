package verify

import (
	"context"
	"slices"
	"sort"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/eoslab/eoslab/engine"
)

// Pause is the driver stopped before a line of a file, for live mode's
// step-by-step play (engine/realkafka/live): the names it made on the
// cluster so far, how its producer ids map to the simulation's, and the
// rows judged so far. The cluster is the caller's to read until the
// Pause function returns; nothing in it may be changed.
type Pause struct {
	// Line is the next line to be played; 0 once the file is played
	// (before the clean-up).
	Line int
	// Rows are the file's rows so far (Known is not set yet: Run sets
	// it at the end; Known.Has says).
	Rows []Row
	// Prefix is the run's name prefix; Topics, TxnIDs and Groups the
	// names it made so far, with the prefix.
	Prefix                 string
	Topics, TxnIDs, Groups []string
	// PIDs maps a broker's producer id to the simulation's.
	PIDs map[int64]int64
	// Consumers are the consumers whose calls are done, by name.
	Consumers []string
	// Position is a consumer's position in a partition (by the
	// simulation's topic name): the offset after the last record it took
	// there, or, before any (Fetched), the offset its last Fetch asked
	// for (the reset or committed offset, which franz-go does not
	// expose). ok is false when it never fetched the partition. Valid
	// until the Pause function returns.
	Position func(consumer string, tp engine.TP) (offset int64, fetched, ok bool)
	// Pending is the number of calls the driver keeps for the
	// simulation's next quiet point: the cluster is behind the
	// simulation until then.
	Pending int
	// Stopped, when not "", is why the rest of the file is not played on
	// the cluster (SimOnly: no broker can; else not mapped yet), from
	// StopLine on.
	Stopped  string
	SimOnly  bool
	StopLine int
	// Client is the driver's own client of the cluster, for reading.
	Client *kgo.Client
}

type pauseKey struct{}

// Has is whether the known-differences file lists the expect line of
// file (a base name).
func (k Known) Has(file, expect string) bool { return k.has(file, expect) }

// pauseAt calls Options.Pause, when set, before the line; false stops the
// play (the rows so far are the file's).
func (d *driver) pauseAt(line int, rows []Row) bool {
	f, _ := d.ctx.Value(pauseKey{}).(func(Pause) bool)
	if f == nil {
		return true
	}
	p := Pause{Line: line, Rows: slices.Clone(rows), Prefix: d.prefix, Topics: slices.Clone(d.topics), PIDs: map[int64]int64{},
		Stopped: d.stopped, SimOnly: d.simOnly, StopLine: d.stopAt, Client: d.raw, Pending: len(d.queue)}
	for k, v := range d.pids {
		p.PIDs[k] = v
	}
	for _, pr := range d.prods {
		if pr.txid != "" && !slices.Contains(p.TxnIDs, pr.txid) {
			p.TxnIDs = append(p.TxnIDs, pr.txid)
		}
	}
	for _, dc := range d.cdecls {
		if dc.GroupID != "" && !slices.Contains(p.Groups, d.prefix+dc.GroupID) {
			p.Groups = append(p.Groups, d.prefix+dc.GroupID)
		}
	}
	for _, g := range d.groups {
		if !slices.Contains(p.Groups, g) {
			p.Groups = append(p.Groups, g)
		}
	}
	for name, c := range d.cons {
		if c.pause || c.crashed {
			continue
		}
		c.busy.Wait()
		p.Consumers = append(p.Consumers, name)
	}
	p.Position = func(name string, tp engine.TP) (int64, bool, bool) {
		c := d.cons[name]
		if c == nil {
			return 0, false, false
		}
		if o, ok := c.pos[tp]; ok {
			return o, false, true
		}
		o, ok := d.fetchPosition(name, c, tp)
		return o, true, ok
	}
	sort.Strings(p.Consumers)
	sort.Strings(p.TxnIDs)
	sort.Strings(p.Groups)
	return f(p)
}

// withPause puts Options.Pause where the driver finds it.
func withPause(ctx context.Context, f func(Pause) bool) context.Context {
	if f == nil {
		return ctx
	}
	return context.WithValue(ctx, pauseKey{}, f)
}

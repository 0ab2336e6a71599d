package demo

import (
	"fmt"
	"strings"

	"github.com/eoslab/eoslab/views/model"
)

// world is the state a script mutates step by step; each step's frame is a
// deep copy of it, so earlier frames never change.
type world struct {
	step   int
	prods  []model.ProducerView
	parts  []model.PartitionView
	coords []model.CoordinatorView
	cons   []model.ConsumerView
	arrows []model.Arrow
	actors []model.Actor
	events []model.EventLine
	newEv  int
	viol   []model.Violation
	clock  int
}

func (w *world) frame(steps int, narration, note string) model.Frame {
	c := w.clone()
	return model.Frame{
		Step: w.step, Steps: steps, Narration: narration, Note: note,
		Producers: c.prods, Partitions: c.parts, Coordinators: c.coords, Consumers: c.cons,
		Timeline: c.arrows, Actors: c.actors, Events: c.events, NewEvents: w.newEv,
		Violations: c.viol,
	}
}

func (w *world) clone() world {
	c := *w
	c.prods = append([]model.ProducerView(nil), w.prods...)
	for i := range c.prods {
		c.prods[i].NextSeq = append([]model.PartitionSeq(nil), c.prods[i].NextSeq...)
	}
	c.parts = append([]model.PartitionView(nil), w.parts...)
	for i := range c.parts {
		c.parts[i].Rows = append([]model.LogRow(nil), c.parts[i].Rows...)
		c.parts[i].Cached = append([]model.CachedBatch(nil), c.parts[i].Cached...)
	}
	c.coords = append([]model.CoordinatorView(nil), w.coords...)
	for i := range c.coords {
		c.coords[i].Partitions = append([]string(nil), c.coords[i].Partitions...)
		c.coords[i].Writes = append([]string(nil), c.coords[i].Writes...)
	}
	c.cons = append([]model.ConsumerView(nil), w.cons...)
	for i := range c.cons {
		c.cons[i].Records = append([]model.ConsumedRecord(nil), c.cons[i].Records...)
		c.cons[i].Positions = append([]model.PartitionOffset(nil), c.cons[i].Positions...)
	}
	c.arrows = append([]model.Arrow(nil), w.arrows...)
	c.events = append([]model.EventLine(nil), w.events...)
	c.viol = append([]model.Violation(nil), w.viol...)
	return c
}

// begin starts a new step: nothing is "changed" yet.
func (w *world) begin() {
	w.step++
	w.newEv = 0
	w.viol = nil
	for i := range w.prods {
		w.prods[i].Changed = false
	}
	for i := range w.parts {
		w.parts[i].Changed = false
		for j := range w.parts[i].Rows {
			w.parts[i].Rows[j].Changed = false
		}
	}
	for i := range w.coords {
		w.coords[i].Changed = false
	}
	for i := range w.arrows {
		w.arrows[i].Changed = false
	}
	for i := range w.cons {
		w.cons[i].Changed = false
		for j := range w.cons[i].Records {
			w.cons[i].Records[j].Changed = false
		}
	}
}

func (w *world) event(format string, args ...any) {
	w.clock += 5
	w.events = append(w.events, model.EventLine{Text: fmt.Sprintf("t=%d ", w.clock) + fmt.Sprintf(format, args...)})
	w.newEv++
}

// violation adds the event line of an invariant violation.
func (w *world) violation(format string, args ...any) {
	w.event(format, args...)
	w.events[len(w.events)-1].Violation = true
}

type arrowOpt int

const (
	reply arrowOpt = 1 << iota
	dropped
	failed
)

// send adds a message to the timeline and its canonical event line.
func (w *world) send(from, to, label string, opts ...arrowOpt) {
	var o arrowOpt
	for _, x := range opts {
		o |= x
	}
	// The demo's network delivers or drops a message in the step that
	// sends it, so no arrow of the demo is ever in flight.
	a := model.Arrow{From: from, To: to, Label: label, Step: w.step, State: model.ArrowDelivered,
		Reply: o&reply != 0, Error: o&failed != 0, Changed: true}
	verb := "deliver"
	if o&dropped != 0 {
		a.State, verb = model.ArrowDropped, "drop"
	}
	w.arrows = append(w.arrows, a)
	if from == to {
		w.event("%s %s", from, label)
		return
	}
	w.event("%s %s->%s %s", verb, from, to, label)
}

func (w *world) prod(name string) *model.ProducerView {
	for i := range w.prods {
		if w.prods[i].Name == name {
			w.prods[i].Changed = true
			return &w.prods[i]
		}
	}
	panic("demo: no producer " + name)
}

func (w *world) part(name string) *model.PartitionView {
	for i := range w.parts {
		if w.parts[i].Name == name {
			w.parts[i].Changed = true
			return &w.parts[i]
		}
	}
	panic("demo: no partition " + name)
}

func (w *world) coord() *model.CoordinatorView {
	w.coords[0].Changed = true
	return &w.coords[0]
}

func (w *world) consumer(name string) *model.ConsumerView {
	for i := range w.cons {
		if w.cons[i].Name == name {
			w.cons[i].Changed = true
			return &w.cons[i]
		}
	}
	panic("demo: no consumer " + name)
}

// appendRow appends a batch at the log end and moves LEO and HW (acks=all,
// so the high watermark follows at once in this demo).
func appendRow(p *model.PartitionView, r model.LogRow) {
	r.First = p.LEO
	r.Last = p.LEO + int64(max(len(r.Values), 1)) - 1
	r.Changed = true
	p.Rows = append(p.Rows, r)
	p.LEO = r.Last + 1
	p.HW = p.LEO
}

// settle marks an open transaction's rows for pid with status st.
func settle(p *model.PartitionView, pid int64, st model.RowStatus) {
	for i := range p.Rows {
		r := &p.Rows[i]
		if r.PID == pid && r.Status == model.StatusOpen {
			r.Status = st
			r.Changed = true
		}
	}
}

func setNextSeq(p *model.ProducerView, part string, seq int32) {
	for i := range p.NextSeq {
		if p.NextSeq[i].Partition == part {
			p.NextSeq[i].Seq = seq
			return
		}
	}
	p.NextSeq = append(p.NextSeq, model.PartitionSeq{Partition: part, Seq: seq})
}

func setPos(c *model.ConsumerView, part string, off int64) {
	for i := range c.Positions {
		if c.Positions[i].Partition == part {
			c.Positions[i].Offset = off
			return
		}
	}
	c.Positions = append(c.Positions, model.PartitionOffset{Partition: part, Offset: off})
}

// read returns records to a consumer and moves its position past them.
func read(c *model.ConsumerView, part string, first int64, values ...string) {
	for i, v := range values {
		c.Records = append(c.Records, model.ConsumedRecord{Partition: part, Offset: first + int64(i), Value: v, Changed: true})
	}
	setPos(c, part, first+int64(len(values)))
}

func txnWrite(c *model.CoordinatorView) string {
	parts := ""
	if len(c.Partitions) > 0 {
		parts = " partitions=[" + strings.Join(c.Partitions, ",") + "]"
	}
	// The demo's ids have a __transaction_state partition each, so the
	// record's offset there is the number of records before it.
	return fmt.Sprintf("@%d %s pid=%d epoch=%d%s", len(c.Writes), c.State(), c.ProducerID, c.Epoch, parts)
}

package adapt

import (
	"eoslab/engine"
	"eoslab/views"
)

// monitorSentences are the engine's invariants as a learner reads them,
// in the order the monitors are listed.
var monitorSentences = []struct{ name, sentence, short string }{
	{engine.InvDuplicateRecord, "no record was written twice", "no record written twice"},
	{engine.InvDuplicateSequence, "no (producerId, epoch, sequence) was appended twice", "no sequence appended twice"},
	{engine.InvUncommittedRead, "read_committed never returned aborted or open data", "read_committed saw no abort"},
	{engine.InvFencedWrite, "no write from a fenced epoch was accepted", "fenced epochs never write"},
	{engine.InvAtomicVisibility, "a transaction committed on all its partitions or none", "transactions all or nothing"},
	{engine.InvOffsetsAtomic, "outputs and input offsets committed together", "offsets commit with outputs"},
	{engine.InvWatermarks, "LSO <= high watermark <= log end offset", "LSO <= HW <= LEO"},
	{engine.InvIllegalTransition, "every state change followed Kafka's table", "states follow Kafka's table"},
}

// cause is one violation's chain: the lines to show and the messages the
// Timeline marks.
type cause struct {
	name  string
	lines []string
	msgs  map[int64]bool
}

// maxCause bounds a chain's events before the violation, and causeScan
// how far back a chain is looked for.
const (
	maxCause  = 7
	causeScan = 4000
)

// Monitors are the guarantees at the current position.
func (x *Sandbox) Monitors() []views.Monitor {
	cs := x.causes()
	out := make([]views.Monitor, len(monitorSentences))
	for i, m := range monitorSentences {
		out[i] = views.Monitor{Name: m.name, Sentence: m.sentence, Short: m.short, Holds: true}
		for _, c := range cs {
			if c.name == m.name {
				out[i].Holds = false
				out[i].Cause = c.lines
				break
			}
		}
	}
	return out
}

// causes are the chains of the first violation of each invariant at the
// current position, computed once a position.
func (x *Sandbox) causes() []cause {
	b := x.branch()
	pos := b.s.p.Pos()
	if cs, ok := b.causes[pos]; ok {
		return cs
	}
	w := x.world()
	var cs []cause
	if len(w.Violations) > 0 {
		// The i-th violation is the i-th EvViolation event (violate
		// appends both); find their events from the end.
		at := make([]int, len(w.Violations))
		k := len(w.Violations) - 1
		for i := len(w.Events) - 1; i >= 0 && k >= 0; i-- {
			if w.Events[i].Kind == engine.EvViolation {
				at[k] = i
				k--
			}
		}
		seen := map[string]bool{}
		for i, v := range w.Violations {
			if seen[v.Name] || i <= k {
				continue
			}
			seen[v.Name] = true
			cs = append(cs, chain(w, v.Name, at[i]))
		}
	}
	b.causes[pos] = cs
	return cs
}

// chain is what led to the violation event at index j, in Kafka's words:
// the faults (a message dropped, duplicated or delayed, a crash, a pause),
// the timers that fired, the errors and fencing the clients got, and the
// last decision of a partition leader or coordinator before it.
func chain(w *engine.World, name string, j int) cause {
	c := cause{name: name, msgs: map[int64]bool{}}
	var picked []int
	decided := false
	decision := decisions[name]
	for i := j - 1; i >= 0 && i >= j-causeScan && len(picked) < maxCause; i-- {
		e := &w.Events[i]
		switch {
		case e.Kind == engine.EvFault || e.Kind == engine.EvFence || e.Kind == engine.EvClientError || e.Kind == engine.EvTimer:
			picked = append(picked, i)
		case !decided && (e.Kind == decision[0] || e.Kind == decision[1]):
			decided = true
			picked = append(picked, i)
		}
	}
	for k := len(picked) - 1; k >= 0; k-- {
		e := &w.Events[picked[k]]
		c.lines = append(c.lines, e.Line())
		if e.Message != nil {
			c.msgs[e.Message.ID] = true
		}
	}
	c.lines = append(c.lines, w.Events[j].Line())
	if m := w.Events[j].Message; m != nil {
		c.msgs[m.ID] = true
	}
	return c
}

// decisions are the kinds of event that decide each invariant: the last
// one before a violation is the decision the chain names (a leader's
// sequence check, a marker, a fetch or an offset commit). noKind fills the
// unused slots.
const noKind = engine.EventKind(255)

var decisions = map[string][2]engine.EventKind{
	engine.InvDuplicateRecord:   {engine.EvSeqCheck, noKind},
	engine.InvDuplicateSequence: {engine.EvSeqCheck, noKind},
	engine.InvFencedWrite:       {engine.EvSeqCheck, engine.EvMarker},
	engine.InvUncommittedRead:   {engine.EvConsume, engine.EvMarker},
	engine.InvAtomicVisibility:  {engine.EvMarker, noKind},
	engine.InvOffsetsAtomic:     {engine.EvOffsets, engine.EvMarker},
}

// highlightKey marks a frame whose Timeline shows a cause chain: its Key
// differs from the plain frame's, so the views draw it afresh.
const highlightKey = 1 << 62

// Frame is the panels at the current position; with highlight naming a
// broken monitor, the Timeline marks the messages of its cause chain (bold,
// and "!" before the label, so the mark is not colour alone).
func (x *Sandbox) Frame(highlight string) views.Frame {
	b := x.branch()
	f := b.s.Frame()
	if highlight == "" {
		return f
	}
	var c *cause
	for _, v := range x.causes() {
		if v.name == highlight {
			c = &v
			break
		}
	}
	if c == nil || len(c.msgs) == 0 {
		return f
	}
	pos := b.s.p.Pos()
	h := &b.s.hist
	from := max(0, h.ends[pos]-maxArrows)
	tl := append([]views.Arrow(nil), f.Timeline...)
	for j := range tl {
		if from+j < len(h.arrows) && c.msgs[h.arrows[from+j].id] {
			tl[j].Changed = true
			tl[j].Label = "! " + tl[j].Label
		}
	}
	f.Timeline = tl
	f.Key |= highlightKey
	return f
}

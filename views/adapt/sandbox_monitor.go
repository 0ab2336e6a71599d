package adapt

import (
	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/views/model"
)

// monitorShort are the engine's monitor sentences (engine.Monitors) in at
// most 27 cells, for a narrow screen: while it holds, and once broken.
var monitorShort = map[string]struct{ holds, broken string }{
	engine.InvDuplicateRecord:   {"no record written twice", "a record written twice"},
	engine.InvDuplicateSequence: {"no sequence appended twice", "a sequence appended twice"},
	engine.InvUncommittedRead:   {"read_committed saw no abort", "read_committed saw aborted"},
	engine.InvFencedWrite:       {"fenced epochs never write", "a fenced epoch wrote"},
	engine.InvAtomicVisibility:  {"transactions all or nothing", "half a transaction committed"},
	engine.InvOffsetsAtomic:     {"offsets commit with outputs", "offsets without outputs"},
	engine.InvWatermarks:        {"LSO <= HW <= LEO", "LSO, HW, LEO out of order"},
	engine.InvIllegalTransition: {"states keep to their tables", "an illegal transition"},
}

// cause is one violation's chain: the lines to show and the messages the
// Timeline marks.
type cause struct {
	name  string
	lines []string
	msgs  map[int64]bool
}

// Monitors are the guarantees at the current position, as the engine
// keeps them (World.MonitorStatus), with the cause chain of each one's
// first violation (World.Cause).
func (x *Sandbox) Monitors() []model.Monitor {
	st := x.world().MonitorStatus()
	out := make([]model.Monitor, len(st))
	for i, m := range st {
		out[i] = model.Monitor{Name: m.Invariant, Sentence: m.Monitor.Holds, Short: monitorShort[m.Invariant].holds, Holds: !m.Broken}
		if m.Broken {
			out[i].Sentence, out[i].Short = m.Monitor.Broken, monitorShort[m.Invariant].broken
			if c := x.cause(m.Invariant); c != nil {
				out[i].Cause = c.lines
			}
		}
	}
	return out
}

// cause is the chain of an invariant's first violation at the current
// position, read once a position.
func (x *Sandbox) cause(name string) *cause {
	b := x.branch()
	pos := b.s.p.Pos()
	cs := b.causes[pos]
	for i := range cs {
		if cs[i].name == name {
			return &cs[i]
		}
	}
	w := x.world()
	for _, m := range w.MonitorStatus() {
		if m.Invariant != name || !m.Broken {
			continue
		}
		c := cause{name: name, msgs: map[int64]bool{}}
		for _, l := range w.Cause(m.First) {
			c.lines = append(c.lines, l.Role.String()+": "+l.Text)
			if l.Msg != 0 {
				c.msgs[l.Msg] = true
			}
		}
		b.causes[pos] = append(cs, c)
		return &b.causes[pos][len(cs)]
	}
	return nil
}

// Frame keys: a branch's session numbers its frames from the branch's
// number times 2^32; a frame marked for a cause chain sets bit 62, and one
// marking a selected message carries the message's id (its low 21 bits) in
// bits 41 to 61. So the views, which keep what they drew by Key, never
// reuse a drawing of another mark.
const (
	highlightKey = 1 << 62
	selectShift  = 41
	selectMask   = 1<<21 - 1
)

// Frame is the panels at the current position. With highlight naming a
// broken monitor, the Timeline marks the messages of its cause chain (bold,
// and "!" before the label, so the mark is not colour alone); the message
// selected in the waiting list gets ">>" before its label.
func (x *Sandbox) Frame(highlight string, selected int64) model.Frame {
	b := x.branch()
	f := b.s.Frame()
	var c *cause
	if highlight != "" {
		c = x.cause(highlight)
	}
	if (c == nil || len(c.msgs) == 0) && selected == 0 {
		return f
	}
	pos := b.s.p.Pos()
	h := &b.s.hist
	from := max(0, h.ends[pos]-maxArrows)
	tl := append([]model.Arrow(nil), f.Timeline...)
	for j := range tl {
		if from+j >= len(h.arrows) {
			break
		}
		id := h.arrows[from+j].id
		if c != nil && c.msgs[id] {
			tl[j].Changed = true
			tl[j].Label = "! " + tl[j].Label
		}
		if id == selected {
			tl[j].Label = ">> " + tl[j].Label
		}
	}
	f.Timeline = tl
	if c != nil {
		f.Key |= highlightKey
	}
	f.Key |= uint64(selected&selectMask) << selectShift
	return f
}

package adapt

import (
	"errors"
	"strconv"
	"strings"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/views/model"
)

// Comparing two worlds: a branch and the branch replayed from it with a
// safeguard switched (Toggle). Their steps are paired by what each action
// meant (replayByRole), and the first pair where the engine decided
// otherwise, or the first action of the first branch with no counterpart
// in the second, is where they diverge.

// Comparison is what Compare found (the type the sandbox's C draws).
type Comparison = model.Comparison

// Divergence is one step where two worlds went apart.
type Divergence = model.Divergence

// Compare compares branch a with branch b. Their steps are paired by
// what each meant when one was replayed from the other with a safeguard
// switched (Toggle, or v's other protocol); else by position (two
// branches forked from one another share the steps before the fork), and
// the first step where their lines differ is where they diverge.
func (x *Sandbox) Compare(a, b int) (Comparison, error) {
	if a < 0 || a >= len(x.branches) || b < 0 || b >= len(x.branches) {
		return Comparison{}, errors.New("no such branch")
	}
	if a == b {
		return Comparison{}, errors.New("a branch compared with itself: pick another")
	}
	ba, bb := x.branches[a], x.branches[b]
	c := Comparison{A: ba.name, B: bb.name, LogA: ba.lines(), LogB: bb.lines()}
	pair, byRole := pairing(a, ba, b, bb)
	roles := lineRoles(ba)
	for k := 1; k <= ba.s.p.Len(); k++ {
		kb := pair[k-1]
		if kb < 0 {
			// A step made after the replay: no pair to compare.
			continue
		}
		about := ""
		if len(roles[k-1]) > 0 {
			about = roles[k-1][0].String()
		}
		if kb == 0 {
			if !byRole {
				// B is shorter: the steps past its end are no
				// divergence of a decision.
				break
			}
			c.Missing = append(c.Missing, ba.line(k))
			c.MissingSteps = append(c.MissingSteps, k)
			if c.First == nil {
				c.First = &Divergence{StepA: k, LineA: ba.line(k), About: about}
			}
			continue
		}
		if c.Decision != nil {
			continue
		}
		da, db := decisions(ba, k), decisions(bb, kb)
		differ := !byRole && ba.line(k) != bb.line(kb)
		for i := 0; i < max(len(da), len(db)) || differ; i++ {
			var ea, eb *engine.Event
			if i < len(da) {
				ea = &da[i]
			}
			if i < len(db) {
				eb = &db[i]
			}
			if !differ && ea != nil && eb != nil && sameDecision(ea, eb) {
				continue
			}
			if differ && ea != nil && eb != nil && sameDecision(ea, eb) && i+1 < max(len(da), len(db)) {
				// Two actions that decide alike at first: the
				// first decision that differs is the one to show.
				continue
			}
			c.Decision = &Divergence{StepA: k, StepB: kb, LineA: ba.line(k), LineB: bb.line(kb), About: about,
				DecisionA: eventLine(ea), DecisionB: eventLine(eb)}
			if c.First == nil {
				c.First = c.Decision
			}
			break
		}
	}
	c.OutcomeA = outcome(ba.s.p.WorldAt(ba.s.p.Len()))
	c.OutcomeB = outcome(bb.s.p.WorldAt(bb.s.p.Len()))
	return c, nil
}

// pairing is, for each step of ba, its counterpart in bb (0: none; -1: a
// step made after the replay, which has none to have), and whether the
// pairs are by role (one replayed from the other) rather than by position.
func pairing(a int, ba *sbBranch, b int, bb *sbBranch) ([]int, bool) {
	out := make([]int, ba.s.p.Len())
	switch {
	case bb.parent == a && bb.from != nil:
		for k := range out {
			out[k] = -1
		}
		copy(out, bb.from)
		return out, true
	case ba.parent == b && ba.from != nil:
		// A was replayed from B: invert its map.
		for k := range out {
			out[k] = -1
		}
		for kb, ka := range ba.from {
			if ka > 0 {
				out[ka-1] = kb + 1
			}
		}
		return out, true
	}
	for k := range out {
		if k < bb.s.p.Len() {
			out[k] = k + 1
		}
	}
	return out, false
}

// decisions are the events of step k of b that decided something: those
// a rule decided, the appends, markers, state transitions, fencings, the
// errors clients got, the records consumers got, the offset decisions and
// the violations. Sends and deliveries are not decisions: the step's line
// already says which message moved.
func decisions(b *sbBranch, k int) []engine.Event {
	from := b.s.p.WorldAt(k - 1).EventCount()
	var out []engine.Event
	for _, e := range b.s.p.WorldAt(k).EventsSince(from) {
		switch {
		case !e.Rule.IsZero():
		case e.Kind == engine.EvSeqCheck, e.Kind == engine.EvAppend, e.Kind == engine.EvMarker, e.Kind == engine.EvTxnState,
			e.Kind == engine.EvFence, e.Kind == engine.EvClientError, e.Kind == engine.EvConsume, e.Kind == engine.EvOffsets,
			e.Kind == engine.EvViolation:
		default:
			continue
		}
		out = append(out, e)
	}
	return out
}

// sameDecision compares two events by what they say, not by the numbers
// of the messages they are about, nor by when.
func sameDecision(a, b *engine.Event) bool {
	return a.Kind == b.Kind && a.Actor == b.Actor && a.Unnumbered() == b.Unnumbered() && a.Rule.String() == b.Rule.String()
}

func eventLine(e *engine.Event) string {
	if e == nil {
		return ""
	}
	return e.Line()
}

// outcome summarises a world: each partition's records with their offsets
// (and a transaction's fate), what each consumer received, and which
// monitors broke.
func outcome(w *engine.World) []string {
	var out []string
	st := w.State()
	dumps := map[string]engine.PartitionDump{}
	for _, p := range st.Partitions {
		dumps[p.Partition] = p
	}
	// The declared topics' partitions: for the internal topics the
	// monitors speak.
	for _, tp := range w.SortedPartitions() {
		if _, declared := w.Topic(tp.Topic); !declared {
			continue
		}
		p := dumps[tp.String()]
		var recs []string
		for _, b := range p.Batches {
			if b.IsControl {
				recs = append(recs, b.ControlType+"@"+strconv.FormatInt(b.BaseOffset, 10))
				continue
			}
			for i, v := range b.Values {
				r := v + "@" + strconv.FormatInt(b.BaseOffset+int64(i), 10)
				if b.IsTransactional && b.Status != "" {
					r += "(" + b.Status + ")"
				}
				recs = append(recs, r)
			}
		}
		if len(recs) == 0 {
			recs = []string{"empty"}
		}
		out = append(out, p.Partition+" (HW "+strconv.FormatInt(p.HighWatermark, 10)+", LSO "+
			strconv.FormatInt(p.LastStableOffset, 10)+"): "+strings.Join(recs, " "))
	}
	for _, c := range st.Consumers {
		var got []string
		for _, r := range c.Received {
			got = append(got, r.Value)
		}
		if len(got) == 0 {
			got = []string{"nothing"}
		}
		out = append(out, c.Name+" ("+c.Isolation+") received: "+strings.Join(got, " "))
	}
	var broken []string
	for _, m := range w.MonitorStatus() {
		if m.Broken {
			broken = append(broken, m.Invariant+" ("+strconv.Itoa(m.Count)+"): "+m.Monitor.Broken)
		}
	}
	if len(broken) == 0 {
		out = append(out, "every monitor holds")
	}
	for _, b := range broken {
		out = append(out, "broken: "+b)
	}
	return out
}

package adapt

import (
	"errors"
	"strconv"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
	"github.com/eoslab/eoslab/lessons"
)

// Replaying a branch in another world (a safeguard switched) goes by what
// each action meant: an action on message m7 is about the message of m7's
// role (engine.Role: the Produce of p1 to t-0, its answer, A's second
// EndTxn), and is played on the message of that role in the new world,
// whatever its number there. An action whose message has no counterpart
// there, or that the new world refuses, is left out and said so; it is
// never applied to another message, nor kept in the branch (a saved file
// of the branch then replays line for line).

// msgRoles are the roles of the messages an action line acts on, in the
// order of its selectors; nil for a line that names no message by number.
type msgRoles []engine.Role

// selectorIDs are the message numbers an action names (a selector by kind
// and filters is already about what the message is, and is kept as
// written).
func selectorIDs(a engine.Action) []int64 {
	id := func(s engine.Selector) []int64 {
		if s.ID > 0 {
			return []int64{s.ID}
		}
		return nil
	}
	switch a := a.(type) {
	case engine.Deliver:
		return id(a.Msg)
	case engine.Drop:
		return id(a.Msg)
	case engine.Duplicate:
		return id(a.Msg)
	case engine.Delay:
		return id(a.Msg)
	case engine.Reorder:
		if a.First.ID > 0 && a.Second.ID > 0 {
			return []int64{a.First.ID, a.Second.ID}
		}
	}
	return nil
}

// withIDs is a with its message numbers replaced by ids, in order.
func withIDs(a engine.Action, ids []int64) engine.Action {
	s := func(i int) engine.Selector { return engine.Selector{ID: ids[i]} }
	switch x := a.(type) {
	case engine.Deliver:
		x.Msg = s(0)
		return x
	case engine.Drop:
		x.Msg = s(0)
		return x
	case engine.Duplicate:
		x.Msg = s(0)
		return x
	case engine.Delay:
		x.Msg = s(0)
		return x
	case engine.Reorder:
		x.First, x.Second = s(0), s(1)
		return x
	}
	return a
}

// lineRoles are the roles of the messages each step of b acts on. A role
// is fixed when its message is sent, so the branch's last world, whose
// history holds every step's, names them all.
func lineRoles(b *sbBranch) []msgRoles {
	out := make([]msgRoles, b.s.p.Len())
	roles := b.s.p.WorldAt(b.s.p.Len()).MessageRoles()
	for k := 1; k <= b.s.p.Len(); k++ {
		var ids []int64
		for _, c := range b.s.p.StepAt(k).Commands {
			if c.Action != nil {
				ids = append(ids, selectorIDs(c.Action)...)
			}
		}
		if len(ids) == 0 {
			continue
		}
		for _, id := range ids {
			out[k-1] = append(out[k-1], roles[id])
		}
	}
	return out
}

// replayed is a branch played again in another world: the branch, and for
// each step of the branch it was played from, the step it became there (0
// when it was left out).
type replayed struct {
	b           *sbBranch
	counterpart []int
	dropped     []string
	// caught are the steps played to reach a message that comes later
	// in the new world, each "step N before LINE".
	caught []string
}

// replayByRole plays the steps of from on a new branch set up with g, each
// as the prompt would take it, its messages found by role.
func (x *Sandbox) replayByRole(g guards, from *sbBranch) (replayed, error) {
	return x.replayOn(from.base, g, from)
}

// replayOn is replayByRole on a setup of its own (base, with g): the
// other Kafka protocol's (v).
func (x *Sandbox) replayOn(base *setupBase, g guards, from *sbBranch) (replayed, error) {
	nb, err := x.newBranch(base, g, nil, x.cur, 0, "branch "+strconv.Itoa(len(x.branches)+1))
	if err != nil {
		return replayed{}, err
	}
	roles := lineRoles(from)
	d := script.NewDecls()
	for i, t := range nb.setup {
		script.ParseLine("setup", i+1, t, d)
	}
	r := replayed{b: nb, counterpart: make([]int, from.s.p.Len())}
	ix := engine.NewRoleIndex()
	for k := 1; k <= from.s.p.Len(); k++ {
		line := from.line(k)
		c, err := script.ParseLine("sandbox", len(nb.setup)+k, line, d)
		if err == nil && c == nil {
			err = errors.New("an empty line")
		}
		if err != nil {
			r.dropped = append(r.dropped, line+" ("+err.Error()+")")
			continue
		}
		if c.Action != nil && len(from.s.p.ProblemsAt(k)) > 0 {
			r.dropped = append(r.dropped, line+" (refused where it was made)")
			continue
		}
		if c.Action != nil {
			w := nb.s.p.WorldAt(nb.s.p.Len())
			if want := roles[k-1]; len(want) > 0 {
				ix.Update(w)
				ids, missing := counterparts(w, ix.Roles, want)
				if missing != "" {
					// The message may come a few steps later in this
					// world (idempotence on sends InitProducerId
					// before the Produce): step to it first.
					if n := catchUp(w, want); n > 0 {
						st := engine.Step{N: int64(n)}
						sc := script.Command{Text: st.String(), Action: st}
						nb.s.p.Append(lessons.Step{Title: sc.Text, Commands: []script.Command{sc}})
						r.caught = append(r.caught, sc.Text+" before "+line)
						w = nb.s.p.WorldAt(nb.s.p.Len())
						ix.Update(w)
						ids, missing = counterparts(w, ix.Roles, want)
					}
				}
				if missing != "" {
					r.dropped = append(r.dropped, line+" (no counterpart of "+missing+")")
					continue
				}
				c.Action = withIDs(c.Action, ids)
				c.Text = c.Action.String()
			}
			if _, err := w.CloneForTrial().Apply(c.Action); err != nil {
				r.dropped = append(r.dropped, c.Text+" (refused: "+err.Error()+")")
				continue
			}
		}
		nb.s.p.Append(lessons.Step{Title: c.Text, Commands: []script.Command{*c}})
		r.counterpart[k-1] = nb.s.p.Len()
	}
	nb.from = r.counterpart
	return r, nil
}

// catchUpMax bounds the steps catchUp tries.
const catchUpMax = 50

// catchUp is how many steps, on a copy of w, bring every message of the
// roles want into flight; 0 when they do not come within catchUpMax
// steps, or before nothing is left to happen.
func catchUp(w *engine.World, want msgRoles) int {
	trial := w.Clone()
	ix := engine.NewRoleIndex()
	for n := 1; n <= catchUpMax; n++ {
		if len(trial.Pending(false)) == 0 {
			return 0
		}
		if _, err := trial.Apply(engine.Step{N: 1}); err != nil {
			return 0
		}
		ix.Update(trial)
		if _, missing := counterparts(trial, ix.Roles, want); missing == "" {
			return n
		}
	}
	return 0
}

// counterparts are the numbers of the messages in flight in w with the
// roles want, or the first role none has.
func counterparts(w *engine.World, roles map[int64]engine.Role, want msgRoles) (ids []int64, missing string) {
	for _, r := range want {
		found := int64(0)
		for _, m := range w.InFlight() {
			if roles[m.ID] == r {
				found = m.ID
				break
			}
		}
		if found == 0 {
			return nil, r.String()
		}
		ids = append(ids, found)
	}
	return ids, ""
}

package adapt

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/search"
	"github.com/eoslab/eoslab/views/model"
)

// "Break it for me" in the sandbox: engine/search from the world at the
// current position, the schedule found opened as a new branch.

var _ model.SandboxBreaker = (*Sandbox)(nil)

// breakSends is how many records each producer may send in a search, as
// eoslab break's default.
const breakSends = 2

// Break implements model.SandboxBreaker. The world is copied now, on the
// caller's goroutine; the search reads only the copy.
func (x *Sandbox) Break(monitor string, o model.BreakBounds) func() model.BreakResult {
	start := x.world().Clone()
	res := model.BreakResult{Monitor: monitor, Sentence: monitor, Branch: x.cur, At: x.Pos()}
	for _, m := range engine.Monitors() {
		if m.Invariant == monitor {
			res.Sentence = m.Holds
		}
	}
	return func() model.BreakResult {
		r := search.Find(start, search.Options{Invariant: monitor, Depth: o.Depth, MaxStates: o.MaxStates, Sends: breakSends})
		res.States, res.Full = r.States, r.Full
		switch {
		case r.Found && len(r.Schedule) == 0:
			res.Says = "\"" + res.Sentence + "\" is broken here already"
		case r.Found:
			res.Found = true
			w := start.Clone()
			for _, a := range r.Schedule {
				evs, err := w.Apply(a)
				if err != nil {
					res.Found = false
					res.Says = "the schedule found was refused on replay at " + a.String() + ": " + err.Error()
					return res
				}
				res.Steps = append(res.Steps, model.BreakStep{Line: a.String(), Events: Narration(evs)})
			}
			res.Says = fmt.Sprintf("%d action(s) break it (%d states explored)", len(r.Schedule), r.States)
		case r.Full:
			res.Says = fmt.Sprintf("stopped at %d states (the most kept): none of %d actions breaks it", r.States, r.Depth)
		case r.Depth < o.Depth:
			res.Says = fmt.Sprintf("none breaks it: all %d reachable states explored", r.States)
		default:
			res.Says = fmt.Sprintf("none of at most %d actions breaks it (%d states explored)", o.Depth, r.States)
		}
		return res
	}
}

// OpenBreak implements model.SandboxBreaker: a new branch forked where
// the search started, with the schedule's actions played on it.
func (x *Sandbox) OpenBreak(r model.BreakResult) error {
	if !r.Found || r.Branch < 0 || r.Branch >= len(x.branches) {
		return errors.New("no schedule to open")
	}
	from := x.branches[r.Branch]
	if r.At > from.s.p.Len() {
		return errors.New("the branch the search started on is shorter than step " + strconv.Itoa(r.At))
	}
	nb := &sbBranch{s: x.session(from.s.p.Fork(r.At)), base: from.base, g: from.g, setup: from.setup,
		parent: r.Branch, at: r.At, name: "branch " + strconv.Itoa(len(x.branches)+1) + " (breaks " + r.Monitor + ")",
		causes: map[int][]cause{}}
	x.branches = append(x.branches, nb)
	x.cur = len(x.branches) - 1
	for _, st := range r.Steps {
		if _, err := x.Exec(st.Line); err != nil {
			return errors.New("the schedule's step " + st.Line + " was refused: " + err.Error())
		}
	}
	return nil
}

// Narration is the lines of a step's events that decided something:
// those with a rule, the faults, the errors a client got and the
// violations; the first event after the action's own when none did.
func Narration(evs []engine.Event) []string {
	var out []string
	for _, e := range evs {
		switch {
		case e.Kind == engine.EvAction:
		case !e.Rule.IsZero(), e.Kind == engine.EvFault, e.Kind == engine.EvClientError, e.Kind == engine.EvViolation:
			out = append(out, e.Line())
		}
	}
	if len(out) == 0 {
		for _, e := range evs {
			if e.Kind != engine.EvAction {
				return []string{e.Line()}
			}
		}
	}
	return out
}

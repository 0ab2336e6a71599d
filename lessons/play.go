package lessons

import (
	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// Player plays a lesson one step at a time. Position 0 is the world after
// the setup, before the first step; position k is the world after step k.
//
// The player keeps the world of every position it has reached, so Back is a
// pointer move and going forward again reuses the same snapshot: what the
// learner sees after Back then Next is exactly what they saw the first
// time. Snapshots are read-only; nothing steps them again.
type Player struct {
	l     *Lesson
	snaps []snapshot // snaps[k] is the world after step k, computed on demand
	pos   int
	// chosen[k] is the answer (1-based) to step k's checkpoint, 0 if none.
	chosen []int
	// correct[k] caches the right choice of step k's checkpoint; 0 until known.
	correct []int
	// shareAt is the live world's event count at which the snapshots
	// next share its history arrays (see ensure).
	shareAt int
	// forward is set by a check (validate), which goes forward once: the
	// world after a step is frozen (cloned) only when that step's
	// checkpoint will be judged on it.
	forward bool
}

// snapshot is the world after one step, with what went wrong while running
// the step (an action the engine refused, an expectation that did not hold)
// and what the step changed: the change sets of its actions, merged.
type snapshot struct {
	world    *engine.World
	problems []*script.Error
	changes  engine.ChangeSet
}

// NewPlayer starts a lesson: it applies the setup and stands before step 1.
func NewPlayer(l *Lesson) *Player {
	p := &Player{l: l, chosen: make([]int, len(l.Steps)+1), correct: make([]int, len(l.Steps)+1)}
	cfg := engine.DefaultConfig()
	if l.Kafka != 0 {
		cfg.TransactionVersion = TransactionVersion(l.Kafka)
	}
	w := engine.New(cfg)
	p.snaps = []snapshot{run(w, l.Setup)}
	return p
}

// run executes commands in order on w. A command the engine refuses is
// recorded and the step goes on, so one broken line does not hide the rest.
func run(w *engine.World, cmds []script.Command) snapshot {
	r := &script.Runner{World: w}
	var probs []*script.Error
	changes := engine.ChangeSet{FirstEvent: w.EventCount(), FirstViolation: len(w.Violations())}
	for _, c := range cmds {
		_, f, err := r.Exec(c)
		// World.Changes is the last action's; after an expectation or a
		// command refused before it reached the engine, that may be an
		// action of an earlier step, which started before this one.
		if cs := w.Changes(); cs.FirstEvent >= changes.FirstEvent {
			changes.Merge(cs)
		}
		if err != nil {
			if se, ok := err.(*script.Error); ok {
				probs = append(probs, se)
			} else {
				probs = append(probs, &script.Error{File: c.File, Line: c.Line, Msg: err.Error()})
			}
		}
		if f != nil {
			probs = append(probs, &script.Error{File: f.File, Line: f.Line,
				Msg: "expectation does not hold: " + f.Text + "; found: " + f.Got})
		}
	}
	return snapshot{world: w, problems: probs, changes: changes}
}

// ensure computes the snapshots up to position k. The newest world stays
// live: before a step it leaves a Clone behind as the frozen snapshot and
// goes on. Clone caps the copy's append-only histories (events, logs), so
// the live world appends in place and the frozen copy never sees it; the
// histories are never copied, which keeps a long lesson linear.
//
// A history that outgrows its array moves to a bigger one, and each
// snapshot would keep the array it saw alive; when the live world's event
// history moves, the snapshots are pointed at the live world's arrays
// (ShareHistory), so the player holds each history about once, not
// several times over.
func (p *Player) ensure(k int) {
	for len(p.snaps) <= k && len(p.snaps) <= len(p.l.Steps) {
		last := len(p.snaps) - 1
		live := p.snaps[last].world
		if p.forward && (last == 0 || p.l.Steps[last-1].Ask == nil) {
			p.snaps[last].world = nil
		} else {
			p.snaps[last].world = live.Clone()
		}
		p.snaps = append(p.snaps, run(live, p.l.Steps[last].Commands))
		// The histories move to bigger arrays now and then as they grow
		// (by about a quarter): when the live world's event count has
		// grown by a quarter, point every snapshot at its arrays.
		if n := live.EventCount(); n >= p.shareAt {
			p.shareAt = n + n/4 + 64
			for _, s := range p.snaps[:len(p.snaps)-1] {
				if s.world != nil { // a check lets the worlds behind it go
					s.world.ShareHistory(live)
				}
			}
		}
	}
}

// Lesson is the lesson being played.
func (p *Player) Lesson() *Lesson { return p.l }

// Title is the lesson's title.
func (p *Player) Title() string { return p.l.Title }

// Len is the number of steps.
func (p *Player) Len() int { return len(p.l.Steps) }

// Pos is the current position, 0..Len.
func (p *Player) Pos() int { return p.pos }

// Next runs the next step. It returns false at the end, or while the
// current step's checkpoint is not answered.
func (p *Player) Next() bool {
	if p.pos >= len(p.l.Steps) || p.Pending() {
		return false
	}
	p.ensure(p.pos + 1)
	p.pos++
	return true
}

// Back goes back one step. It returns false at position 0.
func (p *Player) Back() bool {
	if p.pos == 0 {
		return false
	}
	p.pos--
	return true
}

// Restart goes back to position 0 and forgets the answers given, so the
// lesson can be played again from the start.
func (p *Player) Restart() {
	p.pos = 0
	clear(p.chosen)
}

// Pending reports whether the current step has a checkpoint not answered yet.
func (p *Player) Pending() bool {
	return p.Checkpoint() != nil && p.chosen[p.pos] == 0
}

// Checkpoint is the current step's checkpoint, or nil.
func (p *Player) Checkpoint() *Checkpoint {
	if s := p.Step(); s != nil {
		return s.Ask
	}
	return nil
}

// Answer answers the current checkpoint with choice 1..len(Choices). ok is
// false when there is no unanswered checkpoint or the choice is out of range.
func (p *Player) Answer(choice int) (correct, ok bool) {
	cp := p.Checkpoint()
	if cp == nil || p.chosen[p.pos] != 0 || choice < 1 || choice > len(cp.Choices) {
		return false, false
	}
	p.chosen[p.pos] = choice
	return choice == p.Correct(p.pos), true
}

// Chosen is the answer given to step k's checkpoint, or 0.
func (p *Player) Chosen(k int) int {
	if k < 0 || k >= len(p.chosen) {
		return 0
	}
	return p.chosen[k]
}

// Correct is the right choice (1-based) of step k's checkpoint: the one
// whose expectations hold after step k+1. It is 0 when step k has no
// checkpoint or, in a lesson that Check would reject, no choice holds.
func (p *Player) Correct(k int) int {
	if k < 1 || k > len(p.l.Steps) || p.l.Steps[k-1].Ask == nil {
		return 0
	}
	if p.correct[k] == 0 {
		for i, v := range p.judge(k, k+1) {
			if v.holds {
				p.correct[k] = i + 1
				break
			}
		}
	}
	return p.correct[k]
}

// verdict is one choice judged against one world.
type verdict struct {
	holds bool
	found string        // what the first failing expectation found
	err   *script.Error // an expectation that cannot be evaluated
}

// judge evaluates the choices of step k's checkpoint against the world at
// position at. Expectations only read the world, so the snapshot itself is
// used.
func (p *Player) judge(k, at int) []verdict {
	cp := p.l.Steps[k-1].Ask
	p.ensure(at)
	if at >= len(p.snaps) {
		return make([]verdict, len(cp.Choices))
	}
	w := p.snaps[at].world
	out := make([]verdict, len(cp.Choices))
	for i, ch := range cp.Choices {
		v := verdict{holds: len(ch.Expects) > 0}
		for _, c := range ch.Expects {
			ok, found, err := script.Check(w, c)
			if err != nil {
				v.holds, v.err = false, &script.Error{File: c.File, Line: c.Line, Msg: c.Text + ": " + err.Error()}
				break
			}
			if !ok {
				v.holds, v.found = false, c.Text+" found "+found
				break
			}
		}
		out[i] = v
	}
	return out
}

// Step is the step just run, or nil at position 0.
func (p *Player) Step() *Step { return p.StepAt(p.pos) }

// StepAt is step k (1-based), or nil.
func (p *Player) StepAt(k int) *Step {
	if k < 1 || k > len(p.l.Steps) {
		return nil
	}
	return &p.l.Steps[k-1]
}

// World is the world at the current position. It is a snapshot: read it,
// never step it.
func (p *Player) World() *engine.World { return p.WorldAt(p.pos) }

// WorldAt is the world at position k (0..Len), computing it if needed, or
// nil when k is out of range. Like World, it must not be stepped.
func (p *Player) WorldAt(k int) *engine.World {
	if k < 0 || k > len(p.l.Steps) {
		return nil
	}
	p.ensure(k)
	return p.snaps[k].world
}

// ChangesAt is what step k changed (its actions' change sets merged), for
// k in 1..Len; position 0, the setup, is reported as changing nothing.
func (p *Player) ChangesAt(k int) engine.ChangeSet {
	if k < 1 || k > len(p.l.Steps) {
		return engine.ChangeSet{}
	}
	p.ensure(k)
	return p.snaps[k].changes
}

// Problems are what went wrong while running the current step: an action
// the engine refused or an expectation that did not hold. A lesson that
// passes Check has none.
func (p *Player) Problems() []*script.Error { return p.ProblemsAt(p.pos) }

// ProblemsAt is Problems for position k.
func (p *Player) ProblemsAt(k int) []*script.Error {
	if k < 0 || k > len(p.l.Steps) {
		return nil
	}
	p.ensure(k)
	return p.snaps[k].problems
}

package challenges

import (
	"fmt"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// Run is one play of a file under one Kafka version.
type Run struct {
	Kafka   int
	World   *engine.World
	Reached bool
	Found   string
	// Failed are the file's own expect lines that did not hold; they do
	// not decide the goal.
	Failed []script.Failure
	judge  Judge
}

// Outcome is a check of a file against a goal.
type Outcome struct {
	Goal    Goal
	Runs    []Run
	Reached bool
	// Says is what was found, one line per run, then the comparison.
	Says []string
}

// Check plays src (the file named file) under each of g's Kafka versions
// and judges it. A file that does not parse, or a line the engine
// refuses, is an error naming file:line.
func Check(g Goal, file string, src []byte) (Outcome, error) {
	cmds, err := script.Parse(file, src)
	if err != nil {
		return Outcome{}, err
	}
	out := Outcome{Goal: g, Reached: true}
	for _, k := range g.Kafka {
		r, err := play(g, k, cmds)
		if err != nil {
			return Outcome{}, err
		}
		out.Runs = append(out.Runs, r)
		out.Says = append(out.Says, fmt.Sprintf("Kafka %d: %s", k, r.Found))
		out.Reached = out.Reached && r.Reached
	}
	if out.Reached && g.Compare != nil {
		ok, says := g.Compare(out.Runs)
		out.Reached = ok
		out.Says = append(out.Says, says)
	}
	return out, nil
}

// play runs the commands under Kafka k (transaction.version 1 for 3, 2
// for 4, whatever the file's config lines say, as eoslab run --kafka).
func play(g Goal, k int, cmds []script.Command) (Run, error) {
	r := script.NewRunner()
	tv := 1
	if k == 4 {
		tv = 2
	}
	r.PinTransactionVersion(tv)
	run := Run{Kafka: k, World: r.World, judge: g.Judge()}
	switched := false
	err := r.Play(cmds, func(o script.Outcome) error {
		run.judge.After(r.World, o.Events)
		switched = switched || r.World.Config().Teach.Any()
		return nil
	})
	if err != nil {
		return Run{}, err
	}
	run.Failed = r.Failures
	run.Reached, run.Found = run.judge.Reached(r.World)
	if run.Reached && switched && !g.AllowSwitches {
		run.Reached = false
		run.Found += "; but a teaching switch turned a Kafka safeguard off, which this goal does not allow"
	}
	return run, nil
}

package adapt

import (
	"errors"
	"strconv"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// UntilMax bounds run-until: the steps it tries before it says the
// condition never came.
const UntilMax = 1000

// RunUntil steps the world until cond, an expect line, holds: tried on a
// copy first, so that a condition that never comes within UntilMax steps
// (or before nothing is left to happen) leaves the world as it was and
// says so; one that comes is one step of the branch, "step N".
func (x *Sandbox) RunUntil(cond string) (string, error) {
	c, err := script.ParseLine("until", 1, cond, x.decls())
	if err != nil {
		return "", err
	}
	if c == nil || c.Kind() != script.Expect {
		return "", errors.New("until takes what an expect line checks: until txn ID state PrepareCommit, until event kind=marker, until markers 1")
	}
	what := c.Text[len("expect "):]
	if ok, _, err := script.Check(x.world(), *c); err != nil {
		return "", err
	} else if ok {
		return what + " holds already: nothing was run", nil
	}
	trial := x.world().CloneForTrial()
	for n := 1; n <= UntilMax; n++ {
		if len(trial.Pending(false)) == 0 {
			return "", errors.New(what + " never came: quiet after " + strconv.Itoa(n-1) + " step(s); nothing run")
		}
		if _, err := trial.Apply(engine.Step{N: 1}); err != nil {
			return "", errors.New(what + " never came: step " + strconv.Itoa(n) + " was refused (" + err.Error() + "); nothing was run")
		}
		ok, _, err := script.Check(trial, *c)
		if err != nil {
			return "", err
		}
		if !ok {
			continue
		}
		line, err := x.Exec(engine.Step{N: int64(n)}.String())
		if err != nil {
			return "", err
		}
		return what + " holds after " + strconv.Itoa(n) + " step(s): " + line, nil
	}
	return "", errors.New(what + " never came within " + strconv.Itoa(UntilMax) + " steps; nothing run")
}

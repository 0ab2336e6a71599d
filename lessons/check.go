package lessons

import (
	"strconv"
	"strings"

	"github.com/eoslab/eoslab/engine/script"
)

// Check parses a lesson and plays it to the end. It returns nil when the
// lesson is sound, or a script.ErrorList naming file:line for every problem:
// a parse error, an action the engine refuses, an expect: that does not
// hold, or a checkpoint that does not have exactly one right choice.
func Check(file string, src []byte) error {
	l, err := Parse(file, src)
	if err != nil {
		return err
	}
	return l.Check()
}

// Check plays a parsed lesson to the end and validates it (see the package
// function Check).
//
// A checkpoint at step k is sound when, after step k+1 has run, exactly one
// choice's expectations all hold, and that choice did not already hold
// before step k+1: the question is "what happens next?", so the answer must
// be something the next step does, not something already on the screen.
//
// A lesson read from a file is checked under both versions (Kafka 3 and
// Kafka 4); a problem found only under one says which.
func (l *Lesson) Check() error {
	if l.twin == nil {
		return NewPlayer(l).validate()
	}
	var lists []script.ErrorList
	for _, k := range Versions {
		el, _ := NewPlayer(l.ForKafka(k)).validate().(script.ErrorList)
		lists = append(lists, el)
	}
	// An error both versions find is reported once, as it is; one found
	// under one version only names it.
	var out script.ErrorList
	for i, el := range lists {
		for _, e := range el.Errors {
			key := e.Error()
			both := false
			for j, other := range lists {
				if j != i && containsError(other, key) {
					both = true
				}
			}
			if both && i > 0 {
				continue
			}
			if !both {
				c := *e
				c.Msg = "under Kafka " + strconv.Itoa(Versions[i]) + ": " + c.Msg
				e = &c
			}
			out.Add(e)
		}
		out.More += el.More
	}
	return out.Err()
}

func containsError(l script.ErrorList, key string) bool {
	for _, e := range l.Errors {
		if e.Error() == key {
			return true
		}
	}
	return false
}

// validate plays the whole lesson and returns its problems as a
// script.ErrorList sorted by line, or nil.
//
// It goes forward once and keeps only the worlds it still needs: the
// checkpoint of step k is judged on the worlds after steps k and k+1, and
// then the world after step k is let go; the world after a step with no
// checkpoint is not even copied. A check of a long lesson so holds two
// worlds, not one for each step.
func (p *Player) validate() error {
	var probs, cps []*script.Error
	p.forward = true
	n := len(p.l.Steps)
	for k := 0; k <= n; k++ {
		probs = append(probs, p.ProblemsAt(k)...)
		if k >= 2 {
			if cp := p.l.Steps[k-2].Ask; cp != nil {
				cps = append(cps, p.checkpointErrors(k-1, cp)...)
			}
		}
		if k >= 1 {
			p.snaps[k-1].world = nil // judged: not looked at again
		}
	}
	// Problems first, then checkpoints, as the list keeps the first
	// MaxErrors it is given.
	var errs script.ErrorList
	for _, e := range append(probs, cps...) {
		errs.Add(e)
	}
	return errs.Err()
}

func (p *Player) checkpointErrors(k int, cp *Checkpoint) []*script.Error {
	var errs []*script.Error
	after := p.judge(k, k+1)
	var holding []int
	for i, v := range after {
		if v.err != nil {
			errs = append(errs, v.err)
		}
		if v.holds {
			holding = append(holding, i+1)
		}
	}
	if len(errs) > 0 {
		return errs
	}
	at := func(msg string) []*script.Error {
		return []*script.Error{{File: p.l.File, Line: cp.Line, Msg: msg}}
	}
	switch len(holding) {
	case 0:
		var found []string
		for i, v := range after {
			found = append(found, "choice "+strconv.Itoa(i+1)+": "+v.found)
		}
		return at("no choice holds after the next step (line " + strconv.Itoa(p.l.Steps[k].Line) +
			"); exactly one must. " + strings.Join(found, "; "))
	case 1:
	default:
		verb := " all hold"
		if len(holding) == 2 {
			verb = " both hold"
		}
		return at("choices " + andList(holding) + verb + " after the next step; exactly one must")
	}
	right := holding[0]
	if p.judge(k, k)[right-1].holds {
		return at("choice " + strconv.Itoa(right) + " already holds before the next step runs; " +
			"give it an expectation that only the next step makes true")
	}
	return nil
}

func andList(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	if len(s) == 2 {
		return s[0] + " and " + s[1]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// Package challenges holds eoslab's goals: situations a student makes
// happen in the sandbox, each with a hint and a shown solution, in the
// spirit of Learn Git Branching's levels. A goal is checked by the engine:
// its Judge reads the world after each command of the student's scenario
// file (typed fields: positions, batches, producer states) and the events
// of the run (kinds, codes, rules), never their text.
//
// The goals are a Go table (goals.go), not a file format, because what
// decides a goal is a predicate: some need an order over the history (a
// consumer stalls, then moves on), some compare two runs of one file
// (Kafka 3 against Kafka 4), which the scenario language's expect lines
// cannot say. A teacher adds a goal with one table entry, its solution file
// under solutions/, and nothing else: the tests play every entry's
// solution and its near miss.
//
// The package plays scenarios (engine/script) and judges the engine's
// world; it touches no file, clock or terminal (the CLI reads the student's
// file and records progress). It must not import the views.
package challenges

import (
	"embed"
	"fmt"
	"strings"

	"github.com/eoslab/eoslab/engine"
)

//go:embed solutions/*.scn
var solutions embed.FS

// Goal is one challenge.
type Goal struct {
	// Name is the goal's stable name, the key of its progress.
	Name string
	// Level is 1 (a first step), 2 or 3 (needs the expert actions or a
	// precise schedule).
	Level int
	// Title is the goal in a few words, for the list.
	Title string
	// Goal says what to make happen; Hint how to start; Why what it shows
	// of Kafka, citing the class, KIP or JIRA. Each is a paragraph.
	Goal, Hint, Why string
	// Kafka are the Kafka major versions (3: transaction.version 1, 4:
	// transaction.version 2) the file is played under; the goal must be
	// reached under each, and Compare, when set, judges the runs together.
	Kafka []int
	// Solution is the shown solution's file in solutions/; NearMiss is
	// the one line of it (its exact text) whose removal must miss the goal.
	Solution, NearMiss string
	// AllowSwitches lets the file turn a teaching switch off; otherwise a
	// run with a safeguard off does not count.
	AllowSwitches bool
	// Judge makes a fresh judge for one run.
	Judge func() Judge
	// Compare, when set, judges the runs under Kafka together, after each
	// reached the goal; it returns what differs in words and whether the
	// goal is reached.
	Compare func(runs []Run) (bool, string)
}

// Judge watches one run of a scenario.
type Judge interface {
	// After looks at the world after each command, with the events that
	// command caused.
	After(w *engine.World, evs []engine.Event)
	// Reached says, at the end, whether the goal was reached and what was
	// found, in words.
	Reached(w *engine.World) (bool, string)
}

// All is every goal, numbered from 1 in this order.
func All() []Goal { return goals }

// Get is goal n (1-based).
func Get(n int) (Goal, error) {
	if n < 1 || n > len(goals) {
		return Goal{}, fmt.Errorf("no challenge %d; there are %d (eoslab challenges lists them)", n, len(goals))
	}
	return goals[n-1], nil
}

// SolutionText is the shown solution of g.
func SolutionText(g Goal) []byte {
	b, err := solutions.ReadFile("solutions/" + g.Solution)
	if err != nil {
		panic("challenges: missing solution " + g.Solution) // a test reads every one
	}
	return b
}

// Versions is g's Kafka versions in words: "Kafka 3", "Kafka 3 and 4".
func Versions(g Goal) string {
	var s []string
	for _, k := range g.Kafka {
		s = append(s, fmt.Sprint(k))
	}
	return "Kafka " + strings.Join(s, " and ")
}

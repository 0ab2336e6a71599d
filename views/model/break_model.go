package model

// "Break it for me": a bounded search (engine/search) for the shortest
// schedule of the waiting world's choices that breaks one guarantee,
// from the sandbox's current position.

// SandboxBreaker is a SandboxSession that can search for a schedule that
// breaks a monitor (views/adapt's can). It is its own interface so that
// a session without a search still is a SandboxSession.
type SandboxBreaker interface {
	// Break returns the search for a schedule that breaks monitor (a
	// Monitor.Name) from the current position, within o. The search
	// works on a copy of the world: it runs off the screen's goroutine
	// (a tea.Cmd) while the learner goes on.
	Break(monitor string, o BreakBounds) func() BreakResult
	// OpenBreak opens a found schedule as a new branch from where its
	// search started, standing at its end.
	OpenBreak(r BreakResult) error
}

// BreakBounds bound a search: the longest schedule, in actions, and the
// most distinct states kept.
type BreakBounds struct {
	Depth, MaxStates int
}

// BreakResult is what a search found.
type BreakResult struct {
	// Monitor is the monitor searched for, Sentence its guarantee in
	// words.
	Monitor, Sentence string
	// Found reports a schedule; Steps are its actions with what each
	// caused.
	Found bool
	Steps []BreakStep
	// States is the distinct states explored; Full that the state bound
	// stopped the search.
	States int
	Full   bool
	// Says is the outcome in words, for the status line.
	Says string
	// Branch and At are where the search started.
	Branch, At int
}

// BreakStep is one action of a schedule: its scenario line, and the
// events that decided it (with the rule, as the Timeline and `eoslab
// run` show them).
type BreakStep struct {
	Line   string
	Events []string
}

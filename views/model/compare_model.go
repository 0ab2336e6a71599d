package model

// Comparison is two branches of a sandbox session set side by side: their
// logs, the first step where they diverge, the decision that differed
// there (with the rule that made it), and each world's outcome. views/adapt
// computes it (Sandbox.Compare) for the sandbox's C and for eoslab compare
// alike.
type Comparison struct {
	// A and B are the two branches' names.
	A, B string
	// LogA and LogB are the two branches' action lines, one a step.
	LogA, LogB []string
	// First is the first divergence, nil when the two made the same
	// decisions at every step: a step of A with no counterpart in B
	// (StepB 0), or Decision.
	First *Divergence
	// Decision is the first pair of steps where the two decided
	// otherwise (or, for two branches that were not replayed one from the
	// other, acted otherwise), nil when no pair did.
	Decision *Divergence
	// Missing are the steps of A with no counterpart in B, as lines, and
	// MissingSteps their numbers.
	Missing      []string
	MissingSteps []int
	// OutcomeA and OutcomeB summarise each world at its end: its
	// partitions' records, what its consumers received, its monitors.
	OutcomeA, OutcomeB []string
}

// Divergence is one step where two worlds went apart.
type Divergence struct {
	// StepA is the step of branch A (1..), LineA its line; StepB and
	// LineB its counterpart in B, StepB 0 when it has none.
	StepA, StepB int
	LineA, LineB string
	// About is the role of the message the step acts on, if it acts on one.
	About string
	// DecisionA and DecisionB are the first decision that differs, each
	// as its event line with the rule that made it ("" when the world
	// made none there).
	DecisionA, DecisionB string
}

package model

// SandboxGoal is the goal of a sandbox opened on a challenge
// (lessons/challenges), and whether the current branch reaches it at the
// current position, as the engine judges it.
type SandboxGoal struct {
	// Name is the goal's stable name (its progress key), Num its number
	// (eoslab challenges check N); Title, Goal and Hint are its words,
	// Kafka the versions it is checked under ("Kafka 3 and 4").
	Name        string
	Num         int
	Title, Goal string
	Hint, Kafka string
	// Solution is the shown solution, a scenario file, one line each.
	Solution []string
	// Reached says the actions up to the current position reach the
	// goal; Found is what the judge found (or did not), in words.
	Reached bool
	Found   string
}

// ChallengeRecorder is a Progress that also records reached challenges
// (views/adapt's does): name reached, its file kept at file ("" when no
// file was kept).
type ChallengeRecorder interface {
	ChallengeDone(name, file string)
}

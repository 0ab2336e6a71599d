package model

// ChallengeInfo is one goal of the Challenges entry (lessons/challenges):
// a situation a student makes happen in the sandbox, checked by the
// engine.
type ChallengeInfo struct {
	// Name is the goal's stable name, what OpenChallengeMsg reports and
	// the key of its progress; Num its number for `eoslab challenges
	// check N FILE`.
	Name string
	Num  int
	// Level is 1 (a first step) to 3 (needs the expert actions or a
	// precise schedule).
	Level int
	// Title is the goal in a few words; Goal what to make happen; Hint
	// how to start (shown on a key).
	Title, Goal, Hint string
	// Kafka are the versions it is checked under, in words ("Kafka 3 and
	// 4").
	Kafka string
	// Finished says the learner's progress records it reached.
	Finished bool
}

package model

// Progress keeps the learner's place across runs: which lessons are
// finished, the step each was left at, the answers given and the drills'
// scores. main.go passes one kept in a file (views/adapt wraps
// lessons/progress); nil keeps nothing. The app tells it what happens and
// asks it where the learner was; it never does I/O itself.
type Progress interface {
	// Place is where the learner left a lesson.
	Place(name string) Place
	// Last is the lesson played most recently, "" if none: what
	// "continue" opens.
	Last() string
	// Reached records the step the learner is at (0..steps) and the Kafka
	// major version the lesson plays under (3 or 4; 0 when unknown).
	Reached(name string, step, steps, kafka int)
	// Answered records a checkpoint answer at a step.
	Answered(name string, step, choice int, right bool)
	// DrillDone records a finished drill.
	DrillDone(r DrillResult)
	// Notice is a problem to tell the learner about once (a file moved
	// aside, a directory that cannot be written), or "".
	Notice() string
}

// Place is the learner's place in one lesson.
type Place struct {
	// At is the step the learner was at: 0 before the first, or the
	// lesson's length at its end.
	At       int
	Finished bool
	// Kafka is the version the lesson was played under, 0 when unknown.
	Kafka int
	// Answers are the choices given, by step, which replay the lesson's
	// checkpoints up to At when it is opened again.
	Answers map[int]int
}

package model

// Drill is an interview drill: "what happens next?" questions drawn
// across the lessons, each about a frozen state, answered, revealed and
// scored. views/adapt implements it on top of lessons.Drill; the views
// never work out an answer themselves.
//
// A Drill is used from Bubble Tea's Update only.
type Drill interface {
	// Seed replays the drill: the same seed draws the same questions.
	Seed() uint64
	// Kafka is the Kafka major version the questions play under (3 or 4).
	Kafka() int
	// Len is the number of questions.
	Len() int
	// Pos is the current question, 0..Len-1, or Len once the drill is over.
	Pos() int
	// Question is the current question; at the end, the last one.
	Question() DrillQuestion
	// Answer answers the current question with choice 1..len(Choices).
	Answer(choice int) (correct, ok bool)
	// Hint shows the current question's hint before it is answered; a
	// right answer after it earns no point. ok is false once answered.
	Hint() (hint string, ok bool)
	// Retry is a drill of just the concepts missed so far (wrong, or
	// right after a hint); ok is false when nothing was missed.
	Retry() (d Drill, ok bool)
	// Next goes on once the current question is answered; past the last
	// one it ends the drill.
	Next() bool
	// Result is the score so far.
	Result() DrillResult
}

// DrillQuestion is one question of a drill as the screen shows it.
type DrillQuestion struct {
	// Concept is what the question tests.
	Concept string
	// Lesson is the lesson that teaches it (a name to open) and
	// LessonTitle its title.
	Lesson, LessonTitle string
	// Title and Setting are the situation: the step's title and text.
	Title, Setting string
	// Written is set for a question with no frozen state: its answer is
	// written, and Ref says where to check it.
	Written bool
	// Ref is where the answer can be checked: a Kafka class and method, a
	// KIP, a JIRA or a documented config name.
	Ref string
	// Hint is the question's hint once shown (HintShown), else empty.
	Hint      string
	HintShown bool
	// Why is, once answered, each shown choice's one line on why it is
	// wrong (empty for the right one).
	Why []string
	// State is the frozen world the question is about; its Checkpoint is
	// not used (see Checkpoint).
	State Frame
	// Checkpoint is the question, its choices and, once answered, the
	// right choice and the explanation.
	Checkpoint Checkpoint
}

// DrillResult is a drill's score and what to go over again.
type DrillResult struct {
	Seed                           uint64
	Right, Hinted, Answered, Total int
	Revisit                        []Revisit
}

// Revisit is a concept to go over again, with the lesson that teaches it.
type Revisit struct {
	Concept, Lesson, LessonTitle string
	Missed                       int
}

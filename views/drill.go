package views

import (
	"strconv"

	"github.com/charmbracelet/bubbles/key"
)

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

// DrillKeyMap holds the drill screen's keys.
type DrillKeyMap struct {
	Answer key.Binding
	Hint   key.Binding
	Retry  key.Binding // a drill of just the missed concepts
	Next   key.Binding
	Open   key.Binding // the lesson that teaches the question
	Up     key.Binding
	Down   key.Binding
	Home   key.Binding
}

// DefaultDrillKeyMap returns the default drill keys.
// Answering, going on and scrolling are the player's and the panes' keys,
// with the drill's words.
func DefaultDrillKeyMap() DrillKeyMap {
	k, pane := DefaultKeyMap(), DefaultPaneKeyMap()
	says := func(b key.Binding, desc string) key.Binding {
		b.SetHelp(b.Help().Key, desc)
		return b
	}
	return DrillKeyMap{
		Answer: k.Answer,
		Hint:   key.NewBinding(key.WithKeys("h"), key.WithHelp("h", "hint (costs the point)")),
		Retry:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "drill the missed concepts")),
		Next:   says(k.Next, "next question"),
		Open:   key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "open the lesson")),
		Up:     says(pane.Up, "scroll"),
		Down:   says(pane.Down, "scroll"),
		Home:   key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "lessons")),
	}
}

// ASCII returns the key map with ASCII-only help texts.
func (k DrillKeyMap) ASCII() DrillKeyMap {
	for _, b := range []*key.Binding{&k.Next, &k.Up, &k.Down, &k.Hint, &k.Retry} {
		asciiHelp(b)
	}
	return k
}

// drillScreen is the state of the drill screen.
type drillScreen struct {
	d    Drill
	keys DrillKeyMap
	// off is how far the situation is scrolled, and qoff how far the
	// answered question's pane is scrolled from where its verdict shows.
	off, qoff int
	// reported is set once the drill's score went to the progress.
	reported bool
	// retry is set for a drill of the concepts another drill missed,
	// which no --seed replays.
	retry bool
	msg   string
}

func answerRange(n int) string {
	if n <= 1 {
		return "1"
	}
	return "1-" + strconv.Itoa(min(n, 4))
}

package adapt

import (
	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/lessons/progress"
	"github.com/eoslab/eoslab/views/model"
)

// Drill plays a lessons.Drill for the views: each question with the frozen
// state it is about, built as a lesson frame.
type Drill struct {
	d      *lessons.Drill
	titles map[string]string
	// frames caches each question's state, built once.
	frames map[int]model.Frame
}

var _ model.Drill = (*Drill)(nil)

// NewDrill draws a drill of count questions with seed (see lessons.NewDrill).
func NewDrill(seed uint64, count int) (*Drill, error) { return NewDrillFor(seed, count, 3) }

// NewDrillFor draws a drill played under Kafka major version kafka.
func NewDrillFor(seed uint64, count, kafka int) (*Drill, error) {
	d, err := lessons.NewDrillFor(seed, count, kafka)
	if err != nil {
		return nil, err
	}
	return WrapDrill(d), nil
}

// WrapDrill adapts a drill already drawn.
func WrapDrill(d *lessons.Drill) *Drill {
	titles := map[string]string{}
	for _, m := range lessons.All() {
		titles[m.Name] = m.Title
	}
	return &Drill{d: d, titles: titles, frames: map[int]model.Frame{}}
}

// Inner is the drill underneath, for tests and the CLI.
func (a *Drill) Inner() *lessons.Drill { return a.d }

// Kafka is the Kafka major version the drill plays under.
func (a *Drill) Kafka() int { return a.d.Kafka() }

// Seed is the drill's seed.
func (a *Drill) Seed() uint64 { return a.d.Seed() }

// Len is the number of questions.
func (a *Drill) Len() int { return a.d.Len() }

// Pos is the current question, or Len at the end.
func (a *Drill) Pos() int { return a.d.Pos() }

// Answer answers the current question.
func (a *Drill) Answer(choice int) (bool, bool) { return a.d.Answer(choice) }

// Next goes to the next question.
func (a *Drill) Next() bool { return a.d.Next() }

// Question is the current question (the last one at the end).
func (a *Drill) Question() model.DrillQuestion {
	i := min(a.d.Pos(), a.d.Len()-1)
	if i < 0 {
		return model.DrillQuestion{}
	}
	q := a.d.Question(i)
	cp := q.Checkpoint()
	out := model.DrillQuestion{Concept: q.Concept, Lesson: q.Lesson, LessonTitle: a.titles[q.Lesson], Ref: q.Ref}
	if q.Written() {
		out.Written = true
		out.Title = kindTitle[q.Kind]
		out.Checkpoint.Prompt = kindPrompt[q.Kind]
	} else {
		step := &q.Source.Steps[q.Step-1]
		out.Title, out.Setting, out.State = step.Title, step.Say, a.frame(i)
	}
	out.Checkpoint.Question = cp.Question
	for _, c := range a.d.Choices(i) {
		out.Checkpoint.Choices = append(out.Checkpoint.Choices, c.Text)
	}
	if a.d.Hinted(i) {
		out.Hint, out.HintShown = cp.Hint, true
	}
	if ch := a.d.Chosen(i); ch != 0 {
		out.Checkpoint.Answered, out.Checkpoint.Chosen = true, ch
		out.Checkpoint.Correct, out.Checkpoint.Explanation = a.d.Correct(i), cp.Explain
		for k, c := range a.d.Choices(i) {
			why := c.Why
			if k+1 == out.Checkpoint.Correct {
				why = ""
			}
			out.Why = append(out.Why, why)
		}
	}
	return out
}

// kindTitle and kindPrompt head a written question, by its kind.
var (
	kindTitle = map[string]string{"explain": "Explain", "configuration": "Configuration", "failure": "Failure handling",
		"trade-off": "Trade-offs", "design": "Design"}
	kindPrompt = map[string]string{"explain": "Explain:", "configuration": "Configuration:", "failure": "Failure:",
		"trade-off": "Trade-off:", "design": "Design:"}
)

// Hint shows the current question's hint.
func (a *Drill) Hint() (string, bool) { return a.d.Hint() }

// Retry is a drill of the concepts missed so far.
func (a *Drill) Retry() (model.Drill, bool) {
	d, ok := a.d.Retry()
	if !ok {
		return nil, false
	}
	return WrapDrill(d), true
}

// frame is question i's frozen state, as the lesson player shows it.
func (a *Drill) frame(i int) model.Frame {
	if f, ok := a.frames[i]; ok {
		return f
	}
	p := a.d.Player(i)
	f := onPlayer(p).build(p.Pos())
	f.Checkpoint = nil
	a.frames[i] = f
	return f
}

// Result is the score so far, with the lessons' titles.
func (a *Drill) Result() model.DrillResult {
	r := a.d.Result()
	out := model.DrillResult{Seed: r.Seed, Right: r.Right, Hinted: r.Hinted, Answered: r.Answered, Total: r.Total}
	for _, rv := range r.Revisit {
		out.Revisit = append(out.Revisit, model.Revisit{Concept: rv.Concept, Lesson: rv.Lesson,
			LessonTitle: a.titles[rv.Lesson], Missed: rv.Missed})
	}
	return out
}

// Progress keeps the views' progress in a progress.Store.
type Progress struct{ S *progress.Store }

var _ model.Progress = Progress{}

// Place is where the learner left a lesson.
func (p Progress) Place(name string) model.Place {
	l := p.S.Lesson(name)
	pl := model.Place{At: l.Step, Finished: l.Finished, Kafka: l.Kafka}
	if len(l.Answers) > 0 {
		pl.Answers = make(map[int]int, len(l.Answers))
		for k, a := range l.Answers {
			pl.Answers[k] = a.Choice
		}
	}
	return pl
}

// Last is the lesson played most recently.
func (p Progress) Last() string { return p.S.Last() }

// Reached records the learner's step and version.
func (p Progress) Reached(name string, step, steps, kafka int) {
	p.S.ReachedUnder(name, step, steps, kafka)
}

// Answered records a checkpoint answer.
func (p Progress) Answered(name string, step, choice int, right bool) {
	p.S.Answered(name, step, choice, right)
}

// DrillDone records a drill's score, with its concepts to revisit.
func (p Progress) DrillDone(r model.DrillResult) {
	d := progress.Drill{Seed: r.Seed, Right: r.Right, Total: r.Total}
	for _, rv := range r.Revisit {
		d.Revisit = append(d.Revisit, rv.Concept)
	}
	p.S.DrillDone(d)
}

// Notice is a problem with the stored progress, once.
func (p Progress) Notice() string { return p.S.Notice() }

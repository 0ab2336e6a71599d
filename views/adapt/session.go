// Package adapt connects the lessons to the terminal views: it implements
// model.Session on top of lessons.Player and turns the engine's world into
// the plain view-model values of model.Frame.
//
// It is the only package that knows both sides. The views never import the
// engine or the lessons, and the lessons never import the views; main.go
// hands adapt.Lessons and adapt.Open to the app.
//
// Frame is called on every keypress, and a world may hold a very long
// history, so nothing here is proportional to the whole history on a
// keypress: a frame is built once per position and cached, and every list
// it shows (events, log rows, arrows, records) is bounded to its most
// recent entries.
package adapt

import (
	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/views/model"
)

// Lessons lists the built-in lessons for the home screen.
func Lessons() []model.LessonInfo {
	var out []model.LessonInfo
	for _, m := range lessons.All() {
		out = append(out, model.LessonInfo{Name: m.Name, Title: m.Title, Summary: m.Summary, Level: m.Level, Steps: m.Steps, Minutes: m.Minutes})
	}
	return out
}

// Open starts the built-in lesson with the given name.
func Open(name string) (model.Session, error) {
	l, err := lessons.Load(name)
	if err != nil {
		return nil, err
	}
	return New(l), nil
}

// Session plays one lesson for the views.
type Session struct {
	p    *lessons.Player
	hist history
	// frames holds the frames of recently shown positions without their
	// checkpoints, which are rebuilt on each call because answering
	// changes them. A position's frame never changes (its world is a
	// read-only snapshot), so going back and forth costs a map lookup.
	frames map[int]model.Frame
	// lastKey is the Key of the last frame built; each build takes the
	// next, so a Key names one built frame.
	lastKey uint64
	// events holds the recent events as the frames carry them (trail).
	events trail
	// rows caches the unchanging part of recent log rows of each
	// partition, and writes the texts of recent records of each
	// __transaction_state partition, both checked against the entry.
	rows map[engine.TP]*ring[rowStatic]
	// windows holds each partition's rows as the last frame built showed
	// them, which the next position's frame starts from (logRows).
	windows map[engine.TP]*rowWindow
	// next is allRows' list of deciding markers, its array kept.
	next deciders
	// cost is how far countsCost has read the lesson.
	cost   costScan
	writes map[int32]*ring[writeStatic]
}

// maxFrames bounds the frame cache. A frame of a long history holds a few
// hundred kilobytes; a lesson has a few dozen steps at most.
const maxFrames = 64

var (
	_ model.Session       = (*Session)(nil)
	_ model.KafkaSwitcher = (*Session)(nil)
)

// New starts a session on a parsed lesson, for example one read from a file.
func New(l *lessons.Lesson) *Session { return onPlayer(lessons.NewPlayer(l)) }

// reset points the session at a new player and forgets everything it
// built from the old one. Frame keys go on counting, so a key never names
// two frames.
func (s *Session) reset(p *lessons.Player) {
	s.p, s.hist, s.frames = p, newHistory(), map[int]model.Frame{}
	s.events = trail{}
	s.rows, s.writes = map[engine.TP]*ring[rowStatic]{}, map[int32]*ring[writeStatic]{}
	s.windows = map[engine.TP]*rowWindow{}
}

// Kafka is the Kafka major version the lesson plays under, 3 or 4 (0 for
// a lesson built by hand without one).
func (s *Session) Kafka() int { return s.p.Lesson().Kafka }

// SwitchKafka restarts the lesson under Kafka k and replays it to the
// step the learner is at. An answer given so far is given again where the
// new version asks the same question (same question and choices), also
// the answers of steps ahead that the learner went back from; the replay
// stops at the first question it cannot answer so, which the learner
// then answers afresh. A lesson without a reading for k stays as it is.
func (s *Session) SwitchKafka(k int) model.Switched {
	old := s.p
	from := old.Pos()
	l := old.Lesson().ForKafka(k)
	if l == old.Lesson() {
		return model.Switched{Kafka: l.Kafka, From: from, Pos: from}
	}
	// The replay goes as far as the learner answered, then back.
	to := from
	for j := from + 1; j <= old.Len(); j++ {
		if old.Chosen(j) > 0 {
			to = j
		}
	}
	np := lessons.NewPlayer(l)
	sw := model.Switched{Kafka: l.Kafka, From: from}
	for {
		pos := np.Pos()
		if cp := np.Checkpoint(); cp != nil {
			c := old.Chosen(pos)
			if c == 0 {
				break // not answered yet: the learner has not got past it
			}
			if !sameQuestion(old.StepAt(pos).Ask, cp) {
				if pos <= from {
					sw.Asked = pos
				}
				break
			}
			np.Answer(c)
			if pos <= from {
				sw.Kept++
				if right := np.Correct(pos) == c; (old.Correct(pos) == c) != right {
					if len(sw.Flipped) == 0 {
						sw.NowRight = right
					}
					sw.Flipped = append(sw.Flipped, pos)
				}
			}
		}
		if pos >= to || !np.Next() {
			break
		}
	}
	for np.Pos() > from {
		np.Back()
	}
	sw.Pos = np.Pos()
	s.reset(np)
	return sw
}

// sameQuestion reports whether two checkpoints ask the same question with
// the same choices, in the same order: then an answer to one answers the
// other.
func sameQuestion(a, b *lessons.Checkpoint) bool {
	if a == nil || b == nil || a.Question != b.Question || len(a.Choices) != len(b.Choices) {
		return false
	}
	for i := range a.Choices {
		if a.Choices[i].Text != b.Choices[i].Text {
			return false
		}
	}
	return true
}

// onPlayer is a session on a player, which may have moved already.
func onPlayer(p *lessons.Player) *Session {
	s := &Session{}
	s.reset(p)
	return s
}

// Player is the lesson player underneath, for tests and tools.
func (s *Session) Player() *lessons.Player { return s.p }

// Title is the lesson's title.
func (s *Session) Title() string { return s.p.Title() }

// Len is the number of steps.
func (s *Session) Len() int { return s.p.Len() }

// Pos is the current step, 0..Len.
func (s *Session) Pos() int { return s.p.Pos() }

// Next runs the next step; false at the end or before an unanswered
// checkpoint.
func (s *Session) Next() bool { return s.p.Next() }

// Back goes back one step; false at 0.
func (s *Session) Back() bool { return s.p.Back() }

// Restart goes back to step 0 and forgets the answers.
func (s *Session) Restart() { s.p.Restart() }

// Answer answers the current checkpoint with choice 1..len(Choices).
func (s *Session) Answer(choice int) (correct, ok bool) { return s.p.Answer(choice) }

// Frame is everything to draw at the current position.
func (s *Session) Frame() model.Frame {
	pos := s.p.Pos()
	f, ok := s.frames[pos]
	if !ok {
		if len(s.frames) >= maxFrames {
			s.evictFarthest(pos)
		}
		f = s.build(pos)
		s.lastKey++
		f.Key = s.lastKey
		s.frames[pos] = f
	}
	f.Checkpoint = s.checkpoint(pos)
	return f
}

// evictFarthest drops the cached frame farthest from pos: the learner
// moves a step at a time, so it is the one least likely to be needed.
func (s *Session) evictFarthest(pos int) {
	far, dist := -1, -1
	for k := range s.frames {
		if d := max(k-pos, pos-k); d > dist || (d == dist && k < far) {
			far, dist = k, d
		}
	}
	delete(s.frames, far)
}

// checkpoint is the current step's question. The right choice and the
// explanation are filled in only once the learner has answered.
func (s *Session) checkpoint(pos int) *model.Checkpoint {
	st := s.p.StepAt(pos)
	if st == nil || st.Ask == nil {
		return nil
	}
	cp := &model.Checkpoint{Question: st.Ask.Question}
	for _, c := range st.Ask.Choices {
		cp.Choices = append(cp.Choices, c.Text)
	}
	if chosen := s.p.Chosen(pos); chosen > 0 {
		cp.Answered, cp.Chosen = true, chosen
		cp.Correct = s.p.Correct(pos)
		cp.Explanation = st.Ask.Explain
	}
	return cp
}

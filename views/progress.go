package views

import "github.com/eoslab/eoslab/views/theme"

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

// withPlaces fills the list's marks from the kept progress.
func withPlaces(list []LessonInfo, p Progress) []LessonInfo {
	if p == nil {
		return list
	}
	out := make([]LessonInfo, len(list))
	for i, li := range list {
		pl := p.Place(li.Name)
		li.Finished = li.Finished || pl.Finished
		li.At = pl.At
		if li.Steps > 0 {
			// A file may say more steps than the lesson has now (it
			// changed, or the file was edited): the end, as
			// eoslab progress says it.
			li.At = min(li.At, li.Steps)
		}
		out[i] = li
	}
	return out
}

// resume takes a session opened afresh to the place kept for it, under
// the version it was played under unless the learner asked for one, answering
// its checkpoints on the way with the answers kept. It stops early where an
// answer is missing (the lesson changed since): the learner answers there.
// A lesson left at its end opens at its start.
func resume(s Session, pl Place, asked int) {
	if pl.At <= 0 || pl.At >= s.Len() {
		return
	}
	if asked == 0 {
		switchKafka(s, pl.Kafka)
	}
	for s.Pos() < pl.At {
		if s.Next() {
			continue
		}
		c := pl.Answers[s.Pos()]
		if c == 0 {
			return
		}
		if _, ok := s.Answer(c); !ok {
			return
		}
	}
}

// switchKafka puts a session that can switch under Kafka k (3 or 4); 0,
// or the version it plays already, leaves it as it is.
func switchKafka(s Session, k int) {
	if sw, ok := s.(KafkaSwitcher); ok && k != 0 && s.Frame().Kafka != k {
		sw.SwitchKafka(k)
	}
}

// trackProgress tells the progress where the learner is after a message:
// the step they are at, and whatever the store has to report.
func (a *App) trackProgress() {
	p := a.opts.Progress
	if p == nil {
		return
	}
	if a.screen == screenPlayer && a.sess != nil && a.name != "" {
		pos, n, k := a.sess.Pos(), a.sess.Len(), a.frame.Kafka
		if a.saved.name != a.name || a.saved.pos != pos || a.saved.kafka != k {
			a.saved.name, a.saved.pos, a.saved.kafka = a.name, pos, k
			p.Reached(a.name, pos, n, k)
			a.home.SetPlace(a.name, pos, n)
		}
	}
	if msg := oneLine(p.Notice()); msg != "" {
		if a.screen == screenPlayer {
			a.say(theme.Open, msg)
		} else {
			a.home.SetStatus(msg)
		}
	}
	if last := p.Last(); last != "" {
		a.home.SetContinue(last, p.Place(last))
	}
}

// Package demo holds hand-written lessons with realistic data, played by a
// scripted Session. The views' tests use it, and so can anyone who wants to
// look at the UI without running a simulation. Its frames are written by
// hand after Kafka's behaviour; they are not computed by one.
//
// It imports views for the view-model types, and engine only
// for the Kafka names it shows (states, error codes), which are defined once
// there: it never runs the simulation.
package demo

import (
	"errors"
	"fmt"

	"github.com/eoslab/eoslab/views/model"
)

// script is a lesson as precomputed frames: frames[i] is the frame at
// position i, and checkpoints are keyed by the position that asks them.
type script struct {
	title  string
	frames []model.Frame
	cps    map[int]model.Checkpoint
}

// Session plays a script. Back is free because every frame is kept, which
// is the same contract as the engine's snapshots.
type Session struct {
	s       *script
	pos     int
	answers map[int]int
}

var _ model.Session = (*Session)(nil)

func newSession(s *script) *Session { return &Session{s: s, answers: map[int]int{}} }

// Title implements model.Session.
func (s *Session) Title() string { return s.s.title }

// Len implements model.Session.
func (s *Session) Len() int { return len(s.s.frames) - 1 }

// Pos implements model.Session.
func (s *Session) Pos() int { return s.pos }

func (s *Session) unanswered() bool {
	_, has := s.s.cps[s.pos]
	_, done := s.answers[s.pos]
	return has && !done
}

// Next implements model.Session.
func (s *Session) Next() bool {
	if s.pos >= s.Len() || s.unanswered() {
		return false
	}
	s.pos++
	return true
}

// Back implements model.Session.
func (s *Session) Back() bool {
	if s.pos == 0 {
		return false
	}
	s.pos--
	return true
}

// Restart implements model.Session. Answers are forgotten too.
func (s *Session) Restart() {
	s.pos = 0
	s.answers = map[int]int{}
}

// Answer implements model.Session.
func (s *Session) Answer(choice int) (bool, bool) {
	cp, ok := s.s.cps[s.pos]
	if !ok || !s.unanswered() || choice < 1 || choice > len(cp.Choices) {
		return false, false
	}
	s.answers[s.pos] = choice
	return choice == cp.Correct, true
}

// Frame implements model.Session. The right answer is filled in only after
// the learner has answered.
func (s *Session) Frame() model.Frame {
	f := s.s.frames[s.pos]
	// Every position has its own frame, which never changes.
	f.Key = uint64(s.pos) + 1
	if cp, ok := s.s.cps[s.pos]; ok {
		c := cp
		if a, done := s.answers[s.pos]; done {
			c.Answered, c.Chosen = true, a
		} else {
			c.Correct, c.Explanation = 0, ""
		}
		f.Checkpoint = &c
	}
	return f
}

// Lessons lists the demo lessons, as the home screen shows them.
func Lessons() []model.LessonInfo {
	return []model.LessonInfo{
		{Name: "idempotence-off", Title: "A lost ACK without idempotence", Summary: "why retries duplicate records when enable.idempotence=false", Level: "basics", Minutes: 6, Steps: len(idempotenceOff().frames) - 1, Finished: true},
		{Name: "transactions", Title: "Transactions: commit, markers and a zombie", Summary: "InitProducerId, AddPartitionsToTxn, EndTxn, markers, LSO and fencing", Level: "transactions", Minutes: 12, Steps: len(transactions().frames) - 1},
		{Name: "consume-transform-produce", Title: "Consume, transform, produce", Summary: "TxnOffsetCommit and the consumer group inside the transaction", Level: "systems", Minutes: 15, Steps: 16},
	}
}

// ErrNotInDemo is returned for lessons the demo lists but does not script.
var ErrNotInDemo = errors.New("this lesson is not part of the demo")

// Open starts a demo lesson by name.
func Open(name string) (model.Session, error) {
	switch name {
	case "transactions":
		return newSession(transactions()), nil
	case "idempotence-off":
		return newSession(idempotenceOff()), nil
	case "consume-transform-produce":
		return nil, fmt.Errorf("%s: %w", name, ErrNotInDemo)
	}
	return nil, fmt.Errorf("unknown lesson %q", name)
}

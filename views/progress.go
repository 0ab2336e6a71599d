package views

import (
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// withPlaces fills the list's marks from the kept progress.
func withPlaces(list []model.LessonInfo, p model.Progress) []model.LessonInfo {
	if p == nil {
		return list
	}
	out := make([]model.LessonInfo, len(list))
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
func resume(s model.Session, pl model.Place, asked int) {
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
func switchKafka(s model.Session, k int) {
	if sw, ok := s.(model.KafkaSwitcher); ok && k != 0 && s.Frame().Kafka != k {
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
	s, name := a.player.Session(), a.player.Name()
	if a.screen == screenPlayer && s != nil && name != "" {
		pos, n, k := s.Pos(), s.Len(), a.player.Kafka()
		if a.saved.name != name || a.saved.pos != pos || a.saved.kafka != k {
			a.saved.name, a.saved.pos, a.saved.kafka = name, pos, k
			p.Reached(name, pos, n, k)
			a.home.SetPlace(name, pos, n)
		}
	}
	if msg := oneLine(p.Notice()); msg != "" {
		if a.screen == screenPlayer {
			a.player.Say(theme.Open, msg)
		} else {
			a.home.SetStatus(msg)
		}
	}
	if last := p.Last(); last != "" {
		a.home.SetContinue(last, p.Place(last))
	}
}

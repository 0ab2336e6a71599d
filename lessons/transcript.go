package lessons

import (
	"strconv"
	"strings"
)

// Transcript plays a lesson headless, as `eoslab run --lesson NAME` prints
// it: the title, then for the setup and each step its narration, every event
// in the engine's canonical line form, the checkpoint with its choices and
// right answer, and the note. Problems are printed as ERROR lines where they
// happen, so the transcript is never silently incomplete, and returned as
// the error, which is what Check would report (nil for a sound lesson).
func Transcript(l *Lesson) (string, error) {
	p := NewPlayer(l)
	var b strings.Builder
	line := func(s string) { b.WriteString(s); b.WriteByte('\n') }
	para := func(s string) {
		if s != "" {
			line(s)
			line("")
		}
	}
	line("# " + l.Title)
	line(l.Summary)
	line("level: " + l.Level + ", " + strconv.Itoa(len(l.Steps)) + " steps")
	if l.Kafka != 0 {
		line("kafka: " + strconv.Itoa(l.Kafka) + ".x, transaction.version=" + strconv.Itoa(TransactionVersion(l.Kafka)))
	}
	line("")
	para(l.Intro)
	prevEvents := 0
	for k := 0; k <= len(l.Steps); k++ {
		w := p.WorldAt(k)
		if k == 0 {
			line("== setup")
		} else {
			s := &l.Steps[k-1]
			line("")
			line("== step " + strconv.Itoa(k) + "/" + strconv.Itoa(len(l.Steps)) + ": " + s.Title)
			line("")
			para(s.Say)
		}
		for _, e := range w.EventsSince(prevEvents) {
			line(e.Line())
		}
		prevEvents = w.EventCount()
		for _, e := range p.ProblemsAt(k) {
			line("ERROR " + e.Error())
		}
		s := p.StepAt(k)
		if s == nil {
			continue
		}
		if cp := s.Ask; cp != nil {
			line("")
			line("? " + cp.Question)
			for i, c := range cp.Choices {
				line("  " + strconv.Itoa(i+1) + ") " + c.Text)
			}
			if right := p.Correct(k); right > 0 {
				line("answer: " + strconv.Itoa(right) + ") " + cp.Choices[right-1].Text)
			} else {
				line("answer: none of the choices holds")
			}
			line(cp.Explain)
		}
		if s.More != "" {
			line("")
			line("More: " + s.More)
		}
		if s.Source != "" {
			line("")
			line("In Kafka: " + s.Source)
		}
		if s.Note != "" {
			line("")
			line("Kafka vs the article: " + s.Note)
		}
		if s.Versions != "" {
			line("")
			line("Kafka 3 and Kafka 4: " + s.Versions)
		}
	}
	return b.String(), p.validate()
}

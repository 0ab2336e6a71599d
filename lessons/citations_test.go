package lessons

import (
	"regexp"
	"strings"
	"testing"
)

// docCitation is a citation of a section number or a decision-table row
// of a document the project does not ship: what a learner
// reads cites a Kafka class and method, a KIP or a JIRA instead.
var docCitation = regexp.MustCompile(`\[(ref|row)\b|\b(ref|row) [0-9]`)

// TestLessonsCiteNoDocument plays every lesson and fails on such a
// citation in its transcript (narration, events, checkpoints, notes) or in
// any event's rule words, which the player shows as the why.
func TestLessonsCiteNoDocument(t *testing.T) {
	for _, m := range All() {
		l, err := Load(m.Name)
		if err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		tr, err := Transcript(l)
		if err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		for n, line := range strings.Split(tr, "\n") {
			if docCitation.MatchString(line) {
				t.Errorf("%s: transcript line %d cites a document section: %s", m.Name, n+1, line)
			}
		}
		w := NewPlayer(l).WorldAt(len(l.Steps))
		for i := 0; i < w.EventCount(); i++ {
			e := w.EventAt(i)
			if s := e.RuleWords(); docCitation.MatchString(s) {
				t.Errorf("%s: event %d's rule words cite a document section: %s", m.Name, i, s)
			}
		}
	}
}

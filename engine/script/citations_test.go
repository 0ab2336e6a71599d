package script

import (
	"regexp"
	"strings"
	"testing"
)

// docCitation is a citation of a section number or a decision-table row
// of a document the project does not ship: what a user
// reads cites a Kafka class and method, a KIP or a JIRA instead.
var docCitation = regexp.MustCompile(`\[(ref|row)\b|\b(ref|row) [0-9]`)

// TestNoDocumentCitations plays every scenario and fails on such a
// citation in any event's line, rule or rule words.
func TestNoDocumentCitations(t *testing.T) {
	for _, f := range scenarioFiles(t) {
		cmds, err := Parse(f.path, f.src)
		if err != nil {
			t.Fatalf("%v", err)
		}
		r := NewRunner()
		var b strings.Builder
		if err := r.Play(cmds, func(s Outcome) error { WriteTranscript(&b, s); return nil }); err != nil {
			t.Fatalf("%s: %v", f.path, err)
		}
		for i := 0; i < r.World.EventCount(); i++ {
			e := r.World.EventAt(i)
			for _, s := range []string{e.Line(), e.RuleWords()} {
				if docCitation.MatchString(s) {
					t.Errorf("%s: event %d cites a document section: %s", f.path, i, s)
				}
			}
		}
		for n, line := range strings.Split(b.String(), "\n") {
			if docCitation.MatchString(line) {
				t.Errorf("%s: transcript line %d cites a document section: %s", f.name, n+1, line)
			}
		}
	}
}

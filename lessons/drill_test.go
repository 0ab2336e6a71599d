package lessons

import (
	"strings"
	"testing"
)

// Every drill question plays as written: its checkpoint has exactly one
// right choice, which the next step makes true, and it names a lesson
// that exists.
func TestDrillQuestionsPlay(t *testing.T) {
	pool, err := DrillPool()
	if err != nil {
		t.Fatal(err)
	}
	written := 0
	for _, q := range pool {
		if q.Source.File == "" || strings.HasPrefix(q.Source.File, "content/drill/") {
			written++
			if err := q.Source.Check(); err != nil {
				t.Errorf("%s:\n%v", q.ID, err)
			}
		}
		if _, err := find(q.Lesson); err != nil {
			t.Errorf("%s: %v", q.ID, err)
		}
		if q.Checkpoint() == nil {
			t.Errorf("%s: no checkpoint at step %d", q.ID, q.Step)
		}
	}
	if written < 8 {
		t.Errorf("%d questions written for the drill; want at least 8", written)
	}
}

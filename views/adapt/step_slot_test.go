package adapt

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/views"
)

// TestStepViewBesideTheTimeline: where the Timeline is drawn beside the
// Partitions on fewer than 30 rows (160x24, 200x24), a step that names
// its subjects shows them ("This step") in the Partitions' slot, and the
// Timeline stays in its own, on the left: the messages beside the state
// they made. On every such step of the abort and two-phase-commit
// lessons.
func TestStepViewBesideTheTimeline(t *testing.T) {
	for _, size := range [][2]int{{160, 24}, {200, 24}} {
		for _, lesson := range []string{"abort", "two-phase-commit"} {
			p := openPlayer(t, lesson, size[0], size[1], views.Options{NoColor: true})
			s := p.session()
			seen := 0
			for {
				if len(s.Frame().Show) > 0 {
					seen++
					title := strings.Split(ansi.Strip(p.m.View()), "\n")[1]
					tl, step := strings.Index(title, "Timeline"), strings.Index(title, "[This step]")
					if tl < 0 || step < 0 || tl > step {
						t.Errorf("%s %dx%d step %d: the slots' titles %q; want the Timeline, then This step",
							lesson, size[0], size[1], s.Pos(), title)
					}
				}
				if s.Pos() == s.Len() {
					break
				}
				p.to(s.Pos() + 1)
			}
			if seen == 0 {
				t.Fatalf("%s: no step names its subjects", lesson)
			}
		}
	}
}

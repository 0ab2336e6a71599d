package adapt

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/views"
)

// A record value the step's text names counts as a row the step is
// about in "This step": the zombie's step 9 asks whether C reads "a1 and
// b1"; its frame marks a1's row named (before and after the answer, at
// 80x24 and 60x20), and at 80x24, where t-0 gets three rows, a1 and b1
// are on screen (a1 was left out for the LSO line). With fewer rows (the
// answer's explanation open, or 60x20) the rows the step changed keep
// their place.
func TestStepShowsWhatItsTextNames(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {60, 20}} {
		p := openPlayer(t, "zombie", sz[0], sz[1], views.Options{NoColor: true})
		p.to(9)
		for _, answered := range []bool{false, true} {
			if answered {
				p.answer(true)
			}
			f := p.session().Frame()
			named := false
			for _, pv := range f.Partitions {
				for _, r := range pv.Rows {
					named = named || (r.Named && len(r.Values) == 1 && r.Values[0] == "a1")
				}
			}
			if !named {
				t.Fatalf("step 9's frame does not mark a1's row as named")
			}
			screen := ansi.Strip(p.m.View())
			top := strings.Split(screen, "Lesson")[0] // the slot above the lesson pane
			a1, b1 := strings.Contains(top, " a1 "), strings.Contains(top, " b1 ")
			if sz[0] == 80 && !answered && !(a1 && b1) {
				t.Errorf("%dx%d answered %v: This step shows a1 %v, b1 %v:\n%s", sz[0], sz[1], answered, a1, b1, screen)
			}
		}
	}
}

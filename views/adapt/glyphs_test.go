package adapt

import (
	"sort"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/views"
)

// borders are the cells of pane borders, which the help does not need to
// explain.
const borders = "╭╮╰╯─│┏┓┗┛━┃"

// TestHelpListsEveryGlyph plays five lessons at 80x24 and 160x48, looking
// at every panel at every step, and fails when a symbol drawn on screen
// (any non-ASCII cell but a border's) is not in the help.
func TestHelpListsEveryGlyph(t *testing.T) {
	t.Parallel()
	drawn := map[rune]string{}
	var help string
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		for _, name := range []string{"lost-ack", "abort", "zombie", "two-phase-commit", "capstone-payments"} {
			p := openPlayer(t, name, size[0], size[1], views.Options{})
			s := p.session()
			note := func(where string) {
				for _, r := range ansi.Strip(p.m.View()) {
					if r > 127 && !strings.ContainsRune(borders, r) {
						if _, ok := drawn[r]; !ok {
							drawn[r] = where
						}
					}
				}
			}
			for pos := 0; pos <= s.Len(); pos++ {
				if pos > 0 {
					p.to(pos)
				}
				where := name + " step " + itoa(pos)
				note(where)
				for range 7 {
					p.press("tab")
					note(where + " after tab")
				}
				p.press("esc")
			}
			p.press("?")
			for range 40 {
				help += ansi.Strip(p.m.View())
				p.press("pgdown")
			}
		}
	}
	var missing []string
	for r, where := range drawn {
		if !strings.ContainsRune(help, r) {
			missing = append(missing, string(r)+" (first drawn at "+where+")")
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("drawn but not in the help:\n%s", strings.Join(missing, "\n"))
	}
}

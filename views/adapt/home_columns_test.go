package adapt

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/lessons/progress"
	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/internal/viewtest"
	"github.com/eoslab/eoslab/views/model"
)

// TestHomeMinutesAndEntries: with a lesson left part way (its row says at
// which step), every lesson's minutes end in the same column, and the
// entries (continue, the drill, the sandbox, the challenges) are on
// screen whole with their keys, as is every key of the help bar, at
// 80x24, 60x20 and 200x60, with and without colour.
func TestHomeMinutesAndEntries(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {60, 20}, {200, 60}} {
		for _, noColor := range []bool{false, true} {
			st := progress.Open(progress.Options{Dir: t.TempDir()})
			defer st.Close()
			o := views.Options{NoColor: noColor, Progress: Progress{S: st},
				OpenSandbox: func(name string) (model.SandboxSession, error) { return OpenSandbox(name) },
				NewDrill:    func(kafka int) (model.Drill, error) { return NewDrillFor(7, 5, kafka) }}
			// The second lesson, left at step 2.
			p := openPlayer(t, "lost-ack", size[0], size[1], o)
			p.to(2)
			p.press("esc", "esc")
			m := views.WithChallenges(p.m, Challenges(st))
			m, _ = m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			where := func() string { return itoa(size[0]) + "x" + itoa(size[1]) }
			screen := ansi.Strip(m.View())
			lines := strings.Split(screen, "\n")
			if !strings.Contains(screen, "at step 2 of") {
				t.Fatalf("%s: no lesson left at step 2:\n%s", where(), screen)
			}
			col, rows := -1, 0
			for _, l := range lines {
				i := strings.Index(l, " min")
				if i < 0 {
					continue
				}
				end := len([]rune(l[:i])) + 4
				rows++
				if col < 0 {
					col = end
				} else if end != col {
					t.Errorf("%s color=%v: the minutes end in column %d here, %d above:\n%s", where(), !noColor, end, col, screen)
					break
				}
			}
			if rows < 4 {
				t.Errorf("%s: %d rows with minutes:\n%s", where(), rows, screen)
			}
			head := strings.Join(lines[1:3], "\n")
			for _, e := range []string{"c continue The lost ACK at step 2 of", "i interview drill", "s sandbox", "C challenges"} {
				if !strings.Contains(head, e) {
					t.Errorf("%s: the entries lack %q:\n%s", where(), e, head)
				}
			}
			bar := lines[len(lines)-1]
			if strings.Contains(bar, "…") || !strings.Contains(bar, "q quit") {
				t.Errorf("%s: the help bar is cut: %q", where(), bar)
			}
			m, _ = m.Update(viewtest.Key("C"))
			if v := ansi.Strip(m.View()); !strings.Contains(v, "Challenges") || strings.Contains(v, "  Lessons") {
				t.Errorf("%s: C did not open the challenges:\n%s", where(), v)
			}
		}
	}
}

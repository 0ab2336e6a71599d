package adapt

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/internal/gcpace"
	"github.com/eoslab/eoslab/views/model"
)

// jumpSteps is how many one-transaction steps jumpLesson has after its
// history: with the history step, the most steps a lesson may have.
const jumpSteps = 999

// jumpLesson has a first step that leaves a long history (rounds rounds,
// as historyLesson: 2,600 leave over 100,000 engine events) and then
// jumpSteps steps of one transaction each, within the lesson limits on
// steps and commands.
func jumpLesson(tb testing.TB, rounds int) *lessons.Lesson {
	var b strings.Builder
	b.WriteString("title: Jumps\nsummary: a long lesson\nlevel: systems\nminutes: 5\nsetup:\n  topic t partitions=2\n  producer A\n  producer T transactional.id=big\n  consumer C isolation.level=read_committed\n")
	b.WriteString("step: history\n  say: history\n  do: T initTransactions\n  do: run\n")
	for i := 0; i < rounds; i++ {
		fmt.Fprintf(&b, "  do: T beginTransaction\n  do: T send t-0 a%d\n  do: T send t-1 b%d\n  do: T commitTransaction\n  do: A send t-0 p%d\n  do: run\n", i, i, i)
		if i%50 == 0 {
			b.WriteString("  do: C poll\n  do: run\n")
		}
	}
	for i := 0; i < jumpSteps; i++ {
		fmt.Fprintf(&b, "step: one more %d\n  say: one more\n  do: T beginTransaction\n  do: T send t-%d s%d\n  do: T commitTransaction\n  do: run\n", i, i%2, i)
	}
	l, err := lessons.Parse("jumps.lesson", []byte(b.String()))
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

// BenchmarkJump measures one jump key of the player at 200x60 over the
// whole of a played 1,000-step lesson: from its last step to its start
// ("back") and from its start to the end ("forward"), all steps having been
// shown once before (jumping over steps never shown also runs them, which
// is the engine's work, not the jump's). It times Update, which moves the
// lesson and builds the frame of the new position (the session's frames are
// forgotten first, so it is built from the world, not found) and every
// panel's content, then View, which draws the screen. The world at the end
// holds over 100,000 events (and an eighth of that, to show the cost does
// not grow with the history), drawn in truecolor and in 256 colours.
func BenchmarkJump(b *testing.B) {
	// The collector's pace of the TUI (tuirun.Run sets it).
	defer gcpace.Set()()
	first, last := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'<'}}, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'>'}}
	for _, size := range benchSizes {
		s := New(jumpLesson(b, size.rounds))
		// Every step computed and shown once before timing, as a learner
		// who played the lesson has seen it.
		for s.Next() {
			_ = s.Frame()
		}
		if n := s.p.World().EventCount(); n < size.events {
			b.Fatalf("only %d events", n)
		}
		for _, pr := range benchProfiles[:2] {
			for _, c := range []struct {
				name     string
				from, to tea.KeyMsg
				at       int // where the timed key lands
			}{
				{"back", last, first, 0},
				{"forward", first, last, jumpSteps + 1},
			} {
				b.Run(size.name+"/"+pr.name+"/"+c.name, func(b *testing.B) {
					lipgloss.SetColorProfile(pr.profile)
					defer lipgloss.SetColorProfile(termenv.Ascii)
					open := func(string) (model.Session, error) { return s, nil }
					var m tea.Model = views.NewApp(nil, open, views.Options{StartLesson: "jumps"})
					m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
					b.ReportAllocs()
					b.ResetTimer()
					var cpu time.Duration
					for i := 0; i < b.N; i++ {
						b.StopTimer()
						m, _ = m.Update(c.from)
						_ = m.View()
						s.forgetFrames()
						b.StartTimer()
						cpu0 := cpuTime()
						m, _ = m.Update(c.to)
						_ = m.View()
						cpu += cpuTime() - cpu0
						b.StopTimer()
						if s.Pos() != c.at {
							b.Fatalf("the jump landed at %d, want %d", s.Pos(), c.at)
						}
						b.StartTimer()
					}
					b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-us/op")
				})
			}
		}
	}
}

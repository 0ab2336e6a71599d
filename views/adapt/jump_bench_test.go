package adapt

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/views"
)

// jumpLesson has a first step that leaves a long history (2,600
// transactions, over 100,000 engine events, as bigLesson) and then 1,000
// steps of one transaction each.
func jumpLesson(tb testing.TB) *lessons.Lesson {
	var b strings.Builder
	b.WriteString("title: Jumps\nsummary: a long lesson\nlevel: systems\nminutes: 5\nsetup:\n  topic t partitions=2\n  producer A\n  producer T transactional.id=big\n  consumer C isolation.level=read_committed\n")
	b.WriteString("step: history\n  say: history\n  do: T initTransactions\n  do: run\n")
	for i := 0; i < 2600; i++ {
		fmt.Fprintf(&b, "  do: T beginTransaction\n  do: T send t-0 a%d\n  do: T send t-1 b%d\n  do: T commitTransaction\n  do: A send t-0 p%d\n  do: run\n", i, i, i)
		if i%50 == 0 {
			b.WriteString("  do: C poll\n  do: run\n")
		}
	}
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&b, "step: one more %d\n  say: one more\n  do: T beginTransaction\n  do: T send t-%d s%d\n  do: T commitTransaction\n  do: run\n  do: C poll\n  do: run\n", i, i%2, i)
	}
	l, err := lessons.Parse("jumps.lesson", []byte(b.String()))
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

// BenchmarkJump1000 measures the work of one jump key of the player at
// 200x60, from the last step of a played 1,001-step lesson to its start
// ("back", 1,001 steps) and from the start to the end ("forward"), all
// steps having been shown once before (jumping over steps never shown
// also runs them, which is the engine's work, not the jump's): Update,
// which moves the lesson and builds the frame of the new position (the
// frame cache is emptied first, so it is built from the world, not found)
// and every panel's content, then View, which draws the screen. The target
// is one frame at 60 Hz, 16 ms, whatever the distance. The world at the end
// holds over 100,000 events.
func BenchmarkJump1000(b *testing.B) {
	l := jumpLesson(b)
	for _, c := range []struct {
		name     string
		from, to tea.KeyMsg
		at       int // where the timed key lands
	}{
		{"back", tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'>'}}, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'<'}}, 0},
		{"forward", tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'<'}}, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'>'}}, 1001},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := New(l)
			open := func(string) (views.Session, error) { return s, nil }
			var m tea.Model = views.NewApp(nil, open, views.Options{StartLesson: "jumps"})
			m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
			// Every step computed and shown once before timing, as a
			// learner who played the lesson has seen it.
			for s.Next() {
				_ = s.Frame()
			}
			if n := s.p.World().EventCount(); n < 100000 {
				b.Fatalf("only %d events", n)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				m, _ = m.Update(c.from)
				_ = m.View()
				clear(s.frames)
				b.StartTimer()
				m, _ = m.Update(c.to)
				_ = m.View()
				b.StopTimer()
				if s.Pos() != c.at {
					b.Fatalf("the jump landed at %d, want %d", s.Pos(), c.at)
				}
				b.StartTimer()
			}
		})
	}
}

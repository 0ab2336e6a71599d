package adapt

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/eoslab/eoslab/views"
)

// BenchmarkKeystrokeEngine100k measures one keystroke of the real player
// (Update, which runs or undoes a lesson step and rebuilds the panels, then
// View) at 200x60, on a session whose world holds over 100,000 engine
// events. Right and left alternate between positions 2 and 3, so every
// press moves the lesson and redraws.
//
// "revisit" is stepping back and forth over steps already shown, which is
// what the learner does most: the frame and what was drawn for it come
// from the caches. "first-visit" forgets the frames before every press, as
// when a step is shown for the first time: the frame is built from the
// world and every panel drawn afresh (the engine's own work to run the
// step is not included; the player keeps each world once computed).
// "truecolor" draws with colour, as a real terminal does; the others with
// the ASCII profile of the goldens.
func BenchmarkKeystrokeEngine100k(b *testing.B) {
	l := bigLesson(b)
	for _, c := range []struct {
		name      string
		firstTime bool
		profile   termenv.Profile
	}{
		{"revisit", false, termenv.Ascii},
		{"revisit-truecolor", false, termenv.TrueColor},
		{"first-visit", true, termenv.Ascii},
		{"first-visit-truecolor", true, termenv.TrueColor},
	} {
		b.Run(c.name, func(b *testing.B) {
			// The theme works out its escape codes when the app is made.
			lipgloss.SetColorProfile(c.profile)
			defer lipgloss.SetColorProfile(termenv.Ascii)
			s := New(l)
			open := func(string) (views.Session, error) { return s, nil }
			var m tea.Model = views.NewApp(nil, open, views.Options{StartLesson: "big"})
			m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
			right, left := tea.KeyMsg{Type: tea.KeyRight}, tea.KeyMsg{Type: tea.KeyLeft}
			for s.Pos() < 3 {
				m, _ = m.Update(right)
			}
			m, _ = m.Update(left)
			if n := s.p.World().EventCount(); n < 100000 {
				b.Fatalf("only %d events", n)
			}
			_ = m.View()
			keys := []tea.KeyMsg{right, left}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if c.firstTime {
					clear(s.frames)
				}
				m, _ = m.Update(keys[i%2])
				_ = m.View()
			}
			b.StopTimer()
			if p := s.Pos(); p != 2 && p != 3 {
				b.Fatalf("ended at position %d", p)
			}
		})
	}
}

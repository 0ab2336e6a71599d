package adapt

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/internal/gcpace"
	"github.com/eoslab/eoslab/views/model"
)

// benchProfiles are the colour profiles the keystroke benchmarks draw in:
// a real terminal's truecolor and 256 colours, and the ASCII profile of the
// goldens.
var benchProfiles = []struct {
	name    string
	profile termenv.Profile
}{
	{"truecolor", termenv.TrueColor},
	{"256", termenv.ANSI256},
	{"ascii", termenv.Ascii},
}

// benchSizes are the history sizes the keystroke benchmarks play: 100,000
// engine events and an eighth of that. A keystroke should cost the same at
// both, since a frame shows only the newest entries of each history.
var benchSizes = []struct {
	name   string
	rounds int // rounds of history in the lesson's long step
	events int // at least this many events in the world at its end
}{
	{"events=12.5k", 325, 12500},
	{"events=100k", 2600, 100000},
}

// BenchmarkKeystroke measures one keystroke of the real player (Update,
// which runs or undoes a lesson step and rebuilds the panels, then View,
// which draws the whole screen) at 200x60, on a session whose world holds
// over 100,000 engine events (and an eighth of that, to show the cost does
// not grow with the history). Right and left alternate between positions
// 2 and 3, so every press moves the lesson and redraws.
//
// "revisit" is stepping back and forth over steps already shown, which is
// what the learner does most: the frame and what was drawn for it come
// from the caches. "first-visit" forgets the frames before every press, as
// when a step is shown for the first time: the frame is built from the
// world and every panel drawn afresh (the engine's own work to run the
// step is not included; the player keeps each world once computed).
func BenchmarkKeystroke(b *testing.B) {
	// The collector's pace of the TUI (tuirun.Run sets it).
	defer gcpace.Set()()
	for _, size := range benchSizes {
		l := historyLesson(b, size.rounds)
		s := New(l)
		for _, pr := range benchProfiles {
			for _, c := range []struct {
				name      string
				firstTime bool
			}{{"first-visit", true}, {"revisit", false}} {
				b.Run(size.name+"/"+pr.name+"/"+c.name, func(b *testing.B) {
					benchKeystroke(b, s, pr.profile, c.firstTime, size.events)
				})
			}
		}
	}
}

func benchKeystroke(b *testing.B, s *Session, profile termenv.Profile, firstTime bool, events int) {
	// The theme works out its escape codes when the app is made.
	lipgloss.SetColorProfile(profile)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	open := func(string) (model.Session, error) { return s, nil }
	var m tea.Model = views.NewApp(nil, open, views.Options{StartLesson: "big"})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	right, left := tea.KeyMsg{Type: tea.KeyRight}, tea.KeyMsg{Type: tea.KeyLeft}
	for s.Pos() < 3 {
		m, _ = m.Update(right)
	}
	m, _ = m.Update(left)
	if n := s.p.World().EventCount(); n < events {
		b.Fatalf("only %d events", n)
	}
	_ = m.View()
	keys := []tea.KeyMsg{right, left}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		if firstTime {
			s.forgetFrames()
		}
		m, _ = m.Update(keys[i%2])
		_ = m.View()
	}
	b.StopTimer()
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-us/op")
	if p := s.Pos(); p != 2 && p != 3 {
		b.Fatalf("ended at position %d", p)
	}
}

// forgetFrames drops the frames the session built, so the next Frame is
// built from the world as on a first visit; what the session keeps across
// positions stays, as it does when the learner steps on to a new step.
func (s *Session) forgetFrames() { clear(s.frames) }

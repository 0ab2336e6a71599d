package views

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/model"
)

// twoFrames is a session of two steps, each a long frame with its own Key.
type twoFrames struct {
	pos    int
	frames [3]model.Frame
}

func (s *twoFrames) Title() string           { return "two" }
func (s *twoFrames) Len() int                { return 2 }
func (s *twoFrames) Pos() int                { return s.pos }
func (s *twoFrames) Next() bool              { ok := s.pos < 2; s.pos = min(s.pos+1, 2); return ok }
func (s *twoFrames) Back() bool              { ok := s.pos > 0; s.pos = max(s.pos-1, 0); return ok }
func (s *twoFrames) Restart()                { s.pos = 0 }
func (s *twoFrames) Answer(int) (bool, bool) { return false, false }
func (s *twoFrames) Frame() model.Frame      { return s.frames[s.pos] }

// BenchmarkCaches measures what each of the player's caches saves on a
// step key that goes back and forth between two frames it drew before
// (as BenchmarkKeystroke does, at 200x60, over frames of 1,000 log
// rows, producers and events), by
// switching that cache off: "all" keeps every cache; "no-panel-cache"
// builds every panel's content again (panels.Cache: the content per frame
// Key, and the wrapped texts); "no-pane-drawn" renders every pane's lines
// again (the pane's last renderings); "no-help-memo" renders the help bar
// again. Each must cost more than "all", in time and allocations, or its
// cache goes.
func BenchmarkCaches(b *testing.B) {
	for _, c := range []struct {
		name string
		off  func(a *App)
	}{
		{"all", func(*App) {}},
		{"no-panel-cache", func(a *App) { a.cache = nil }},
		{"no-pane-drawn", func(a *App) {
			for i := range a.panes {
				a.panes[i].Uncached()
			}
			a.overlay.Uncached()
			a.stepPane.Uncached()
		}},
		{"no-help-memo", func(a *App) { a.helpDrawn = nil }},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := &twoFrames{frames: [3]model.Frame{longFrame(1, 1000), longFrame(2, 1000), longFrame(3, 1000)}}
			open := func(string) (model.Session, error) { return s, nil }
			var m tea.Model = NewApp(nil, open, Options{StartLesson: "big"})
			m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
			a := m.(App)
			c.off(&a)
			m = a
			keys := []tea.KeyMsg{{Type: tea.KeyRight}, {Type: tea.KeyLeft}}
			m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRight})
			for i := range 4 {
				m, _ = m.Update(keys[i%2])
				_ = m.View()
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m, _ = m.Update(keys[i%2])
				_ = m.View()
			}
		})
	}
}

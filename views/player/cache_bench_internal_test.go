package player

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/model"
)

// BenchmarkCaches measures what each of the player's caches saves on a
// step key that goes back and forth between two frames it drew before
// (as the root's BenchmarkKeystroke does, at 200x60, over frames of 1,000
// log rows, producers and events), by switching that cache off: "all"
// keeps every cache; "no-panel-cache" builds every panel's content again
// (panels.Cache: the content per frame Key, and the wrapped texts);
// "no-pane-drawn" renders every pane's lines again (the pane's last
// renderings); "no-help-memo" renders the help bar again. Each must cost
// more than "all", in time and allocations, or its cache goes.
func BenchmarkCaches(b *testing.B) {
	for _, c := range []struct {
		name string
		off  func(m *Model)
	}{
		{"all", func(*Model) {}},
		{"no-panel-cache", func(m *Model) { m.panels = m.draw.NewPanels(m.th, false) }},
		{"no-pane-drawn", func(m *Model) {
			for i := range m.panes {
				m.panes[i].Uncached()
			}
			m.overlay.Uncached()
			m.stepPane.Uncached()
		}},
		{"no-help-memo", func(m *Model) { m.helpDrawn = nil }},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := &frames{frames: []model.Frame{longFrame(1, 1000), longFrame(2, 1000), longFrame(3, 1000)}}
			m := newTest(s, 200, 60, Options{})
			c.off(&m)
			keys := []tea.KeyMsg{{Type: tea.KeyRight}, {Type: tea.KeyLeft}}
			m, _, _ = m.Update(tea.KeyMsg{Type: tea.KeyRight})
			for i := range 4 {
				m, _, _ = m.Update(keys[i%2])
				_ = m.View()
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m, _, _ = m.Update(keys[i%2])
				_ = m.View()
			}
		})
	}
}

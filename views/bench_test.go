package views_test

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/demo"
	"github.com/eoslab/eoslab/views/model"
)

func bigApp(b *testing.B) tea.Model {
	open := func(string) (model.Session, error) { return demo.Big(2000, 500), nil }
	m := views.NewApp(nil, open, views.Options{StartLesson: "big"})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	return m
}

// BenchmarkKeystroke measures one step key (Update, which reads the new
// frame and sets every panel's content, then View) at 200x60 with a frame
// of 2,000 log rows, 2,000 consumed records, 500 events and 340 timeline
// arrows. Right and left alternate between two frames the app has drawn
// before, so their drawing comes from the caches (cache.go); the real
// engine's first and later visits are measured in views/adapt.
func BenchmarkKeystroke(b *testing.B) {
	m := bigApp(b)
	keys := []tea.KeyMsg{{Type: tea.KeyRight}, {Type: tea.KeyLeft}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m, _ = m.Update(keys[i%2])
		_ = m.View()
	}
}

// BenchmarkScroll measures a key that only scrolls the focused panel.
func BenchmarkScroll(b *testing.B) {
	m := bigApp(b)
	keys := []tea.KeyMsg{{Type: tea.KeyUp}, {Type: tea.KeyDown}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m, _ = m.Update(keys[i%2])
		_ = m.View()
	}
}

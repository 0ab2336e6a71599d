package adapt_test

import (
	"flag"
	"math/rand"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/adapt"
	"github.com/eoslab/eoslab/views/internal/viewtest"
)

// randomKeys is the number of keys each TestRandomKeysRealLessons lesson
// gets. The default suite sends 600 per lesson (four lessons): that reaches
// the same statements of views and views/adapt as 3,000 do (go test -cover
// -coverpkg at both sizes). CI sends 3,000 (.ci/run).
var randomKeys = flag.Int("randomkeys", 600, "keys per lesson in TestRandomKeysRealLessons (CI: 3000)")

// TestRandomKeysRealLessons drives the app over the real lessons (the
// engine behind them) with seeded random keys and resizes, 1x1 included.
// It must never panic, the position must stay in 0..Len, and every screen
// must fit the terminal.
func TestRandomKeysRealLessons(t *testing.T) {
	t.Parallel()
	keys := []tea.KeyMsg{
		{Type: tea.KeyRight}, {Type: tea.KeyRight}, {Type: tea.KeyRight}, {Type: tea.KeyLeft}, {Type: tea.KeyLeft},
		{Type: tea.KeyEnter}, {Type: tea.KeyTab}, {Type: tea.KeyShiftTab}, {Type: tea.KeyEsc}, {Type: tea.KeyUp},
		{Type: tea.KeyDown}, {Type: tea.KeyPgDown}, {Type: tea.KeySpace, Runes: []rune{' '}},
	}
	for _, r := range "1234rp?-+hljkv" {
		keys = append(keys, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	sizes := [][2]int{{1, 1}, {80, 24}, {200, 60}, {60, 18}, {120, 40}, {160, 48}, {30, 8}}
	n := *randomKeys
	if testing.Short() {
		n = min(n, 600)
	}
	for _, name := range []string{"lost-ack", "zombie", "abort", "kafka-3-vs-4"} {
		r := rand.New(rand.NewSource(int64(len(name))))
		var m tea.Model = views.NewApp(adapt.Lessons(), adapt.Open, views.Options{StartLesson: name, ASCII: name == "abort"})
		w, h := 80, 24
		m, _ = m.Update(tea.WindowSizeMsg{Width: w, Height: h})
		for i := 0; i < n; i++ {
			var msg tea.Msg = keys[r.Intn(len(keys))]
			if r.Intn(40) == 0 {
				sz := sizes[r.Intn(len(sizes))]
				w, h = sz[0], sz[1]
				msg = tea.WindowSizeMsg{Width: w, Height: h}
			}
			m, _ = m.Update(msg)
			if s := m.(views.App).Session(); s != nil && (s.Pos() < 0 || s.Pos() > s.Len()) {
				t.Fatalf("%s: key %d: position %d outside 0..%d", name, i, s.Pos(), s.Len())
			}
			viewtest.CheckScreen(t, m.View(), w, h, name)
		}
	}
}

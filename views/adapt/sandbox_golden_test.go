package adapt

import (
	"math/rand"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/internal/viewtest"
)

// TestGoldenSandbox draws the sandbox at 80x24 and 160x48: the picker, a
// world with messages waiting, a broken guarantee with its cause, the
// prompt with an error, the branches and the help.
func TestGoldenSandbox(t *testing.T) {
	cases := []struct {
		name, preset string
		keys         []string
	}{
		{"picker", "", nil},
		{"zombie-waiting", "zombie", []string{"i", "n", "n"}},
		{"lost-ack-broken", "idempotent", []string{"1", "s", "n", "x", "R"}},
		{"ctp-running", "ctp", []string{"s", "R", "]", "]", "p", "R"}},
		{"replicated-crash", "replicated", []string{"s", "n", "c", "3", "R"}},
		{"prompt-error", "idempotent", []string{":", "d", "e", "l", "i", "v", "e", "r", " ", "m", "9", "enter"}},
		{"branches", "idempotent", []string{"s", "n", "left", "R", "B"}},
		{"help", "zombie", []string{"?"}},
		{"compare", "idempotent", []string{"1", "s", "n", "x", "R", "1", "C", "enter"}},
	}
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		for _, c := range cases {
			t.Run(c.name+"-"+itoa(size[0])+"x"+itoa(size[1]), func(t *testing.T) {
				var b *sbox
				if c.preset == "" {
					b = &sbox{t: t, w: size[0], h: size[1]}
					b.m = views.NewSandbox(SandboxPresets(), openPreset, nil, views.Options{})
					b.m, _ = b.m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				} else {
					b = newSbox(t, c.preset, size[0], size[1])
				}
				b.press(c.keys...)
				goldenScreen(t, b.m.View())
			})
		}
	}
}

// TestSandboxRandomKeys drives every preset with seeded random keys, the
// prompt's included, and resizes: no panic, every screen fits.
func TestSandboxRandomKeys(t *testing.T) {
	t.Parallel()
	keys := []string{"up", "down", "enter", "d", "x", "u", "y", "o", "n", " ", "R", "left", "right", "<", ">",
		"c", "r", "1", "2", "3", "4", "5", "6", "k", "z", "[", "]", "i", "b", "s", "O", "m", "a", "p", "e",
		":", "B", "C", "v", "U", "N", "w", "esc", "tab", "?", "pgup", "pgdown", "q", "t", "-", "9", "home", "end"}
	sizes := [][2]int{{80, 24}, {200, 60}, {60, 20}, {59, 19}, {1, 1}, {160, 48}, {120, 30}}
	n := 1500
	if testing.Short() {
		n = 300
	}
	for pi, p := range SandboxPresets() {
		r := rand.New(rand.NewSource(int64(pi + 1)))
		b := newSbox(t, p.Name, 80, 24)
		b.m = views.NewSandbox(SandboxPresets(), openPreset, b.sb(), views.Options{ASCII: pi%2 == 1, NoFiles: true})
		w, h := 80, 24
		b.m, _ = b.m.Update(tea.WindowSizeMsg{Width: w, Height: h})
		for i := 0; i < n; i++ {
			var msg tea.Msg = viewtest.Key(keys[r.Intn(len(keys))])
			if r.Intn(50) == 0 {
				sz := sizes[r.Intn(len(sizes))]
				w, h = sz[0], sz[1]
				msg = tea.WindowSizeMsg{Width: w, Height: h}
			}
			if k, ok := msg.(tea.KeyMsg); ok && k.String() == "q" {
				continue // q leaves the sandbox
			}
			b.m, _ = b.m.Update(msg)
			x := b.sb()
			if x.Pos() < 0 || x.Pos() > x.Len() {
				t.Fatalf("%s: key %d: position %d outside 0..%d", p.Name, i, x.Pos(), x.Len())
			}
			viewtest.CheckScreen(t, b.m.View(), w, h, p.Name)
		}
	}
}

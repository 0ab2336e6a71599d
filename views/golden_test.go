package views_test

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	xgolden "github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/demo"
	"github.com/eoslab/eoslab/views/internal/viewtest"
)

// play opens the demo's transactions lesson at w x h and presses keys.
func play(t testing.TB, w, h int, opts views.Options, keys ...string) tea.Model {
	t.Helper()
	if opts.StartLesson == "" {
		opts.StartLesson = "transactions"
	}
	if opts.StartLesson == "none" {
		opts.StartLesson = ""
	}
	m := views.NewApp(demo.Lessons(), demo.Open, opts)
	m, _ = m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	for _, k := range keys {
		m, _ = m.Update(viewtest.Key(k))
	}
	return m
}

func repeatKey(k string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = k
	}
	return out
}

// golden compares a screen with testdata/<test name>.golden. Regenerate
// with: go test ./views -run Golden -update (the flag is the golden
// package's, which teatest uses too).
func golden(t *testing.T, got string) {
	t.Helper()
	// Trailing spaces are not part of what a reader sees; dropping them
	// keeps the files clean in editors.
	lines := strings.Split(got, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	xgolden.RequireEqual(t, []byte(strings.Join(lines, "\n")+"\n"))
}

// The player's screens at the two sizes that matter most: a default
// terminal and a projector. Each case is a moment a lesson is about.
func TestGoldenPlayer(t *testing.T) {
	toStep := func(n int) []string { return repeatKey("right", n) }
	cases := []struct {
		name string
		w, h int
		opts views.Options
		keys []string
	}{
		{"player-80x24-start", 80, 24, views.Options{}, nil},
		{"player-80x24-checkpoint", 80, 24, views.Options{}, toStep(6)},
		{"player-80x24-answered", 80, 24, views.Options{}, append(toStep(6), "1")},
		{"player-80x24-timeline", 80, 24, views.Options{}, append(toStep(4), repeatKey("tab", 5)...)},
		{"player-80x24-ascii", 80, 24, views.Options{ASCII: true}, toStep(8)},
		{"player-160x48-dropped-ack", 160, 48, views.Options{}, toStep(4)},
		{"player-160x48-first-marker", 160, 48, views.Options{}, append(append(toStep(6), "2"), toStep(2)...)},
		{"player-160x48-fenced", 160, 48, views.Options{}, append(append(append(toStep(6), "2"), toStep(7)...), "3", "right")},
		{"player-160x48-ascii", 160, 48, views.Options{ASCII: true}, append(append(toStep(6), "2"), toStep(6)...)},
		{"player-120x40-violation", 120, 40, views.Options{StartLesson: "idempotence-off"}, []string{"right", "2", "right"}},
		{"home-80x24", 80, 24, views.Options{StartLesson: "none"}, []string{"down", "down"}},
		{"home-60x20", 60, 20, views.Options{StartLesson: "none"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := play(t, c.w, c.h, c.opts, c.keys...)
			golden(t, m.View())
		})
	}
}

// Colour must never change the layout: with colour on, the screen minus
// its escape codes is the same text as without.
func TestColourDoesNotMoveAnything(t *testing.T) {
	keys := append(append(repeatKey("right", 6), "2"), repeatKey("right", 3)...)
	plain := play(t, 160, 48, views.Options{}, keys...).View()
	lipgloss.SetColorProfile(termenv.TrueColor)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	coloured := play(t, 160, 48, views.Options{}, keys...).View()
	if !strings.Contains(coloured, "\x1b[38;2;") {
		t.Fatal("no colour in the coloured view")
	}
	if ansi.Strip(coloured) != ansi.Strip(plain) {
		t.Error("colour changed the text of the screen")
	}
	nocolor := play(t, 160, 48, views.Options{NoColor: true}, keys...).View()
	if strings.Contains(nocolor, "\x1b[38;") || strings.Contains(nocolor, "\x1b[48;") {
		t.Error("NoColor drew colours")
	}
	if ansi.Strip(nocolor) != ansi.Strip(plain) {
		t.Error("NoColor changed the text of the screen")
	}
}

func TestOptionsWithEnv(t *testing.T) {
	env := map[string]string{"NO_COLOR": "1"}
	if o := (views.Options{}).WithEnv(func(k string) string { return env[k] }); !o.NoColor {
		t.Error("NO_COLOR=1 did not turn colour off")
	}
	if o := (views.Options{}).WithEnv(func(string) string { return "" }); o.NoColor {
		t.Error("an empty NO_COLOR turned colour off")
	}
}

// Every size from tiny to huge draws within the terminal, at every step of
// the lesson.
func TestViewFitsEverySize(t *testing.T) {
	sizes := [][2]int{{0, 0}, {1, 1}, {2, 2}, {20, 5}, {59, 17}, {60, 18}, {61, 19}, {80, 24}, {100, 30}, {120, 40}, {130, 25}, {90, 50}, {149, 39}, {150, 40}, {160, 48}, {200, 60}, {250, 80}, {400, 120}}
	for _, ascii := range []bool{false, true} {
		for _, sz := range sizes {
			m := play(t, sz[0], sz[1], views.Options{ASCII: ascii})
			for step := 0; step <= 16; step++ {
				checkFits(t, m.View(), sz[0], sz[1])
				for _, k := range []string{"tab", "down", "tab", "2", "3", "right"} {
					m, _ = m.Update(viewtest.Key(k))
					checkFits(t, m.View(), sz[0], sz[1])
				}
			}
		}
	}
}

func checkFits(t *testing.T, v string, w, h int) {
	t.Helper()
	if w == 0 || h == 0 {
		if v != "" {
			t.Fatalf("%dx%d: non-empty view", w, h)
		}
		return
	}
	lines := strings.Split(v, "\n")
	if len(lines) > h {
		t.Fatalf("%dx%d: %d lines", w, h, len(lines))
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			t.Fatalf("%dx%d: line %d is %d cells: %q", w, h, i, n, l)
		}
	}
}

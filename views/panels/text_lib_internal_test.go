package panels

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/theme"
)

// panelLines are the lines a 200x60 screen of the big partitions frame
// draws, styled, as width and wrap see them.
func panelLines() []string {
	th := theme.New(theme.Options{})
	_, body, _ := Partitions(bigPartitions(), Painter{Theme: th, Width: 117})
	out := make([]string, 0, 60)
	for i := 0; i < 60 && i < body.Len(); i++ {
		out = append(out, body.Line(i))
	}
	return out
}

// BenchmarkWidth measures the cell width of one screen of panel lines:
// "ours" is width, with its fast path for the one-cell runes the panels
// use; "ansi" is ansi.StringWidth alone. A screen measures every line
// several times (fit, clip, columns), about 600 calls a keystroke.
func BenchmarkWidth(b *testing.B) {
	lines := panelLines()
	for _, c := range []struct {
		name string
		f    func(string) int
	}{{"ours", cells.Width}, {"ansi", ansi.StringWidth}} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				for _, l := range lines {
					_ = c.f(l)
				}
			}
		})
	}
}

// BenchmarkWrap wraps a 300-character paragraph to a 76-cell pane, as the
// lesson pane does; text.go cites the result.
func BenchmarkWrap(b *testing.B) {
	text := strings.Repeat("The leader of t-1 appends the batch at offset 0, and keeps an entry for producer 1000: its epoch. ", 3)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = cells.Wrap(text, 76)
	}
}

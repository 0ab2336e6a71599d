package layout

import (
	"bytes"
	"sort"
	"strings"

	"github.com/eoslab/eoslab/views/internal/cells"
)

// Block is a rectangle's worth of rendered lines.
type Block struct {
	Rect  Rect
	Lines []string
	// Exact promises that every line is exactly Rect.W cells wide, as a
	// pane's are, so Compose need not measure them.
	Exact bool
}

// Compose places blocks on a w x h canvas and returns the screen. Gaps are
// spaces; every line is clipped to w, so no block can spill into another or
// past the terminal's edge.
func Compose(w, h int, blocks []Block) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	sort.SliceStable(blocks, func(i, j int) bool { return blocks[i].Rect.X < blocks[j].Rect.X })
	// The screen is written into one builder sized for it up front, a row
	// at a time through one scratch buffer (which drops the row's trailing
	// spaces): a keystroke at 200x60 redraws tens of kilobytes, and
	// growing a builder per row and joining the rows copies them twice.
	size := h + w
	for _, bl := range blocks {
		for _, l := range bl.Lines[:min(len(bl.Lines), max(bl.Rect.H, 0))] {
			size += len(l)
		}
	}
	var b strings.Builder
	b.Grow(size)
	var row []byte
	for y := range h {
		row = row[:0]
		x := 0
		for _, bl := range blocks {
			r := bl.Rect
			if y < r.Y || y >= r.Y+r.H || r.W <= 0 || r.X < x || r.X >= w {
				continue
			}
			row = append(row, cells.Repeat(" ", r.X-x)...)
			line := ""
			if i := y - r.Y; i < len(bl.Lines) {
				line = bl.Lines[i]
			}
			cw := min(r.W, w-r.X)
			if bl.Exact && cw == r.W && line != "" {
				row = append(row, line...)
			} else {
				row = append(row, cells.Fit(line, cw, "")...)
			}
			x = r.X + cw
		}
		if y > 0 {
			b.WriteByte('\n')
		}
		b.Write(bytes.TrimRight(row, " "))
	}
	return b.String()
}

// JoinLines joins rendered lines into one string for View.
func JoinLines(lines []string) string { return strings.Join(lines, "\n") }

// Center places one line of text in the middle of a w x h screen, or wraps
// it when it is wider than the screen.
func Center(msg string, w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	lines := []string{msg}
	if cells.Width(msg) > w {
		lines = cells.Wrap(msg, w)
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	top := (h - len(lines)) / 2
	out := make([]string, 0, h)
	for range top {
		out = append(out, "")
	}
	for _, l := range lines {
		out = append(out, cells.Repeat(" ", (w-cells.Width(l))/2)+l)
	}
	return JoinLines(out)
}

package views

import (
	"bytes"
	"sort"
	"strings"
)

// block is a rectangle's worth of rendered lines.
type block struct {
	r     Rect
	lines []string
	// exact promises that every line is exactly r.W cells wide, as a
	// pane's are, so compose need not measure them.
	exact bool
}

// compose places blocks on a w x h canvas and returns the screen. Gaps are
// spaces; every line is clipped to w, so no block can spill into another or
// past the terminal's edge.
func compose(w, h int, blocks []block) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	sort.SliceStable(blocks, func(i, j int) bool { return blocks[i].r.X < blocks[j].r.X })
	// The screen is written into one builder sized for it up front, a row
	// at a time through one scratch buffer (which drops the row's trailing
	// spaces): a keystroke at 200x60 redraws tens of kilobytes, and
	// growing a builder per row and joining the rows copies them twice.
	size := h + w
	for _, bl := range blocks {
		for _, l := range bl.lines[:min(len(bl.lines), max(bl.r.H, 0))] {
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
			r := bl.r
			if y < r.Y || y >= r.Y+r.H || r.W <= 0 || r.X < x || r.X >= w {
				continue
			}
			row = append(row, repeat(" ", r.X-x)...)
			line := ""
			if i := y - r.Y; i < len(bl.lines) {
				line = bl.lines[i]
			}
			cw := min(r.W, w-r.X)
			if bl.exact && cw == r.W && line != "" {
				row = append(row, line...)
			} else {
				row = append(row, fit(line, cw, "")...)
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

func joinLines(lines []string) string { return strings.Join(lines, "\n") }

// center places one line of text in the middle of a w x h screen, or wraps
// it when it is wider than the screen.
func center(msg string, w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	lines := []string{msg}
	if width(msg) > w {
		lines = wrap(msg, w)
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
		out = append(out, repeat(" ", (w-width(l))/2)+l)
	}
	return joinLines(out)
}

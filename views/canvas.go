package views

import (
	"sort"
	"strings"

	"github.com/eoslab/eoslab/views/internal/cells"
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
	rows := make([]string, h)
	var b strings.Builder
	for y := range h {
		b.Reset()
		x := 0
		for _, bl := range blocks {
			r := bl.r
			if y < r.Y || y >= r.Y+r.H || r.W <= 0 || r.X < x || r.X >= w {
				continue
			}
			b.WriteString(cells.Repeat(" ", r.X-x))
			line := ""
			if i := y - r.Y; i < len(bl.lines) {
				line = bl.lines[i]
			}
			cw := min(r.W, w-r.X)
			if bl.exact && cw == r.W && line != "" {
				b.WriteString(line)
			} else {
				b.WriteString(cells.Fit(line, cw, ""))
			}
			x = r.X + cw
		}
		rows[y] = strings.TrimRight(b.String(), " ")
	}
	return joinLines(rows)
}

func joinLines(lines []string) string { return strings.Join(lines, "\n") }

// center places one line of text in the middle of a w x h screen, or wraps
// it when it is wider than the screen.
func center(msg string, w, h int) string {
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
	return joinLines(out)
}

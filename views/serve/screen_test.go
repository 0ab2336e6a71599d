package serve

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// screen replays a seat's output on a w x h grid, as a terminal would,
// for what the Bubble Tea renderer sends: text, CR, LF, cursor moves
// (CUU, CUD, CUF, CUB, CUP), erasing (ED, EL) and the alternate screen;
// colours and other sequences are skipped. It answers "what is on the
// screen now", which the output stream alone cannot: the renderer only
// rewrites the lines that changed.
func screen(out string, w, h int) string {
	g := make([][]rune, h)
	blank := func(r int) { g[r] = []rune(strings.Repeat(" ", w)) }
	for r := range g {
		blank(r)
	}
	row, col := 0, 0
	down := func() {
		if row == h-1 {
			copy(g, g[1:])
			g[h-1] = nil
			blank(h - 1)
			return
		}
		row++
	}
	for i := 0; i < len(out); {
		c := out[i]
		switch {
		case c == '\r':
			col = 0
			i++
		case c == '\n':
			down()
			i++
		case c == 0x1b && i+1 < len(out) && out[i+1] == '[':
			j := i + 2
			for j < len(out) && (out[j] < 0x40 || out[j] > 0x7e) {
				j++
			}
			if j >= len(out) {
				return render(g)
			}
			params, final := out[i+2:j], out[j]
			i = j + 1
			ps := strings.Split(strings.TrimLeft(params, "?"), ";")
			n := func(k, def int) int {
				if k < len(ps) {
					if v, err := strconv.Atoi(ps[k]); err == nil && v > 0 {
						return v
					}
				}
				return def
			}
			switch final {
			case 'A':
				row = max(row-n(0, 1), 0)
			case 'B':
				row = min(row+n(0, 1), h-1)
			case 'C':
				col = min(col+n(0, 1), w-1)
			case 'D':
				col = max(col-n(0, 1), 0)
			case 'H':
				row, col = min(n(0, 1), h)-1, min(n(1, 1), w)-1
			case 'J':
				if ps[0] == "2" {
					for r := range g {
						blank(r)
					}
				} else {
					for k := col; k < w; k++ {
						g[row][k] = ' '
					}
					for r := row + 1; r < h; r++ {
						blank(r)
					}
				}
			case 'K':
				from, to := col, w
				switch ps[0] {
				case "1":
					from, to = 0, col+1
				case "2":
					from = 0
				}
				for k := from; k < min(to, w); k++ {
					g[row][k] = ' '
				}
			case 'h', 'l':
				if strings.HasPrefix(params, "?1049") {
					for r := range g {
						blank(r)
					}
					row, col = 0, 0
				}
			}
		case c == 0x1b && i+1 < len(out) && out[i+1] == ']':
			j := i + 2
			for j < len(out) && out[j] != 0x07 && !(out[j] == 0x1b && j+1 < len(out) && out[j+1] == '\\') {
				j++
			}
			i = min(j+1, len(out))
			if j < len(out) && out[j] == 0x1b {
				i++
			}
		case c == 0x1b:
			i += 2
		case c < 0x20 || c == 0x7f:
			i++
		default:
			gr, width := ansi.FirstGraphemeCluster(out[i:], ansi.GraphemeWidth)
			i += len(gr)
			if col+width > w {
				col = 0
				down()
			}
			if gr == "" {
				i++
				continue
			}
			g[row][col] = []rune(gr)[0]
			for k := 1; k < width && col+k < w; k++ {
				g[row][col+k] = 0
			}
			col += max(width, 1)
			if col >= w {
				col = w - 1
			}
		}
	}
	return render(g)
}

func render(g [][]rune) string {
	lines := make([]string, len(g))
	for r, l := range g {
		var b strings.Builder
		for _, c := range l {
			if c != 0 {
				b.WriteRune(c)
			}
		}
		lines[r] = strings.TrimRight(b.String(), " ")
	}
	return strings.Join(lines, "\n")
}

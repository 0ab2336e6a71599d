package views

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"

	"eoslab/engine/termsafe"
)

// width is the number of terminal cells s takes, ignoring ANSI sequences.
// Plain ASCII, most of what the panels draw, is counted without the
// grapheme segmentation the general case needs.
func width(s string) int {
	if n, ok := simpleWidth(s); ok {
		return n
	}
	return ansi.StringWidth(s)
}

// simpleWidth counts cells when s holds only SGR escape codes and runes
// that are always one cell wide and never join a grapheme with the next:
// ASCII, Latin-1, and the arrows, box drawing and symbols the theme uses.
// It reports false otherwise, and the caller does the full segmentation.
func simpleWidth(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			// CSI: ESC [ params final, final in 0x40..0x7e.
			if i+1 >= len(s) || s[i+1] != '[' {
				return 0, false
			}
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j + 1
			continue
		case c < 0x20 || c == 0x7f:
			return 0, false
		case c < 0x80:
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !oneCell(r) {
			return 0, false
		}
		n++
		i += size
	}
	return n, true
}

func oneCell(r rune) bool {
	switch {
	case r >= 0xa0 && r < 0x300: // Latin-1 and Latin Extended
		return r != 0xad
	case r >= 0x2010 && r <= 0x2027: // dashes, quotes, bullet, ellipsis
		return true
	case r >= 0x2190 && r <= 0x21ff: // arrows
		return true
	case r >= 0x2200 && r <= 0x22ff: // mathematical operators (⊘)
		return true
	case r >= 0x2500 && r <= 0x25ff: // box drawing, blocks, geometric shapes
		return true
	case r == 0x2713 || r == 0x2717 || r == 0x203b: // ✓ ✗ ※
		return true
	}
	return false
}

// fit clips s to w cells, ending a clipped line with tail, and pads it with
// spaces to exactly w cells. Every line a panel draws goes through fit, which
// is what keeps long content inside its panel.
func fit(s string, w int, tail string) string {
	if w <= 0 {
		return ""
	}
	sw := width(s)
	if sw > w {
		if width(tail) >= w {
			tail = ""
		}
		s = ansi.Truncate(s, w, tail)
		sw = width(s)
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

// clip clips s to w cells without padding.
func clip(s string, w int, tail string) string {
	if w <= 0 {
		return ""
	}
	if width(s) <= w {
		return s
	}
	if width(tail) >= w {
		tail = ""
	}
	return ansi.Truncate(s, w, tail)
}

// clean makes text from a session safe to draw on one line: tabs and
// newlines become spaces, and every other character a terminal would act
// on (ESC, a C1 control, a bidirectional override) or invalid UTF-8 is
// written as a visible escape such as \x1b or \u202e (termsafe.Escape), so
// a value cannot smuggle in terminal sequences. The parsers refuse these
// characters in files; this is the guard at the screen's edge.
func clean(s string) string {
	if strings.ContainsAny(s, "\t\n\r") {
		b := []byte(s)
		for i, c := range b {
			if c == '\t' || c == '\n' || c == '\r' {
				b[i] = ' '
			}
		}
		s = string(b)
	}
	return termsafe.Escape(s)
}

// wrap word-wraps plain text to w cells, keeping its paragraph breaks and
// breaking only at spaces (ansi.Wrap also breaks at hyphens, which would
// split "t-0" and "__transaction_state-3"). A word longer than a line is cut.
func wrap(s string, w int) []string {
	if w <= 0 {
		return nil
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		out = append(out, wrapPara(clean(para), w)...)
	}
	return out
}

func wrapPara(s string, w int) []string {
	var out []string
	var line strings.Builder
	lw := 0
	flush := func() {
		out = append(out, line.String())
		line.Reset()
		lw = 0
	}
	for _, word := range strings.Fields(s) {
		ww := width(word)
		if ww > w {
			if lw > 0 {
				flush()
			}
			for _, chunk := range cutWidth(word, w) {
				line.WriteString(chunk)
				lw = width(chunk)
				if lw >= w {
					flush()
				}
			}
			continue
		}
		if lw > 0 && lw+1+ww > w {
			flush()
		}
		if lw > 0 {
			line.WriteByte(' ')
			lw++
		}
		line.WriteString(word)
		lw += ww
	}
	if lw > 0 || len(out) == 0 {
		flush()
	}
	return out
}

// cutWidth cuts s into pieces at most w cells wide, between graphemes.
func cutWidth(s string, w int) []string {
	var out []string
	var cur strings.Builder
	cw := 0
	state := -1
	for s != "" {
		var c string
		var gw int
		c, s, gw, state = uniseg.FirstGraphemeClusterInString(s, state)
		if cw > 0 && cw+gw > w {
			out = append(out, cur.String())
			cur.Reset()
			cw = 0
		}
		cur.WriteString(c)
		cw += gw
	}
	if cw > 0 {
		out = append(out, cur.String())
	}
	return out
}

// padLeft right-aligns s in w cells.
func padLeft(s string, w int) string {
	if n := w - width(s); n > 0 {
		return strings.Repeat(" ", n) + s
	}
	return s
}

// repeat repeats a one-cell glyph n times; n may be negative.
func repeat(g string, n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat(g, n)
}

// splitLines splits a rendered block into lines.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// asciiFor holds the ASCII stand-ins for characters lesson texts commonly
// use; each takes as many cells as the character it replaces.
var asciiFor = map[string]string{
	"→": ">", "←": "<", "↑": "^", "↓": "v", "…": ".", "·": ".", "•": "*",
	"—": "-", "–": "-", "‘": "'", "’": "'", "“": "\"", "”": "\"", "✓": "v",
	"✗": "x", "×": "x", "≤": "<", "≥": ">", "≠": "#", "─": "-", "│": "|",
}

// asciiOnly replaces every non-ASCII grapheme of s with an ASCII stand-in of
// the same width. ASCII mode runs the whole screen through it, so text that
// comes from a lesson cannot bring a glyph the terminal cannot draw.
func asciiOnly(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	state := -1
	for s != "" {
		var c string
		var w int
		c, s, w, state = uniseg.FirstGraphemeClusterInString(s, state)
		switch {
		case len(c) == 1 || (len(c) > 0 && c[0] < 0x80 && !strings.ContainsFunc(c, func(r rune) bool { return r >= 0x80 })):
			b.WriteString(c)
		case asciiFor[c] != "" && w == 1:
			b.WriteString(asciiFor[c])
		default:
			b.WriteString(strings.Repeat("?", w))
		}
	}
	return b.String()
}

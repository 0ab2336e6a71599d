// Package cells measures, fits, clips and wraps text in terminal cells for
// every view component: a grapheme's width, a line cut to a width with an
// ellipsis, a paragraph wrapped. It knows nothing of the frame, the theme or
// any component, which is what lets each component use it.
package cells

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"

	"github.com/eoslab/eoslab/engine/termsafe"
)

// width is the number of terminal cells s takes, ignoring ANSI sequences.
// Plain ASCII, most of what the panels draw, is counted without the
// grapheme segmentation the general case needs, which ansi.StringWidth does
// on every call. The panels measure each line several times (fit, clip,
// columns): with ansi.StringWidth alone, BenchmarkWidth takes 3.1 times as
// long (87 against 28 us for a screen of panel lines) and a first-visit
// keystroke at 200x60 (BenchmarkKeystroke, first-visit) 1.45 times
// (5.0 against 3.4 ms on a loaded two-core machine; about 0.8 ms unloaded
// before), which is past the 1 ms a keystroke may take. So the fast path
// stays, and ansi.StringWidth does the rest.
func Width(s string) int {
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
func Fit(s string, w int, tail string) string {
	if w <= 0 {
		return ""
	}
	sw := Width(s)
	if sw > w {
		if Width(tail) >= w {
			tail = ""
		}
		s = ansi.Truncate(s, w, tail)
		sw = Width(s)
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

// clip clips s to w cells without padding.
func Clip(s string, w int, tail string) string {
	if w <= 0 {
		return ""
	}
	if Width(s) <= w {
		return s
	}
	if Width(tail) >= w {
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
func Clean(s string) string {
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

// wordCount is how many words a reader reads in s, which paces autoplay.
func WordCount(s string) int { return len(strings.Fields(s)) }

// nbHyphen is the non-breaking hyphen, one cell wide like "-".
const nbHyphen = "\u2011"

// wrap word-wraps plain text to w cells with ansi.Wrap, keeping its
// paragraph breaks; a word longer than a line is cut. ansi.Wrap always
// breaks after a hyphen, which would split "t-0" and
// "__transaction_state-3", so hyphens become non-breaking ones while it
// wraps. It costs about twice what the hand-written wrap it replaced did
// (BenchmarkWrap: 7.5 against 3.5 us for a 300-character paragraph), which
// a step affords: the lesson text is one paragraph or two, and the event
// log wraps each event once (drawCache.wrap).
func Wrap(s string, w int) []string {
	if w <= 0 {
		return nil
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		para = strings.Join(strings.Fields(Clean(para)), " ")
		hyphens := strings.Contains(para, "-")
		if hyphens {
			para = strings.ReplaceAll(para, "-", nbHyphen)
		}
		for _, l := range strings.Split(ansi.Wrap(para, w, ""), "\n") {
			if hyphens {
				l = strings.ReplaceAll(l, nbHyphen, "-")
			}
			out = append(out, l)
		}
	}
	return out
}

// padLeft right-aligns s in w cells.
func PadLeft(s string, w int) string {
	if n := w - Width(s); n > 0 {
		return strings.Repeat(" ", n) + s
	}
	return s
}

// repeat repeats a one-cell glyph n times; n may be negative.
func Repeat(g string, n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat(g, n)
}

// splitLines splits a rendered block into lines.
func SplitLines(s string) []string {
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
func ASCIIOnly(s string) string {
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

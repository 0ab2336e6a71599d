// Package termsafe decides which characters of a text from a file may reach
// a terminal, and escapes the others. It is the one place that defines
// them: the scenario and lesson parsers refuse them (Find), and every
// output edge that prints text from a file (the CLI's standard output and
// error, the TUI's text cleaner) escapes whatever slipped through (Escape).
//
// A terminal acts on more than ESC: the C1 controls U+0080-U+009F include a
// one-character CSI (U+009B) and OSC (U+009D) that some terminals honour,
// and the bidirectional controls reorder what the reader sees (a U+202E in
// a name makes "exe.txt" read as "txt.exe"), so both are refused with the C0
// controls.
//
// This package imports only the standard library, so that the views, the
// lessons, the scenario language and the CLI can all use it.
package termsafe

import (
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// c0Names are the ASCII names of the C0 controls, by code.
var c0Names = [32]string{"NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT", "FF", "CR",
	"SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US"}

// c1Names are the ISO 6429 names of the C1 controls U+0080-U+009F.
var c1Names = [32]string{"PAD", "HOP", "BPH", "NBH", "IND", "NEL", "SSA", "ESA", "HTS", "HTJ", "VTS", "PLD", "PLU",
	"RI", "SS2", "SS3", "DCS", "PU1", "PU2", "STS", "CCH", "MW", "SPA", "EPA", "SOS", "SGCI", "SCI", "CSI", "ST",
	"OSC", "PM", "APC"}

// bidiNames are the Unicode bidirectional formatting characters (UAX #9):
// embeddings, overrides, isolates and the implicit marks.
var bidiNames = map[rune]string{
	0x061C: "ALM, Arabic letter mark",
	0x200E: "LRM, left-to-right mark",
	0x200F: "RLM, right-to-left mark",
	0x202A: "LRE, left-to-right embedding",
	0x202B: "RLE, right-to-left embedding",
	0x202C: "PDF, pop directional formatting",
	0x202D: "LRO, left-to-right override",
	0x202E: "RLO, right-to-left override",
	0x2066: "LRI, left-to-right isolate",
	0x2067: "RLI, right-to-left isolate",
	0x2068: "FSI, first strong isolate",
	0x2069: "PDI, pop directional isolate",
}

// Unsafe reports whether r must not reach a terminal from a file: a C0
// control other than tab and newline, DEL, a C1 control, or a bidirectional
// control. Tab and newline are left to the formats, which say where they
// may appear.
func Unsafe(r rune) bool {
	switch {
	case r == '\t' || r == '\n':
		return false
	case r < 0x20 || (r >= 0x7f && r < 0xa0):
		return true
	case r < 0x61c:
		return false
	}
	_, bidi := bidiNames[r]
	return bidi
}

// Describe names a character for an error message, as in "control
// character U+001B (ESC)" or "bidirectional control U+202E (RLO,
// right-to-left override)".
func Describe(r rune) string {
	u := "U+" + hex4(r)
	switch {
	case r < 0x20:
		return "control character " + u + " (" + c0Names[r] + ")"
	case r == 0x7f:
		return "control character " + u + " (DEL)"
	case r >= 0x80 && r < 0xa0:
		return "C1 control character " + u + " (" + c1Names[r-0x80] + ")"
	}
	if n, ok := bidiNames[r]; ok {
		return "bidirectional control " + u + " (" + n + ")"
	}
	return "character " + u
}

// Problem is the first character of a line that a file may not hold.
type Problem struct {
	Col     int    // 1-based column, in characters
	What    string // "control character U+001B (ESC)", "invalid UTF-8 (byte 0xff)"
	invalid bool   // not UTF-8 at all
}

// Message is the problem as an error says it, without the position:
// "control character U+001B (ESC) is not allowed".
func (p Problem) Message() string {
	if p.invalid {
		return p.What + "; the file must be UTF-8 text"
	}
	return p.What + " is not allowed"
}

// Find returns the first unsafe character or invalid UTF-8 byte of line,
// or ok false when there is none. Tabs are allowed when tabOK is set. It
// does not allocate.
func Find(line string, tabOK bool) (p Problem, found bool) {
	col := 0
	for i := 0; i < len(line); {
		c := line[i]
		col++
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(line[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			return Problem{Col: col, What: "invalid UTF-8 (byte 0x" + hex2(c) + ")", invalid: true}, true
		case r == '\t' && !tabOK, r == '\n', Unsafe(r):
			return Problem{Col: col, What: Describe(r)}, true
		}
		i += n
	}
	return Problem{}, false
}

// Escape returns s with every unsafe character written as a visible Go
// escape (\x1b, \u009b, \u202e) and every invalid UTF-8 byte as \xNN.
// Tabs and newlines are kept. Text without anything to escape is returned
// as it is, without allocating.
//
// The \uXXXX form of a C1 or bidirectional control is also a JSON string
// escape for the same character, so escaping JSON output keeps it valid
// and means the same.
func Escape(s string) string {
	i := firstUnsafe(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			b.WriteString(`\x`)
			b.WriteString(hex2(s[i]))
		case r < 0x20 && Unsafe(r), r == 0x7f:
			b.WriteString(`\x`)
			b.WriteString(hex2(byte(r)))
		case Unsafe(r):
			b.WriteString(`\u`)
			b.WriteString(strings.ToLower(hex4(r)))
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// Blank returns s with every unsafe character and invalid UTF-8 byte
// replaced by a space, tabs kept: what a parser reads of a refused line to
// salvage its key or declaration, so that one bad character makes one
// error, not one on every later line that uses the name.
func Blank(s string) string {
	if firstUnsafe(s) < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n <= 1) || Unsafe(r) || r == '\n' {
			b.WriteByte(' ')
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// firstUnsafe is the byte index of the first character Escape changes, or
// -1. Printable ASCII, the bulk of every text here, is checked a byte at a
// time without decoding.
func firstUnsafe(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f || c == '\t' || c == '\n' {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n <= 1) || Unsafe(r) {
			return i
		}
		i += n
	}
	return -1
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}

func hex4(r rune) string {
	s := strings.ToUpper(strconv.FormatInt(int64(r), 16))
	for len(s) < 4 {
		s = "0" + s
	}
	return s
}

// Writer returns a writer that escapes, as Escape does, what is written to
// w. Each Write is escaped on its own, so a character split across two
// writes shows as \xNN escapes rather than as itself; fmt and
// encoding/json write a whole line or value at a time.
func Writer(w io.Writer) io.Writer { return writer{w} }

type writer struct{ w io.Writer }

func (x writer) Write(p []byte) (int, error) {
	if !needsEscape(p) {
		return x.w.Write(p)
	}
	if _, err := io.WriteString(x.w, Escape(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// needsEscape is firstUnsafe for bytes, so that the common case (nothing
// to escape) costs no copy.
func needsEscape(b []byte) bool {
	for i := 0; i < len(b); {
		c := b[i]
		if c >= 0x20 && c < 0x7f || c == '\t' || c == '\n' {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if (r == utf8.RuneError && n <= 1) || Unsafe(r) {
			return true
		}
		i += n
	}
	return false
}

package lessons

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// prose accumulates say:, note:, explain:, intro: and ask: text: lines join
// into one paragraph, and an empty line of the key starts a new one. The
// lines are kept as they come and joined once, in String, so a paragraph
// of n lines costs O(n), not the O(n²) of growing a string line by line.
type prose struct {
	paras [][]string
	brk   bool
}

func (p *prose) add(s string) {
	switch {
	case s == "":
		p.brk = len(p.paras) > 0
	case len(p.paras) == 0 || p.brk:
		p.paras = append(p.paras, []string{s})
		p.brk = false
	default:
		last := &p.paras[len(p.paras)-1]
		*last = append(*last, s)
	}
}

func (p *prose) String() string {
	var b strings.Builder
	for i, para := range p.paras {
		if i > 0 {
			b.WriteString("\n\n")
		}
		for j, line := range para {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(line)
		}
	}
	return b.String()
}

// splitKey recognises "key: value" where key is lower-case letters. It
// returns the value trimmed and the 1-based column where the value starts.
func splitKey(raw string) (key, val string, col int, ok bool) {
	start := len(raw) - len(strings.TrimLeft(raw, " \t"))
	i := start
	for i < len(raw) && raw[i] >= 'a' && raw[i] <= 'z' {
		i++
	}
	// A version suffix: "say@4:".
	if i > start && i+1 < len(raw) && raw[i] == '@' && raw[i+1] >= '0' && raw[i+1] <= '9' {
		i += 2
	}
	if i == start || i >= len(raw) || raw[i] != ':' {
		return "", "", 0, false
	}
	key = raw[start:i]
	rest := raw[i+1:]
	lead := len(rest) - len(strings.TrimLeft(rest, " \t"))
	return key, strings.TrimSpace(rest), runeCol(raw, i+1+lead), true
}

// runeCol is the 1-based column, in characters, of byte index byteIdx of s.
func runeCol(s string, byteIdx int) int {
	if byteIdx < 0 || byteIdx > len(s) {
		return 1
	}
	return utf8.RuneCountInString(s[:byteIdx]) + 1
}

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func quote(s string) string { return strconv.Quote(s) }

func keyList(keys []string) string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k + ":"
	}
	return strings.Join(out, " ")
}

func orList(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

// Names reports whether the step's text, as the learner reads it (its
// narration, its question, the choices and the explanation), writes word
// as a word of its own: "a1" in "a1 and b1" or "a1's", not in "a10". The
// player keeps what a step names on screen (a record value named in the
// text is a row the step is about).
func (s *Step) Names(word string) bool {
	if word == "" {
		return false
	}
	if namesIn(s.Say, word) {
		return true
	}
	if a := s.Ask; a != nil {
		if namesIn(a.Question, word) || namesIn(a.Explain, word) {
			return true
		}
		for _, c := range a.Choices {
			if namesIn(c.Text, word) {
				return true
			}
		}
	}
	return false
}

// namesIn reports whether text has word with no letter, digit, '_' or '-'
// right before or after it.
func namesIn(text, word string) bool {
	part := func(b byte) bool {
		return b == '_' || b == '-' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
	}
	for from := 0; ; {
		i := strings.Index(text[from:], word)
		if i < 0 {
			return false
		}
		at, end := from+i, from+i+len(word)
		if (at == 0 || !part(text[at-1])) && (end == len(text) || !part(text[end]) || text[end] == '-' && end+1 < len(text) && !part(text[end+1])) {
			return true
		}
		from = at + 1
	}
}

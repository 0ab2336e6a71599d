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

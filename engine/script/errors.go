package script

import (
	"sort"
	"strconv"
	"strings"
)

// Error is one problem with one line of a scenario. Col is the 1-based
// character column of the problem when the message cannot simply quote the
// offending word (a bad byte, an unclosed quote), and 0 otherwise.
type Error struct {
	File string
	Line int
	Col  int
	Msg  string
}

// Error renders the error the way compilers do, so editors can jump to it:
// "file:line: msg", or "file:line:col: msg" when the column is known. A line
// typed at the sandbox prompt has no file and renders as "line N: msg".
func (e *Error) Error() string {
	var b strings.Builder
	if e.File == "" {
		b.WriteString("line ")
		b.WriteString(strconv.Itoa(e.Line))
	} else {
		b.WriteString(e.File)
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(e.Line))
	}
	if e.Col > 0 {
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(e.Col))
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// ErrorList is every error found in one file, sorted by line, so that a
// teacher fixing a lesson sees all its problems at once.
type ErrorList []*Error

// Error joins the errors, one per line.
func (l ErrorList) Error() string {
	parts := make([]string, len(l))
	for i, e := range l {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// sortErrors orders errors by line, then column, keeping the order in which
// they were found for ties, so output is deterministic.
func (l ErrorList) sortErrors() {
	sort.SliceStable(l, func(i, j int) bool {
		if l[i].Line != l[j].Line {
			return l[i].Line < l[j].Line
		}
		return l[i].Col < l[j].Col
	})
}

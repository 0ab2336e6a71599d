package script

import (
	"sort"
	"strconv"
	"strings"
)

// Error is one problem with one line of a scenario. Col is the 1-based
// character column of the problem when the message cannot simply quote the
// offending word (a bad byte, an unclosed quote), and 0 otherwise. Line is
// 0 for a problem with the whole file (too large, unreadable).
type Error struct {
	File string
	Line int
	Col  int
	Msg  string
}

// Error renders the error the way compilers do, so editors can jump to it:
// "file:line: msg", or "file:line:col: msg" when the column is known. A line
// typed at the sandbox prompt has no file and renders as "line N: msg"; a
// problem with the whole file renders as "file: msg".
func (e *Error) Error() string {
	var b strings.Builder
	switch {
	case e.File == "":
		b.WriteString("line ")
		b.WriteString(strconv.Itoa(e.Line))
	case e.Line == 0:
		b.WriteString(e.File)
	default:
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

// MaxErrors is how many errors one file reports. A binary file, or a file
// that is not a scenario at all, is wrong on nearly every line; the first
// errors say so, and the rest are counted, not kept, so that a large wrong
// file costs neither memory nor a screenful per line.
const MaxErrors = 20

// ErrorList is every error found in one file, sorted by line, so that a
// teacher fixing a lesson sees all its problems at once: the first
// MaxErrors of them, and the number of the others.
type ErrorList struct {
	Errors []*Error
	More   int // errors found beyond the first MaxErrors
}

// Add records an error, or only counts it once MaxErrors are kept.
func (l *ErrorList) Add(e *Error) {
	if len(l.Errors) < MaxErrors {
		l.Errors = append(l.Errors, e)
		return
	}
	l.More++
}

// Len is the number of errors found, kept or not.
func (l ErrorList) Len() int { return len(l.Errors) + l.More }

// Err returns the list, sorted, as an error, or nil when it is empty.
func (l *ErrorList) Err() error {
	if l.Len() == 0 {
		return nil
	}
	l.sortErrors()
	return *l
}

// Error joins the errors, one per line, and ends with "and N more errors"
// when some were only counted.
func (l ErrorList) Error() string {
	parts := make([]string, len(l.Errors), len(l.Errors)+1)
	for i, e := range l.Errors {
		parts[i] = e.Error()
	}
	switch {
	case l.More == 1:
		parts = append(parts, "and 1 more error")
	case l.More > 1:
		parts = append(parts, "and "+strconv.Itoa(l.More)+" more errors")
	}
	return strings.Join(parts, "\n")
}

// sortErrors orders errors by line, then column, keeping the order in which
// they were found for ties, so output is deterministic.
func (l ErrorList) sortErrors() {
	sort.SliceStable(l.Errors, func(i, j int) bool {
		a, b := l.Errors[i], l.Errors[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

package script

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/eoslab/eoslab/engine/termsafe"
)

// MaxLineBytes is the longest line the language accepts. Real lines are short;
// the limit keeps a pasted blob or a binary file from turning into one huge
// error message, and bounds the work per line.
const MaxLineBytes = 4096

// token is one word of a line, after quotes are removed.
type token struct {
	val    string // the word with quotes removed and escapes applied
	col    int    // 1-based column (in characters) where the word starts
	eq     int    // index in val of the first '=' outside quotes, or -1
	quoted bool   // some part of the word was quoted
	keyQ   bool   // a quote appeared before eq, so the word is not an option
}

// isOpt reports whether the word is a key=value option. A quoted key, as in
// "a=b" or "a"=b, makes the word a plain value: quoting is how a script sends
// a value that contains '='.
func (t token) isOpt() bool { return t.eq >= 0 && !t.keyQ }

func (t token) key() string   { return t.val[:t.eq] }
func (t token) value() string { return t.val[t.eq+1:] }

// lexError is a problem found while splitting a line into words. It carries a
// column because the message cannot quote the offending text (an invalid
// byte, a control character, a quote that never closes).
type lexError struct {
	col int
	msg string
}

// lex splits one line into words. It returns the line as written with the
// comment removed and surrounding blanks trimmed, which is Command.Text.
//
// Words are separated by spaces or tabs. A double-quoted part of a word may
// hold spaces, '#' and '='; inside quotes \" is a quote and \\ a backslash.
// '#' outside quotes starts a comment that runs to the end of the line.
func lex(line string) (string, []token, *lexError) {
	if len(line) > MaxLineBytes {
		return "", nil, &lexError{
			msg: "line is " + strconv.Itoa(len(line)) + " bytes long; the limit is " + strconv.Itoa(MaxLineBytes)}
	}
	if p, bad := termsafe.Find(line, true); bad {
		return "", nil, &lexError{col: p.Col, msg: p.Message()}
	}
	var (
		toks    []token
		cur     strings.Builder
		in      bool // inside a word
		inQuote bool
		t       token
		col     = 0
		end     = len(line) // where the comment starts
		qcol    int         // column of the open quote
	)
	flush := func() {
		if in {
			t.val = cur.String()
			toks = append(toks, t)
		}
		in = false
		cur.Reset()
	}
	for i := 0; i < len(line); {
		r, n := utf8.DecodeRuneInString(line[i:])
		col++
		if inQuote {
			switch {
			case r == '\\' && i+1 < len(line) && (line[i+1] == '"' || line[i+1] == '\\'):
				cur.WriteByte(line[i+1])
				i += 2
				col++
				continue
			case r == '"':
				inQuote = false
			default:
				cur.WriteRune(r)
			}
			i += n
			continue
		}
		switch {
		case r == '#':
			end = i
			i = len(line)
			continue
		case r == ' ' || r == '\t':
			flush()
		case r == '"':
			if !in {
				in, t = true, token{col: col, eq: -1}
			}
			inQuote, t.quoted, qcol = true, true, col
			if t.eq < 0 {
				t.keyQ = true
			}
		default:
			if !in {
				in, t = true, token{col: col, eq: -1}
			}
			if r == '=' && t.eq < 0 {
				t.eq = cur.Len()
			}
			cur.WriteRune(r)
		}
		i += n
	}
	if inQuote {
		return "", nil, &lexError{col: qcol, msg: "unterminated quote: this \" is never closed"}
	}
	flush()
	return strings.Trim(line[:end], " \t"), toks, nil
}

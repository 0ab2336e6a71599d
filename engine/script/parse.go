package script

import (
	"bytes"
	"io"
	"strings"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/termsafe"
)

// Parse reads a whole scenario file. It returns the commands, or, if any line
// is wrong, nil and an ErrorList with one error for every wrong line, sorted
// by line (the first MaxErrors of them, and the number of the others).
// Lines are numbered from 1; a line ends at "\n" and a trailing "\r" is
// ignored, as is a UTF-8 byte order mark at the start of the file.
func Parse(file string, src []byte) ([]Command, error) {
	return ParseReader(file, bytes.NewReader(src))
}

// ParseReader reads a scenario file from r as Parse does, a line at a time:
// it holds one line of input at a time, never the file, and stops with an
// error naming the file once it has read more than MaxFileBytes.
func ParseReader(file string, r io.Reader) ([]Command, error) {
	return parseLines(NewLines(file, r))
}

func parseLines(in *Lines) ([]Command, error) {
	d := NewDecls()
	var (
		cmds []Command
		errs ErrorList
	)
	for in.Next() {
		if in.TooLong() > 0 {
			errs.Add(in.TooLongError())
			// Its head may declare a name that later lines use.
			parseLine(in.file, in.Line(), in.Text(), d, true)
			continue
		}
		c, err := parseLine(in.file, in.Line(), in.Text(), d, true)
		switch {
		case err != nil:
			errs.Add(err)
		case c != nil:
			cmds = append(cmds, *c)
		}
	}
	if err := in.Err(); err != nil {
		return nil, err
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return cmds, nil
}

// ParseLine reads one line, as the sandbox prompt does. It returns nil, nil
// for a blank or comment-only line. On success it records the line's
// declarations in d; on error d is left unchanged, so the learner can fix the
// line and try again. A nil d means an empty scenario. The error, if any, is
// an *Error. Line numbers start at 1; smaller ones are taken as 1.
func ParseLine(file string, line int, text string, d *Decls) (*Command, error) {
	if d == nil {
		d = NewDecls()
	}
	text = strings.TrimSuffix(strings.TrimSuffix(text, "\n"), "\r")
	c, err := parseLine(file, max(line, 1), text, d, false)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// pctx is the state of parsing one line.
type pctx struct {
	d      *Decls
	f      *form
	cmd    *Command
	ctx    string // how messages name the command: "send", "producer A", "expect partition leo"
	name   string // setup: the name being declared
	nameOK bool   // setup: the name itself is valid and new
	raw    []kv   // every option of the line, checked or not, for salvage

	// The checked words, from which the form's build makes the action.
	actor string            // the client of a call, or the name a client declaration declares
	args  []string          // positional words after the verb (after "NAME call" for calls)
	opts  []kv              // key=value words in the order written, without message filters
	sels  []engine.Selector // message selectors with their filters, in order
}

// opt returns the value of an option of the line.
func (p *pctx) opt(key string) (string, bool) {
	for _, o := range p.opts {
		if o.Key == key {
			return o.Value, true
		}
	}
	return "", false
}

// parseLine parses one line against d. With salvage set (whole files), a
// declaration line that fails still declares its name when the name itself
// is fine, and a failed non-setup line still marks the cluster as started,
// so one mistake yields one error rather than a cascade.
func parseLine(file string, line int, text string, d *Decls, salvage bool) (*Command, *Error) {
	txt, toks, lerr := lex(text)
	if lerr != nil {
		if salvage && isDeclaration(text) {
			// Read the line without its bad characters for the names it
			// declares; its own error is the one about the character.
			if blank := termsafe.Blank(text); blank != text {
				parseLine(file, line, blank, d, true)
			}
		}
		return nil, &Error{File: file, Line: line, Col: lerr.col, Msg: lerr.msg}
	}
	if len(toks) == 0 {
		return nil, nil
	}
	p := &pctx{d: d, cmd: &Command{File: file, Line: line, Text: txt}}
	msg := p.parse(toks)
	if msg == "" {
		p.cmd.form = p.f
		if p.f.build != nil {
			p.cmd.Action = p.f.build(p)
		} else {
			p.cmd.Expect = buildExpect(wordsOf(p))
		}
		if p.f.declare != nil {
			p.f.declare(p)
		}
		if p.f.kind != Setup && d.startLine == 0 {
			d.startLine = line
		}
		return p.cmd, nil
	}
	if salvage && p.f != nil {
		if p.f.salvage != nil && p.nameOK {
			p.opts = p.raw // all options as written, valid or not
			p.f.salvage(p)
		}
		if p.f.kind != Setup && d.startLine == 0 {
			d.startLine = line
		}
	}
	return nil, &Error{File: file, Line: line, Msg: msg}
}

// isDeclaration reports whether a line starts with a setup verb: only such
// a line is worth reading again for its names (a binary file's lines are
// not, and each would cost a search for a verb it resembles).
func isDeclaration(text string) bool {
	w := strings.TrimLeft(text, " \t")
	if i := strings.IndexAny(w, " \t"); i >= 0 {
		w = w[:i]
	}
	forms := verbForms[w]
	return len(forms) > 0 && forms[0].kind == Setup
}

// parse fills p.cmd from the words of a line, or says what is wrong.
func (p *pctx) parse(toks []token) string {
	words, msg := p.head(toks)
	if msg != "" {
		return msg
	}
	f := p.f
	var pos []token
	for _, t := range words {
		if t.isOpt() {
			p.raw = append(p.raw, kv{Key: t.key(), Value: t.value()})
		} else {
			pos = append(pos, t)
		}
	}
	if f.named && len(pos) > 0 {
		p.name = pos[0].val
		p.ctx = f.verb + " " + show(p.name)
	}
	for _, t := range words {
		if t.isOpt() && t.key() != "" && !p.knownKey(t.key()) {
			// A declaration refused for an option still names its
			// client: salvage records it, so its later uses are not
			// reported as undeclared too.
			if f.named && len(pos) > 0 {
				if a, _ := f.argAt(0); a.check == nil || a.check(p, pos[0].val) == "" {
					p.nameOK = true
				}
			}
			return p.unknownOption(t.key(), t.value())
		}
	}
	if m := p.arity(pos); m != "" {
		return m
	}
	if m := p.words(words); m != "" {
		return m
	}
	if m := p.missing(); m != "" {
		return m
	}
	if f.rule != nil {
		if m := f.rule(p); m != "" {
			return p.ctx + ": " + m
		}
	}
	return ""
}

// head reads the verb, or the client name and call, picks the form, and
// returns the remaining words.
func (p *pctx) head(toks []token) ([]token, string) {
	h := toks[0]
	if h.isOpt() {
		return nil, "a line starts with a verb or a client's name, not " + showOpt(h.key(), h.value())
	}
	if forms := verbForms[h.val]; forms != nil {
		p.ctx = h.val
		return p.selectForm(forms, toks[1:])
	}
	if kind := p.d.KindOf(h.val); kind != NoClient {
		return p.call(kind, toks)
	}
	if f := callForms[h.val]; f != nil {
		return nil, h.val + " is a client call; write the client's name first: \"" + f.usage + "\""
	}
	if len(toks) > 1 && !toks[1].isOpt() {
		if f := callForms[toks[1].val]; f != nil {
			return nil, show(h.val) + " is not declared; declare it before its first use, e.g. \"" +
				f.on[0].String() + " " + show(h.val) + "\"" + didYouMean(h.val, few(p.d.clients))
		}
	}
	msg := "unknown verb " + show(h.val)
	if s := didYouMean(h.val, append(append([]string{}, verbOrder...), few(p.d.clients)...)); s != "" {
		return nil, msg + s
	}
	if c := closest(h.val, callOrder); c != "" {
		return nil, msg + "; did you mean \"NAME " + c + "\"? Calls follow the client's name"
	}
	if len(toks) > 1 && !toks[1].isOpt() {
		// "A sned t-0 x": probably an undeclared client and a misspelt call.
		hint := "; if " + show(h.val) + " is a client, declare it first (\"producer " + show(h.val) + "\" or \"consumer " + show(h.val) + "\")"
		if c := closest(toks[1].val, callOrder); c != "" {
			hint += " and check the call: did you mean " + c + "?"
		}
		return nil, msg + hint
	}
	return nil, msg
}

// call handles "NAME call ...": the call must exist and belong to the
// client's kind.
func (p *pctx) call(kind ClientKind, toks []token) ([]token, string) {
	name := toks[0].val
	var calls []string
	for _, c := range callOrder {
		if hasKind(callForms[c].on, kind) {
			calls = append(calls, c)
		}
	}
	if len(toks) < 2 || toks[1].isOpt() {
		return nil, name + " is a " + kind.String() + "; write one of its calls after the name: " + orList(calls)
	}
	m := toks[1].val
	f := callForms[m]
	if f == nil {
		return nil, "unknown " + kind.String() + " call " + show(m) + didYouMean(m, calls)
	}
	if !hasKind(f.on, kind) {
		return nil, name + " is a " + kind.String() + " (line " + itoa(p.d.clients[name].line) +
			") and has no " + m + " call; a " + kind.String() + "'s calls are " + orList(calls)
	}
	p.f, p.ctx = f, m
	p.actor = name
	return toks[2:], ""
}

func hasKind(kinds []ClientKind, k ClientKind) bool {
	for _, x := range kinds {
		if x == k {
			return true
		}
	}
	return false
}

// usage is the form's usage with NAME replaced by the actor for calls, as in
// `send needs a partition and at least one value: "A send TP VALUE..."`.
func (p *pctx) usage() string {
	if p.f.kind == Call {
		return strings.Replace(p.f.usage, "NAME", p.actor, 1)
	}
	return p.f.usage
}

// arity checks the number of positional words.
func (p *pctx) arity(pos []token) string {
	f := p.f
	min := f.min + f.restMin
	if len(pos) < min {
		return p.ctx + " needs " + f.need + ": \"" + p.usage() + "\""
	}
	if max := f.maxArgs(); max >= 0 && len(pos) > max {
		extra := pos[max]
		if extra.eq >= 0 && extra.keyQ {
			return p.ctx + ": unexpected " + show(extra.val) + " (a quoted key is not an option): \"" + p.usage() + "\""
		}
		takes := f.need
		if f.named {
			takes = "only KEY=VALUE options after the name"
		}
		return p.ctx + ": unexpected " + show(extra.val) + "; " + p.ctx + " takes " + takes + ": \"" + p.usage() + "\""
	}
	return ""
}

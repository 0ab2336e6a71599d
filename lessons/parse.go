package lessons

import (
	"bytes"
	"sort"
	"strconv"
	"strings"

	"eoslab/engine/script"
)

// Parse reads a lesson file. file names it in errors. On any problem it
// returns nil and a script.ErrorList with one "file:line: what was expected"
// error per problem, sorted by line, so a teacher sees every mistake at once.
// Action and expectation lines are parsed by the scenario language's own
// parser, so their errors read exactly as in a scenario file, with the
// lesson's line numbers (and columns counted in the lesson's line).
//
// Parse checks the file's shape only; Check also plays it.
func Parse(file string, src []byte) (*Lesson, error) {
	p := &parser{file: file, d: script.NewDecls(), seen: map[string]int{},
		l: &Lesson{File: file, Name: nameFromFile(file)}}
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	lines := bytes.Split(src, []byte("\n"))
	for i, b := range lines {
		p.line(i+1, string(bytes.TrimSuffix(b, []byte("\r"))))
	}
	p.end(len(lines))
	if len(p.errs) > 0 {
		sort.SliceStable(p.errs, func(i, j int) bool { return p.errs[i].Line < p.errs[j].Line })
		return nil, p.errs
	}
	return p.l, nil
}

// section is the part of the file being read.
type section int

const (
	inHeader section = iota
	inSetup
	inSteps
)

// The keys of a lesson file, by where they may appear.
var (
	headerKeys = []string{"title", "summary", "level", "intro"}
	stepKeys   = []string{"say", "do", "expect", "ask", "choice", "explain", "more", "source", "note"}
)

// parser reads a lesson file line by line; it collects every error.
type parser struct {
	file   string
	l      *Lesson
	d      *script.Decls
	errs   script.ErrorList
	sec    section
	seen   map[string]int // header keys and setup: -> line
	intro  prose
	headed bool // the header has been checked
	step   *stepBuilder
}

func (p *parser) errorf(line int, msg string) {
	p.errs = append(p.errs, &script.Error{File: p.file, Line: line, Msg: msg})
}

// line handles one line of the file.
func (p *parser) line(n int, raw string) {
	text := strings.TrimSpace(raw)
	if text == "" || strings.HasPrefix(text, "#") {
		return
	}
	key, val, col, ok := splitKey(raw)
	if !ok {
		switch p.sec {
		case inSetup:
			p.setupLine(n, text, runeCol(raw, strings.Index(raw, text)))
		case inSteps:
			p.errorf(n, "expected a key such as \"say:\" or \"do:\" at the start of the line, found "+quote(firstWord(text))+
				"; a step holds "+keyList(stepKeys))
		default:
			p.errorf(n, "expected a key such as \"title:\" at the start of the line, found "+quote(firstWord(text))+
				"; a lesson starts with title:, summary: and level:, then setup: and the steps")
		}
		return
	}
	switch {
	case contains(headerKeys, key):
		p.headerKey(n, key, val)
	case key == "setup":
		p.setupKey(n, val)
	case key == "step":
		p.stepKey(n, val)
	case contains(stepKeys, key):
		if p.step == nil {
			p.errorf(n, key+": belongs to a step; start one with \"step: TITLE\"")
			return
		}
		p.stepLine(n, key, val, col)
	default:
		p.errorf(n, "unknown key "+quote(key+":")+"; a lesson has "+keyList(headerKeys)+", setup:, step:, and in a step "+keyList(stepKeys))
	}
}

// headerKey handles title:, summary:, level: and intro:.
func (p *parser) headerKey(n int, key, val string) {
	if p.sec != inHeader {
		p.errorf(n, key+": belongs at the top of the file, before setup: and the steps")
		return
	}
	if key == "intro" {
		p.intro.add(val)
		return
	}
	if first, dup := p.seen[key]; dup {
		p.errorf(n, key+": is given twice (first on line "+strconv.Itoa(first)+")")
		return
	}
	p.seen[key] = n
	if val == "" {
		p.errorf(n, key+": needs a text, e.g. "+quote(key+": "+headerExample[key]))
		return
	}
	switch key {
	case "title":
		p.l.Title = val
	case "summary":
		p.l.Summary = val
	case "level":
		if !contains(Levels, val) {
			p.errorf(n, "level: must be "+orList(Levels)+", got "+quote(val))
			return
		}
		p.l.Level = val
	}
}

var headerExample = map[string]string{"title": "The lost ACK", "summary": "Why a retry can write twice",
	"level": "beginner"}

// endHeader checks the header once, when the first setup: or step: ends it.
func (p *parser) endHeader(n int, what string) {
	if p.headed {
		return
	}
	p.headed = true
	p.l.Intro = p.intro.String()
	for _, k := range []string{"title", "summary", "level"} {
		if _, ok := p.seen[k]; !ok {
			p.errorf(n, "expected "+quote(k+": ...")+" before "+what+"; a lesson starts with title:, summary: and level:")
		}
	}
}

// setupKey starts the setup block.
func (p *parser) setupKey(n int, val string) {
	if p.sec == inSteps {
		p.errorf(n, "setup: must come before the first step:")
		return
	}
	if first, dup := p.seen["setup"]; dup {
		p.errorf(n, "setup: is given twice (first on line "+strconv.Itoa(first)+")")
		return
	}
	p.seen["setup"] = n
	p.endHeader(n, "setup:")
	p.sec = inSetup
	if val != "" {
		p.errorf(n, "setup: takes no text on its line; write one declaration per line below it, e.g. \"topic t\"")
	}
}

// setupLine parses a declaration of the setup block.
func (p *parser) setupLine(n int, text string, col int) {
	c, err := p.parseScenario(n, text, col, 0)
	if err != nil {
		p.salvage(n, text)
		return
	}
	if c == nil {
		return
	}
	if c.Kind() != script.Setup {
		p.errorf(n, "setup: holds only declarations (brokers, config, topic, producer, consumer, processor); "+
			"put "+quote(c.Text)+" in a step's do:")
		return
	}
	p.l.Setup = append(p.l.Setup, *c)
}

// salvage declares the name of a declaration that failed for another reason
// (a bad option), so one mistake yields one error rather than an "is not
// declared" error on every later line that uses the name.
func (p *parser) salvage(n int, text string) {
	f := strings.Fields(text)
	if len(f) < 2 || !contains([]string{"topic", "producer", "consumer"}, f[0]) {
		return
	}
	_, _ = script.ParseLine(p.file, n, f[0]+" "+f[1], p.d)
}

// parseScenario parses one scenario-language line of the lesson. col is the
// 1-based column where text starts in the lesson's line and prefix the number
// of characters added in front of what the teacher wrote, so an error's
// column points into the lesson file. The error is recorded here.
func (p *parser) parseScenario(n int, text string, col, prefix int) (*script.Command, error) {
	c, err := script.ParseLine(p.file, n, text, p.d)
	if err == nil {
		return c, nil
	}
	se, ok := err.(*script.Error)
	if !ok {
		se = &script.Error{File: p.file, Line: n, Msg: err.Error()}
	}
	if se.Col > 0 {
		se.Col = max(se.Col-prefix, 1) + col - 1
	}
	p.errs = append(p.errs, se)
	return nil, se
}

// end checks what can only be checked once the file is read.
func (p *parser) end(last int) {
	p.finishStep()
	if !p.headed {
		p.endHeader(last, "the end of the file")
	}
	if len(p.l.Steps) == 0 {
		p.errorf(last, "expected at least one \"step: TITLE\"")
		return
	}
	if cp := p.l.Steps[len(p.l.Steps)-1].Ask; cp != nil {
		p.errorf(cp.Line, "the last step cannot ask: a checkpoint is judged by the step after it")
	}
}

package lessons

import (
	"bytes"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

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

type section int

const (
	inHeader section = iota
	inSetup
	inSteps
)

// The keys of a lesson file, by where they may appear.
var (
	headerKeys = []string{"title", "summary", "level", "intro"}
	stepKeys   = []string{"say", "do", "expect", "ask", "choice", "explain", "note"}
)

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

// prose accumulates say:, note:, explain:, intro: and ask: text: lines join
// into one paragraph, and an empty line of the key starts a new one.
type prose struct {
	paras []string
	brk   bool
}

func (p *prose) add(s string) {
	switch {
	case s == "":
		p.brk = len(p.paras) > 0
	case len(p.paras) == 0 || p.brk:
		p.paras = append(p.paras, s)
		p.brk = false
	default:
		p.paras[len(p.paras)-1] += " " + s
	}
}

func (p *prose) String() string { return strings.Join(p.paras, "\n\n") }

type stepBuilder struct {
	s             Step
	say, note     prose
	question, exp prose
	dos, says     int
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
	if len(f) < 2 || !contains([]string{"topic", "producer", "consumer", "processor"}, f[0]) {
		return
	}
	if f[0] == "processor" {
		return // a processor needs its options; nothing short to salvage
	}
	_, _ = script.ParseLine(p.file, n, f[0]+" "+f[1], p.d)
}

func (p *parser) stepKey(n int, val string) {
	p.endHeader(n, "the first step:")
	p.finishStep()
	p.sec = inSteps
	p.step = &stepBuilder{s: Step{Line: n, Title: val}}
	if val == "" {
		p.errorf(n, "step: needs a title, e.g. \"step: The ACK is lost\"")
	}
}

func (p *parser) stepLine(n int, key, val string, col int) {
	b := p.step
	switch key {
	case "say":
		b.say.add(val)
		if val != "" {
			b.says++
		}
	case "note":
		b.note.add(val)
	case "do":
		b.dos++
		p.doLine(n, val, col)
	case "expect":
		if c := p.expectLine(n, val, col); c != nil {
			b.s.Commands = append(b.s.Commands, *c)
		}
	case "ask":
		if b.s.Ask != nil {
			p.errorf(n, "a step holds one checkpoint; ask: was already given on line "+strconv.Itoa(b.s.Ask.Line))
			return
		}
		b.s.Ask = &Checkpoint{Line: n}
		if val == "" {
			p.errorf(n, "ask: needs a question, e.g. \"ask: What does the broker do with the retry?\"")
		}
		b.question.add(val)
	case "choice":
		p.choiceLine(n, val, col)
	case "explain":
		if b.s.Ask == nil {
			p.errorf(n, "explain: needs an ask: before it in this step")
			return
		}
		b.exp.add(val)
	}
}

func (p *parser) doLine(n int, val string, col int) {
	if val == "" {
		p.errorf(n, "do: needs a command, e.g. \"do: A send t-0 hello\"")
		return
	}
	c, err := p.parseScenario(n, val, col, 0)
	if err != nil {
		return
	}
	switch {
	case c == nil:
		p.errorf(n, "do: needs a command, e.g. \"do: A send t-0 hello\"")
	case c.Kind() == script.Setup:
		p.errorf(n, "do: runs actions; declarations belong in setup:, so move "+quote(c.Text)+" there")
	case c.Kind() == script.Expect:
		p.errorf(n, "do: runs actions; write an expectation as \"expect: "+strings.TrimSpace(strings.TrimPrefix(c.Text, "expect"))+"\"")
	default:
		p.step.s.Commands = append(p.step.s.Commands, *c)
	}
}

// expectLine parses an expectation written with or without its verb:
// "expect: partition t-0 leo 1" and "expect: expect partition t-0 leo 1"
// mean the same.
func (p *parser) expectLine(n int, val string, col int) *script.Command {
	if val == "" {
		p.errorf(n, "expect: needs an expectation, e.g. \"expect: partition t-0 leo 1\"")
		return nil
	}
	text, prefix := val, 0
	if firstWord(val) != "expect" {
		text, prefix = "expect "+val, len("expect ")
	}
	c, err := p.parseScenario(n, text, col, prefix)
	if err != nil || c == nil {
		return nil
	}
	return c
}

// choiceLine parses "choice: TEXT | expect ... [| expect ...]".
func (p *parser) choiceLine(n int, val string, col int) {
	cp := p.step.s.Ask
	if cp == nil {
		p.errorf(n, "choice: needs an ask: before it in this step")
		return
	}
	if len(cp.Choices) == MaxChoices {
		p.errorf(n, "a checkpoint has at most "+strconv.Itoa(MaxChoices)+" choices; this is choice "+strconv.Itoa(len(cp.Choices)+1))
		return
	}
	ch := Choice{Line: n}
	defer func() { cp.Choices = append(cp.Choices, ch) }()
	bar := strings.IndexByte(val, '|')
	if bar < 0 {
		p.errorf(n, "choice: needs \"| expect ...\" after its text: the right choice is the one whose expectation holds after the next step")
		return
	}
	ch.Text = strings.TrimSpace(val[:bar])
	if ch.Text == "" {
		p.errorf(n, "choice: needs a text before \"|\"")
	}
	for _, part := range splitBars(val, bar) {
		text := strings.TrimSpace(val[part[0]:part[1]])
		pcol := col + utf8.RuneCountInString(val[:part[0]]) + (len(val[part[0]:part[1]]) - len(strings.TrimLeft(val[part[0]:part[1]], " \t")))
		if firstWord(text) != "expect" {
			if text == "" {
				text = "nothing"
			}
			p.errorf(n, "choice: after \"|\" comes an expectation such as \"expect partition t-0 leo 2\", found "+quote(text))
			continue
		}
		if c, err := p.parseScenario(n, text, pcol, 0); err == nil && c != nil {
			ch.Expects = append(ch.Expects, *c)
		}
	}
}

// splitBars returns the byte ranges of the conditions after the first bar:
// the text is split on "|" outside double quotes.
func splitBars(s string, first int) [][2]int {
	var out [][2]int
	start, inQuote := first+1, false
	for i := first + 1; i < len(s); i++ {
		switch s[i] {
		case '"':
			inQuote = !inQuote
		case '|':
			if !inQuote {
				out = append(out, [2]int{start, i})
				start = i + 1
			}
		}
	}
	return append(out, [2]int{start, len(s)})
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

// finishStep closes the current step and checks it is complete.
func (p *parser) finishStep() {
	b := p.step
	if b == nil {
		return
	}
	p.step = nil
	s := b.s
	s.Say, s.Note = b.say.String(), b.note.String()
	what := "step " + quote(s.Title)
	if s.Title == "" {
		what = "this step"
	}
	if b.dos == 0 {
		p.errorf(s.Line, what+" has no do: line; every step runs at least one action, e.g. \"do: step\"")
	}
	if b.says == 0 {
		p.errorf(s.Line, what+" has no say: line; tell the learner what happens")
	}
	if cp := s.Ask; cp != nil {
		cp.Question, cp.Explain = b.question.String(), b.exp.String()
		if len(cp.Choices) < 2 {
			p.errorf(cp.Line, "ask: needs at least 2 choice: lines, found "+strconv.Itoa(len(cp.Choices)))
		}
		if cp.Explain == "" {
			p.errorf(cp.Line, "ask: needs an explain: line saying why the right choice is right")
		}
	}
	p.l.Steps = append(p.l.Steps, s)
}

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

// splitKey recognises "key: value" where key is lower-case letters. It
// returns the value trimmed and the 1-based column where the value starts.
func splitKey(raw string) (key, val string, col int, ok bool) {
	start := len(raw) - len(strings.TrimLeft(raw, " \t"))
	i := start
	for i < len(raw) && raw[i] >= 'a' && raw[i] <= 'z' {
		i++
	}
	if i == start || i >= len(raw) || raw[i] != ':' {
		return "", "", 0, false
	}
	key = raw[start:i]
	rest := raw[i+1:]
	lead := len(rest) - len(strings.TrimLeft(rest, " \t"))
	return key, strings.TrimSpace(rest), runeCol(raw, i+1+lead), true
}

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

package lessons

import (
	"bytes"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/eoslab/eoslab/engine/script"
	"github.com/eoslab/eoslab/engine/termsafe"
)

// Parse reads a lesson file. file names it in errors. On any problem it
// returns nil and a script.ErrorList with one "file:line: what was expected"
// error per problem, sorted by line (the first script.MaxErrors of them, and
// the number of the others), so a teacher sees every mistake at once.
// Action and expectation lines are parsed by the scenario language's own
// parser, so their errors read exactly as in a scenario file, with the
// lesson's line numbers (and columns counted in the lesson's line).
//
// Parse checks the file's shape only; Check also plays it.
func Parse(file string, src []byte) (*Lesson, error) {
	return ParseReader(file, bytes.NewReader(src))
}

// ParseReader reads a lesson file from r as Parse does, a line at a time:
// it holds one line of input at a time, never the file, and stops with an
// error naming the file once it has read more than script.MaxFileBytes.
//
// A lesson plays under both transaction protocols: Kafka 3's classic one
// (transaction.version=1) and Kafka 4's (transaction.version=2, KIP-890).
// A key written with a version, "say@4:" or "choice@3:", belongs to that
// version only; the file is read once into two lessons, the one returned
// (Kafka 3) and its twin (ForKafka(4)), and the errors of both are reported
// together, each once.
func ParseReader(file string, r io.Reader) (*Lesson, error) {
	l, _, err := parseBoth(file, r, false)
	return l, err
}

// parseBoth reads a lesson file, or with drill set a drill question
// (drill.go), once for each version, and returns the Kafka 3 reading with
// its twin, and the Kafka 3 parser (whose meta holds a drill question's
// header).
func parseBoth(file string, r io.Reader, drill bool) (*Lesson, *parser, error) {
	var ps [2]*parser
	for i, k := range Versions {
		ps[i] = &parser{file: file, kafka: k, d: script.NewDecls(), seen: map[string]int{},
			l: &Lesson{File: file, Name: nameFromFile(file), Kafka: k}, drill: drill, meta: map[string]string{}}
	}
	in := script.NewLines(file, r)
	for in.Next() {
		for _, p := range ps {
			if in.TooLong() > 0 {
				p.errs.Add(in.TooLongError())
				p.refused(in.Line(), termsafe.Blank(in.Text()))
				continue
			}
			p.line(in.Line(), in.Text())
		}
	}
	if err := in.Err(); err != nil {
		return nil, nil, err
	}
	for _, p := range ps {
		p.end(in.Line())
		if drill {
			p.endDrill()
		}
	}
	if err := mergeErrors(ps[0].errs, ps[1].errs); err != nil {
		return nil, nil, err
	}
	ps[0].l.twin, ps[1].l.twin = ps[1].l, ps[0].l
	return ps[0].l, ps[0], nil
}

// mergeErrors joins the errors of the two versions' readings of one file,
// each error once. Most errors are found by both: a line that is not
// version-specific is read twice.
func mergeErrors(lists ...script.ErrorList) error {
	var out script.ErrorList
	seen := map[string]bool{}
	for _, l := range lists {
		for _, e := range l.Errors {
			if k := e.Error(); !seen[k] {
				seen[k] = true
				out.Add(e)
			}
		}
		out.More += l.More
	}
	return out.Err()
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
	headerKeys = []string{"title", "summary", "level", "minutes", "intro"}
	stepKeys   = []string{"say", "do", "expect", "ask", "choice", "explain", "more", "source", "note", "versions"}
	// versionedKeys may carry "@3" or "@4": the line is for that version
	// only. A step itself cannot: both versions have the same steps, so
	// switching version keeps the learner's place.
	versionedKeys = []string{"intro", "say", "do", "expect", "ask", "choice", "explain", "more", "source", "note"}
	// drillStepKeys are the keys a drill question's step has beside a
	// lesson step's: the hint shown on request and a wrong choice's why.
	drillStepKeys = []string{"hint", "why"}
)

// versionedKeysFor are the keys that may carry a version: a drill
// question's hint: and why: too.
func (p *parser) versionedKeysFor() []string {
	if p.drill {
		return append(slices.Clip(versionedKeys), drillStepKeys...)
	}
	return versionedKeys
}

// stepKeysFor are the keys a step may hold: a drill question's steps add
// hint: and why:.
func (p *parser) stepKeysFor() []string {
	if p.drill {
		return append(slices.Clip(stepKeys), drillStepKeys...)
	}
	return stepKeys
}

// parser reads a lesson file line by line; it collects every error.
type parser struct {
	file  string
	kafka int // the version this reading keeps: 3 or 4
	// drill reads a drill question (drill.go): its header is question:,
	// concept: and lesson:, kept in meta, instead of a lesson's.
	drill  bool
	meta   map[string]string
	l      *Lesson
	d      *script.Decls
	errs   script.ErrorList
	sec    section
	seen   map[string]int // header keys and setup: -> line
	intro  prose
	headed bool // the header has been checked
	step   *stepBuilder
	quiet  int // a refused line being salvaged: its errors are not recorded
}

func (p *parser) errorf(line int, msg string) {
	p.add(&script.Error{File: p.file, Line: line, Msg: msg})
}

// add records an error, unless it is about a line already refused.
func (p *parser) add(e *script.Error) {
	if e.Line != p.quiet {
		p.errs.Add(e)
	}
}

// refused reads a line that was refused (a bad character, too long) from
// what is left of it, with its errors silenced: the line still counts as
// the key it starts with and declares what it declares, so one mistake
// makes one error and not one on every later line that depends on it.
func (p *parser) refused(n int, text string) {
	if _, _, _, ok := splitKey(text); !ok {
		// Not a key: in setup a declaration, elsewhere nothing to keep.
		if p.sec == inSetup {
			p.salvage(n, strings.TrimSpace(text))
		}
		return
	}
	p.quiet = n
	p.line(n, text)
	p.quiet = 0
}

// line handles one line of the file. A line with a character a terminal
// would act on (ESC, a C1 control, a bidirectional override) or with
// invalid UTF-8 is refused before anything else reads it: its text would
// reach the learner's screen in the list, the narration or a transcript.
func (p *parser) line(n int, raw string) {
	if bad, found := termsafe.Find(raw, true); found {
		p.errs.Add(&script.Error{File: p.file, Line: n, Col: bad.Col, Msg: bad.Message()})
		p.refused(n, termsafe.Blank(raw))
		return
	}
	text := strings.TrimSpace(raw)
	if text == "" || strings.HasPrefix(text, "#") {
		return
	}
	key, val, col, ok := splitKey(raw)
	if ok {
		k, ver := p.keyVersion(n, key)
		if ver != 0 && ver != p.kafka {
			return // the other version's line
		}
		key = k
	}
	if !ok {
		switch p.sec {
		case inSetup:
			p.setupLine(n, text, runeCol(raw, strings.Index(raw, text)))
		case inSteps:
			p.errorf(n, "expected a key such as \"say:\" or \"do:\" at the start of the line, found "+quote(firstWord(text))+
				"; a step holds "+keyList(p.stepKeysFor()))
		default:
			p.errorf(n, "expected a key such as "+quote(p.required()[0]+":")+" at the start of the line, found "+quote(firstWord(text))+
				"; "+p.starts()+", then setup: and the steps")
		}
		return
	}
	switch {
	case contains(p.headerKeys(), key):
		p.headerKey(n, key, val)
	case key == "setup":
		p.setupKey(n, val)
	case key == "step":
		p.stepKey(n, val)
	case contains(p.stepKeysFor(), key):
		if p.step == nil {
			p.errorf(n, key+": belongs to a step; start one with \"step: TITLE\"")
			return
		}
		p.stepLine(n, key, val, col)
	default:
		p.errorf(n, "unknown key "+quote(key+":")+"; a "+p.what()+" has "+keyList(p.headerKeys())+", setup:, step:, and in a step "+keyList(p.stepKeysFor()))
	}
}

// keyVersion splits "say@4" into "say" and 4. A key without "@" has
// version 0: it belongs to both. A version other than 3 or 4, or one on
// a key that cannot have one, is an error, and the line is then read as
// the plain key, so one mistake makes one error.
func (p *parser) keyVersion(n int, key string) (string, int) {
	at := strings.IndexByte(key, '@')
	if at < 0 {
		return key, 0
	}
	base, v := key[:at], key[at+1:]
	if !contains(p.versionedKeysFor(), base) {
		p.errorf(n, quote(key+":")+": only "+keyList(p.versionedKeysFor())+" may be given for one Kafka version")
		return base, 0
	}
	switch v {
	case "3":
		return base, 3
	case "4":
		return base, 4
	}
	p.errorf(n, quote(key+":")+": the version after \"@\" is 3 (Kafka 3.x, transaction.version=1) or 4 (Kafka 4.x, transaction.version=2), e.g. \""+base+"@4:\"")
	return base, 0
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
	if p.drill {
		p.meta[key] = val
		return
	}
	switch key {
	case "title":
		p.l.Title = val
	case "summary":
		p.l.Summary = val
	case "level":
		if !contains(Levels, val) {
			msg := "level: must be " + orList(Levels) + ", got " + quote(val)
			if was, ok := oldLevels[val]; ok {
				msg += "; the levels name the learning path's parts now: " + quote(val) + " was usually " + quote(was)
			}
			p.errorf(n, msg)
			return
		}
		p.l.Level = val
	case "minutes":
		m, err := strconv.Atoi(val)
		if err != nil || m < 1 || m > MaxMinutes {
			p.errorf(n, "minutes: must be a whole number of minutes from 1 to "+strconv.Itoa(MaxMinutes)+
				" (how long the lesson takes), got "+quote(val))
			return
		}
		p.l.Minutes = m
	}
}

// headerKeys, required, starts and what tell a lesson's header from a
// drill question's.
func (p *parser) headerKeys() []string {
	if p.drill {
		return drillHeaderKeys
	}
	return headerKeys
}

func (p *parser) required() []string {
	if p.drill {
		return drillHeaderKeys
	}
	return requiredHeader
}

func (p *parser) starts() string {
	if p.drill {
		return "a drill question starts with question:, concept:, kind: and lesson:"
	}
	return "a lesson starts with title:, summary:, level: and minutes:"
}

func (p *parser) what() string {
	if p.drill {
		return "drill question"
	}
	return "lesson"
}

// oldLevels maps the levels of earlier lesson files to the part of the
// path their lessons usually belong to, for the error message.
var oldLevels = map[string]string{"beginner": "basics", "intermediate": "transactions", "advanced": "failures"}

// requiredHeader are the header keys every lesson gives.
var requiredHeader = []string{"title", "summary", "level", "minutes"}

var headerExample = map[string]string{"title": "The lost ACK", "summary": "Why a retry can write twice",
	"level": "basics", "minutes": "8", "question": "restart-new-pid", "concept": "idempotence", "kind": "failure", "lesson": "lost-ack"}

// endHeader checks the header once, when the first setup: or step: ends it.
func (p *parser) endHeader(n int, what string) {
	if p.headed {
		return
	}
	p.headed = true
	p.l.Intro = p.intro.String()
	for _, k := range p.required() {
		if _, ok := p.seen[k]; !ok {
			p.errorf(n, "expected "+quote(k+": ...")+" before "+what+"; "+p.starts())
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
	verb := text
	if i := strings.IndexAny(text, " \t"); i >= 0 {
		verb = text[:i]
	}
	if !contains([]string{"topic", "producer", "consumer"}, verb) {
		return // cheap for a line of a binary file
	}
	f := strings.Fields(text)
	if len(f) < 2 {
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
	p.add(se)
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

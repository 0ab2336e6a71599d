package lessons

import (
	"strconv"
	"strings"

	"github.com/eoslab/eoslab/engine/script"
	"github.com/eoslab/eoslab/engine/termsafe"
)

// A written drill question has no setup and no steps: it asks what an
// interviewer asks (why a setting exists, what an error code makes the
// producer do, when not to use transactions), which no frozen state can
// show. Its right answer is therefore written, on its right: line, and it
// must say where a learner can check it (source:, a Kafka class and
// method, a KIP, a JIRA or a documented config name):
//
//	question: idempotence-acks
//	concept: producer configuration
//	kind: configuration
//	lesson: sequences
//	source: ProducerConfig (enable.idempotence, acks)
//	ask: An idempotent producer is configured with acks=1. What happens?
//	right: KafkaProducer refuses the configuration
//	choice: Idempotence is quietly turned off
//	why: only an implicit conflict turns it off; an explicit one is an error
//	hint: Which acks value can promise the write is on every in-sync replica?
//	explain: ...
//
// Every choice: has its why:, the line that follows it. ask:, right:,
// choice:, why:, hint: and explain: may carry "@3" or "@4" for one Kafka
// version, as in a lesson.

// Kinds are what a drill question asks about, in the order the drill
// file lists them.
var Kinds = []string{"explain", "configuration", "failure", "trade-off", "design"}

// writtenKeys are the keys of a written question.
var (
	writtenHeaderKeys = []string{"question", "concept", "kind", "lesson", "source"}
	writtenBodyKeys   = []string{"ask", "right", "choice", "why", "hint", "explain"}
)

// written is a written question's checkpoint under each version (index 0
// is Kafka 3) and its right choice, 1-based.
type written struct {
	cp    [2]Checkpoint
	right [2]int
}

func versionIndex(kafka int) int {
	if kafka >= 4 {
		return 1
	}
	return 0
}

// isWritten reports whether a drill question's lines hold no setup: and
// no step:, which makes it a written question.
func isWritten(lines [][]byte, start, end int) bool {
	for _, l := range lines[start:end] {
		if key, _, _, ok := splitKey(string(l)); ok && (key == "setup" || key == "step") {
			return false
		}
	}
	return true
}

// writtenBuilder reads one written question under one version.
type writtenBuilder struct {
	file         string
	kafka        int
	errs         *script.ErrorList
	cp           Checkpoint
	right        int
	ask, exp, hi prose
	askLine      int
	// whyLine is where each choice's why: was given (0: not given).
	whyLine []int
	// found are the whole-question problems Kafka 3's reading reported,
	// so that Kafka 4's reports only its own, prefixed "under Kafka 4".
	found map[string]bool
}

// report records a whole-question problem once: under Kafka 4 only when
// Kafka 3's reading did not find it too.
func (b *writtenBuilder) report(line int, msg string) {
	k := strconv.Itoa(line) + ":" + msg
	if b.kafka == 4 {
		if b.found[k] {
			return
		}
		msg = "under Kafka 4: " + msg
	}
	b.found[k] = true
	b.errorf(line, msg)
}

func (b *writtenBuilder) errorf(line int, msg string) {
	b.errs.Add(&script.Error{File: b.file, Line: line, Msg: msg})
}

// parseWritten parses lines[start:end] of file as a written question.
func parseWritten(file string, lines [][]byte, start, end int) (*DrillQuestion, error) {
	var errs script.ErrorList
	meta := map[string]string{}
	seen := map[string]int{}
	var bs [2]*writtenBuilder
	found := map[string]bool{}
	for i, k := range Versions {
		bs[i] = &writtenBuilder{file: file, kafka: k, errs: &errs, found: found}
	}
	first := start + 1
	for i := start; i < end; i++ {
		n, raw := i+1, strings.TrimRight(string(lines[i]), "\r\n")
		if bad, found := termsafe.Find(raw, true); found {
			errs.Add(&script.Error{File: file, Line: n, Col: bad.Col, Msg: bad.Message()})
			continue
		}
		text := strings.TrimSpace(raw)
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		key, val, _, ok := splitKey(raw)
		if !ok {
			errs.Add(&script.Error{File: file, Line: n, Msg: "expected a key such as \"ask:\" or \"choice:\" at the start of the line, found " +
				quote(firstWord(text)) + "; a written question has " + keyList(writtenHeaderKeys) + " and " + keyList(writtenBodyKeys)})
			continue
		}
		base, ver := key, 0
		if at := strings.IndexByte(key, '@'); at >= 0 {
			base = key[:at]
			switch key[at+1:] {
			case "3":
				ver = 3
			case "4":
				ver = 4
			default:
				errs.Add(&script.Error{File: file, Line: n, Msg: quote(key+":") + ": the version after \"@\" is 3 or 4, e.g. \"" + base + "@4:\""})
				continue
			}
		}
		switch {
		case contains(writtenHeaderKeys, base):
			if ver != 0 {
				errs.Add(&script.Error{File: file, Line: n, Msg: quote(key+":") + ": a question's " + base + ": is the same under both versions; only " + keyList(writtenBodyKeys) + " take \"@3\" or \"@4\""})
				continue
			}
			if at, dup := seen[base]; dup {
				errs.Add(&script.Error{File: file, Line: n, Msg: base + ": is given twice (first on line " + strconv.Itoa(at) + ")"})
				continue
			}
			seen[base] = n
			if val == "" {
				errs.Add(&script.Error{File: file, Line: n, Msg: base + ": needs a text"})
				continue
			}
			meta[base] = val
		case contains(writtenBodyKeys, base):
			for _, b := range bs {
				if ver == 0 || ver == b.kafka {
					b.line(n, base, val)
				}
			}
		default:
			errs.Add(&script.Error{File: file, Line: n, Msg: "unknown key " + quote(key+":") + "; a written question has " +
				keyList(writtenHeaderKeys) + " and " + keyList(writtenBodyKeys) + " (a question with setup: and step: is played instead)"})
		}
	}
	for _, k := range writtenHeaderKeys {
		if _, ok := seen[k]; !ok {
			errs.Add(&script.Error{File: file, Line: first, Msg: "a written question needs " + quote(k+": ...") + " (it has " + keyList(writtenHeaderKeys) + ")"})
		}
	}
	if k, ok := meta["kind"]; ok && !contains(Kinds, k) {
		errs.Add(&script.Error{File: file, Line: seen["kind"], Msg: "kind: must be " + orList(Kinds) + ", got " + quote(k)})
	}
	w := &written{}
	for i, b := range bs {
		b.finish(first)
		w.cp[i], w.right[i] = b.cp, b.right
	}
	if err := mergeErrors(errs); err != nil {
		return nil, err
	}
	return &DrillQuestion{ID: meta["question"], Concept: meta["concept"], Kind: meta["kind"], Lesson: meta["lesson"],
		Ref: meta["source"], written: w, line: first}, nil
}

// line reads one body key for this version.
func (b *writtenBuilder) line(n int, key, val string) {
	switch key {
	case "ask":
		if b.askLine == 0 {
			b.askLine = n
			b.cp.Line = n
		}
		b.ask.add(val)
	case "right", "choice":
		if len(b.cp.Choices) == MaxChoices {
			b.errorf(n, "a question has at most "+strconv.Itoa(MaxChoices)+" choices (right: and choice: lines); this is choice "+strconv.Itoa(len(b.cp.Choices)+1))
			return
		}
		if val == "" {
			b.errorf(n, key+": needs a text: the answer as the learner reads it")
		}
		if strings.Contains(val, "|") {
			b.errorf(n, key+": of a written question takes no \"| expect ...\": its right answer is the right: line")
		}
		if key == "right" {
			if b.right != 0 {
				b.errorf(n, "right: is given twice (first on line "+strconv.Itoa(b.cp.Choices[b.right-1].Line)+"); a question has one right answer")
				return
			}
			b.right = len(b.cp.Choices) + 1
		}
		b.cp.Choices = append(b.cp.Choices, Choice{Line: n, Text: val})
		b.whyLine = append(b.whyLine, 0)
	case "why":
		k := len(b.cp.Choices)
		switch {
		case k == 0:
			b.errorf(n, "why: follows the choice: it explains; write it after a choice: line")
		case k == b.right:
			b.errorf(n, "why: says why a wrong choice is wrong; the right: answer's reason is the explain: line")
		case val == "":
			b.errorf(n, "why: needs a text: one line on why this choice is wrong")
		case b.whyLine[k-1] != 0:
			b.errorf(n, "why: is given twice for the choice on line "+strconv.Itoa(b.cp.Choices[k-1].Line))
		default:
			b.cp.Choices[k-1].Why = val
			b.whyLine[k-1] = n
		}
	case "hint":
		b.hi.add(val)
	case "explain":
		b.exp.add(val)
	}
}

// finish checks this version's reading is a whole question.
func (b *writtenBuilder) finish(first int) {
	b.cp.Question, b.cp.Explain, b.cp.Hint = b.ask.String(), b.exp.String(), b.hi.String()
	at := b.askLine
	if at == 0 {
		at = first
	}
	if b.cp.Question == "" {
		b.report(at, "a written question needs an ask: line")
	}
	if b.right == 0 {
		b.report(at, "a written question needs one right: line, its right answer")
	}
	if len(b.cp.Choices) < 2 {
		b.report(at, "a question needs at least 2 choices (one right: and choice: lines), found "+strconv.Itoa(len(b.cp.Choices)))
	}
	for k, c := range b.cp.Choices {
		if k+1 != b.right && c.Why == "" {
			b.report(c.Line, "choice: needs a why: line after it: one line on why it is wrong")
		}
	}
	if b.cp.Hint == "" {
		b.report(at, "a drill question needs a hint: line, shown on request before the answer")
	}
	if b.cp.Explain == "" {
		b.report(at, "a drill question needs an explain: line saying why the right answer is right")
	}
}

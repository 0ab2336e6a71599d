package lessons

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// stepBuilder collects one step while its lines are read.
type stepBuilder struct {
	s             Step
	say, note     prose
	more, source  prose
	versions      prose
	question, exp prose
	hint          prose
	dos, says     int
}

// stepKey starts a step, closing the previous one.
func (p *parser) stepKey(n int, val string) {
	p.endHeader(n, "the first step:")
	p.finishStep()
	p.sec = inSteps
	p.step = &stepBuilder{s: Step{Line: n, Title: val}}
	if val == "" {
		p.errorf(n, "step: needs a title, e.g. \"step: The ACK is lost\"")
	}
}

// stepLine handles one key of a step.
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
	case "more":
		b.more.add(val)
	case "source":
		b.source.add(val)
	case "versions":
		b.versions.add(val)
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
	case "hint":
		if b.s.Ask == nil {
			p.errorf(n, "hint: needs an ask: before it in this step")
			return
		}
		b.hint.add(val)
	case "why":
		p.whyLine(n, val)
	case "explain":
		if b.s.Ask == nil {
			p.errorf(n, "explain: needs an ask: before it in this step")
			return
		}
		b.exp.add(val)
	}
}

// doLine parses an action: any command but a declaration or an expectation.
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
	case c.Kind() == script.Setup && !isConfig(c):
		// config is the one setup line a step may hold: an operator
		// changing a setting (say transaction.version) mid-lesson.
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

// whyLine attaches "why: ..." to the choice written just before it: the
// one line a drill shows on why that choice is wrong.
func (p *parser) whyLine(n int, val string) {
	cp := p.step.s.Ask
	if cp == nil || len(cp.Choices) == 0 {
		p.errorf(n, "why: follows the choice: it explains; write it after a choice: line")
		return
	}
	c := &cp.Choices[len(cp.Choices)-1]
	switch {
	case val == "":
		p.errorf(n, "why: needs a text, e.g. \"why: the leader answers with the first offset\"")
	case c.Why != "":
		p.errorf(n, "why: is given twice for the choice on line "+strconv.Itoa(c.Line)+"; one line says why it is wrong")
	default:
		c.Why = val
	}
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
	s.More, s.Source, s.Versions = b.more.String(), b.source.String(), b.versions.String()
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
		cp.Question, cp.Explain, cp.Hint = b.question.String(), b.exp.String(), b.hint.String()
		if len(cp.Choices) < 2 {
			p.errorf(cp.Line, "ask: needs at least 2 choice: lines, found "+strconv.Itoa(len(cp.Choices)))
		}
		if cp.Explain == "" {
			p.errorf(cp.Line, "ask: needs an explain: line saying why the right choice is right")
		}
	}
	p.l.Steps = append(p.l.Steps, s)
}

// isConfig reports whether a command is a "config KEY=VALUE" line.
func isConfig(c *script.Command) bool {
	_, ok := c.Action.(engine.SetConfig)
	return ok
}

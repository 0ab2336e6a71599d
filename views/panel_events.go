package views

import (
	"strconv"
	"strings"

	"eoslab/views/theme"
)

// maxEventLines caps how many events the panel wraps and keeps: the frame
// holds recent events, and older ones are in the transcript.
const maxEventLines = 400

// eventLine is one wrapped line of an event, styled when drawn.
type eventLine struct {
	text  string
	kind  theme.Kind
	first bool // the event's first line, which carries the marks
	isNew bool
}

// eventsContent draws the event log, wrapped with a hanging indent, the
// events of the last step marked. From the frame's Log it draws a log for
// learners (learnerEvents); a frame with only the canonical lines gets them
// as they are.
func eventsContent(f *Frame, p painter) ([]string, Content, Range) {
	if len(f.Log) > 0 {
		return learnerEvents(f, p)
	}
	evs := f.Events
	if len(evs) == 0 {
		return nil, textLines{p.muted("  (no events yet)")}, noRange
	}
	var lines []eventLine
	skipped := 0
	if len(evs) > maxEventLines {
		skipped = len(evs) - maxEventLines
		evs = evs[skipped:]
		lines = append(lines, eventLine{text: p.th.Sym.Ellipsis + " " + itoa(skipped) + " earlier events", kind: theme.Muted})
	}
	firstNew := len(f.Events) - clamp(f.NewEvents, 0, len(f.Events))
	anchor := noRange
	ww := max(p.w-4, 8)
	for i, e := range evs {
		isNew := skipped+i >= firstNew
		k := theme.Plain
		text := e.Text
		if e.Violation {
			k = theme.Violated
			text = p.th.Glyph(theme.Violated) + " " + text
		} else if !isNew {
			k = theme.Muted
		}
		for j, l := range p.wrap(text, ww) {
			if isNew {
				if anchor.From < 0 {
					anchor.From = len(lines)
				}
				anchor.To = len(lines)
			}
			lines = append(lines, eventLine{text: l, kind: k, first: j == 0, isNew: isNew})
		}
	}
	return nil, lazyLines{n: len(lines), f: func(i int) string {
		l := lines[i]
		prefix := "    "
		if l.first {
			prefix = p.mark(l.isNew)
		}
		return prefix + p.th.Render(l.kind, l.text)
	}}, anchor
}

// learnerEvents draws the events as sentences about Kafka: who did what,
// and why in words. It leaves out what a learner does not need to follow
// the protocol, all of which the detail view shows: the echo of the
// lesson's own commands ("scenario: A send t-0 hello"), message numbers
// ("m12"), and the citations of the reference a rule comes from ("ref 3.4
// step 11:", "row 4:"). A pause of a second or more between two events
// gets a line of its own ("30.0 s later"), which is how a timeout shows.
func learnerEvents(f *Frame, p painter) ([]string, Content, Range) {
	th := p.th
	log := f.Log
	firstNew := len(log) - clamp(f.NewEvents, 0, len(log))
	var lines []eventLine
	anchor := noRange
	ww := max(p.w-4, 8)
	var last int64 = -1
	for i, e := range log {
		if e.Action {
			continue
		}
		isNew := i >= firstNew
		if last >= 0 && e.Time-last >= 1000 {
			lines = append(lines, eventLine{text: "  " + th.Sym.Ellipsis + " " + seconds(e.Time-last) + " later", kind: theme.Muted, isNew: isNew})
		}
		last = e.Time
		k := theme.Plain
		text := clean(e.Actor) + " " + withoutMsgID(clean(e.Text), e.Msg)
		if why := ruleWords(e.Rule); why != "" && !e.Violation {
			text += " (" + why + ")"
		}
		if e.Violation {
			k = theme.Violated
			text = th.Glyph(theme.Violated) + " " + text
		} else if !isNew {
			k = theme.Muted
		}
		for j, l := range p.wrap(text, ww) {
			if isNew {
				if anchor.From < 0 {
					anchor.From = len(lines)
				}
				anchor.To = len(lines)
			}
			lines = append(lines, eventLine{text: l, kind: k, first: j == 0, isNew: isNew})
		}
	}
	if len(lines) == 0 {
		return nil, textLines{p.muted("  (no events yet)")}, noRange
	}
	if len(lines) > maxEventLines {
		anchor.From, anchor.To = anchor.From-(len(lines)-maxEventLines), anchor.To-(len(lines)-maxEventLines)
		lines = lines[len(lines)-maxEventLines:]
		if anchor.To >= 0 {
			anchor.From = max(anchor.From, 0)
		}
	}
	return nil, lazyLines{n: len(lines), f: func(i int) string {
		l := lines[i]
		prefix := "    "
		if l.first {
			prefix = p.mark(l.isNew)
		}
		return prefix + p.th.Render(l.kind, l.text)
	}}, anchor
}

// seconds renders a span of logical milliseconds for a person: "30.0 s".
func seconds(ms int64) string {
	return strconv.FormatFloat(float64(ms)/1000, 'f', 1, 64) + " s"
}

// withoutMsgID drops the message number ("m12") from an event's text: the
// learner follows messages by what they are, on the Timeline; the numbers
// are in the detail view.
func withoutMsgID(text string, msg int64) string {
	if msg <= 0 {
		return text
	}
	id := "m" + strconv.FormatInt(msg, 10)
	if i := strings.Index(text, id+" "); i >= 0 && (i == 0 || text[i-1] == ' ') {
		return text[:i] + text[i+len(id)+1:]
	}
	return text
}

// ruleWords puts the rule an event cites into words: each part of it ("a;
// b") loses a leading citation of the reference ("ref 1.4:", "ref 3.4 step
// 11:", "row 4:", "KIP-890 part 1:"), and a part that is only a citation,
// or only says "invariant", is left out. The citations are in the detail
// view, which shows the engine's own lines.
func ruleWords(rule string) string {
	var out []string
	for _, part := range strings.Split(rule, "; ") {
		part = strings.TrimSpace(part)
		if isCitation(part) || part == "invariant" {
			continue
		}
		if head, rest, ok := strings.Cut(part, ": "); ok && isCitation(head) {
			part = rest
		}
		if part != "" {
			out = append(out, part)
		}
	}
	return strings.Join(out, "; ")
}

// isCitation reports whether s is a citation such as "ref 3.4", "ref 3.4
// step 11", "row 4" or "KIP-890 part 1": a known lead word followed only by
// numbers and the words step and part.
func isCitation(s string) bool {
	f := strings.Fields(s)
	if len(f) < 2 || (f[0] != "ref" && f[0] != "row" && !strings.HasPrefix(f[0], "KIP-")) {
		return false
	}
	for _, w := range f[1:] {
		if w == "step" || w == "part" {
			continue
		}
		if strings.Trim(w, "0123456789.") != "" {
			return false
		}
	}
	return true
}

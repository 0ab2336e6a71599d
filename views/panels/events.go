package panels

import (
	"sort"
	"strconv"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
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

// Events draws the event log, wrapped with a hanging indent, the
// events of the last step marked. From the events' parts (EventLine.Parts)
// it draws a log for learners (learnerEvents); a frame with only the
// canonical lines gets them as they are.
func Events(f *model.Frame, p Painter) ([]string, content.Content, content.Range) {
	if n := len(f.Events); n > 0 && f.Events[n-1].Parts {
		return learnerEvents(f, p)
	}
	evs := f.Events
	if len(evs) == 0 {
		return nil, content.Lines{p.muted("  (no events yet)")}, content.NoRange
	}
	var lines []eventLine
	skipped := 0
	if len(evs) > maxEventLines {
		skipped = len(evs) - maxEventLines
		evs = evs[skipped:]
		lines = append(lines, eventLine{text: p.Theme.Sym.Ellipsis + " " + itoa(skipped) + " earlier events", kind: theme.Muted})
	}
	firstNew := len(f.Events) - max(0, min(f.NewEvents, len(f.Events)))
	anchor := content.NoRange
	ww := max(p.Width-4, 8)
	for i, e := range evs {
		isNew := skipped+i >= firstNew
		lines = appendEvent(lines, &anchor, p, e.Line(), e.Violation, isNew, ww)
	}
	return nil, content.Lazy(len(lines), func(i int) string {
		l := lines[i]
		prefix := "    "
		if l.first {
			prefix = p.mark(l.isNew)
		}
		return prefix + p.Theme.Render(l.kind, l.text)
	}), anchor
}

// learnerEvents draws the events as sentences about Kafka: who did what,
// and why in words. It leaves out what a learner does not need to follow
// the protocol, all of which the detail view shows: the echo of the
// lesson's own commands ("scenario: A send t-0 hello", which the Action
// flag marks), message numbers ("m12", which EventLine.Learner leaves
// out), and the Kafka source a rule cites
// ("ProducerAppendInfo.checkSequence:"; EventLine.Why has the rule without it).
// A pause of a second or more between two events
// gets a line of its own ("30.0 s later"), which is how a timeout shows.
func learnerEvents(f *model.Frame, p Painter) ([]string, content.Content, content.Range) {
	th := p.Theme
	evs := f.Events
	firstNew := len(evs) - max(0, min(f.NewEvents, len(evs)))
	l := &eventLog{p: p, ents: make([]eventEntry, 0, len(evs))}
	anchor := content.NoRange
	ww := max(p.Width-4, 8)
	var last int64 = -1
	for i := range evs {
		e := &evs[i]
		if e.Action {
			continue
		}
		isNew := i >= firstNew
		if last >= 0 && e.Time-last >= 1000 {
			l.add(eventEntry{lines: []string{"  " + th.Sym.Ellipsis + " " + seconds(e.Time-last) + " later"}, kind: theme.Muted, isNew: isNew}, nil)
		}
		last = e.Time
		k := theme.Plain
		if e.Violation {
			k = theme.Violated
		} else if !isNew {
			k = theme.Muted
		}
		var a *content.Range
		if isNew {
			a = &anchor
		}
		l.add(eventEntry{lines: p.learnerWrap(e, ww), kind: k, isNew: isNew, marks: true}, a)
	}
	if l.n == 0 {
		return nil, content.Lines{p.muted("  (no events yet)")}, content.NoRange
	}
	if l.n > maxEventLines {
		l.drop = l.n - maxEventLines
		anchor.From, anchor.To = anchor.From-l.drop, anchor.To-l.drop
		if anchor.To >= 0 {
			anchor.From = max(anchor.From, 0)
		}
	}
	return nil, l, anchor
}

// eventLog is the learner's event log as Content: each event's wrapped
// lines, which are shared with the frames before (Cache.eventWrap), and
// the line each starts on, so that only the lines on screen are put
// together. Its first drop lines are left out, as maxEventLines says.
type eventLog struct {
	p       Painter
	ents    []eventEntry
	n, drop int
}

// eventEntry is one event's lines, or a pause's.
type eventEntry struct {
	lines []string
	start int // the index of its first line
	kind  theme.Kind
	isNew bool
	marks bool // the first line carries the marks, as an event's does
}

// add appends e; its lines are kept in anchor when that is not nil.
func (l *eventLog) add(e eventEntry, anchor *content.Range) {
	e.start = l.n
	l.n += len(e.lines)
	l.ents = append(l.ents, e)
	if anchor != nil && len(e.lines) > 0 {
		if anchor.From < 0 {
			anchor.From = e.start
		}
		anchor.To = l.n - 1
	}
}

func (l *eventLog) Len() int { return l.n - l.drop }

func (l *eventLog) Line(i int) string {
	j := i + l.drop
	k := sort.Search(len(l.ents), func(k int) bool { return l.ents[k].start > j }) - 1
	e := &l.ents[k]
	prefix := "    "
	if e.marks && j == e.start {
		prefix = l.p.mark(e.isNew)
	}
	return prefix + l.p.Theme.Render(e.kind, e.lines[j-e.start])
}

// seconds renders a span of logical milliseconds for a person: "30.0 s".
func seconds(ms int64) string {
	return strconv.FormatFloat(float64(ms)/1000, 'f', 1, 64) + " s"
}

// appendEvent adds one event's wrapped lines: a violation marked with its
// glyph, an event of an earlier step muted, and the lines of the step's
// new events kept in anchor, so the pane can scroll them into view.
func appendEvent(lines []eventLine, anchor *content.Range, p Painter, text string, violation, isNew bool, ww int) []eventLine {
	if violation {
		text = p.Theme.Glyph(theme.Violated) + " " + text
	}
	return appendWrapped(lines, anchor, p.Wrap(text, ww), violation, isNew)
}

// learnerText is the learner's line for event e, before it is wrapped.
func learnerText(th *theme.Theme, e *model.EventLine) string {
	text := cells.Clean(e.Actor) + " " + cells.Clean(e.Learner())
	if why := e.Why; why != "" && !e.Violation {
		text += " (" + why + ")"
	}
	if e.Violation {
		text = th.Glyph(theme.Violated) + " " + text
	}
	return text
}

// learnerWrap is learnerText(e) wrapped to ww cells. Neighbouring frames
// share most of their events, so the lines are kept (Cache.eventWrap),
// keyed by the event's parts: the text is not even put together again.
func (p Painter) learnerWrap(e *model.EventLine, ww int) []string {
	if p.Cache == nil {
		return cells.Wrap(learnerText(p.Theme, e), ww)
	}
	return p.Cache.eventWrap(p.Theme, e, ww)
}

// appendWrapped adds one event's wrapped lines (see appendEvent).
func appendWrapped(lines []eventLine, anchor *content.Range, wrapped []string, violation, isNew bool) []eventLine {
	k := theme.Plain
	if violation {
		k = theme.Violated
	} else if !isNew {
		k = theme.Muted
	}
	for j, l := range wrapped {
		if isNew {
			if anchor.From < 0 {
				anchor.From = len(lines)
			}
			anchor.To = len(lines)
		}
		lines = append(lines, eventLine{text: l, kind: k, first: j == 0, isNew: isNew})
	}
	return lines
}

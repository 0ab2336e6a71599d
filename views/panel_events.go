package views

import "eoslab/views/theme"

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

// eventsContent draws the engine's event lines in their canonical text,
// wrapped with a hanging indent. The events of the last step are marked.
func eventsContent(f *Frame, p painter) ([]string, Content, Range) {
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

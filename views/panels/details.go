package panels

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// HasDetails reports whether a frame has anything for its detail view
// beyond the event lines every step has.
func HasDetails(f *model.Frame) bool {
	return strings.TrimSpace(f.More+f.Source+f.Note+f.Versions) != ""
}

// Details is the step's detail view: the deeper why, where Kafka
// decides it, the "Kafka vs the article" note, and the step's events as
// the engine logs them, with their rule citations and message numbers.
// None of it is needed to follow the lesson; all of it is one key away.
func Details(f *model.Frame, p Painter) content.Content {
	th := p.Theme
	w := min(p.Width, layout.MaxProse)
	var out []string
	head := "Before the first step"
	if f.Step > 0 {
		head = "Step " + itoa(f.Step) + "/" + itoa(f.Steps)
		if f.Title != "" {
			head += ": " + cells.Clean(f.Title)
		}
	}
	out = append(out, p.Bold(cells.Clip(head, w, th.Sym.Ellipsis)), "")
	section := func(title, text string, k theme.Kind) {
		if strings.TrimSpace(text) == "" {
			return
		}
		out = append(out, th.RenderBold(k, title))
		out = append(out, cells.Wrap(text, w)...)
		out = append(out, "")
	}
	section("More about this step", f.More, theme.Plain)
	section("In Kafka's code", f.Source, theme.Plain)
	section("Kafka 3 and Kafka 4", f.Versions, theme.Plain)
	section(th.Sym.Note+" Kafka vs the article", f.Note, theme.InFlight)
	if strings.TrimSpace(f.Note) != "" {
		out = append(out, p.wrapMuted(SeedArticles, w)...)
		out = append(out, "")
	}
	if !HasDetails(f) {
		out = append(out, p.muted("This step has no notes beyond its events."), "")
	}

	n := max(0, min(f.NewEvents, len(f.Events)))
	out = append(out, th.RenderBold(theme.Plain, "What the simulation logged in this step"))
	out = append(out, cells.Wrap("One line per event, as in a transcript: the time in milliseconds, who acted, "+
		"what happened. mN numbers the messages on the network, in the order they were sent. "+
		"The brackets name where Kafka decides, a class and method (such as "+
		"[ProducerAppendInfo.checkSequence: ...]), a KIP or a JIRA; 'eoslab help rules' lists them all. "+
		"\"scenario\" lines are the lesson's own commands.", w)...)
	if n == 0 {
		out = append(out, p.muted("(no events)"))
	}
	for _, e := range f.Events[len(f.Events)-n:] {
		for i, l := range p.Wrap(e.Line(), max(w-4, 8)) {
			if i == 0 {
				out = append(out, "  "+l)
			} else {
				out = append(out, "      "+l)
			}
		}
	}
	return Indent(out)
}

// SeedArticles names, once, the two articles the lessons' notes compare
// with Kafka, by their full titles. Our copies record no author or
// publisher, so none is given.
const SeedArticles = "The articles: \"Demystifying Kafka's Exactly-Once Semantics: Idempotence, Transactions, and Fencing\", " +
	"a web article on exactly-once delivery in three layers, and \"Exactly-Once Semantics\", an interview-preparation " +
	"write-up; our copies record neither author nor where they were published. The notes quote a few words and say the rest in our own."

// wrapMuted wraps a text in the muted style, a line at a time.
func (p Painter) wrapMuted(text string, w int) []string {
	var out []string
	for _, l := range cells.Wrap(text, w) {
		out = append(out, p.muted(l))
	}
	return out
}

// KeyLines lists every key of the player, "key  what it does", in as many
// columns as the width holds, each group of keys in order.
func (p Painter) KeyLines(groups [][]key.Binding) []string {
	var pairs [][2]string
	kw, dw := 0, 0
	for _, g := range groups {
		for _, b := range g {
			h := b.Help()
			if h.Key == "" {
				continue
			}
			pairs = append(pairs, [2]string{h.Key, h.Desc})
			kw, dw = max(kw, cells.Width(h.Key)), max(dw, cells.Width(h.Desc))
		}
	}
	colW := kw + 2 + dw
	const gap = 4
	k := columnCount(p.Width-2, colW, gap, 4)
	rows := (len(pairs) + k - 1) / max(k, 1)
	out := make([]string, rows)
	for i, c := range pairs {
		r, col := i%rows, i/rows
		cell := p.Theme.Text(theme.TextAccent, padRight(c[0], kw)) + "  " + c[1]
		if col < k-1 {
			cell = padRight(cell, colW+gap)
		}
		out[r] += cell
	}
	for i := range out {
		out[i] = "  " + out[i]
	}
	return out
}

// HelpLines are the help screen: the keys, then what every glyph means.
// With the Timeline in focus its legend comes first, so that the learner
// who looks at the diagram and presses ? finds it on the first screen.
func (p Painter) HelpLines(keys []string, timelineFirst bool) []string {
	out := append([]string{p.Bold("Keys")}, keys...)
	if timelineFirst {
		out = append(append(p.TimelineLegendLines(), ""), out...)
		return append(append(out, ""), p.glyphLines()...)
	}
	out = append(append(out, ""), p.glyphLines()...)
	return append(append(out, ""), p.TimelineLegendLines()...)
}

// TimelineLegendLines are the Timeline's section of the help.
func (p Painter) TimelineLegendLines() []string {
	head := p.Bold("Timeline") + p.muted("  one row per message: its arrow, then what happened to it")
	return append([]string{head}, p.legendTable(timelineLegend(p))...)
}

// glyphLines explains every glyph the player draws outside the Timeline,
// from the theme's own tables, so the legend shows the glyphs of the mode in
// use (Unicode or ASCII). The Timeline has a section of its own, drawn by
// the Timeline's own code (timelineLegend).
func (p Painter) glyphLines() []string {
	th := p.Theme
	sym := th.Sym
	rows := [][2]string{
		{th.Glyph(theme.Changed), "changed by the last step (in a panel's tab: something in that panel changed)"},
		{th.Glyph(theme.Committed) + " committed", "a record of a committed transaction"},
		{th.Glyph(theme.Aborted) + " aborted", "a record of an aborted transaction"},
		{th.Glyph(theme.Open) + " open", "a record of a transaction not finished yet"},
		{th.Glyph(theme.Plain) + " plain", "a record written outside any transaction"},
		{th.Glyph(theme.Fenced) + " fenced", "a producer fenced by a newer instance"},
		{th.Glyph(theme.InFlight), "in a producer, batches waiting for an answer; on the Timeline, a message in flight"},
		{th.Glyph(theme.Paused), "a producer frozen (a GC pause)"},
		{th.Glyph(theme.Violated), "an invariant the simulation checks was violated"},
		{th.Glyph(theme.Correct) + " / " + th.Glyph(theme.Wrong), "the right answer / a wrong answer"},
		{sym.Boundary + sym.Boundary + " LSO / HW", "in a partition: read_committed reads below the LSO, read_uncommitted below the HW"},
		{sym.Note, "the step has details: d opens them"},
		{"[Name]", "the panel a shared slot shows; tab focuses the others for this step, esc or the next step follows the lesson again"},
		{"[This step]", "a shared slot showing what the step is about, from every panel"},
		{sym.Question, "a question: the lesson waits for your answer"},
		{sym.ScrollUp + " " + sym.ScrollDown, "more above or below: the arrow keys and the mouse wheel scroll the focused pane (the lesson, or the panel tab focused)"},
		{sym.Play + " / " + sym.Pause, "autoplay on / paused"},
		{sym.BarFull + sym.BarEmpty, "how far into the lesson you are"},
		{arrowsOf(th), "in the coordinator's state diagram: the moves between its states"},
	}
	return append([]string{p.Bold("Glyphs")}, p.legendTable(rows)...)
}

// legendTable lays out rows of a glyph (or a drawing) and what it means,
// the meanings wrapped beside the glyphs.
func (p Painter) legendTable(rows [][2]string) []string {
	kw := 0
	for _, r := range rows {
		kw = max(kw, cells.Width(r[0]))
	}
	var out []string
	for _, r := range rows {
		for i, l := range cells.Wrap(r[1], max(p.Width-kw-4, 12)) {
			lead := cells.Repeat(" ", kw)
			if i == 0 {
				lead = padRight(r[0], kw)
			}
			out = append(out, "  "+lead+"  "+l)
		}
	}
	return out
}

// arrowsOf is the state diagram's arrows, as stateMachine draws them.
func arrowsOf(th *theme.Theme) string {
	if th.ASCII {
		return "-> \\ /"
	}
	return "→ ↘ ↗"
}

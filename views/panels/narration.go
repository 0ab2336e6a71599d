package panels

import (
	"strings"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// Narration draws the lesson text: any invariant violations, the
// narration and the checkpoint. The step's details (the why, the Kafka
// source, the "Kafka vs the article" note) are in the detail view, and the
// pane's footer says so. On a wide pane the checkpoint sits to the right of
// the text.
func Narration(f *model.Frame, p Painter) ([]string, content.Content, content.Range) {
	// One cell of margin on the left: prose flush against a border is
	// hard to read on a projector.
	p.Width--
	if p.Width >= 96 && f.Checkpoint != nil {
		return nil, p.narrationColumns(f), p.columnsAnchor(f)
	}
	out := p.textLines(f, min(p.Width, layout.MaxProse))
	if f.Checkpoint == nil {
		return nil, Indent(out), content.Range{From: 0, To: 0}
	}
	question, result := p.CheckpointLines(f.Checkpoint, min(p.Width, layout.MaxProse))
	out = append(out, "")
	anchor := content.Range{From: len(out), To: len(out) + len(question) - 1}
	out = append(out, question...)
	if len(result) > 0 {
		anchor = content.Range{From: len(out), To: len(out) + len(result) - 1}
		out = append(out, result...)
	}
	return nil, Indent(out), anchor
}

// narrationCols splits a wide pane: prose on the left keeps a readable
// line length, and the right column holds the checkpoint's question.
func (p Painter) narrationCols() (leftW, rightW int) {
	leftW = min(p.Width/2, layout.MaxProse)
	return leftW, p.Width - leftW - 3
}

func (p Painter) narrationSides(f *model.Frame) (left, right []string, anchor content.Range) {
	leftW, rightW := p.narrationCols()
	left = p.textLines(f, leftW)
	right, result := p.CheckpointLines(f.Checkpoint, rightW)
	anchor = content.Range{From: 0, To: len(right) - 1}
	// Once answered, the verdict and explanation head the right column,
	// beside the narration, and the judged choices follow. Both columns
	// scroll together, so a verdict placed lower would scroll the shorter
	// column out of sight and leave half the pane blank.
	if len(result) > 0 {
		anchor = content.Range{From: 0, To: len(result) - 1}
		right = append(append(result, ""), right...)
	}
	return left, right, anchor
}

func (p Painter) narrationColumns(f *model.Frame) content.Content {
	left, right, _ := p.narrationSides(f)
	leftW, _ := p.narrationCols()
	rule := p.muted(p.Theme.Border.Vertical)
	n := max(len(left), len(right))
	out := make([]string, n)
	for i := range n {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		out[i] = cells.Fit(l, leftW, "") + " " + rule + " " + r
	}
	return Indent(out)
}

func (p Painter) columnsAnchor(f *model.Frame) content.Range {
	_, _, a := p.narrationSides(f)
	return a
}

// ProgressBar is "step 3/12" and a bar, w cells at most.
func ProgressBar(th *theme.Theme, step, steps, w int) string {
	label := "step " + itoa(step) + "/" + itoa(steps)
	s := th.Text(theme.TextBold, label)
	barW := min(w-cells.Width(label)-8, 30)
	if barW < 5 || steps <= 0 {
		return s
	}
	done := max(0, min(step*barW/steps, barW))
	pct := max(0, min(step*100/steps, 100))
	return s + "  " + th.Text(theme.TextBarDone, cells.Repeat(th.Sym.BarFull, done)) + th.Text(theme.TextBarLeft, cells.Repeat(th.Sym.BarEmpty, barW-done)) +
		" " + cells.PadLeft(itoa(pct), 3) + "%"
}

// textLines is the violations and the narration: the step's title, in
// bold, and its paragraphs.
func (p Painter) textLines(f *model.Frame, w int) []string {
	th := p.Theme
	var out []string
	for _, v := range distinctViolations(f.Violations) {
		for i, l := range cells.Wrap(th.Glyph(theme.Violated)+" violated: "+v, w) {
			if i > 0 {
				l = "  " + l
			}
			out = append(out, th.Render(theme.Violated, l))
		}
	}
	if len(f.Violations) > 0 {
		out = append(out, "")
	}
	// The step's title is drawn in bold when it fits on one line.
	if f.Title != "" {
		if t := cells.Wrap(f.Title, w); len(t) == 1 {
			out = append(out, p.Bold(t[0]))
		} else {
			out = append(out, t...)
		}
		if f.Narration == "" {
			return out
		}
		out = append(out, "")
	}
	return append(out, cells.Wrap(f.Narration, w)...)
}

// CheckpointLines draws the question and choices and, once answered, the
// verdict and explanation (result).
func (p Painter) CheckpointLines(cp *model.Checkpoint, w int) (question, result []string) {
	th := p.Theme
	var out []string
	prompt := cp.Prompt
	if prompt == "" {
		prompt = "What happens next?"
	}
	q := cells.Wrap(th.Sym.Question+" "+prompt+" "+cp.Question, w)
	// The first words are the fixed prompt, drawn in the accent.
	lead := th.Sym.Question + " " + prompt
	for i, l := range q {
		if i == 0 && strings.HasPrefix(l, lead) {
			out = append(out, th.Text(theme.TextAccent, lead)+p.Bold(l[len(lead):]))
			continue
		}
		out = append(out, p.Bold(l))
	}
	for i, c := range cp.Choices {
		n := i + 1
		lead := "  "
		render := func(s string) string { return s }
		if cp.Answered {
			switch {
			case n == cp.Correct:
				lead = th.Glyph(theme.Correct) + " "
				render = func(s string) string { return th.Render(theme.Correct, s) }
			case n == cp.Chosen:
				lead = th.Glyph(theme.Wrong) + " "
				render = func(s string) string { return th.Render(theme.Wrong, s) }
			default:
				render = p.muted
			}
		}
		text := itoa(n) + ") " + c
		switch {
		case cp.Answered && n == cp.Chosen:
			text += " (your answer)"
		case !cp.Answered && n == cp.Locked:
			lead = th.Glyph(theme.Paused) + " "
			text += " (your answer, locked)"
		}
		lw := max(w-cells.Width(lead), 8)
		for j, l := range cells.Wrap(text, lw) {
			if j == 0 {
				out = append(out, render(lead+l))
			} else {
				out = append(out, render(cells.Repeat(" ", cells.Width(lead)+3)+l))
			}
		}
	}
	if !cp.Answered {
		// The pane's footer and the help bar say which keys answer.
		return out, nil
	}
	// The verdict names the right choice in full: on a wide pane it heads
	// its own column, away from the list of choices.
	right := "the answer is " + itoa(cp.Correct)
	if cp.Correct >= 1 && cp.Correct <= len(cp.Choices) {
		right += ") " + cp.Choices[cp.Correct-1]
	}
	verdict := func(k theme.Kind, s string) {
		for _, l := range cells.Wrap(th.Glyph(k)+" "+s, w) {
			result = append(result, th.Render(k, l))
		}
	}
	switch {
	case cp.Chosen == 0:
		// Revealed to a seat that chose nothing (a class's presenter, or
		// a student who did not answer): the right choice, no verdict.
		verdict(theme.Correct, right)
	case cp.Chosen == cp.Correct:
		result = []string{th.Mark(theme.Correct, "correct")}
	default:
		verdict(theme.Wrong, "not quite: "+right)
	}
	result = append(result, cells.Wrap(cp.Explanation, w)...)
	return out, result
}

// CheckpointLines draws a checkpoint as the lesson pane does, w cells
// wide: the question and its choices and, once answered, the result: the
// verdict and the explanation. A checkpoint answered with Chosen 0 shows
// the right choice without a verdict.
func CheckpointLines(th *theme.Theme, cp *model.Checkpoint, w int) (question, result []string) {
	return Painter{Theme: th, Width: w}.CheckpointLines(cp, w)
}

// Indent gives prose one cell of margin from the border.
func Indent(lines []string) content.Lines {
	for i, l := range lines {
		lines[i] = " " + l
	}
	return content.Lines(lines)
}

// distinctViolations keeps the first report of each invariant and says how
// many more there were: a step that breaks one invariant on two partitions
// is one fact for the lesson text. The event log lists every report.
func distinctViolations(vs []model.Violation) []string {
	var out []string
	count := map[string]int{}
	var names []string
	for _, v := range vs {
		if count[v.Name] == 0 {
			names = append(names, v.Name)
			out = append(out, v.String())
		}
		count[v.Name]++
	}
	for i, name := range names {
		if n := count[name] - 1; n > 0 {
			out[i] += " (and " + itoa(n) + " more like it)"
		}
	}
	return out
}

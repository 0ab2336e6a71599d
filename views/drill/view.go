package drill

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// View draws the drill screen: a header; the situation and its
// frozen state in a pane that scrolls; under it the question, its choices
// and, once answered, the verdict, in a pane sized to hold them, so the
// question is always in sight; then a message line and the help bar. At
// the end, one pane holds the result.
func (m Model) View() string {
	th := m.opts.Theme
	d := m.d
	r := d.Result()
	head := th.Text(theme.TextHeader, " eoslab ") + " " + th.Text(theme.TextBold, "Interview drill") +
		th.Text(theme.TextFaint, fmt.Sprintf("  Kafka %d", d.Kafka()))
	right := fmt.Sprintf("score %d/%d  seed %d ", r.Right, r.Answered, d.Seed())
	head = cells.Fit(head, max(m.w-cells.Width(right)-1, 0), th.Sym.Ellipsis) + " " + th.Text(theme.TextFaint, right)
	blocks := []layout.Block{{Rect: layout.Rect{X: 0, Y: 0, W: m.w, H: 1}, Lines: []string{head}, Exact: false}}
	bodyH := max(m.h-3, 0)
	if d.Pos() >= d.Len() {
		lines := m.opts.Draw.Pane(th, PaneSpec{W: m.w, H: bodyH, Title: "Result", Focused: true,
			Lines: m.resultLines(r), Anchor: content.NoRange, Relative: true})
		blocks = append(blocks, layout.Block{Rect: layout.Rect{X: 0, Y: 1, W: m.w, H: bodyH}, Lines: lines, Exact: false})
	} else {
		bottom, topH, verdict := m.split()
		top := m.opts.Draw.Pane(th, PaneSpec{W: m.w, H: topH,
			Title: fmt.Sprintf("Question %d of %d", d.Pos()+1, d.Len()) + th.Sym.Sep + cells.Clean(d.Question().Concept),
			Lines: m.top(), Anchor: content.NoRange, Offset: m.off})
		anchor := content.Range{From: 0, To: 0}
		if verdict >= 0 {
			anchor = content.Range{From: verdict, To: len(bottom) - 1}
		}
		q := m.opts.Draw.Pane(th, PaneSpec{W: m.w, H: bodyH - topH, Focused: true, Lines: bottom, Anchor: anchor,
			Offset: m.qoff, Relative: true})
		blocks = append(blocks, layout.Block{Rect: layout.Rect{X: 0, Y: 1, W: m.w, H: topH}, Lines: top, Exact: false},
			layout.Block{Rect: layout.Rect{X: 0, Y: 1 + topH, W: m.w, H: bodyH - topH}, Lines: q, Exact: false})
	}
	status := ""
	switch {
	case m.msg != "":
		status = th.Render(theme.Open, m.msg)
	case m.note != "":
		status = th.Render(theme.Open, m.note)
	}
	if m.showFull {
		full := cells.SplitLines(m.opts.Help.FullHelpView([][]key.Binding{m.helpKeys()}))
		n := min(len(full), bodyH)
		blocks = append(blocks, layout.Block{Rect: layout.Rect{X: 0, Y: 1 + bodyH - n, W: m.w, H: n}, Lines: full[:n], Exact: false})
	}
	blocks = append(blocks,
		layout.Block{Rect: layout.Rect{X: 0, Y: m.h - 2, W: m.w, H: 1}, Lines: []string{" " + status}, Exact: false},
		layout.Block{Rect: layout.Rect{X: 0, Y: m.h - 1, W: m.w, H: 1}, Lines: []string{m.opts.Help.ShortHelpView(m.helpKeys())}, Exact: false})
	return layout.Compose(m.w, m.h, blocks)
}

// split is the question pane's lines, the height of the situation
// pane above it, and the first line of the verdict (-1 before the answer).
// The question pane takes what it needs, leaving the situation at least
// four rows of text, or a third of the body on a short terminal.
func (m Model) split() (bottom []string, topH, verdict int) {
	q := m.d.Question()
	bottom, verdict = m.question(q)
	bodyH := max(m.h-3, 0)
	minTop := min(6, max(bodyH/3, 3))
	if q.Written {
		// A written question has no state to show: its situation pane
		// holds two lines, and the question gets the rest.
		minTop = min(len(m.top())+2, minTop)
	}
	qH := min(len(bottom)+2, max(bodyH-minTop, 0))
	return bottom, bodyH - qH, verdict
}

// helpKeys are the keys that act now on the drill screen.
func (m Model) helpKeys() []key.Binding {
	k := m.opts.Keys
	d := m.d
	if d == nil {
		return nil
	}
	if d.Pos() >= d.Len() {
		k.Next.SetHelp("enter", "lessons")
		out := []key.Binding{k.Next}
		if len(d.Result().Revisit) > 0 {
			out = append(out, k.Retry, k.Open)
		}
		return append(out, k.Home)
	}
	q := d.Question()
	if !q.Checkpoint.Answered {
		k.Answer.SetHelp(answerRange(len(q.Checkpoint.Choices)), "answer")
		if q.HintShown {
			return []key.Binding{k.Answer, k.Down, k.Home}
		}
		return []key.Binding{k.Answer, k.Hint, k.Down, k.Home}
	}
	if d.Pos() == d.Len()-1 {
		k.Next.SetHelp(k.Next.Help().Key, "see the score")
	}
	return []key.Binding{k.Next, k.Open, k.Up, k.Down, k.Home}
}

// top is the situation of the current question: the step's title and
// text, then the frozen state.
func (m Model) top() []string {
	th := m.opts.Theme
	q := m.d.Question()
	w := min(max(m.w-4, 8), layout.MaxProse)
	// The concept is in the pane's title; the lesson is named once the
	// question is answered, so it does not give the answer away.
	var out []string
	for _, l := range cells.Wrap(cells.Clean(q.Title), w) {
		out = append(out, th.RenderBold(theme.Plain, l))
	}
	if q.Setting != "" {
		out = append(out, cells.Wrap(q.Setting, w)...)
	}
	if q.Written {
		out = append(out, th.Text(theme.TextFaint, "An interview question: no simulation state, answer from what you know."))
	}
	if st := stateLines(th, &q.State, w); len(st) > 0 {
		out = append(out, "", th.Text(theme.TextFaint, "The state now:"))
		out = append(out, st...)
	}
	return indentBy(out, 1)
}

// question is the question, its choices and, once answered, the
// verdict, whose first line is verdict (-1 before the answer).
func (m Model) question(q model.DrillQuestion) (lines []string, verdict int) {
	th := m.opts.Theme
	w := min(max(m.w-4, 8), layout.MaxProse)
	cp := q.Checkpoint
	out, result := m.opts.Draw.Checkpoint(th, &cp, w)
	if q.HintShown && q.Hint != "" {
		out = append(out, "")
		for _, l := range cells.Wrap("Hint: "+q.Hint, w) {
			out = append(out, th.Text(theme.TextFaint, l))
		}
	}
	verdict = -1
	if len(result) > 0 {
		out = append(out, "")
		verdict = len(out)
		out = append(out, result...)
		if q.HintShown && cp.Chosen == cp.Correct {
			out = append(out, th.Text(theme.TextFaint, "Right after the hint: no point for this one."))
		}
		out = append(out, whyNotLines(q, w)...)
		if q.Ref != "" {
			out = append(out, cells.Wrap("Check it: "+cells.Clean(q.Ref), w)...)
		}
		if q.LessonTitle != "" {
			out = append(out, th.Text(theme.TextFaint, "o opens the lesson: "+cells.Clean(q.LessonTitle)))
		}
	}
	return indentBy(out, 1), verdict
}

// resultLines is the end of a drill: the score and the concepts to
// revisit, each with its lesson.
func (m Model) resultLines(r model.DrillResult) []string {
	th := m.opts.Theme
	w := min(max(m.w-4, 8), layout.MaxProse)
	out := []string{th.Text(theme.TextBold, fmt.Sprintf("%d of %d right", r.Right, r.Total))}
	if r.Hinted > 0 {
		out = append(out, th.Text(theme.TextFaint, fmt.Sprintf("%d more right after a hint, without the point", r.Hinted)))
	}
	if r.Answered < r.Total {
		out = append(out, th.Text(theme.TextFaint, fmt.Sprintf("%d not answered", r.Total-r.Answered)))
	}
	out = append(out, "")
	if len(r.Revisit) == 0 {
		out = append(out, th.Mark(theme.Correct, "nothing to revisit: every answer was right"))
	} else {
		out = append(out, "Concepts to revisit:")
		for _, rv := range r.Revisit {
			line := th.Glyph(theme.Wrong) + " " + cells.Clean(rv.Concept)
			if rv.Missed > 1 {
				line += fmt.Sprintf(" (%d missed)", rv.Missed)
			}
			if rv.LessonTitle != "" && rv.LessonTitle != rv.Concept {
				line += th.Sym.Sep + "lesson: " + cells.Clean(rv.LessonTitle)
			}
			for i, l := range cells.Wrap(line, w) {
				if i > 0 {
					l = "  " + l
				}
				out = append(out, l)
			}
		}
		out = append(out, "", th.Text(theme.TextFaint, "r drills just these concepts again; o opens the first lesson."))
	}
	if m.retry {
		out = append(out, "", th.Text(theme.TextFaint, fmt.Sprintf("This drill asked again the concepts missed in drill %d.", r.Seed)))
	} else {
		out = append(out, "", th.Text(theme.TextFaint, fmt.Sprintf("Replay this drill: eoslab drill --seed %d --count %d --kafka %d", r.Seed, r.Total, m.d.Kafka())))
	}
	return indentBy(out, 1)
}

// whyNotLines says, once a question is answered, why each wrong choice is
// wrong, one line each under the choice's number.
func whyNotLines(q model.DrillQuestion, w int) []string {
	var out []string
	for k, why := range q.Why {
		if why == "" {
			continue
		}
		if len(out) == 0 {
			out = append(out, "Why not the others:")
		}
		for j, l := range cells.Wrap(strconv.Itoa(k+1)+") "+cells.Clean(why), max(w-2, 8)) {
			if j > 0 {
				l = "   " + l
			}
			out = append(out, "  "+l)
		}
	}
	return out
}

func indentBy(lines []string, n int) []string {
	pad := strings.Repeat(" ", n)
	for i, l := range lines {
		if l != "" {
			lines[i] = pad + l
		}
	}
	return lines
}

package views

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/pane"
	"github.com/eoslab/eoslab/views/panels"
	"github.com/eoslab/eoslab/views/theme"
)

// openDrill starts a drill and shows its first question.
func (a *App) openDrill() {
	if a.opts.NewDrill == nil {
		a.home.SetStatus("No drill is available.")
		return
	}
	kafka := a.kafka
	if kafka == 0 {
		kafka = 3
	}
	d, err := a.opts.NewDrill(kafka)
	if err == nil && d == nil {
		err = fmt.Errorf("no drill")
	}
	if err != nil {
		a.home.SetStatus("Cannot start a drill: " + oneLine(err.Error()))
		a.screen = screenHome
		return
	}
	keys := DefaultDrillKeyMap()
	if a.opts.ASCII {
		keys = keys.ASCII()
	}
	a.drill = drillScreen{d: d, keys: keys}
	a.sess = nil
	a.playing = false
	a.gen++
	a.showFull, a.showDetail = false, false
	a.screen = screenDrill
}

// drillKey handles a key on the drill screen.
func (a *App) drillKey(km tea.KeyMsg) tea.Cmd {
	ds := &a.drill
	k := ds.keys
	ds.msg = ""
	switch {
	case keyAny(km, a.keys.QuitNow):
		return tea.Quit
	case keyAny(km, a.keys.Help):
		a.showFull = !a.showFull
		return nil
	case keyAny(km, k.Home):
		if a.showFull {
			a.showFull = false
			return nil
		}
		a.finishDrill()
		a.screen = screenHome
		return nil
	case keyAny(km, k.Up) && a.drillAnswered():
		// Once answered, the arrows scroll the verdict, the pane with the
		// focus: the situation was read before the answer.
		bottom, _, _ := a.drillSplit()
		ds.qoff = max(-len(bottom), min(ds.qoff-1, len(bottom)))
		return nil
	case keyAny(km, k.Down) && a.drillAnswered():
		bottom, _, _ := a.drillSplit()
		ds.qoff = max(-len(bottom), min(ds.qoff+1, len(bottom)))
		return nil
	case keyAny(km, k.Up):
		ds.off = max(ds.off-1, 0)
		return nil
	case keyAny(km, k.Down):
		lines := a.drillTop()
		_, topH, _ := a.drillSplit()
		ds.off = max(0, min(ds.off+1, max(len(lines)-(topH-2), 0)))
		return nil
	}
	d := ds.d
	over := d.Pos() >= d.Len()
	switch {
	case keyAny(km, k.Answer) && !over:
		q := d.Question()
		if q.Checkpoint.Answered {
			ds.msg = "Already answered. Press " + k.Next.Help().Key + " for the next question."
			return nil
		}
		c := int(km.String()[0] - '0')
		if _, ok := d.Answer(c); !ok {
			ds.msg = "There is no choice " + km.String() + ": press " + answerRange(len(q.Checkpoint.Choices)) + "."
			return nil
		}

	case keyAny(km, k.Hint) && !over:
		if d.Question().HintShown {
			ds.msg = "The hint is shown under the choices."
			return nil
		}
		if _, ok := d.Hint(); !ok {
			ds.msg = "Already answered: the explanation is below the choices."
			return nil
		}
		ds.msg = "Hint shown: a right answer to this question now earns no point."
	case keyAny(km, k.Retry) && over:
		nd, ok := d.Retry()
		if !ok {
			ds.msg = "Nothing was missed: there is no concept to drill again."
			return nil
		}
		a.finishDrill()
		a.drill = drillScreen{d: nd, keys: k, retry: true}
	case keyAny(km, k.Next) && !over:
		if !d.Question().Checkpoint.Answered {
			ds.msg = "Answer first: press " + answerRange(len(d.Question().Checkpoint.Choices)) + "."
			return nil
		}
		d.Next()
		ds.off, ds.qoff = 0, 0
		if d.Pos() >= d.Len() {
			a.finishDrill()
		}
	case keyAny(km, k.Next) && over:
		a.screen = screenHome
	case keyAny(km, k.Open):
		if name := a.drillLesson(); name != "" {
			a.finishDrill()
			a.openLesson(name)
		}
	}
	return nil
}

// drillLesson is the lesson o opens: the current question's once it is
// answered, or at the end the first concept to revisit.
func (a *App) drillLesson() string {
	d := a.drill.d
	if d.Pos() >= d.Len() {
		if r := d.Result().Revisit; len(r) > 0 {
			return r[0].Lesson
		}
		return ""
	}
	if q := d.Question(); q.Checkpoint.Answered {
		return q.Lesson
	}
	return ""
}

// finishDrill gives a drill's score to the progress once, when it ends or
// is left with at least one answer.
func (a *App) finishDrill() {
	ds := &a.drill
	if ds.d == nil || ds.reported {
		return
	}
	r := ds.d.Result()
	if r.Answered == 0 {
		return
	}
	ds.reported = true
	if p := a.opts.Progress; p != nil {
		p.DrillDone(r)
	}
}

// drillView draws the drill screen: a header; the situation and its
// frozen state in a pane that scrolls; under it the question, its choices
// and, once answered, the verdict, in a pane sized to hold them, so the
// question is always in sight; then a message line and the help bar. At
// the end, one pane holds the result.
func (a App) drillView() string {
	ds := a.drill
	th := a.th
	d := ds.d
	r := d.Result()
	head := th.Text(theme.TextHeader, " eoslab ") + " " + th.Text(theme.TextBold, "Interview drill") +
		th.Text(theme.TextFaint, fmt.Sprintf("  Kafka %d", d.Kafka()))
	right := fmt.Sprintf("score %d/%d  seed %d ", r.Right, r.Answered, d.Seed())
	head = cells.Fit(head, max(a.w-cells.Width(right)-1, 0), th.Sym.Ellipsis) + " " + th.Text(theme.TextFaint, right)
	blocks := []layout.Block{{Rect: layout.Rect{X: 0, Y: 0, W: a.w, H: 1}, Lines: []string{head}, Exact: false}}
	bodyH := max(a.h-3, 0)
	if d.Pos() >= d.Len() {
		p := pane.NewText(th)
		p.SetSize(a.w, bodyH)
		p.SetFocused(true)
		p.SetTitle("Result")
		p.SetContent(nil, content.Lines(a.drillResultLines(r)), content.NoRange)
		blocks = append(blocks, layout.Block{Rect: layout.Rect{X: 0, Y: 1, W: a.w, H: bodyH}, Lines: p.Lines(), Exact: false})
	} else {
		bottom, topH, verdict := a.drillSplit()
		top := pane.NewText(th)
		top.SetSize(a.w, topH)
		top.SetTitle(fmt.Sprintf("Question %d of %d", d.Pos()+1, d.Len()) + th.Sym.Sep + cells.Clean(d.Question().Concept))
		top.SetContent(nil, content.Lines(a.drillTop()), content.NoRange)
		top.SetOffset(ds.off)
		q := pane.NewText(th)
		q.SetSize(a.w, bodyH-topH)
		q.SetFocused(true)
		anchor := content.Range{From: 0, To: 0}
		if verdict >= 0 {
			anchor = content.Range{From: verdict, To: len(bottom) - 1}
		}
		q.SetContent(nil, content.Lines(bottom), anchor)
		if ds.qoff != 0 {
			q.SetOffset(q.Offset() + ds.qoff)
		}
		blocks = append(blocks, layout.Block{Rect: layout.Rect{X: 0, Y: 1, W: a.w, H: topH}, Lines: top.Lines(), Exact: false},
			layout.Block{Rect: layout.Rect{X: 0, Y: 1 + topH, W: a.w, H: bodyH - topH}, Lines: q.Lines(), Exact: false})
	}
	status := ""
	switch {
	case ds.msg != "":
		status = th.Render(theme.Open, ds.msg)
	case a.home.Status() != "":
		status = th.Render(theme.Open, a.home.Status())
	}
	if a.showFull {
		full := cells.SplitLines(a.help.FullHelpView([][]key.Binding{a.drillKeys()}))
		n := min(len(full), bodyH)
		blocks = append(blocks, layout.Block{Rect: layout.Rect{X: 0, Y: 1 + bodyH - n, W: a.w, H: n}, Lines: full[:n], Exact: false})
	}
	blocks = append(blocks,
		layout.Block{Rect: layout.Rect{X: 0, Y: a.h - 2, W: a.w, H: 1}, Lines: []string{" " + status}, Exact: false},
		layout.Block{Rect: layout.Rect{X: 0, Y: a.h - 1, W: a.w, H: 1}, Lines: []string{a.help.ShortHelpView(a.drillKeys())}, Exact: false})
	return layout.Compose(a.w, a.h, blocks)
}

// drillSplit is the question pane's lines, the height of the situation
// pane above it, and the first line of the verdict (-1 before the answer).
// The question pane takes what it needs, leaving the situation at least
// four rows of text, or a third of the body on a short terminal.
func (a App) drillSplit() (bottom []string, topH, verdict int) {
	q := a.drill.d.Question()
	bottom, verdict = a.drillQuestion(q)
	bodyH := max(a.h-3, 0)
	minTop := min(6, max(bodyH/3, 3))
	if q.Written {
		// A written question has no state to show: its situation pane
		// holds two lines, and the question gets the rest.
		minTop = min(len(a.drillTop())+2, minTop)
	}
	qH := min(len(bottom)+2, max(bodyH-minTop, 0))
	return bottom, bodyH - qH, verdict
}

// drillAnswered reports whether the current question is answered.
func (a App) drillAnswered() bool {
	d := a.drill.d
	return d != nil && d.Pos() < d.Len() && d.Question().Checkpoint.Answered
}

// drillKeys are the keys that act now on the drill screen.
func (a App) drillKeys() []key.Binding {
	k := a.drill.keys
	d := a.drill.d
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

// drillTop is the situation of the current question: the step's title and
// text, then the frozen state.
func (a App) drillTop() []string {
	th := a.th
	q := a.drill.d.Question()
	w := min(max(a.w-4, 8), layout.MaxProse)
	p := panels.Painter{Theme: th, Width: w}
	// The concept is in the pane's title; the lesson is named once the
	// question is answered, so it does not give the answer away.
	var out []string
	for _, l := range cells.Wrap(cells.Clean(q.Title), w) {
		out = append(out, p.Bold(l))
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

// drillQuestion is the question, its choices and, once answered, the
// verdict, whose first line is verdict (-1 before the answer).
func (a App) drillQuestion(q model.DrillQuestion) (lines []string, verdict int) {
	th := a.th
	w := min(max(a.w-4, 8), layout.MaxProse)
	p := panels.Painter{Theme: th, Width: w}
	cp := q.Checkpoint
	out, result := p.CheckpointLines(&cp, w)
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

// drillResultLines is the end of a drill: the score and the concepts to
// revisit, each with its lesson.
func (a App) drillResultLines(r model.DrillResult) []string {
	th := a.th
	w := min(max(a.w-4, 8), layout.MaxProse)
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
	if a.drill.retry {
		out = append(out, "", th.Text(theme.TextFaint, fmt.Sprintf("This drill asked again the concepts missed in drill %d.", r.Seed)))
	} else {
		out = append(out, "", th.Text(theme.TextFaint, fmt.Sprintf("Replay this drill: eoslab drill --seed %d --count %d --kafka %d", r.Seed, r.Total, a.drill.d.Kafka())))
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

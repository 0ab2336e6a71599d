package sandbox

import (
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/internal/keyset"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// C compares two branches: the learner picks the other branch (enter
// takes the one this branch was made from), and the overlay shows the
// first step where the two diverge, the decision that differed there with
// the rule that made it, then each branch's log, the divergent step
// marked, and its state at its end. A wide screen sets the two side by
// side; a narrow one shows one at a time, tab the other.

// Comparer is the part of a session that compares two of its branches
// (views/adapt computes it, as eoslab compare prints it). A session
// without it has no C.
type Comparer interface {
	Compare(a, b int) (model.Comparison, error)
}

// compareState is C's: the default other branch while the learner picks,
// then the comparison shown and the side a narrow screen shows.
type compareState struct {
	def int
	c   model.Comparison
	// b is the side a narrow screen shows (false: A).
	b bool
}

// textPlain is no text style: Text leaves the line as it is.
const textPlain theme.TextStyle = -1

// sideBySide reports whether the two sides of a comparison fit next to
// each other.
func (s *Model) sideBySide() bool { return s.w >= 160 }

// startCompare asks for the other branch.
func (s *Model) startCompare() {
	if _, ok := s.sess.(Comparer); !ok {
		s.say(theme.Muted, "this session cannot compare branches")
		return
	}
	if len(s.branches) < 2 {
		s.say(theme.Muted, "one branch only: make another first (a safeguard 1-6, or ← then act), then C compares the two")
		return
	}
	cur := s.sess.Branch()
	s.cmp = compareState{def: s.branches[cur].Parent}
	if s.cmp.def < 0 {
		// The first branch: the last one made from it.
		for i, b := range s.branches {
			if b.Parent == cur {
				s.cmp.def = i
			}
		}
	}
	s.mode = modeChoosing
	// Numbers, not names: the question fits 80 columns.
	q := "compare branch " + strconv.Itoa(cur+1) + " with? 1-" + strconv.Itoa(len(s.branches))
	if s.cmp.def >= 0 {
		q += ", enter " + strconv.Itoa(s.cmp.def+1) + " (the one it came from)"
	}
	s.say(theme.Accent, q+", esc none")
}

// chooseKey answers startCompare's question.
func (s *Model) chooseKey(km tea.KeyMsg) {
	d := keyset.Digit(km, s.keys.Digits)
	other := -1
	switch {
	case is(km, s.keys.Confirm):
		other = s.cmp.def
	case d > 0:
		other = d - 1
	case is(km, s.keys.Cancel):
		s.mode, s.flash = modeActing, ""
		return
	default:
		s.say(theme.Violated, "press 1-"+strconv.Itoa(len(s.branches))+" for a branch, enter for the default, esc for nothing")
		return
	}
	cur := s.sess.Branch()
	switch {
	case other < 0:
		s.say(theme.Violated, "no default here: press 1-"+strconv.Itoa(len(s.branches))+" for a branch, esc for nothing")
		return
	case other >= len(s.branches):
		s.say(theme.Violated, "no branch "+strconv.Itoa(other+1)+"; there are "+strconv.Itoa(len(s.branches)))
		return
	case other == cur:
		s.say(theme.Violated, "that is this branch: pick another one, esc for nothing")
		return
	}
	// A is the older of the two: the one the other was made from, as
	// eoslab compare's A is the file as written.
	a, b := min(cur, other), max(cur, other)
	c, err := s.sess.(Comparer).Compare(a, b)
	if err != nil {
		s.mode = modeActing
		s.say(theme.Violated, err.Error())
		return
	}
	s.cmp.c, s.cmp.b = c, false
	s.mode, s.flash = modeComparing, ""
	s.layout()
}

// compareKey moves in the comparison: tab shows the other side on a
// narrow screen, esc (or C) goes back.
func (s *Model) compareKey(km tea.KeyMsg) {
	switch {
	case is(km, s.keys.Cancel), is(km, s.keys.Compare), is(km, s.keys.Quit):
		s.mode = modeActing
		s.layout()
	case is(km, s.keys.Panel):
		s.cmp.b = !s.cmp.b
		s.layout()
	default:
		s.over.Update(km)
	}
}

// fillCompare draws the comparison into the overlay, w cells wide inside.
func (s *Model) fillCompare(w int) {
	th, c := s.th, s.cmp.c
	title := th.Text(theme.TextTitle, "Compare") + th.Text(theme.TextFaint, "  esc back")
	if !s.sideBySide() {
		other := "B"
		if s.cmp.b {
			other = "A"
		}
		title += th.Text(theme.TextFaint, ", tab shows "+other)
	}
	s.over.SetTitle(title)
	var lines []string
	wrap := func(lead, text string, kind theme.TextStyle) {
		for i, l := range cells.Wrap(cells.Clean(text), max(w-cells.Width(lead), 10)) {
			if i > 0 {
				lead = strings.Repeat(" ", cells.Width(lead))
			}
			lines = append(lines, lead+th.Text(kind, l))
		}
	}
	wrap("A  ", c.A+" ("+strconv.Itoa(len(c.LogA))+" steps)", theme.TextBold)
	wrap("B  ", c.B+" ("+strconv.Itoa(len(c.LogB))+" steps)", theme.TextBold)
	lines = append(lines, "")
	mark := th.Text(theme.TextAccent, th.Sym.Cursor) + " "
	d := c.First
	switch {
	case d == nil:
		wrap("", "No divergence: the two worlds made the same decisions at every step.", textPlain)
	case d.StepB == 0:
		wrap(mark, "first divergence at step "+strconv.Itoa(d.StepA)+" of A: "+d.LineA, theme.TextBold)
		if d.About != "" {
			wrap("  ", "it acts on "+d.About+", which B does not have then: no counterpart, left out of B", textPlain)
		} else {
			wrap("  ", "B refuses it: no counterpart, left out of B", textPlain)
		}
	}
	if d := c.Decision; d != nil {
		lead, m := "first decision that differs", mark
		if d != c.First {
			lead, m = "then the first decision that differs", "  "
		}
		if d.LineA == d.LineB {
			wrap(m, lead+", at step "+strconv.Itoa(d.StepA)+" of A and "+strconv.Itoa(d.StepB)+" of B, both: "+d.LineA, theme.TextBold)
		} else {
			wrap(m, lead+": A step "+strconv.Itoa(d.StepA)+" "+d.LineA+"; B step "+strconv.Itoa(d.StepB)+" "+d.LineB, theme.TextBold)
		}
		if d.About != "" {
			wrap("  ", "about "+d.About, theme.TextFaint)
		}
		wrap("  A decided: ", orNothing(d.DecisionA), textPlain)
		wrap("  B decided: ", orNothing(d.DecisionB), textPlain)
	}
	if len(c.Missing) > 0 && (c.First == nil || c.First.StepB != 0 || len(c.Missing) > 1) {
		var ms []string
		for i, l := range c.Missing {
			ms = append(ms, strconv.Itoa(c.MissingSteps[i])+" "+l)
		}
		wrap("", "steps of A with no counterpart in B (left out of B): "+strings.Join(ms, ", "), textPlain)
	}
	lines = append(lines, "")
	anchor := content.NoRange
	if s.sideBySide() {
		cw := (w - 3) / 2
		la, lb := s.compareSide(false, cw), s.compareSide(true, cw)
		for i := 0; i < max(len(la), len(lb)); i++ {
			l, r := "", ""
			if i < len(la) {
				l = la[i]
			}
			if i < len(lb) {
				r = lb[i]
			}
			lines = append(lines, cells.Fit(l, cw, th.Sym.Ellipsis)+
				th.Text(theme.TextFaint, " "+th.Sym.Sep+" ")+cells.Fit(r, cw, th.Sym.Ellipsis))
		}
	} else {
		lines = append(lines, s.compareSide(s.cmp.b, w)...)
	}
	for i, l := range lines {
		lines[i] = " " + l
	}
	s.over.SetContent(nil, content.Lines(lines), anchor)
}

// compareSide is one side of the comparison, w wide: its log with the
// divergent step marked, then its state at its end.
func (s *Model) compareSide(b bool, w int) []string {
	th, c := s.th, s.cmp.c
	name, log, out, side := c.A, c.LogA, c.OutcomeA, "A"
	if b {
		name, log, out, side = c.B, c.LogB, c.OutcomeB, "B"
	}
	at := map[int]string{}
	missing := map[int]bool{}
	if !b {
		for _, k := range c.MissingSteps {
			missing[k] = true
		}
	}
	if d := c.First; d != nil && !b && d.StepB == 0 {
		at[d.StepA] = "first divergence: no counterpart in B"
	}
	if d := c.Decision; d != nil {
		k := d.StepA
		if b {
			k = d.StepB
		}
		at[k] = "the decision differs here"
	}
	lines := []string{th.Text(theme.TextBold, "Log of "+side) + th.Text(theme.TextFaint, "  "+cells.Clean(name))}
	if len(log) == 0 {
		lines = append(lines, th.Text(theme.TextFaint, "  no actions: the setup only"))
	}
	for i, l := range log {
		k := i + 1
		num := cells.PadLeft(strconv.Itoa(k), 3) + " "
		text := cells.Clean(l)
		switch {
		case at[k] != "":
			lines = append(lines, th.Text(theme.TextAccent, th.Sym.Cursor)+num+th.Text(theme.TextBold, text))
			lines = append(lines, "     "+th.Mark(theme.Violated, at[k]))
		case missing[k]:
			lines = append(lines, " "+num+th.Text(theme.TextFaint, text+" (no counterpart in B)"))
		default:
			lines = append(lines, " "+num+text)
		}
	}
	lines = append(lines, "", th.Text(theme.TextBold, "State of "+side+" at its end"))
	for _, o := range out {
		for j, l := range cells.Wrap(cells.Clean(o), max(w-4, 10)) {
			lead := "  "
			if j > 0 {
				lead = "    "
			}
			lines = append(lines, lead+l)
		}
	}
	return lines
}

func orNothing(s string) string {
	if s == "" {
		return "nothing (no decision here)"
	}
	return s
}

package sandbox

import (
	"strconv"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// A sandbox opened on a challenge shows its goal on one line under the
// header, always. g shows the goal in full and its hint under it; g again
// asks before showing the solution (y shows it). After every action the
// session judges the goal (model.SandboxSession.Goal, the engine's
// checker); the first time it is reached the screen says so in words, the
// branch is saved where w saves, and Options.Reached records it.

// goalState is what the sandbox keeps of its challenge; by reference,
// shared by the copies of Model.
type goalState struct {
	g  model.SandboxGoal
	on bool
	// hint: the goal in full and its hint are shown under the line.
	hint bool
	// reported: the goal was reached once and said so; pending: the
	// save (or the record) of that is still to be made.
	reported, pending bool
	// searched: the goal stands reached on a branch the search made
	// (X), which does not count as the student's.
	searched bool
}

// readGoal asks the session how the goal stands at the current position;
// refresh calls it after every change.
func (s *Model) readGoal() {
	if s.gl == nil {
		s.gl = &goalState{}
	}
	g, ok := s.sess.Goal()
	s.gl.g, s.gl.on = g, ok
	s.gl.searched = ok && g.Reached && s.bySearch(s.sess.Branch())
	if ok && g.Reached && !s.gl.reported && !s.gl.searched {
		s.gl.reported, s.gl.pending = true, true
	}
}

// goalCmd is the save (or the record) of a goal just reached, once.
func (s *Model) goalCmd() tea.Cmd {
	gl := s.gl
	if gl == nil || !gl.pending {
		return nil
	}
	gl.pending = false
	g := gl.g
	if s.opts.Save == nil {
		s.reached(g.Name, "")
		s.say(theme.Committed, "GOAL REACHED: "+g.Found)
		return nil
	}
	name, text, save := s.sess.SaveName(), []byte(s.sess.Scenario()), s.opts.Save
	branch, n := s.sess.Branch(), s.sess.Len()
	s.say(theme.Committed, "GOAL REACHED: saving your solution...")
	return func() tea.Msg {
		p, err := save(name, text)
		return SavedMsg{Path: p, Err: err, lens: map[int]int{branch: n}, goal: true}
	}
}

// goalSaved answers the save of a goal reached.
func (s *Model) goalSaved(msg SavedMsg) {
	g := s.gl.g
	if msg.Err != nil {
		s.reached(g.Name, "")
		s.say(theme.Violated, "GOAL REACHED, but your solution was not saved: "+msg.Err.Error())
		return
	}
	for i, n := range msg.lens {
		s.saved[i] = n
	}
	s.reached(g.Name, msg.Path)
	// The path first: a narrow screen cuts the line's end.
	s.say(theme.Committed, "GOAL REACHED: saved; eoslab challenges check "+strconv.Itoa(g.Num)+" "+msg.Path+" checks it")
}

func (s *Model) reached(name, file string) {
	if s.opts.Reached != nil {
		s.opts.Reached(name, file)
	}
}

// GoalReached is the name of the challenge reached in this sandbox, or
// "": the root marks it on the Challenges list.
func (s Model) GoalReached() string {
	if s.gl == nil || !s.gl.reported {
		return ""
	}
	return s.gl.g.Name
}

// goalKey is g: the hint first, then the question before the solution.
func (s *Model) goalKey() {
	gl := s.gl
	switch {
	case gl == nil || !gl.on:
		s.say(theme.Muted, "no goal here: open one from eoslab challenges or the Challenges entry")
	case !gl.hint:
		gl.hint = true
		s.layout()
	default:
		s.mode = modeAskSolution
		s.say(theme.Accent, "show the solution? y shows it, any other key does not")
	}
}

// askKey answers the question before the solution.
func (s *Model) askKey(km tea.KeyMsg) {
	s.mode, s.flash = modeActing, ""
	if is(km, s.keys.Leave) {
		s.mode = modeSolution
	}
	// The hint folds away either way: the solution needs the room.
	s.gl.hint = false
	s.layout()
}

// goalRows is how many lines the goal takes under the header: none
// without one, one, or with the hint shown the goal in full and the hint
// wrapped (at most half the screen, while g shows it).
func (s *Model) goalRows() int {
	if s.gl == nil || !s.gl.on {
		return 0
	}
	if !s.gl.hint {
		return 1
	}
	return min(1+len(s.hintLines()), max(s.h/2, 1))
}

// goalLines are the goal's lines for goalRows.
func (s *Model) goalLines() []string {
	th, g := s.th, s.gl.g
	lead := th.Text(theme.TextAccent, " Goal "+strconv.Itoa(g.Num)) + " "
	var line string
	switch {
	case s.gl.searched && !s.gl.reported:
		line = lead + th.Text(theme.TextFaint, "reached by the search (X): not counted; reach it yourself")
	case g.Reached:
		line = " " + th.Mark(theme.Committed, "REACHED goal "+strconv.Itoa(g.Num)) + " " + cells.Clean(g.Title)
	default:
		key := "  g: hint"
		if s.gl.hint {
			key = "  g again: the solution"
		}
		line = lead + cells.Fit(cells.Clean(g.Title), max(s.w-cells.Width(lead)-cells.Width(key)-1, 8), th.Sym.Ellipsis) + th.Text(theme.TextFaint, key)
	}
	out := []string{cells.Fit(line, s.w, th.Sym.Ellipsis)}
	if s.gl.hint {
		out = append(out, s.hintLines()...)
	}
	return out
}

func (s *Model) hintLines() []string {
	g, w := s.gl.g, max(s.w-2, 10)
	var out []string
	for _, l := range cells.Wrap("Goal: "+cells.Clean(g.Goal)+" ("+cells.Clean(g.Kafka)+")", w) {
		out = append(out, " "+l)
	}
	for _, l := range cells.Wrap("Hint: "+cells.Clean(g.Hint), w) {
		out = append(out, " "+s.th.Text(theme.TextFaint, l))
	}
	return out
}

// fillSolution draws the solution overlay.
func (s *Model) fillSolution(r layout.Rect) {
	g := s.gl.g
	s.over.SetTitle(s.th.Text(theme.TextTitle, "Solution of goal "+strconv.Itoa(g.Num)) + s.th.Text(theme.TextFaint, "  esc closes"))
	lines := []string{" " + s.th.Text(theme.TextFaint, "A scenario file that reaches it; type its lines at : to play them here.")}
	for _, l := range g.Solution {
		lines = append(lines, " "+cells.Fit(cells.Clean(l), max(r.W-4, 1), s.th.Sym.Ellipsis))
	}
	s.over.SetContent(nil, content.Lines(lines), content.NoRange)
}

package sandbox

import (
	"strconv"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/internal/inputguard"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// Names and notes: in the branch list, n names the branch the learner is
// on, N writes a note on it, a a note on the moment (the step it stands
// at). A text input takes the words; what the session refuses (too long,
// a control character, a name another branch has) stays under the input
// to be fixed. w saves every branch, with its name and notes, in one file.

// Namer is the part of a session that names branches and notes them and
// their steps (step 0: the branch itself). A session without it has no
// names to give.
type Namer interface {
	Rename(i int, name string) error
	SetNote(i, step int, note string) error
}

// AllSaver is the part of a session that writes every branch in one file
// (the branch it is on first, as a scenario eoslab run plays).
type AllSaver interface {
	ScenarioAll() string
}

// naming is the text input of n, N or a: what it names, and the error of
// the last try.
type naming struct {
	input  textinput.Model
	branch int
	step   int // -1: the name; 0: the branch's note; else the step's
	err    string
}

// startNaming opens the input for n, N or a in the branch list; it
// reports whether km was one of them.
func (s *Model) startNaming(km tea.KeyMsg) bool {
	k := s.keys
	if !is(km, k.Name) && !is(km, k.Note) && !is(km, k.MomentNote) {
		return false
	}
	if _, ok := s.sess.(Namer); !ok {
		s.say(theme.Muted, "this session keeps no names")
		return true
	}
	i := s.sess.Branch()
	b := s.branches[i]
	in := textinput.New()
	in.CharLimit = 400
	in.Width = max(s.w-4, 1)
	in.PromptStyle, in.Cursor.Style = s.th.AccentText, s.th.AccentText
	n := naming{branch: i}
	switch {
	case is(km, k.Name):
		n.step = -1
		in.Prompt = "name " + strconv.Itoa(i+1) + ": "
		in.SetValue(b.Name)
	case is(km, k.Note):
		in.Prompt = "note on " + strconv.Itoa(i+1) + ": "
		in.SetValue(b.Note)
	default:
		n.step = s.sess.Pos()
		if n.step == 0 {
			s.say(theme.Violated, "at the setup there is no step to note: go to one (→), or N notes the branch")
			return true
		}
		in.Prompt = "note on step " + strconv.Itoa(n.step) + ": "
		for _, m := range b.Moments {
			if m.Step == n.step {
				in.SetValue(m.Note)
			}
		}
	}
	in.CursorEnd()
	in.Focus()
	n.input = in
	s.nm = n
	s.mode = modeNaming
	return true
}

// nameKey edits the input: enter sets, esc keeps what was.
func (s *Model) nameKey(km tea.KeyMsg) tea.Cmd {
	switch {
	case is(km, s.keys.Cancel):
		s.mode = modeBranches
		s.layout()
		return nil
	case is(km, s.keys.Confirm):
		nm, n := &s.nm, s.sess.(Namer)
		var err error
		what := "named"
		if nm.step < 0 {
			err = n.Rename(nm.branch, nm.input.Value())
		} else {
			err = n.SetNote(nm.branch, nm.step, nm.input.Value())
			what = "noted"
		}
		if err != nil {
			nm.err = oneLine(err.Error())
			return nil
		}
		// A name or a note is a change to save: q asks again.
		delete(s.saved, nm.branch)
		s.mode = modeBranches
		s.refresh()
		s.say(theme.Changed, what+"; w saves every branch with its names and notes")
		return nil
	}
	var cmd tea.Cmd
	s.nm.input, cmd = s.nm.input.Update(inputguard.Key(s.nm.input, km))
	s.nm.err = ""
	return cmd
}

// nameStatus and nameHelp are the status and help lines while naming.
func (s Model) nameStatus() string { return s.nm.input.View() }

func (s Model) nameHelp() string {
	if s.nm.err != "" {
		return cells.Fit(" "+s.th.Mark(theme.Violated, s.nm.err)+s.th.Text(theme.TextFaint, "  (fix it and press enter; esc keeps it as it was)"), s.w, s.th.Sym.Ellipsis)
	}
	return cells.Fit(" "+s.th.Text(theme.TextFaint, "enter sets it, esc keeps it as it was; an empty note removes it"), s.w, s.th.Sym.Ellipsis)
}

// branchNotes are the lines under a branch of the list: its note and its
// moments, w wide.
func (s *Model) branchNotes(b model.BranchInfo, w int) []string {
	var out []string
	add := func(lead, text string) {
		for i, l := range cells.Wrap(cells.Clean(text), max(w-cells.Width(lead), 10)) {
			if i > 0 {
				lead = "      "
			}
			out = append(out, lead+s.th.Text(theme.TextFaint, l))
		}
	}
	if b.Note != "" {
		add("     "+s.th.Sym.Note+" ", b.Note)
	}
	for _, m := range b.Moments {
		add("     step "+strconv.Itoa(m.Step)+": ", m.Note)
	}
	return out
}

// scenarioFile is what w writes: every branch where the session can, else
// the branch the learner is on.
func (s *Model) scenarioFile() (text []byte, lens map[int]int) {
	if a, ok := s.sess.(AllSaver); ok {
		lens = map[int]int{}
		for i, b := range s.branches {
			lens[i] = b.Len
		}
		return []byte(a.ScenarioAll()), lens
	}
	return []byte(s.sess.Scenario()), map[int]int{s.sess.Branch(): s.sess.Len()}
}

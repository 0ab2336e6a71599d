package adapt

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/eoslab/eoslab/engine/script"
	"github.com/eoslab/eoslab/views/model"
)

// Names and notes of branches and moments, and the file that keeps every
// branch.
//
// The file w writes is the branch the learner is on, as a scenario that
// eoslab run plays (Scenario: the setup, then its actions, a refused one
// left out), then every branch of the session in the "#@" comment lines
// script.ReadBranches reads (its doc shows the form). A refused line is
// left out of the blocks as it is of the scenario (the steps after it are
// renumbered), so every branch of the file plays again.

// Limits of a name and a note, in characters.
const (
	maxName = 40
	maxNote = script.MaxNote
)

// momentList is b's moments in step order.
func (b *sbBranch) momentList() []model.Moment {
	var out []model.Moment
	for k, n := range b.moments {
		out = append(out, model.Moment{Step: k, Note: n})
	}
	slices.SortFunc(out, func(a, b model.Moment) int { return a.Step - b.Step })
	return out
}

// Rename names branch i.
func (x *Sandbox) Rename(i int, name string) error {
	if i < 0 || i >= len(x.branches) {
		return errors.New("no branch " + strconv.Itoa(i+1))
	}
	name, err := script.CheckNote("name", name, maxName)
	if err != nil {
		return err
	}
	if name == "" {
		return errors.New("a branch needs a name: type one, or esc keeps " + strconv.Quote(x.branches[i].name))
	}
	for j, b := range x.branches {
		if j != i && b.name == name {
			return errors.New("branch " + strconv.Itoa(j+1) + " is already called " + strconv.Quote(name))
		}
	}
	x.branches[i].name = name
	return nil
}

// SetNote sets the note on branch i (step 0) or on its step; an empty
// note removes it.
func (x *Sandbox) SetNote(i, step int, note string) error {
	if i < 0 || i >= len(x.branches) {
		return errors.New("no branch " + strconv.Itoa(i+1))
	}
	b := x.branches[i]
	if step < 0 || step > b.s.p.Len() {
		return errors.New("no step " + strconv.Itoa(step) + " on " + b.name)
	}
	note, err := script.CheckNote("note", note, maxNote)
	if err != nil {
		return err
	}
	switch {
	case step == 0:
		b.note = note
	case note == "":
		delete(b.moments, step)
	default:
		if b.moments == nil {
			b.moments = map[int]string{}
		}
		b.moments[step] = note
	}
	return nil
}

// ScenarioAll is every branch in one file: the current branch as a
// scenario eoslab run plays, then each branch in "#@" lines, which eoslab
// sandbox reopens.
func (x *Sandbox) ScenarioAll() string {
	var sb strings.Builder
	sb.WriteString(x.Scenario())
	sb.WriteString("#\n# Every branch of the session, for 'eoslab sandbox FILE' (eoslab run skips these lines):\n")
	sb.WriteString(script.BranchesHeader(len(x.branches), x.cur+1) + "\n")
	for i, b := range x.branches {
		// kept[k] is step k's number once the refused steps are left
		// out; a refused step keeps the number of the step before it.
		kept := make([]int, b.s.p.Len()+1)
		var lines []string
		for k := 1; k <= b.s.p.Len(); k++ {
			kept[k] = kept[k-1]
			if refusedAction(b, k) {
				continue
			}
			lines = append(lines, b.line(k))
			kept[k]++
		}
		at := b.at
		if b.parent >= 0 {
			at = renumbered(x.branches[b.parent], b.at)
		}
		sb.WriteString("#@branch " + strconv.Itoa(i+1) + " " + strconv.Quote(b.name) + " parent=" + strconv.Itoa(b.parent+1) +
			" at=" + strconv.Itoa(at) + " pos=" + strconv.Itoa(kept[b.s.p.Pos()]) + "\n")
		if b.note != "" {
			sb.WriteString("#@note " + strconv.Quote(b.note) + "\n")
		}
		for _, m := range b.momentList() {
			if kept[m.Step] > 0 {
				sb.WriteString("#@moment " + strconv.Itoa(kept[m.Step]) + " " + strconv.Quote(m.Note) + "\n")
			}
		}
		for _, l := range b.setup {
			sb.WriteString("#@setup " + l + "\n")
		}
		for _, l := range lines {
			sb.WriteString("#@step " + l + "\n")
		}
		if b.from != nil && b.parent >= 0 {
			p := x.branches[b.parent]
			var from []string
			for k, kb := range b.from {
				if refusedAction(p, k+1) {
					continue
				}
				n := 0
				if kb > 0 {
					n = kept[kb]
				}
				from = append(from, strconv.Itoa(n))
			}
			sb.WriteString(strings.TrimSpace("#@from "+strings.Join(from, ",")) + "\n")
		}
	}
	return sb.String()
}

// renumbered is step k of b once b's refused steps are left out.
func renumbered(b *sbBranch, k int) int {
	n := 0
	for j := 1; j <= min(k, b.s.p.Len()); j++ {
		if !refusedAction(b, j) {
			n++
		}
	}
	return n
}

// openBranches makes x's branches of the "#@" blocks of a file w saved
// with every branch (script.ReadBranches); ok is false when the file has
// none (a plain scenario).
func (x *Sandbox) openBranches(file, src string) (ok bool, err error) {
	saved, err := script.ReadBranches(file, src)
	if err != nil || saved == nil {
		return err != nil, err
	}
	for i := range saved.Branches {
		if err := x.openSaved(file, i, &saved.Branches[i], saved.Branches); err != nil {
			return true, err
		}
	}
	x.cur = saved.Current - 1
	return true, nil
}

// openSaved makes branch i of the blocks read.
func (x *Sandbox) openSaved(file string, i int, sb *script.SavedBranch, all []script.SavedBranch) error {
	fail := func(msg string) error {
		return errors.New(file + ":" + strconv.Itoa(sb.Line) + ": branch " + strconv.Itoa(i+1) + ": " + msg)
	}
	d := script.NewDecls()
	base := &setupBase{}
	for j, t := range sb.Setup {
		c, err := script.ParseLine(file, sb.Line, t, d)
		if err != nil {
			return fail("setup line " + strconv.Itoa(j+1) + ": " + err.Error())
		}
		if c == nil || c.Kind() != script.Setup {
			return fail("setup line " + strconv.Itoa(j+1) + " is no declaration: " + t)
		}
		base.actions = append(base.actions, c.Action)
	}
	base.written = writtenGuards(base.actions)
	g := base.written
	if i == 0 {
		// The first branch's setup is the session's.
		x.base = base
	} else if slices.Equal(setupLines(x.base, g), sb.Setup) {
		// The first branch's setup with switches flipped: switching
		// them back gives the first branch's setup again.
		base = x.base
	}
	if sb.Parent > 0 && sb.At > len(all[sb.Parent-1].Steps) {
		return fail("at=" + strconv.Itoa(sb.At) + " is past the end of its parent")
	}
	b, err := x.newBranch(base, g, sb.Steps, sb.Parent-1, sb.At, sb.Name)
	if err != nil {
		return fail(err.Error())
	}
	for k := 1; k <= b.s.p.Len(); k++ {
		if refusedAction(b, k) {
			return fail("step " + strconv.Itoa(k) + " (" + b.line(k) + ") is refused: " + b.s.p.ProblemsAt(k)[0].Error())
		}
	}
	for k, n := range sb.Moments {
		if k > b.s.p.Len() {
			return fail("a moment at step " + strconv.Itoa(k) + ", past its " + strconv.Itoa(b.s.p.Len()) + " steps")
		}
		if b.moments == nil {
			b.moments = map[int]string{}
		}
		b.moments[k] = n
	}
	b.note = sb.Note
	if sb.From != nil && sb.Parent > 0 {
		if len(sb.From) > len(all[sb.Parent-1].Steps) || slices.ContainsFunc(sb.From, func(k int) bool { return k > b.s.p.Len() }) {
			return fail("#@from does not fit the two branches' steps")
		}
		b.from = sb.From
	}
	b.s.p.Seek(min(sb.Pos, b.s.p.Len()))
	x.branches = append(x.branches, b)
	return nil
}

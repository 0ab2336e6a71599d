package adapt

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/eoslab/eoslab/engine/script"
	"github.com/eoslab/eoslab/engine/termsafe"
	"github.com/eoslab/eoslab/views/model"
)

// Names and notes of branches and moments, and the file that keeps every
// branch.
//
// The file w writes is the branch the learner is on, as a scenario that
// eoslab run plays (Scenario: the setup, then its actions, a refused one
// left out), followed by every branch of the session in comment lines
// that begin "#@", which the scenario language skips and eoslab sandbox
// reads back:
//
//	#@branches 3 current=2
//	#@branch 1 "lost ack" parent=0 at=0 pos=4
//	#@note "the ACK is lost; idempotence on"
//	#@moment 3 "here the network loses it"
//	#@setup topic t partitions=2
//	#@step P send t-0 p1
//	#@from 1,2,0,3
//
// Branches are numbered from 1 (parent 0: none); from is, for a branch
// played again from its parent with a switch flipped, the step each of
// the parent's steps became. A refused line is left out of the blocks as
// it is of the scenario (the steps after it are renumbered), so every
// branch of the file plays again.

// Limits of a name and a note, in characters.
const (
	maxName = 40
	maxNote = 200
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

// cleanText checks a name or a note: one line of at most max characters,
// nothing a terminal acts on.
func cleanText(what, s string, limit int) (string, error) {
	s = strings.TrimSpace(s)
	if n := utf8.RuneCountInString(s); n > limit {
		return "", errors.New("a " + what + " has at most " + strconv.Itoa(limit) + " characters; this one has " + strconv.Itoa(n))
	}
	if !utf8.ValidString(s) {
		return "", errors.New("a " + what + " must be UTF-8 text")
	}
	for _, r := range s {
		if termsafe.Unsafe(r) || r == '\t' {
			return "", errors.New("a " + what + " cannot hold " + termsafe.Describe(r))
		}
	}
	return s, nil
}

// Rename names branch i.
func (x *Sandbox) Rename(i int, name string) error {
	if i < 0 || i >= len(x.branches) {
		return errors.New("no branch " + strconv.Itoa(i+1))
	}
	name, err := cleanText("name", name, maxName)
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
	note, err := cleanText("note", note, maxNote)
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
	sb.WriteString("#@branches " + strconv.Itoa(len(x.branches)) + " current=" + strconv.Itoa(x.cur+1) + "\n")
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

// savedBranch is one "#@branch" block as read.
type savedBranch struct {
	name, note   string
	parent, at   int
	pos          int
	moments      map[int]string
	setup, steps []string
	from         []int
	line         int
}

// openBranches reads the "#@" blocks of a file w saved with every branch
// and makes x's branches of them; ok is false when the file has none (a
// plain scenario).
func (x *Sandbox) openBranches(file, src string) (ok bool, err error) {
	var bs []*savedBranch
	current := 1
	fail := func(n int, msg string) error { return errors.New(file + ":" + strconv.Itoa(n) + ": " + msg) }
	for i, raw := range strings.Split(src, "\n") {
		n := i + 1
		l := strings.TrimRight(raw, "\r")
		if !strings.HasPrefix(l, "#@") {
			continue
		}
		verb, rest, _ := strings.Cut(l[2:], " ")
		if verb != "branches" && !ok {
			return false, fail(n, "#@"+verb+" before #@branches: a saved session lists its branches first")
		}
		var b *savedBranch
		if len(bs) > 0 {
			b = bs[len(bs)-1]
		}
		switch verb {
		case "branches":
			if ok {
				return false, fail(n, "a second #@branches line")
			}
			ok = true
			_, cur, _ := strings.Cut(rest, "current=")
			if current, err = strconv.Atoi(strings.TrimSpace(cur)); err != nil || current < 1 {
				return false, fail(n, "#@branches wants current=N, the branch the file plays")
			}
		case "branch":
			nb := &savedBranch{line: n, moments: map[int]string{}}
			num, rest, _ := strings.Cut(rest, " ")
			if k, err := strconv.Atoi(num); err != nil || k != len(bs)+1 {
				return false, fail(n, "#@branch "+num+": branches are numbered 1, 2, ... in order; this one is "+strconv.Itoa(len(bs)+1))
			}
			q, err := strconv.QuotedPrefix(rest)
			if err != nil {
				return false, fail(n, "#@branch wants its name in double quotes")
			}
			nb.name, _ = strconv.Unquote(q)
			for _, f := range strings.Fields(rest[len(q):]) {
				k, v, _ := strings.Cut(f, "=")
				num, err := strconv.Atoi(v)
				if err != nil || num < 0 {
					return false, fail(n, "#@branch: "+f+" is not key=N")
				}
				switch k {
				case "parent":
					nb.parent = num
				case "at":
					nb.at = num
				case "pos":
					nb.pos = num
				default:
					return false, fail(n, "#@branch: no field "+strconv.Quote(k)+"; the fields are parent, at, pos")
				}
			}
			if nb.parent > len(bs) {
				return false, fail(n, "#@branch: parent="+strconv.Itoa(nb.parent)+" comes after it")
			}
			bs = append(bs, nb)
		case "note", "moment":
			if b == nil {
				return false, fail(n, "#@"+verb+" before any #@branch")
			}
			step := 0
			if verb == "moment" {
				num, r, _ := strings.Cut(rest, " ")
				if step, err = strconv.Atoi(num); err != nil || step < 1 {
					return false, fail(n, "#@moment wants a step number (1, 2, ...) then the note")
				}
				rest = r
			}
			note, err := strconv.Unquote(strings.TrimSpace(rest))
			if err != nil {
				return false, fail(n, "#@"+verb+" wants its note in double quotes")
			}
			if note, err = cleanText("note", note, maxNote); err != nil {
				return false, fail(n, err.Error())
			}
			if step == 0 {
				b.note = note
			} else {
				b.moments[step] = note
			}
		case "setup", "step":
			if b == nil {
				return false, fail(n, "#@"+verb+" before any #@branch")
			}
			if verb == "setup" {
				b.setup = append(b.setup, rest)
			} else {
				b.steps = append(b.steps, rest)
			}
		case "from":
			if b == nil {
				return false, fail(n, "#@from before any #@branch")
			}
			b.from = []int{}
			for _, f := range strings.FieldsFunc(rest, func(r rune) bool { return r == ',' }) {
				k, err := strconv.Atoi(strings.TrimSpace(f))
				if err != nil || k < 0 {
					return false, fail(n, "#@from wants step numbers separated by commas")
				}
				b.from = append(b.from, k)
			}
		default:
			return false, fail(n, "no #@"+verb+"; a saved session has #@branches, #@branch, #@note, #@moment, #@setup, #@step and #@from")
		}
	}
	if !ok {
		return false, nil
	}
	if len(bs) == 0 || current > len(bs) {
		return true, errors.New(file + ": #@branches: current=" + strconv.Itoa(current) + " but " + strconv.Itoa(len(bs)) + " branch(es)")
	}
	for i, sb := range bs {
		if err := x.openSaved(file, i, sb, bs); err != nil {
			return true, err
		}
	}
	x.cur = current - 1
	return true, nil
}

// openSaved makes branch i of the blocks read.
func (x *Sandbox) openSaved(file string, i int, sb *savedBranch, all []*savedBranch) error {
	fail := func(msg string) error {
		return errors.New(file + ":" + strconv.Itoa(sb.line) + ": branch " + strconv.Itoa(i+1) + ": " + msg)
	}
	d := script.NewDecls()
	base := &setupBase{}
	for j, t := range sb.setup {
		c, err := script.ParseLine(file, sb.line, t, d)
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
	} else if slices.Equal(setupLines(x.base, g), sb.setup) {
		// The first branch's setup with switches flipped: switching
		// them back gives the first branch's setup again.
		base = x.base
	}
	if sb.parent > 0 && sb.at > len(all[sb.parent-1].steps) {
		return fail("at=" + strconv.Itoa(sb.at) + " is past the end of its parent")
	}
	b, err := x.newBranch(base, g, sb.steps, sb.parent-1, sb.at, sb.name)
	if err != nil {
		return fail(err.Error())
	}
	for k := 1; k <= b.s.p.Len(); k++ {
		if refusedAction(b, k) {
			return fail("step " + strconv.Itoa(k) + " (" + b.line(k) + ") is refused: " + b.s.p.ProblemsAt(k)[0].Error())
		}
	}
	for k, n := range sb.moments {
		if k > b.s.p.Len() {
			return fail("a moment at step " + strconv.Itoa(k) + ", past its " + strconv.Itoa(b.s.p.Len()) + " steps")
		}
		if b.moments == nil {
			b.moments = map[int]string{}
		}
		b.moments[k] = n
	}
	b.note = sb.note
	if sb.from != nil && sb.parent > 0 {
		if len(sb.from) > len(all[sb.parent-1].steps) || slices.ContainsFunc(sb.from, func(k int) bool { return k > b.s.p.Len() }) {
			return fail("#@from does not fit the two branches' steps")
		}
		b.from = sb.from
	}
	b.s.p.Seek(min(sb.pos, b.s.p.Len()))
	x.branches = append(x.branches, b)
	return nil
}

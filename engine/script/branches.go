package script

import (
	"errors"
	"strconv"
	"strings"

	"github.com/eoslab/eoslab/engine/termsafe"
)

// A sandbox session saved with every branch: after the lines of the
// branch the learner was on (a scenario, which Run plays), each branch in
// comment lines that begin "#@", which Parse skips as comments and
// ReadBranches reads:
//
//	#@branches 3 current=2
//	#@branch 1 "lost ack" parent=0 at=0 pos=4
//	#@note "the ACK is lost; idempotence on"
//	#@moment 3 "here the network loses it"
//	#@setup topic t partitions=2
//	#@step P send t-0 p1
//	#@from 1,2,0,3
//
// Branches are numbered from 1 in order (parent 0: none); at is the step
// of the parent it forked at, pos the step it stands at, from (for a
// branch played again from its parent with a switch flipped) the step
// each of the parent's steps became there (0: left out).

// SavedSession is the "#@" blocks of a file.
type SavedSession struct {
	// Current is the branch the file's lines play (1..).
	Current  int
	Branches []SavedBranch
}

// SavedBranch is one "#@branch" block.
type SavedBranch struct {
	Name, Note      string
	Parent, At, Pos int
	// Moments are the notes on its steps, by step.
	Moments      map[int]string
	Setup, Steps []string
	// From is nil when the block has no #@from line.
	From []int
	// Line is the #@branch line's number in the file.
	Line int
}

// BranchesHeader is the line that begins the blocks, for n branches and
// the current one (1..).
func BranchesHeader(n, current int) string {
	return "#@branches " + strconv.Itoa(n) + " current=" + strconv.Itoa(current)
}

// CheckNote checks a branch's name or note: one line of at most limit
// characters, nothing a terminal would act on. what names it ("name").
func CheckNote(what, s string, limit int) (string, error) {
	s = strings.TrimSpace(s)
	if n := len([]rune(s)); n > limit {
		return "", errors.New("a " + what + " has at most " + strconv.Itoa(limit) + " characters; this one has " + strconv.Itoa(n))
	}
	for _, r := range s {
		if termsafe.Unsafe(r) || r == '\t' || r == '\uFFFD' {
			return "", errors.New("a " + what + " cannot hold " + termsafe.Describe(r))
		}
	}
	return s, nil
}

// MaxNote is the longest note CheckNote takes in ReadBranches.
const MaxNote = 200

// ReadBranches reads the "#@" blocks of src; nil when it has none (a
// plain scenario). An error names file:line.
func ReadBranches(file, src string) (*SavedSession, error) {
	var out *SavedSession
	fail := func(n int, msg string) error { return errors.New(file + ":" + strconv.Itoa(n) + ": " + msg) }
	for i, raw := range strings.Split(src, "\n") {
		n := i + 1
		l := strings.TrimRight(raw, "\r")
		if !strings.HasPrefix(l, "#@") {
			continue
		}
		verb, rest, _ := strings.Cut(l[2:], " ")
		if verb != "branches" && out == nil {
			return nil, fail(n, "#@"+verb+" before #@branches: a saved session lists its branches first")
		}
		var b *SavedBranch
		if out != nil && len(out.Branches) > 0 {
			b = &out.Branches[len(out.Branches)-1]
		}
		if b == nil && verb != "branches" && verb != "branch" {
			return nil, fail(n, "#@"+verb+" before any #@branch")
		}
		switch verb {
		case "branches":
			if out != nil {
				return nil, fail(n, "a second #@branches line")
			}
			_, cur, _ := strings.Cut(rest, "current=")
			c, err := strconv.Atoi(strings.TrimSpace(cur))
			if err != nil || c < 1 {
				return nil, fail(n, "#@branches wants current=N, the branch the file plays")
			}
			out = &SavedSession{Current: c}
		case "branch":
			nb, err := readBranch(len(out.Branches)+1, rest)
			if err != nil {
				return nil, fail(n, err.Error())
			}
			nb.Line = n
			out.Branches = append(out.Branches, nb)
		case "note", "moment":
			step := 0
			if verb == "moment" {
				num, r, _ := strings.Cut(rest, " ")
				var err error
				if step, err = strconv.Atoi(num); err != nil || step < 1 {
					return nil, fail(n, "#@moment wants a step number (1, 2, ...) then the note")
				}
				rest = r
			}
			note, err := strconv.Unquote(strings.TrimSpace(rest))
			if err != nil {
				return nil, fail(n, "#@"+verb+" wants its note in double quotes")
			}
			if note, err = CheckNote("note", note, MaxNote); err != nil {
				return nil, fail(n, err.Error())
			}
			if step == 0 {
				b.Note = note
			} else {
				b.Moments[step] = note
			}
		case "setup":
			b.Setup = append(b.Setup, rest)
		case "step":
			b.Steps = append(b.Steps, rest)
		case "from":
			b.From = []int{}
			for _, f := range strings.FieldsFunc(rest, func(r rune) bool { return r == ',' }) {
				k, err := strconv.Atoi(strings.TrimSpace(f))
				if err != nil || k < 0 {
					return nil, fail(n, "#@from wants step numbers separated by commas")
				}
				b.From = append(b.From, k)
			}
		default:
			return nil, fail(n, "no #@"+verb+"; a saved session has #@branches, #@branch, #@note, #@moment, #@setup, #@step and #@from")
		}
	}
	if out != nil && (len(out.Branches) == 0 || out.Current > len(out.Branches)) {
		return nil, errors.New(file + ": #@branches: current=" + strconv.Itoa(out.Current) + " but " + strconv.Itoa(len(out.Branches)) + " branch(es)")
	}
	return out, nil
}

// readBranch reads a #@branch line's rest: its number (want), its quoted
// name and its fields.
func readBranch(want int, rest string) (SavedBranch, error) {
	nb := SavedBranch{Moments: map[int]string{}}
	num, rest, _ := strings.Cut(rest, " ")
	if k, err := strconv.Atoi(num); err != nil || k != want {
		return nb, errors.New("#@branch " + num + ": branches are numbered 1, 2, ... in order; this one is " + strconv.Itoa(want))
	}
	q, err := strconv.QuotedPrefix(rest)
	if err != nil {
		return nb, errors.New("#@branch wants its name in double quotes")
	}
	nb.Name, _ = strconv.Unquote(q)
	if nb.Name, err = CheckNote("name", nb.Name, MaxNote); err != nil {
		return nb, err
	}
	for _, f := range strings.Fields(rest[len(q):]) {
		k, v, _ := strings.Cut(f, "=")
		num, err := strconv.Atoi(v)
		if err != nil || num < 0 {
			return nb, errors.New("#@branch: " + f + " is not key=N")
		}
		switch k {
		case "parent":
			nb.Parent = num
		case "at":
			nb.At = num
		case "pos":
			nb.Pos = num
		default:
			return nb, errors.New("#@branch: no field " + strconv.Quote(k) + "; the fields are parent, at, pos")
		}
	}
	if nb.Parent >= want {
		return nb, errors.New("#@branch: parent=" + strconv.Itoa(nb.Parent) + " is not a branch before it")
	}
	return nb, nil
}

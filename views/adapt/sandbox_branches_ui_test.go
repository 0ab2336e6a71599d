package adapt

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/engine/script"
	"github.com/eoslab/eoslab/views"
)

// retype clears the text input (ctrl+u) and types s.
func (b *sbox) retype(s string) {
	b.m, _ = b.m.Update(tea.KeyMsg{Type: tea.KeyCtrlU})
	b.typeLine(s)
}

// playFile runs a saved file as eoslab run does and returns its error.
func playFile(data []byte) error {
	cmds, err := script.Parse("saved.scn", data)
	if err != nil {
		return err
	}
	return script.NewRunner().Play(cmds, func(o script.Outcome) error {
		if o.Failure != nil {
			return fmt.Errorf("%s:%d: %s", o.Failure.File, o.Failure.Line, o.Failure.Text)
		}
		return nil
	})
}

// TestSandboxBranchNamesNotesSaved: in the branch list n names the
// branch, N notes it, a notes the step it stands at; bad input gets a
// message and stays to be fixed. w saves every branch in one file: eoslab
// run plays the branch the learner was on, and the sandbox reopens all of
// them, with their names, notes, positions and the map C compares by.
// Before, n, N and a did nothing and w saved one branch.
func TestSandboxBranchNamesNotesSaved(t *testing.T) {
	b := newSbox(t, "idempotent", 80, 24)
	b.press("1")
	lostAckKeys(b)
	b.press("1") // branch 3: branch 2 played again with idempotence on
	b.press("B", "n")
	if got := b.model().ScreenName(); got != "sandbox naming" {
		t.Fatalf("n in the branch list: %s", got)
	}
	b.retype("branch 1")
	b.press("enter")
	if v := b.screen(); !strings.Contains(v, `branch 1 is already called "branch 1"`) || b.model().ScreenName() != "sandbox naming" {
		t.Errorf("a name another branch has:\n%s", v)
	}
	b.retype(strings.Repeat("x", 41))
	b.press("enter")
	if v := b.screen(); !strings.Contains(v, "a name has at most 40 characters") {
		t.Errorf("a name too long:\n%s", v)
	}
	b.retype("")
	b.press("enter")
	if v := b.screen(); !strings.Contains(v, "a branch needs a name") {
		t.Errorf("an empty name:\n%s", v)
	}
	b.retype("idempotence on")
	b.press("enter", "N")
	b.retype("the same actions; the ACK is lost only where idempotence was off")
	b.press("enter", "a")
	b.retype("the run that ends it")
	b.press("enter")
	v := b.screen()
	n, pos := b.sb().Len(), b.sb().Pos()
	for _, want := range []string{fmt.Sprintf("idempotence on: %d action(s)", n), "the same actions; the ACK is lost", fmt.Sprintf("step %d: the run that ends it", pos)} {
		if !strings.Contains(v, want) {
			t.Errorf("the branch list lacks %q:\n%s", want, v)
		}
	}
	b.press("esc", "w")
	data := b.saved[b.sb().SaveName()]
	if !strings.Contains(string(data), "#@branches 3 current=3\n") || !strings.Contains(string(data), `#@branch 3 "idempotence on" parent=2`) {
		t.Fatalf("the file does not keep every branch:\n%s", data)
	}
	if err := playFile(data); err != nil {
		t.Fatalf("eoslab run of the saved file: %v\n%s", err, data)
	}
	x := b.sb()
	y, err := OpenSandboxFile("saved.scn", data)
	if err != nil {
		t.Fatalf("reopen: %v\n%s", err, data)
	}
	if !reflect.DeepEqual(x.Branches(), y.Branches()) || x.Branch() != y.Branch() || x.Pos() != y.Pos() {
		t.Errorf("reopened branches\n%+v at %d/%d\nnot\n%+v at %d/%d", y.Branches(), y.Branch(), y.Pos(), x.Branches(), x.Branch(), x.Pos())
	}
	for i := range x.Branches() {
		x.Switch(i)
		y.Switch(i)
		if a, b := dropFirstLine(x.Scenario()), dropFirstLine(y.Scenario()); a != b {
			t.Errorf("branch %d reopened:\n%s\nnot\n%s", i+1, b, a)
		}
	}
	ca, _ := x.Compare(1, 2)
	cb, err := y.Compare(1, 2)
	if err != nil || !reflect.DeepEqual(ca, cb) {
		t.Errorf("reopened, C compares otherwise: %v\n%+v\nnot\n%+v", err, cb, ca)
	}
	// Saved again it is the same file; q leaves without asking.
	x.Switch(2)
	y.Switch(2)
	if a, b := dropFirstLine(x.ScenarioAll()), dropFirstLine(y.ScenarioAll()); a != b {
		t.Errorf("saved again:\n%s\nfirst:\n%s", b, a)
	}
	r := &sbox{t: t, w: 80, h: 24, saved: map[string][]byte{}}
	r.m = views.NewSandbox(nil, nil, y, views.Options{SaveFile: func(string, []byte) (string, error) { return "x", nil }})
	r.m, _ = r.m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	r.press("q")
	if got := r.model().ScreenName(); got == "sandbox leaving" {
		t.Errorf("a file just opened asks before leaving")
	}
}

// TestSandboxSavedFileDropsRefused: a file whose line the engine refuses
// opens (the line is a refused step); w leaves it out of the lines and of
// the branch blocks, so the file plays and reopens.
func TestSandboxSavedFileDropsRefused(t *testing.T) {
	src := "topic t\nproducer P\nP send t-0 a\ndeliver m99\nrun\n"
	x, err := OpenSandboxFile("refused.scn", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if !refusedAction(x.branch(), 2) {
		t.Fatalf("deliver m99 is not refused: %v", x.branch().s.p.ProblemsAt(2))
	}
	all := x.ScenarioAll()
	if strings.Contains(all, "#@step deliver m99") {
		t.Errorf("the refused line is kept in the blocks:\n%s", all)
	}
	if err := playFile([]byte(all)); err != nil {
		t.Errorf("eoslab run: %v\n%s", err, all)
	}
	y, err := OpenSandboxFile("again.scn", []byte(all))
	if err != nil {
		t.Fatalf("reopen: %v\n%s", err, all)
	}
	if y.Len() != 2 {
		t.Errorf("reopened with %d steps, want 2 (the refused one left out)", y.Len())
	}
}

// TestSandboxBadBranchBlocks: a hand-edited block gets file:line.
func TestSandboxBadBranchBlocks(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"topic t\n#@branch 1 \"a\" parent=0 at=0 pos=0\n", "bad.scn:2: #@branch before #@branches"},
		{"topic t\n#@branches 1 current=1\n#@branch 1 a parent=0\n", "bad.scn:3: #@branch wants its name in double quotes"},
		{"topic t\n#@branches 1 current=2\n#@branch 1 \"a\" parent=0 at=0 pos=0\n#@setup topic t\n", "current=2 but 1 branch(es)"},
		{"topic t\n#@branches 1 current=1\n#@branch 1 \"a\" parent=0 at=0 pos=0\n#@setup topic t\n#@step deliver m9\n", "bad.scn:3: branch 1: step 1 (deliver m9) is refused"},
		{"topic t\n#@branches 1 current=1\n#@branch 1 \"a\" parent=0 at=0 pos=0\n#@oops\n", "bad.scn:4: no #@oops"},
		{"topic t\n#@branches 1 current=1\n#@branch 1 \"a\" parent=0 at=0 pos=0\n#@note \"a\\tb\"\n", "bad.scn:4: a note cannot hold"},
	} {
		_, err := OpenSandboxFile("bad.scn", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.src, err, c.want)
		}
	}
}

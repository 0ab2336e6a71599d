package adapt

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/lessons/challenges"
	"github.com/eoslab/eoslab/lessons/progress"
	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/internal/viewtest"
	"github.com/eoslab/eoslab/views/model"
)

// app is the root on a real engine driven by keys, running the commands
// its keys return (a save, a picked goal) as Bubble Tea would.
type app struct {
	t    *testing.T
	m    tea.Model
	w, h int
}

func (a *app) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			a.run(c)
		}
	case nil:
	default:
		var next tea.Cmd
		a.m, next = a.m.Update(msg)
		a.run(next)
	}
}

func (a *app) press(keys ...string) {
	for _, k := range keys {
		var cmd tea.Cmd
		a.m, cmd = a.m.Update(viewtest.Key(k))
		a.run(cmd)
		viewtest.CheckScreen(a.t, a.m.View(), a.w, a.h, "after "+k)
	}
}

func (a *app) view() string { return ansi.Strip(a.m.View()) }

// selectKind presses down or up until the selected waiting item is of
// kind (a timer: "timer" and its name).
func (a *app) selectKind(sb *Sandbox, kind string) {
	a.t.Helper()
	sel := a.m.(views.App).SandboxSelected()
	for i, it := range sb.Waiting() {
		if it.Kind == kind {
			for ; sel < i; sel++ {
				a.press("down")
			}
			for ; sel > i; sel-- {
				a.press("up")
			}
			return
		}
	}
	a.t.Fatalf("nothing of kind %s waits: %+v", kind, sb.Waiting())
}

// TestChallengeFromHomeReached: picking goal 1 on the Challenges entry
// opens the sandbox on its world with the goal on screen; g shows the hint
// and g again asks before the solution; playing the lost ACK by keys
// reaches the goal, which the screen says in words, saves the branch where
// w saves, records in the progress, and, once the sandbox is left, the
// Challenges list shows reached. Without the drop the goal is not reached.
func TestChallengeFromHomeReached(t *testing.T) {
	for _, drop := range []bool{true, false} {
		st := progress.Open(progress.Options{Dir: t.TempDir()})
		saved := map[string]string{}
		opts := views.Options{NoColor: true, Progress: Progress{S: st},
			OpenChallenge: func(name string) (model.SandboxSession, error) { return OpenChallengeNamed(name) },
			SaveFile:      func(name string, data []byte) (string, error) { saved[name] = string(data); return name, nil }}
		a := &app{t: t, w: 80, h: 24, m: views.WithChallenges(views.NewApp(Lessons(), Open, opts), Challenges(st))}
		a.m, _ = a.m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		a.press("C", "enter")
		if !a.m.(views.App).SandboxOpen() {
			t.Fatalf("enter on goal 1 did not open the sandbox:\n%s", a.view())
		}
		g := challenges.All()[0]
		if v := a.view(); !strings.Contains(v, "Goal 1 "+g.Title) || !strings.Contains(v, "g: hint") {
			t.Fatalf("the goal is not on screen:\n%s", v)
		}
		a.press("g")
		if v := oneLine(a.view()); !strings.Contains(v, "Hint: Let the Produce reach") {
			t.Fatalf("g shows no hint:\n%s", a.view())
		}
		a.press("g")
		if got := a.m.(views.App).ScreenName(); got != "sandbox asking" || !strings.Contains(a.view(), "show the solution?") {
			t.Fatalf("g again did not ask: %q\n%s", got, a.view())
		}
		a.press("y")
		if v := a.view(); !strings.Contains(v, "Solution of goal 1") || !strings.Contains(v, "drop ProduceResponse") {
			t.Fatalf("y shows no solution:\n%s", v)
		}
		a.press("esc")
		sb := a.m.(views.App).SandboxSession().(*Sandbox)
		a.press("s")
		a.selectKind(sb, "Produce")
		a.press("enter")
		a.selectKind(sb, "ProduceResponse")
		if drop {
			a.press("x")
		} else {
			a.press("enter")
		}
		a.press("R")
		if !drop {
			if v := a.view(); strings.Contains(v, "REACHED") || len(saved) != 0 {
				t.Fatalf("the goal is reached without the lost ACK:\n%s", v)
			}
			if _, ok := st.Challenge(g.Name); ok {
				t.Fatal("progress records a goal not reached")
			}
			continue
		}
		v := a.view()
		if !strings.Contains(v, "REACHED goal 1") || !strings.Contains(v, "GOAL REACHED: saved; eoslab challenges check 1 sandbox-challenge-01.scn") {
			t.Fatalf("reaching the goal does not say so:\n%s", v)
		}
		file, ok := saved["sandbox-challenge-01.scn"]
		if !ok {
			t.Fatalf("the solution was not saved: %v", saved)
		}
		if o, err := challenges.Check(g, "saved", []byte(file)); err != nil || !o.Reached {
			t.Fatalf("the saved file does not reach the goal (%v): %v\n%s", err, o.Says, file)
		}
		if ch, ok := st.Challenge(g.Name); !ok || !strings.HasSuffix(ch.File, "sandbox-challenge-01.scn") {
			t.Fatalf("progress does not record goal 1: %+v %v", ch, ok)
		}
		a.press("q")
		if a.m.(views.App).SandboxOpen() {
			t.Fatalf("q after the goal's save did not leave:\n%s", a.view())
		}
		if v := a.view(); !strings.Contains(v, "1 of "+itoa(len(challenges.All()))+" reached") {
			t.Fatalf("the Challenges list does not show goal 1 reached:\n%s", v)
		}
		st.Close()
	}
}

// TestChallengeReachedBySearchNotCounted: on goal 1's world, X finds a
// duplicate for the student; the goal stands reached on the search's
// branch, but the screen says it does not count, nothing is saved and
// progress records nothing. Going back to the student's own branch and
// playing the lost ACK by hand reaches it and records it.
func TestChallengeReachedBySearchNotCounted(t *testing.T) {
	st := progress.Open(progress.Options{Dir: t.TempDir()})
	saved := map[string]string{}
	opts := views.Options{NoColor: true, Progress: Progress{S: st},
		OpenChallenge: func(name string) (model.SandboxSession, error) { return OpenChallengeNamed(name) },
		SaveFile:      func(name string, data []byte) (string, error) { saved[name] = string(data); return name, nil }}
	a := &app{t: t, w: 80, h: 24, m: views.WithChallenges(views.NewApp(Lessons(), Open, opts), Challenges(st))}
	a.m, _ = a.m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	a.press("C", "enter")
	sb := a.m.(views.App).SandboxSession().(*Sandbox)
	a.press("X")
	digit := ""
	for i, m := range sb.Monitors() {
		if m.Name == "duplicate-record" {
			digit = string(rune('1' + i))
		}
	}
	if digit == "" {
		t.Fatalf("X offers no duplicate-record guarantee:\n%s", a.view())
	}
	a.press(digit, "esc")
	g := challenges.All()[0]
	if o, _ := sb.Goal(); !o.Reached {
		t.Fatalf("the search's branch does not reach goal 1:\n%s", a.view())
	}
	v := a.view()
	if !strings.Contains(v, "not counted") || strings.Contains(v, "REACHED goal 1") || len(saved) != 0 {
		t.Fatalf("a goal the search reached counts as the student's (saved %v):\n%s", saved, v)
	}
	if _, ok := st.Challenge(g.Name); ok {
		t.Fatal("progress records a goal only the search reached")
	}
	// Branch 1 is the student's own: reach it there by hand.
	a.press("B", "1", "esc")
	if sb.Branch() != 0 {
		t.Fatalf("B 1 did not go to branch 1 (on %d):\n%s", sb.Branch(), a.view())
	}
	a.press("s")
	a.selectKind(sb, "Produce")
	a.press("enter")
	a.selectKind(sb, "ProduceResponse")
	a.press("x", "R")
	if v := a.view(); !strings.Contains(v, "REACHED goal 1") {
		t.Fatalf("reaching the goal by hand after the search does not count:\n%s", v)
	}
	if _, ok := st.Challenge(g.Name); !ok {
		t.Fatal("progress does not record the goal reached by hand")
	}
}

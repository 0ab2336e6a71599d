package adapt

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/internal/gcpace"
	"github.com/eoslab/eoslab/views/model"
)

// bigSandbox is a sandbox whose first branch starts with the big lesson's
// history (over 100,000 events) as its first steps, then one send, so that
// a message and its timer wait.
func bigSandbox(tb testing.TB) *Sandbox {
	l := bigLesson(tb)
	x := &Sandbox{title: l.Title, name: "big", base: &setupBase{}}
	for _, c := range l.Setup {
		x.base.actions = append(x.base.actions, c.Action)
	}
	x.base.written = writtenGuards(x.base.actions)
	b := &sbBranch{s: x.session(lessons.NewGrowingPlayer(l)), base: x.base, g: x.base.written, setup: setupLines(x.base, x.base.written),
		parent: -1, name: "branch 1", causes: map[int][]cause{}}
	x.branches = []*sbBranch{b}
	b.s.p.Seek(b.s.p.Len())
	if _, err := x.Do(model.Op{Kind: model.OpCall, Client: "A", Call: model.CallSend}); err != nil {
		tb.Fatal(err)
	}
	if n := x.World().EventCount(); n < 100000 {
		tb.Fatalf("only %d events", n)
	}
	return x
}

// BenchmarkSandboxKeystroke100k measures one sandbox keystroke (Update,
// then View) at 200x60 on a world with over 100,000 events of history.
// "select" moves the selection in the waiting list (the Timeline marks
// it); "revisit" steps back and forth over positions already shown (← →);
// "prompt" types and erases a letter at the prompt, which asks the
// session for completions each time; "act" is n, one engine
// step as a new action: the trial apply, the step, the new frame and
// every panel drawn afresh.
func BenchmarkSandboxKeystroke100k(b *testing.B) {
	// The collector's pace of the TUI (tuirun.Run sets it).
	defer gcpace.Set()()
	x := bigSandbox(b)
	for _, c := range []struct {
		name string
		keys []tea.KeyMsg
	}{
		{"select", []tea.KeyMsg{{Type: tea.KeyDown}, {Type: tea.KeyUp}}},
		{"revisit", []tea.KeyMsg{{Type: tea.KeyLeft}, {Type: tea.KeyRight}}},
		{"prompt", []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune{'s'}}, {Type: tea.KeyBackspace}}},
		{"act", []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune{'n'}}}},
	} {
		b.Run(c.name, func(b *testing.B) {
			x.Seek(x.Len())
			var m tea.Model = views.NewSandbox(nil, nil, x, views.Options{})
			m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
			if c.name == "prompt" {
				m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{':'}})
			}
			_ = m.View()
			before := x.Len()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m, _ = m.Update(c.keys[i%len(c.keys)])
				_ = m.View()
			}
			b.StopTimer()
			// Every act is a real step: the branch grows by one each time.
			if c.name == "act" && x.Len() != before+b.N {
				b.Fatalf("%d acts made %d steps", b.N, x.Len()-before)
			}
		})
	}
}

package views_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"eoslab/views"
	"eoslab/views/demo"
)

// screen follows a program's output. Each wait looks for its text after
// the previous match, so two texts drawn in one frame are both found, in
// order, and a text from an earlier frame does not count again.
type screen struct {
	tm   *teatest.TestModel
	rest []byte
}

func (s *screen) waitFor(t *testing.T, what string) {
	t.Helper()
	w := []byte(what)
	var all []byte
	teatest.WaitFor(t, s.tm.Output(), func(b []byte) bool {
		all = append(append([]byte(nil), s.rest...), b...)
		return bytes.Contains(all, w)
	}, teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(5*time.Millisecond))
	i := bytes.Index(all, w)
	s.rest = all[i+len(w):]
}

// TestPlayThroughAndBack runs the real Bubble Tea program: it opens the
// transactions lesson from the list, plays it to the end with the keyboard
// (answering both checkpoints), walks all the way back, and checks that the
// list then shows the lesson as finished.
func TestPlayThroughAndBack(t *testing.T) {
	m := views.NewApp(demo.Lessons(), demo.Open, views.Options{})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))
	sc := &screen{tm: tm}

	sc.waitFor(t, "Transactions: commit, markers and a zombie")
	tm.Send(tea.KeyMsg{Type: tea.KeyDown})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	sc.waitFor(t, "step 0/14")

	answers := map[int]string{6: "2", 13: "3"}
	for step := 1; step <= 14; step++ {
		if a, ok := answers[step-1]; ok {
			tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(a)})
			sc.waitFor(t, "correct")
		}
		tm.Send(tea.KeyMsg{Type: tea.KeyRight})
		if step == 14 {
			// Drawn above the narration, so earlier in the same frame.
			sc.waitFor(t, "PRODUCER_FENCED(90)")
		}
		sc.waitFor(t, fmt.Sprintf("step %d/14", step))
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyRight})
	sc.waitFor(t, "End of the lesson")

	for step := 13; step >= 0; step-- {
		tm.Send(tea.KeyMsg{Type: tea.KeyLeft})
		sc.waitFor(t, fmt.Sprintf("step %d/14", step))
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	sc.waitFor(t, "finished")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})

	final, ok := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(views.App)
	if !ok {
		t.Fatalf("final model is %T", final)
	}
	if final.Session() != nil {
		t.Error("a session is still open after esc")
	}
}

// TestAutoplayRuns lets the program's own ticks step the lesson until the
// first checkpoint stops it.
func TestAutoplayRuns(t *testing.T) {
	m := views.NewApp(demo.Lessons(), demo.Open, views.Options{StartLesson: "transactions"})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))
	sc := &screen{tm: tm}
	sc.waitFor(t, "step 0/14")
	for range 7 { // fastest speed: 0.4s a step
		tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("+")})
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("p")})
	sc.waitFor(t, "playing")
	// The header line (top) says why autoplay stopped; the step counter
	// (below) says where.
	sc.waitFor(t, "Answer the question first")
	sc.waitFor(t, "step 6/14")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(views.App)
	if final.Playing() || final.Session().Pos() != 6 {
		t.Errorf("playing=%v pos=%d, want stopped at the checkpoint (6)", final.Playing(), final.Session().Pos())
	}
}

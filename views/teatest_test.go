package views_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/demo"
	"github.com/eoslab/eoslab/views/internal/viewtest"
)

// TestPlayThroughAndBack runs the real Bubble Tea program: it opens the
// transactions lesson from the list, plays it to the end with the keyboard
// (answering both checkpoints), walks all the way back, and checks that the
// list then shows the lesson as finished.
func TestPlayThroughAndBack(t *testing.T) {
	m := views.NewApp(demo.Lessons(), demo.Open, views.Options{})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))
	sc := &viewtest.Screen{TM: tm}

	sc.WaitFor(t, "Transactions: commit, markers and a zombie")
	tm.Send(tea.KeyMsg{Type: tea.KeyDown})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	sc.WaitFor(t, "step 0/14")

	answers := map[int]string{6: "2", 13: "3"}
	for step := 1; step <= 14; step++ {
		if a, ok := answers[step-1]; ok {
			tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(a)})
			sc.WaitFor(t, "correct")
		}
		tm.Send(tea.KeyMsg{Type: tea.KeyRight})
		if step == 14 {
			// Drawn above the narration, so earlier in the same frame.
			sc.WaitFor(t, "PRODUCER_FENCED(90)")
		}
		sc.WaitFor(t, fmt.Sprintf("step %d/14", step))
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyRight})
	sc.WaitFor(t, "End of the lesson")

	for step := 13; step >= 0; step-- {
		tm.Send(tea.KeyMsg{Type: tea.KeyLeft})
		sc.WaitFor(t, fmt.Sprintf("step %d/14", step))
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	sc.WaitFor(t, "finished")
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
// first checkpoint stops it. The clock is the test's: each tick fires at
// once, and the delays autoplay asked for are checked instead of waited.
func TestAutoplayRuns(t *testing.T) {
	var mu sync.Mutex
	var delays []time.Duration
	tick := func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
		mu.Lock()
		delays = append(delays, d)
		mu.Unlock()
		return func() tea.Msg { return fn(time.Time{}) }
	}
	m := views.NewApp(demo.Lessons(), demo.Open, views.Options{StartLesson: "transactions", Tick: tick})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))
	sc := &viewtest.Screen{TM: tm}
	sc.WaitFor(t, "step 0/14")
	for range 12 { // the fastest speed: 0.4 s for a short step
		tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("+")})
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("p")})
	// The header line (top) says why autoplay stopped; the step counter
	// (below) says where.
	sc.WaitFor(t, "Answer the question first")
	sc.WaitFor(t, "step 6/14")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(views.App)
	if final.Playing() || final.Session().Pos() != 6 {
		t.Errorf("playing=%v pos=%d, want stopped at the checkpoint (6)", final.Playing(), final.Session().Pos())
	}
	mu.Lock()
	defer mu.Unlock()
	if len(delays) < 6 {
		t.Fatalf("autoplay asked for %d ticks, want one a step (6)", len(delays))
	}
	for _, d := range delays {
		if d < 400*time.Millisecond {
			t.Errorf("a tick of %v: the fastest speed is 0.4 s a step", d)
		}
	}
}

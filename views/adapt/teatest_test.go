package adapt

import (
	"fmt"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/internal/viewtest"
)

// TestPlayLostAckThroughAndBack runs the real Bubble Tea program on the
// real lost-ack lesson: it opens the lesson from the list, answers every
// checkpoint correctly with the number keys, steps to the end, walks back
// to step 0 with the back key, and returns to the list, which then shows
// the lesson as finished.
//
// The right answers are not read from the screen (the player hides them
// until the learner answers): they come from the lesson itself, whose
// checkpoints are judged by what the engine does after the next step.
func TestPlayLostAckThroughAndBack(t *testing.T) {
	l, err := lessons.Load("lost-ack")
	if err != nil {
		t.Fatal(err)
	}
	judge := lessons.NewPlayer(l)
	steps := judge.Len()
	answers := map[int]int{} // position -> right choice
	for k := 1; k <= steps; k++ {
		if c := judge.Correct(k); c > 0 {
			answers[k] = c
		}
	}
	if len(answers) == 0 {
		t.Fatal("lost-ack has no checkpoints")
	}

	m := views.NewApp(Lessons(), Open, views.Options{})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))
	sc := &viewtest.Screen{TM: tm}
	sc.WaitFor(t, l.Title)
	sc.Press("down") // lost-ack is the second lesson of the list
	sc.Press("enter")
	sc.WaitFor(t, fmt.Sprintf("step 0/%d", steps))

	refused := false
	for pos := 0; pos < steps; pos++ {
		if c, ok := answers[pos]; ok {
			if !refused {
				// Next waits for the answer, and says so.
				sc.Press("right")
				sc.WaitFor(t, "Answer the question first")
				refused = true
			}
			sc.Press(fmt.Sprint(c))
			sc.WaitFor(t, "Correct!")
		}
		sc.Press("right")
		if pos+1 == steps {
			// The header, above the step counter in the same frame.
			sc.WaitFor(t, "Lesson complete")
		}
		sc.WaitFor(t, fmt.Sprintf("step %d/%d", pos+1, steps))
	}
	sc.Press("right")
	sc.WaitFor(t, "End of the lesson")

	for pos := steps - 1; pos >= 0; pos-- {
		sc.Press("left")
		sc.WaitFor(t, fmt.Sprintf("step %d/%d", pos, steps))
	}
	sc.Press("left")
	sc.WaitFor(t, "This is the start of the lesson")
	sc.Press("esc")
	sc.WaitFor(t, "finished")
	sc.Press("q")

	final, ok := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(views.App)
	if !ok {
		t.Fatalf("final model is %T", final)
	}
	if final.Session() != nil {
		t.Error("a session is still open after esc")
	}
}

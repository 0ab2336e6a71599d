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

// TestLostAckIn30Keys runs the real program at 80x24, as a new learner
// would: from the list, open lost-ack and read it to the end, answering
// every checkpoint (rightly: the lesson knows which choice the engine makes
// true). Every text fits its step, so no key goes to scrolling: the whole
// lesson takes at most 30 keys.
func TestLostAckIn30Keys(t *testing.T) {
	l, err := lessons.Load("lost-ack")
	if err != nil {
		t.Fatal(err)
	}
	judge := lessons.NewPlayer(l)
	tm := teatest.NewTestModel(t, views.NewApp(Lessons(), Open, views.Options{}), teatest.WithInitialTermSize(80, 24))
	sc := &viewtest.Screen{TM: tm}
	keys := 0
	press := func(k string) { keys++; sc.Press(k) }

	sc.WaitFor(t, l.Title)
	press("down") // lost-ack is the second lesson of the list
	press("enter")
	sc.WaitFor(t, fmt.Sprintf("step 0/%d", judge.Len()))
	for pos := 0; pos < judge.Len(); pos++ {
		if c := judge.Correct(pos); c > 0 {
			press(fmt.Sprint(c))
			sc.WaitFor(t, "Correct!")
		}
		press("right")
		if pos+1 == judge.Len() {
			sc.WaitFor(t, "Lesson complete")
		}
		sc.WaitFor(t, fmt.Sprintf("step %d/%d", pos+1, judge.Len()))
	}
	press("esc")
	sc.WaitFor(t, "finished")
	sc.Press("q")
	tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second))
	t.Logf("lost-ack at 80x24: %d keys", keys)
	if keys > 30 {
		t.Errorf("lost-ack took %d keys; at most 30", keys)
	}
}

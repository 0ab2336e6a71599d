package serve

import (
	"testing"
	"time"

	"eoslab/lessons"
)

// firstAsk is the position of the lesson's first checkpoint.
func firstAsk(t testing.TB, l *lessons.Lesson) int {
	for k := 1; k <= len(l.Steps); k++ {
		if l.Steps[k-1].Ask != nil {
			return k
		}
	}
	t.Fatalf("lesson %s has no checkpoint", l.Title)
	return 0
}

func newTestClass(t testing.TB, name string) (*Class, *lessons.Lesson) {
	t.Helper()
	l, err := lessons.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewClass(lessons.Load, name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c, l
}

// latest is the newest View on ch, waiting for one if none is there.
func latest(t testing.TB, ch <-chan *View) *View {
	t.Helper()
	var v *View
	select {
	case v = <-ch:
	case <-time.After(2 * time.Second):
		t.Fatal("no view within 2 s")
	}
	for {
		select {
		case v = <-ch:
		default:
			return v
		}
	}
}

// Nothing of a question's answer reaches a student before the reveal:
// not the right choice, the explanation, the counts or a verdict; after
// it, each student's verdict is the engine's.
func TestClassKeepsTheAnswerUntilTheReveal(t *testing.T) {
	c, l := newTestClass(t, "abort")
	k := firstAsk(t, l)
	for range k {
		if _, ok := c.Move(Move{Kind: Next}); !ok {
			t.Fatal("next refused")
		}
	}
	ana, leaveAna := c.Join("ana", false)
	bo, _ := c.Join("bo", false)
	pres, _ := c.Join("teacher", true)
	latest(t, ana)
	latest(t, bo)
	c.Answer("ana", k, 1)
	c.Answer("ana", k, 2) // locked: ignored
	c.Answer("bo", k, 2)
	c.Answer("bo", k+1, 1) // not the current step: ignored
	pv := latest(t, pres)
	for pv.Ask == nil || pv.Ask.Answered < 2 {
		pv = latest(t, pres)
	}
	if pv.Ask.Counts[0] != 1 || pv.Ask.Counts[1] != 1 || pv.Ask.Correct != 0 {
		t.Fatalf("presenter before the reveal: %+v", pv.Ask)
	}
	for _, v := range []*View{latest(t, ana), latest(t, bo)} {
		a := v.Ask
		cp := v.Frame.Checkpoint
		if a == nil || cp == nil || a.Correct != 0 || a.Explanation != "" || a.Counts != nil || a.Answered != 0 || a.Waiting != nil ||
			cp.Answered || cp.Correct != 0 || cp.Explanation != "" || cp.Chosen != 0 {
			t.Fatalf("a student's view holds part of the answer before the reveal: ask %+v checkpoint %+v", a, cp)
		}
	}
	// A reconnecting seat keeps its answer; a late one starts here.
	leaveAna()
	ana, _ = c.Join("ana", false)
	if v := latest(t, ana); v.Pos != k || v.Ask.Mine != 1 {
		t.Fatalf("reconnected: pos %d mine %d, want %d and 1", v.Pos, v.Ask.Mine, k)
	}
	if _, ok := c.Move(Move{Kind: Reveal}); !ok {
		t.Fatal("reveal refused")
	}
	right := lessons.NewPlayer(l).Correct(k)
	for seat, ch := range map[string]<-chan *View{"ana": ana, "bo": bo} {
		v := latest(t, ch)
		r := v.Result
		if v.Pos != k+1 || r == nil || !r.Revealed || r.Correct != right || r.Explanation != l.Steps[k-1].Ask.Explain || r.Answered != 2 {
			t.Fatalf("%s after the reveal: pos %d result %+v", seat, v.Pos, r)
		}
		if v.Ask == nil && (v.Frame.Checkpoint == nil || !v.Frame.Checkpoint.Answered || v.Frame.Checkpoint.Chosen != r.Mine) {
			t.Fatalf("%s: the deciding step does not show the judged question: %+v", seat, v.Frame.Checkpoint)
		}
	}
	if _, ok := c.Move(Move{Kind: Reveal}); ok && latest(t, pres).Ask == nil {
		t.Fatal("a second reveal on a step without a question went through")
	}
}

// A seat that never reads its views does not hold the class up.
func TestClassNeverWaitsForASeat(t *testing.T) {
	c, _ := newTestClass(t, "abort")
	for i := range 20 {
		c.Join("stuck"+string(rune('a'+i)), false) // never read
	}
	done := make(chan struct{})
	go func() {
		for range 500 {
			c.Move(Move{Kind: Next})
			c.Move(Move{Kind: Back})
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the class stalled on seats that do not read")
	}
}

// Failed logins hold back one address after a burst, and only failures
// count: right codes from the same address never drain it.
func TestLimiterCountsFailuresOnly(t *testing.T) {
	now := time.Unix(0, 0)
	l := newLimiter(3, time.Second)
	l.now = func() time.Time { return now }
	for range 100 {
		if !l.allow("10.0.0.1") {
			t.Fatal("logins that did not fail were held back")
		}
	}
	for range 3 {
		l.fail("10.0.0.1")
	}
	if l.allow("10.0.0.1") || !l.allow("10.0.0.2") {
		t.Fatal("the burst of failures did not hold back its address only")
	}
	now = now.Add(time.Second)
	if !l.allow("10.0.0.1") {
		t.Fatal("the address is still held back after its refill")
	}
}

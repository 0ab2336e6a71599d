package serve

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/views"
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

// holds reports whether a View carries text anywhere in its fields, the
// frame's included: its JSON, which holds every exported field, is
// searched for the text as JSON writes it.
func holds(t testing.TB, v *View, text string) bool {
	t.Helper()
	var all, one bytes.Buffer
	for _, x := range []struct {
		buf *bytes.Buffer
		val any
	}{{&all, v}, {&one, text}} {
		enc := json.NewEncoder(x.buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(x.val); err != nil {
			t.Fatal(err)
		}
	}
	quoted := strings.TrimSpace(one.String())
	return bytes.Contains(all.Bytes(), []byte(quoted[1:len(quoted)-1]))
}

// shows reports whether a screen shows text, whichever way it is wrapped:
// the pane borders are taken out and the spaces folded.
func shows(screen, text string) bool {
	screen = strings.Map(func(r rune) rune {
		if strings.ContainsRune("|│┃", r) {
			return ' '
		}
		return r
	}, screen)
	return strings.Contains(strings.Join(strings.Fields(screen), " "), strings.Join(strings.Fields(text), " "))
}

// seatScreen is what a seat with View v draws at w x h.
func seatScreen(c *Class, v *View, seat string, presenter bool, w, h int) string {
	s := NewSeat(c, v, SeatOptions{Seat: seat, Presenter: presenter, Views: views.Options{NoColor: true}})
	s.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return s.View()
}

// Nothing of a question's answer reaches a student before the reveal:
// not the right choice, the explanation, the counts or a verdict; after
// it, each student's verdict is the engine's.
func TestClassKeepsTheAnswerUntilTheReveal(t *testing.T) {
	t.Parallel()
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
	explain := l.Steps[k-1].Ask.Explain
	if holds(t, pv, explain) || shows(seatScreen(c, pv, "teacher", true, 80, 24), explain) {
		t.Fatal("the presenter's view holds the explanation before the reveal")
	}
	for seat, v := range map[string]*View{"ana": latest(t, ana), "bo": latest(t, bo)} {
		a := v.Ask
		cp := v.Frame.Checkpoint
		if a == nil || cp == nil || a.Correct != 0 || a.Explanation != "" || a.Counts != nil || a.Answered != 0 || a.Waiting != nil ||
			cp.Answered || cp.Correct != 0 || cp.Explanation != "" || cp.Chosen != 0 {
			t.Fatalf("a student's view holds part of the answer before the reveal: ask %+v checkpoint %+v", a, cp)
		}
		if holds(t, v, explain) {
			t.Fatalf("%s's view holds the explanation before the reveal", seat)
		}
		for _, sz := range [][2]int{{80, 24}, {60, 20}} {
			if scr := seatScreen(c, v, seat, false, sz[0], sz[1]); shows(scr, explain) || strings.Contains(scr, "verdict") {
				t.Fatalf("%s's screen at %dx%d shows the answer before the reveal:\n%s", seat, sz[0], sz[1], scr)
			}
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
		// The explanation is on the student's screen, whether the
		// deciding step asks a question of its own or not.
		for _, sz := range [][2]int{{80, 24}, {60, 20}} {
			if scr := seatScreen(c, v, seat, false, sz[0], sz[1]); !shows(scr, explain) {
				t.Fatalf("%s's screen at %dx%d does not show the explanation after the reveal:\n%s", seat, sz[0], sz[1], scr)
			}
		}
	}
	pv = latest(t, pres)
	if scr := seatScreen(c, pv, "teacher", true, 80, 24); !shows(scr, explain) || strings.Contains(scr, "(your answer)") {
		t.Fatalf("the presenter's screen after the reveal:\n%s", scr)
	}
	if _, ok := c.Move(Move{Kind: Reveal}); ok && latest(t, pres).Ask == nil {
		t.Fatal("a second reveal on a step without a question went through")
	}
}

// A seat that never reads its views does not hold the class up.
func TestClassNeverWaitsForASeat(t *testing.T) {
	t.Parallel()
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

// A wrong try waits longer with each wrong try of its connection and
// each recent one of its seat name, up to a bound; other names, and the
// right code, never wait; the seat name is forgiven with time.
func TestLimiterSlowsWrongTries(t *testing.T) {
	t.Parallel()
	now := time.Unix(0, 0)
	l := newLimiter(3, time.Second, 100*time.Millisecond)
	l.now = func() time.Time { return now }
	if d := l.delay("ana", 1); d != 0 {
		t.Fatalf("a first wrong try waits %s", d)
	}
	if d := l.delay("ana", 4); d != 300*time.Millisecond {
		t.Fatalf("a connection's 4th wrong try waits %s", d)
	}
	for range 5 {
		l.fail("ana")
	}
	if d := l.delay("ANA", 1); d != 300*time.Millisecond {
		t.Fatalf("a seat name with a burst of wrong tries waits %s", d)
	}
	if d := l.delay("bo", 1); d != 0 {
		t.Fatalf("another seat name waits %s", d)
	}
	if d := l.delay("ana", 1000); d != maxFailDelay {
		t.Fatalf("no bound: %s", d)
	}
	now = now.Add(3 * time.Second)
	if d := l.delay("ana", 1); d != 0 {
		t.Fatalf("the seat name still waits %s after its refill", d)
	}
}

// In every built-in lesson, after every reveal, each student's screen at
// 80x24 and 60x20 shows the revealed question's explanation, and their
// verdict on it in full, whether the deciding step asks a question of its
// own or not; before the reveal, neither. The seats get their Views as
// over SSH, one after another.
func TestEveryRevealReachesEveryStudent(t *testing.T) {
	t.Parallel()
	sizes := [][2]int{{80, 24}, {60, 20}}
	for _, m := range lessons.All() {
		t.Run(m.Name, func(t *testing.T) {
			c, l := newTestClass(t, m.Name)
			right := lessons.NewPlayer(l)
			type seat struct {
				name string
				ch   <-chan *View
				v    *View
				at   []*Seat // one per size
			}
			var seats []*seat
			for _, name := range []string{"ana", "bo"} {
				ch, _ := c.Join(name, false)
				st := &seat{name: name, ch: ch, v: latest(t, ch)}
				for _, sz := range sizes {
					s := NewSeat(c, st.v, SeatOptions{Seat: name, Views: views.Options{NoColor: true}})
					s.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
					st.at = append(st.at, s)
				}
				seats = append(seats, st)
			}
			// sync gives each seat its newest View, if it has one, until
			// ok holds for it.
			sync := func(ok func(*seat) bool) {
				for _, st := range seats {
					for {
						select {
						case st.v = <-st.ch:
							for _, s := range st.at {
								s.Update(viewMsg{st.v})
							}
							continue
						default:
						}
						if ok(st) {
							break
						}
						st.v = latest(t, st.ch)
						for _, s := range st.at {
							s.Update(viewMsg{st.v})
						}
					}
				}
			}
			reveals := 0
			for v, ok := c.Move(Move{Kind: Next}); ok; {
				k := v.Pos
				if v.Ask == nil || v.Ask.Revealed {
					v, ok = c.Move(Move{Kind: Next})
					continue
				}
				explain := l.Steps[k-1].Ask.Explain
				c.Answer("ana", k, 1)
				sync(func(st *seat) bool { return st.v.Pos == k && (st.name != "ana" || st.v.Ask.Mine == 1) })
				for _, st := range seats {
					for i, s := range st.at {
						// A verdict on the step before may be in view; one on
						// this step's question, or its choices judged, may not.
						if scr := s.View(); holds(t, st.v, explain) || shows(scr, explain) || strings.Contains(scr, "(your answer)") ||
							st.v.Ask.Correct != 0 || st.v.Frame.Checkpoint.Answered {
							t.Fatalf("step %d: %s at %v sees the answer before the reveal:\n%s", k, st.name, sizes[i], scr)
						}
					}
				}
				if v, ok = c.Move(Move{Kind: Reveal}); !ok {
					t.Fatalf("step %d: reveal refused", k)
				}
				reveals++
				n := strconv.Itoa(right.Correct(k))
				want := map[string]string{"ana": "not quite, you chose 1; the answer is " + n, "bo": "you did not answer; the answer is " + n}
				if n == "1" {
					want["ana"] = "correct, you chose 1"
				}
				sync(func(st *seat) bool { a := whyAsk(st.v); return a != nil && a.Step == k })
				for _, st := range seats {
					for i, s := range st.at {
						if scr := s.View(); !shows(scr, explain) || !strings.Contains(scr, want[st.name]) {
							t.Fatalf("step %d: %s at %v after the reveal, want the explanation and %q:\n%s", k, st.name, sizes[i], want[st.name], scr)
						}
						// The seat reads it and closes it.
						s.Update(tea.KeyMsg{Type: tea.KeyEsc})
					}
				}
			}
			if reveals == 0 {
				t.Skip("no checkpoint")
			}
		})
	}
}

// namedKeeper is a Keeper on a file that names it, as progress.StateFile
// does.
type namedKeeper struct{ b []byte }

func (k namedKeeper) Load() ([]byte, error) { return k.b, nil }
func (k namedKeeper) Save([]byte) error     { return nil }
func (k namedKeeper) String() string        { return "state/class.json" }

// A kept class that is not JSON is reported with the file's name, and the
// class starts afresh.
func TestKeptClassErrorNamesTheFile(t *testing.T) {
	t.Parallel()
	var got []string
	k := &keeper{k: namedKeeper{[]byte("garbage")}, within: time.Hour, now: time.Now,
		onError: func(err error) { got = append(got, err.Error()) }}
	codes := Codes{Class: "c", Presenter: "p"}
	if _, err := newClass(lessons.Load, "zombie", k, &codes); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !strings.HasPrefix(got[0], "state/class.json: invalid character 'g'") || !strings.HasSuffix(got[0], "; starting afresh") {
		t.Errorf("errors %q", got)
	}
}

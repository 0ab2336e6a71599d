package adapt

import (
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// nineActors is the lesson of testdata/nine-actors.lesson: three brokers,
// three producers and three consumers, with a message in every state.
func nineActors(t testing.TB) *Session {
	t.Helper()
	src, err := os.ReadFile("testdata/nine-actors.lesson")
	if err != nil {
		t.Fatal(err)
	}
	l, err := lessons.Parse("nine-actors.lesson", src)
	if err != nil {
		t.Fatal(err)
	}
	return New(l)
}

// arrowTo finds the arrow of the message from -> to whose label starts
// with kind and has the given place in the order of such arrows.
func arrowTo(t *testing.T, f model.Frame, from, to, kind string, nth int) model.Arrow {
	t.Helper()
	n := 0
	for _, a := range f.Timeline {
		if a.From == from && a.To == to && strings.HasPrefix(a.Label, kind+" ") {
			if n == nth {
				return a
			}
			n++
		}
	}
	t.Fatalf("step %d: no arrow %d %s -> %s %s in %+v", f.Step, nth, from, to, kind, f.Timeline)
	return model.Arrow{}
}

// TestTimelineStatesAtEachStep: a message is in flight until its delivery
// (or loss) happens at or before the step shown, so stepping back draws a
// delivered message in flight again, and a dropped one too; a duplicate and
// a delay are marked from the step they happen at.
func TestTimelineStatesAtEachStep(t *testing.T) {
	s := nineActors(t)
	type want struct {
		step                      int
		from, to, kind            string
		nth                       int
		state                     model.ArrowState
		duplicate, delayed, moved bool
	}
	cases := []want{
		// A's answer: on its way at step 1, dropped at step 2.
		{1, "broker-3", "A", "ProduceResponse", 0, model.ArrowInFlight, false, false, true},
		{2, "broker-3", "A", "ProduceResponse", 0, model.ArrowDropped, false, false, true},
		{3, "broker-3", "A", "ProduceResponse", 0, model.ArrowDropped, false, false, false},
		// B's batch and the copy the network made of it.
		{3, "B", "broker-1", "Produce", 0, model.ArrowDelivered, false, false, true},
		{3, "B", "broker-1", "Produce", 1, model.ArrowDelivered, true, false, true},
		// payments' batch: held back at step 4, delivered at step 5.
		{4, "payments", "broker-2", "Produce", 0, model.ArrowInFlight, false, true, true},
		{5, "payments", "broker-2", "Produce", 0, model.ArrowDelivered, false, true, true},
		{6, "payments", "broker-2", "Produce", 0, model.ArrowDelivered, false, true, false},
		// A's second batch reaches broker-3 after it crashed.
		{6, "A", "broker-3", "Produce", 2, model.ArrowLost, false, false, true},
	}
	check := func(c want) {
		t.Helper()
		f := playTo(t, s, c.step)
		a := arrowTo(t, f, c.from, c.to, c.kind, c.nth)
		if a.State != c.state || a.Duplicate != c.duplicate || a.Delayed != c.delayed || a.Changed != c.moved {
			t.Errorf("step %d: %s %s -> %s drawn as %+v; want %v, duplicate %v, delayed %v, changed %v",
				c.step, c.kind, c.from, c.to, a, c.state, c.duplicate, c.delayed, c.moved)
		}
	}
	// Forward, then back over the same steps: each frame is built anew
	// going forward and comes from the cache going back.
	for _, c := range cases {
		check(c)
	}
	for i := len(cases) - 1; i >= 0; i-- {
		check(cases[i])
	}
	// Without the frame cache, going back builds the earlier frame from
	// the history that already holds the later delivery.
	playTo(t, s, 6)
	clear(s.frames)
	check(cases[5])
	check(cases[0])
}

// timelineScreen returns the lines of the Timeline's panel on the screen
// of a small terminal (its one slot), without borders and escape codes.
func timelineScreen(t *testing.T, view string) []string {
	t.Helper()
	lines := strings.Split(ansi.Strip(view), "\n")
	if len(lines) < 3 || !strings.Contains(lines[1], "[Timeline") {
		t.Fatalf("the Timeline is not shown:\n%s", view)
	}
	var out []string
	for _, l := range lines[2:] {
		r := []rune(l)
		if len(r) < 2 || !strings.ContainsRune("┃│|", r[0]) {
			break
		}
		out = append(out, string(r[1:len(r)-1]))
	}
	return out
}

// TestGoingBackRedrawsInFlight: on the real screen, B's batch of the lost
// ACK lesson is drawn delivered at step 5 and, after ←, in flight at step
// 4, with the words that say so.
func TestGoingBackRedrawsInFlight(t *testing.T) {
	p := openPlayer(t, "lost-ack", 80, 24, views.Options{ASCII: true})
	p.to(5)
	p.focus("Timeline")
	row := func() string {
		t.Helper()
		for _, l := range timelineScreen(t, p.m.View()) {
			if strings.Contains(l, "Produce t-1 pid=1000") {
				return l
			}
		}
		t.Fatalf("step %d: no row for B's batch:\n%s", p.session().Pos(), p.m.View())
		return ""
	}
	th := theme.New(theme.Options{ASCII: true})
	inFlight := th.Glyph(theme.InFlight) + " " + th.Word(theme.InFlight)
	if l := row(); strings.Contains(l, inFlight) || !strings.Contains(l, th.Sym.Line+th.Sym.Right+th.Sym.Lifeline) {
		t.Fatalf("step 5: B's batch is delivered, drawn as %q", l)
	}
	p.press("left")
	if p.session().Pos() != 4 {
		t.Fatalf("left went to step %d", p.session().Pos())
	}
	p.focus("Timeline") // a pick lasts one step
	if l := row(); !strings.Contains(l, inFlight) || strings.Contains(l, th.Sym.Right+th.Sym.Lifeline) {
		t.Fatalf("step 4: B's batch is in flight, drawn as %q", l)
	}
	p.press("right")
	p.focus("Timeline")
	if l := row(); strings.Contains(l, inFlight) {
		t.Fatalf("step 5 again: B's batch drawn as %q", l)
	}
	// The same when step 4's frame is no longer cached (the session keeps
	// 64) and is built again from a history that holds step 5.
	clear(p.session().frames)
	p.press("left")
	p.focus("Timeline")
	if l := row(); !strings.Contains(l, inFlight) {
		t.Fatalf("step 4, built again: B's batch drawn as %q", l)
	}
}

// TestNineActorsAt80x24: with nine actors at 80x24, on every step, the
// header names every actor on one row, with a key that gives the full
// name of each short one, and no label cell covers a lifeline cell: on
// each message's rows, every lifeline's cell holds the lifeline or an
// arrow drawn across it, and the labels start right of the last lifeline.
func TestNineActorsAt80x24(t *testing.T) {
	for _, o := range []views.Options{{}, {ASCII: true}, {NoColor: true}} {
		s := nineActors(t)
		open := func(string) (model.Session, error) { return s, nil }
		var m tea.Model = views.NewApp(nil, open, views.Options{StartLesson: "nine", ASCII: o.ASCII, NoColor: o.NoColor})
		m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		p := &player{t: t, m: m}
		p.focus("Timeline")
		th := theme.New(theme.Options{ASCII: o.ASCII})
		sym := th.Sym
		diagram := sym.Lifeline + sym.Line + sym.Dashed + sym.Copy + sym.Right + sym.Left + sym.FlightRight + sym.FlightLeft + sym.Self + th.Glyph(theme.Dropped)
		for {
			lines := timelineScreen(t, p.m.View())
			f := s.Frame()
			// The names row: each actor's short name, centred on its
			// lifeline, then the key.
			type token struct {
				s  string
				at int
			}
			var toks []token
			head := []rune(lines[0])
			for i := 0; i < len(head); {
				if head[i] == ' ' {
					i++
					continue
				}
				j := i
				for j < len(head) && head[j] != ' ' {
					j++
				}
				toks = append(toks, token{string(head[i:j]), i})
				i = j
			}
			var centers []int
			for i, a := range f.Actors {
				if i >= len(toks) || toks[i].s != a.Short {
					t.Fatalf("%+v step %d: names row %q; want the short names of %+v", o, f.Step, lines[0], f.Actors)
				}
				centers = append(centers, toks[i].at+len([]rune(a.Short))/2)
			}
			all := strings.Join(lines, "\n")
			for _, a := range f.Actors {
				if a.Short != a.Name && !strings.Contains(all, a.Short+" "+a.Name) {
					t.Errorf("%+v step %d: the key lacks %q:\n%s", o, f.Step, a.Short+" "+a.Name, all)
				}
			}
			last := centers[len(centers)-1]
			rows := 0
			for i, l := range lines {
				cells := []rune(l)
				if len(cells) <= last || string(cells[centers[0]]) != sym.Lifeline {
					continue // a header row, or below the messages
				}
				rows++
				for _, x := range centers {
					if !strings.ContainsRune(diagram, cells[x]) {
						t.Errorf("%+v step %d: row %d: the lifeline at %d holds %q:\n%s", o, f.Step, i, x, cells[x], l)
					}
				}
				if c := cells[last+1]; c != ' ' && !strings.ContainsRune(diagram, c) {
					t.Errorf("%+v step %d: row %d: text next to the last lifeline:\n%s", o, f.Step, i, l)
				}
			}
			if f.Step > 0 && rows == 0 {
				t.Errorf("%+v step %d: no message rows:\n%s", o, f.Step, all)
			}
			if p.press("right"); s.Pos() == f.Step {
				break
			}
			// A panel is picked for one step: pick the Timeline again.
			p.focus("Timeline")
		}
	}
}

// TestGoldenNineActors draws the nine actors at 80x24 with the Timeline
// in the one slot: at step 4 (a delayed batch in flight) and at step 6 (a
// batch lost at a broker that is down).
func TestGoldenNineActors(t *testing.T) {
	for _, step := range []int{4, 6} {
		t.Run("step-"+itoa(step)+"-80x24", func(t *testing.T) {
			s := nineActors(t)
			open := func(string) (model.Session, error) { return s, nil }
			var m tea.Model = views.NewApp(nil, open, views.Options{StartLesson: "nine"})
			m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
			p := &player{t: t, m: m}
			p.to(step)
			p.focus("Timeline") // a pick lasts the step it is made at
			goldenScreen(t, p.m.View())
		})
	}
}

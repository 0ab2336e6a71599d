package views

import (
	"flag"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/eoslab/eoslab/views/internal/viewtest"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/player"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

func init() {
	lipgloss.SetHasDarkBackground(true)
}

// randomKeys is the number of keys each TestRandomKeys run sends. The
// default suite sends 500 per run (six runs): that reaches the same
// statements of this package as 2,500 do (go test -cover -run
// TestRandomKeys at both sizes). CI sends 2,500 (.ci/run).
var randomKeys = flag.Int("randomkeys", 500, "keys per TestRandomKeys run (CI: 2500)")

// TestRandomKeys drives the app with thousands of seeded random keys,
// resizes and autoplay ticks (current and stale), over random frames. It
// must never panic, the session position must stay in 0..Len, and every
// screen must fit the terminal.
func TestRandomKeys(t *testing.T) {
	lipgloss.SetColorProfile(termenv.TrueColor)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	keys := []string{"right", "right", "right", "left", "left", " ", "enter", "l", "h", "p", "-", "+", "r", "1", "2", "3", "4",
		"tab", "shift+tab", "?", "esc", "up", "down", "pgdown", "pgup", "home", "end", "g", "G", "j", "k", "/", "x", "q", "<", ">"}
	sizes := [][2]int{{0, 0}, {1, 1}, {80, 24}, {200, 60}, {60, 18}, {59, 18}, {120, 40}, {160, 48}, {130, 25}, {90, 50}, {3, 100}, {300, 5}}
	n := *randomKeys
	if testing.Short() {
		n = min(n, 500)
	}
	for _, opts := range []Options{{}, {ASCII: true}, {NoColor: true}} {
		for seed := int64(1); seed <= 2; seed++ {
			r := rand.New(rand.NewSource(seed))
			stubs := map[string]*stubSession{}
			open := func(name string) (model.Session, error) {
				s := newStub(seed*100+int64(len(stubs)), 1+r.Intn(25))
				stubs[name] = s
				return s, nil
			}
			lessons := []model.LessonInfo{{Name: "a", Title: "A", Steps: 3}, {Name: "b", Title: oddTexts[6], Summary: oddTexts[7]}}
			opts.StartLesson = "a"
			var m tea.Model = NewApp(lessons, open, opts)
			w, h := 80, 24
			m, _ = m.Update(tea.WindowSizeMsg{Width: w, Height: h})
			// ticks are the autoplay ticks of the generations seen, the
			// current one last: the older ones are stale.
			ticks := []player.TickMsg{m.(App).player.Tick()}
			for i := 0; i < n; i++ {
				var msg tea.Msg
				switch x := r.Intn(100); {
				case x < 3:
					sz := sizes[r.Intn(len(sizes))]
					if r.Intn(2) == 0 {
						sz = [2]int{r.Intn(260), r.Intn(80)}
					}
					w, h = sz[0], sz[1]
					msg = tea.WindowSizeMsg{Width: w, Height: h}
				case x < 10:
					back := 0
					if r.Intn(2) == 0 {
						back = 1 + r.Intn(3)
					}
					msg = ticks[max(len(ticks)-1-back, 0)]
				default:
					k := keys[r.Intn(len(keys))]
					if k == "q" {
						k = "esc" // stay in the app; quitting is tested elsewhere
					}
					msg = viewtest.Key(k)
				}
				m, _ = m.Update(msg)
				a := m.(App)
				if a.screen == screenHome && r.Intn(3) == 0 {
					m, _ = m.Update(OpenLessonMsg{Name: []string{"a", "b"}[r.Intn(2)]})
					a = m.(App)
				}
				if t := a.player.Tick(); t != ticks[len(ticks)-1] {
					ticks = append(ticks, t)
				}
				if s := a.Session(); s != nil && (s.Pos() < 0 || s.Pos() > s.Len()) {
					t.Fatalf("pos %d outside 0..%d", s.Pos(), s.Len())
				}
				v := m.View()
				viewtest.CheckScreen(t, v, w, h, "random")
				if opts.ASCII {
					for j := 0; j < len(v); j++ {
						if v[j] >= 0x80 {
							t.Fatalf("ASCII mode drew a non-ASCII byte at %d: %q", j, v)
						}
					}
				}
				if opts.NoColor && (strings.Contains(v, "[38;") || strings.Contains(v, "[48;")) {
					t.Fatalf("NoColor drew a colour: %q", v)
				}
			}
		}
	}
}

func TestAutoplayDropsStaleTicks(t *testing.T) {
	s := newStub(7, 10)
	s.cpAt = map[int]int{4: 2}
	var m tea.Model = NewApp(nil, func(string) (model.Session, error) { return s, nil }, Options{StartLesson: "x"})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})

	tick := func() player.TickMsg { return m.(App).player.Tick() }
	playing := func() bool { return m.(App).Playing() }
	// p starts the clock: the step on screen stays for its time.
	stale := tick()
	m, cmd := m.Update(viewtest.Key("p"))
	if !playing() || cmd == nil || s.pos != 0 || tick() == stale {
		t.Fatalf("play: playing=%v cmd=%v pos=%d; want a tick and no step yet", playing(), cmd != nil, s.pos)
	}
	m, cmd = m.Update(stale)
	if s.pos != 0 || cmd != nil {
		t.Fatalf("stale tick moved to %d", s.pos)
	}
	for want := 1; want <= 2; want++ {
		m, _ = m.Update(tick())
		if s.pos != want {
			t.Fatalf("tick: pos %d, want %d", s.pos, want)
		}
	}
	// A manual step starts a new generation: the tick in flight is stale.
	before := tick()
	m, _ = m.Update(viewtest.Key("right"))
	if s.pos != 3 || tick() == before {
		t.Fatalf("manual step: pos %d, the tick %v did not change", s.pos, before)
	}
	m, _ = m.Update(before)
	if s.pos != 3 {
		t.Fatalf("stale tick after a manual step moved to %d", s.pos)
	}
	// Autoplay stops at an unanswered checkpoint.
	m, _ = m.Update(tick())
	if s.pos != 4 || playing() {
		t.Fatalf("checkpoint: pos %d playing %v; want 4 and stopped", s.pos, playing())
	}
	m, _ = m.Update(viewtest.Key("right"))
	if s.pos != 4 {
		t.Fatalf("next ran past an unanswered checkpoint")
	}
	if !strings.Contains(m.View(), "Answer the question first") {
		t.Errorf("no explanation for the blocked step:\n%s", m.View())
	}
	m, _ = m.Update(viewtest.Key("2"))
	m, _ = m.Update(viewtest.Key("p"))
	if s.pos != 4 || !playing() {
		t.Fatalf("after answering: pos %d playing %v", s.pos, playing())
	}
	// An open detail view holds autoplay: the tick waits for the next one.
	m, _ = m.Update(viewtest.Key("d"))
	m, cmd = m.Update(tick())
	if s.pos != 4 || cmd == nil || !playing() {
		t.Fatalf("tick with the details open: pos %d, tick %v", s.pos, cmd != nil)
	}
	m, _ = m.Update(viewtest.Key("d"))
	m, _ = m.Update(tick())
	if s.pos != 5 {
		t.Fatalf("tick after closing the details: pos %d, want 5", s.pos)
	}
	// Autoplay stops at the end.
	for i := 0; i < 20 && playing(); i++ {
		m, _ = m.Update(tick())
	}
	if s.pos != 10 || playing() {
		t.Fatalf("end: pos %d playing %v", s.pos, playing())
	}
	// Pausing makes the pending tick stale.
	m, _ = m.Update(viewtest.Key("r"))
	m, _ = m.Update(viewtest.Key("p"))
	g := tick()
	m, _ = m.Update(viewtest.Key("p"))
	m, _ = m.Update(g)
	if s.pos != 0 || playing() {
		t.Fatalf("tick after pause moved to %d (playing %v)", s.pos, playing())
	}
}

// q in a lesson asks first; any other key keeps the place. Leaving keeps
// the session, so opening the lesson again resumes where it was.
func TestLeavingKeepsThePlace(t *testing.T) {
	opened := 0
	open := func(string) (model.Session, error) { opened++; return newStub(5, 6), nil }
	var m tea.Model = NewApp([]model.LessonInfo{{Name: "x", Title: "X"}}, open, Options{StartLesson: "x"})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	for _, k := range []string{"right", "right", "q"} {
		m, _ = m.Update(viewtest.Key(k))
	}
	if !strings.Contains(m.View(), "Leave this lesson?") {
		t.Fatalf("q did not ask:\n%s", m.View())
	}
	m, _ = m.Update(viewtest.Key("n"))
	if a := m.(App); a.screen != screenPlayer || a.Session().Pos() != 2 {
		t.Fatalf("n after q left the lesson or moved: screen %v pos %d", a.screen, a.Session().Pos())
	}
	m, _ = m.Update(viewtest.Key("q"))
	m, cmd := m.Update(viewtest.Key("y"))
	if a := m.(App); a.screen != screenHome || cmd != nil {
		t.Fatalf("y after q: screen %v, cmd %v; want the list and no quit", a.screen, cmd != nil)
	}
	m, _ = m.Update(viewtest.Key("enter"))
	if a := m.(App); a.screen != screenPlayer || a.Session().Pos() != 2 || opened != 1 {
		t.Fatalf("reopened at pos %d after %d opens; want the kept session at 2", a.Session().Pos(), opened)
	}
	if !strings.Contains(m.View(), "Back where you left off") {
		t.Errorf("no word about resuming:\n%s", m.View())
	}
	// A lesson left at its end starts again.
	for range 6 {
		m, _ = m.Update(viewtest.Key("1")) // answers a question, if any
		m, _ = m.Update(viewtest.Key("right"))
	}
	if a := m.(App); a.Session().Pos() != a.Session().Len() {
		t.Fatalf("did not reach the end: %d of %d", a.Session().Pos(), a.Session().Len())
	}
	m, _ = m.Update(viewtest.Key("esc"))
	m, _ = m.Update(viewtest.Key("enter"))
	if a := m.(App); a.Session().Pos() != 0 || opened != 1 {
		t.Fatalf("a finished lesson reopened at %d (%d opens); want its start", a.Session().Pos(), opened)
	}
}

func TestHelpHidesKeysThatCannotAct(t *testing.T) {
	s := newStub(3, 3)
	s.cpAt = map[int]int{1: 1}
	var m tea.Model = NewApp(nil, func(string) (model.Session, error) { return s, nil }, Options{StartLesson: "x"})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	help := func() string {
		v := m.View()
		lines := strings.Split(v, "\n")
		return ansi.Strip(lines[len(lines)-1])
	}
	if h := help(); strings.Contains(h, "back") || strings.Contains(h, "answer") || !strings.Contains(h, "next") {
		t.Errorf("at step 0: %q", h)
	}
	m, _ = m.Update(viewtest.Key("right"))
	if h := help(); !strings.Contains(h, "1-3 answer") || strings.Contains(h, "next") || !strings.Contains(h, "back") {
		t.Errorf("at a checkpoint: %q", h)
	}
	m, _ = m.Update(viewtest.Key("1"))
	m, _ = m.Update(viewtest.Key("right"))
	m, _ = m.Update(viewtest.Key("right"))
	if h := help(); strings.Contains(h, "next") || strings.Contains(h, "play") || !strings.Contains(h, "restart") {
		t.Errorf("at the end: %q", h)
	}
}

func TestTooSmallMessage(t *testing.T) {
	var m tea.Model = NewApp(nil, nil, Options{})
	for _, sz := range [][2]int{{0, 0}, {1, 1}, {10, 3}, {59, 17}, {45, 10}} {
		m, _ = m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		v := m.View()
		viewtest.CheckScreen(t, v, sz[0], sz[1], "too small")
		msg := "terminal too small: need 60x18 (have " + strconv.Itoa(sz[0]) + "x" + strconv.Itoa(sz[1]) + "); resize to act; q quits"
		if sz[0] >= len(msg) && strings.TrimSpace(v) != msg {
			t.Errorf("%v: view %q, want exactly %q", sz, v, msg)
		}
	}
}

// TestJumpKeys: < goes back to the start keeping the answers, > goes on to
// the first question not answered yet, then to the end.
func TestJumpKeys(t *testing.T) {
	s := newStub(3, 12)
	s.cpAt = map[int]int{5: 2}
	open := func(string) (model.Session, error) { return s, nil }
	var m tea.Model = NewApp(nil, open, Options{StartLesson: "x"})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	press := func(k string) { m, _ = m.Update(viewtest.Key(k)) }
	press(">")
	if s.Pos() != 5 {
		t.Fatalf("> stopped at %d, want the question at 5", s.Pos())
	}
	press("2")
	press("shift+right")
	if v := m.View(); s.Pos() != 12 || !strings.Contains(v, "step 12/12") {
		t.Fatalf("> went to %d, want the end, 12:\n%s", s.Pos(), v)
	}
	press("<")
	if v := m.View(); s.Pos() != 0 || !strings.Contains(v, "step 0/12") {
		t.Fatalf("< went to %d, want 0:\n%s", s.Pos(), v)
	}
	if s.answers[5] != 2 {
		t.Fatal("< forgot the answer")
	}
	press("shift+left")
	if v := m.View(); !strings.Contains(v, "This is the start of the lesson.") {
		t.Fatalf("< at the start says nothing:\n%s", v)
	}
}

// A new background (eoslab serve learns it after the first frame) keeps
// the home screen's drill and sandbox entries and its "continue".
func TestSetDarkKeepsTheHome(t *testing.T) {
	lessons := []model.LessonInfo{{Name: "a", Title: "A", Steps: 3}}
	open := func(string) (model.Session, error) { return newStub(1, 3), nil }
	a := NewApp(lessons, open, Options{NewDrill: func(int) (model.Drill, error) { return nil, nil },
		OpenSandbox: func(string) (model.SandboxSession, error) { return nil, nil }}).(App)
	a.home.SetContinue("a", model.Place{At: 1})
	m, _ := a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = m.Update(SetDarkMsg{Dark: false})
	screen := ansi.Strip(m.View())
	for _, want := range []string{"c continue A at step 1 of 3", "i interview drill", "s sandbox"} {
		if !strings.Contains(screen, want) {
			t.Errorf("after SetDarkMsg the home screen has no %q:\n%s", want, screen)
		}
	}
}

// The drill picked from the home screen plays under the version the
// learner has on: Kafka 3 unless they asked for (or switched to) Kafka 4.
func TestHomeDrillFollowsTheVersion(t *testing.T) {
	for _, c := range []struct{ opt, want int }{{0, 3}, {3, 3}, {4, 4}} {
		got := 0
		opts := Options{Kafka: c.opt, NewDrill: func(k int) (model.Drill, error) { got = k; return nil, nil }}
		var m tea.Model = NewApp([]model.LessonInfo{{Name: "a", Title: "A", Steps: 3}}, func(string) (model.Session, error) { return newStub(1, 3), nil }, opts)
		m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		_, _ = m.Update(viewtest.Key("i"))
		if got != c.want {
			t.Errorf("Options.Kafka %d: the drill was asked for Kafka %d, want %d", c.opt, got, c.want)
		}
	}
}

// TestEscClosesTheFullHelp: ? opens the full help on the lesson list and
// in a lesson, esc closes it and stays where it was; esc again leaves the
// lesson. The help must fit the terminal with the Timeline focused too.
// TestRandomKeys reaches these by chance at its CI size only.
func TestEscClosesTheFullHelp(t *testing.T) {
	open := func(string) (model.Session, error) { return newStub(3, 10), nil }
	var m tea.Model = NewApp([]model.LessonInfo{{Name: "a", Title: "A", Steps: 10}}, open, Options{})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	step := func(k string, screen screen, full bool) {
		t.Helper()
		m, _ = m.Update(viewtest.Key(k))
		a := m.(App)
		viewtest.CheckScreen(t, m.View(), 80, 24, k)
		if a.screen != screen || strings.HasSuffix(a.ScreenName(), " help") != full {
			t.Fatalf("after %s: screen %d (%s); want %d, full help %v", k, a.screen, a.ScreenName(), screen, full)
		}
	}
	step("?", screenHome, true)
	if v := m.View(); !strings.Contains(v, "help") || !strings.Contains(v, "quit") {
		t.Fatalf("the lesson list's full help lists no keys:\n%s", v)
	}
	step("esc", screenHome, false)
	m, _ = m.Update(OpenLessonMsg{Name: "a"})
	for i := 0; m.(App).Focus() != layout.PanelTimeline; i++ {
		if i == 10 {
			t.Fatal("tab never focuses the Timeline")
		}
		step("tab", screenPlayer, false)
	}
	step("?", screenPlayer, true)
	step("esc", screenPlayer, false)
	step("esc", screenPlayer, false) // lets go of the Timeline before it leaves
	step("esc", screenHome, false)
}

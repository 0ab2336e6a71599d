package cli

import (
	"errors"
	"math/rand"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/adapt"
	"github.com/eoslab/eoslab/views/drive"
	"github.com/eoslab/eoslab/views/model"
)

// fakeSide is a cluster side with no broker: step i's side says so; the
// step after the checkpoint at ask carries its verdict (as live.Session
// puts the reveal on the step that reveals the answer); step simOnly is
// one no broker plays; from step goneAt on the cluster is gone.
type fakeSide struct {
	ask, simOnly, goneAt int
	steps                []int
	closed               int
}

func (f *fakeSide) Setup() model.KafkaSide {
	return model.KafkaSide{Cluster: "127.0.0.1:9092", Step: -1, Partitions: []model.KafkaPartition{{Name: "t-0", Holder: model.KafkaPID{Broker: -1}}}}
}

func (f *fakeSide) Step(i int) (model.KafkaSide, error) {
	f.steps = append(f.steps, i)
	k := f.Setup()
	k.Step = i
	if i >= f.goneAt {
		err := errors.New("live: the cluster at 127.0.0.1:9092 stopped answering")
		k.Step = f.goneAt - 1
		k.Gone = err.Error()
		return k, err
	}
	k.Facts = []model.KafkaFact{{Line: 10 + i, Expect: "fact of step " + string(rune('1'+i)), Verdict: model.KafkaAgreed, Words: "Kafka agreed"}}
	if i == f.ask+1 {
		k.Reveal = &model.KafkaVerdict{Asked: f.ask, Kind: model.KafkaAgreed, Words: "Kafka agreed"}
	}
	if i == f.simOnly {
		k.NotPlayed = "simulation only: no broker lets a client drop a response on purpose"
	}
	return k, nil
}

func (f *fakeSide) Close() error { f.closed++; return nil }

func run(l *views.Live, cmd tea.Cmd) bool {
	_, quit := drive.Run(l, cmd)
	return quit
}

func press(l *views.Live, keys ...string) bool {
	_, quit := drive.Keys(l, keys...)
	return quit
}

func screen(l *views.Live) string { return ansi.Strip(l.View()) }

// body is a screen without its header and help bar.
func body(s string) string {
	lines := strings.Split(s, "\n")
	return strings.Join(lines[1:max(len(lines)-1, 1)], "\n")
}

// firstCheckpoint is the 0-based step of the lesson's first question.
func firstCheckpoint(t *testing.T, name string) int {
	s, err := liveSim(name, 3)
	if err != nil {
		t.Fatal(err)
	}
	for s.Pos() < s.Len() {
		s.Next()
		if s.Frame().Checkpoint.Open() {
			return s.Pos() - 1
		}
	}
	t.Fatalf("%s has no question", name)
	return 0
}

// TestLivePlayerKeys drives eoslab live's player with keys on a fake
// cluster side: every step the player reaches is played on the side; at
// 80x24 the side is the panel c shows, listed in ? help; a checkpoint's
// verdict shows only on the step that reveals it (not before, and not
// after going back); a step no broker plays says simulation only; a
// cluster gone is a message, the simulation goes on; q then y quits.
func TestLivePlayerKeys(t *testing.T) {
	const name = "lost-ack"
	ask := firstCheckpoint(t, name)
	side := &fakeSide{ask: ask, simOnly: ask + 1, goneAt: ask + 3}
	var lessons []model.LessonInfo
	for _, l := range adapt.Lessons() {
		if l.Name == name {
			lessons = append(lessons, l)
		}
	}
	opened := 0
	l := views.NewLive(views.LiveOptions{
		App:         views.Options{NoColor: true, StartLesson: name, Kafka: 3},
		Lessons:     lessons,
		Open:        func(n string) (model.Session, error) { return liveSim(n, 3) },
		OpenSide:    func(string) (views.LiveSide, error) { opened++; return side, nil },
		QuitOnLeave: true,
	})
	run(l, l.Init())
	l.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if opened != 1 {
		t.Fatalf("the side was opened %d times, want once", opened)
	}
	if s := screen(l); l.Showing() || strings.Contains(s, "transaction.version=") || !strings.Contains(s, "c Kafka's side") {
		t.Fatalf("at 80x24 the side shows before c, or the help bar does not offer c:\n%s", screen(l))
	}
	press(l, "?")
	if s := screen(l); l.App().ScreenName() != "player help" || !regexp.MustCompile(`\bc +Kafka's side`).MatchString(body(s)) {
		t.Fatalf("the ? help does not list c for Kafka's side:\n%s", s)
	}
	press(l, "esc", "c")
	if s := screen(l); !l.Showing() || !strings.Contains(s, "Kafka's side setup") || !strings.Contains(s, "t-0") {
		t.Fatalf("c does not show the side's setup:\n%s", s)
	}
	for i := 0; i <= ask; i++ {
		press(l, "right")
	}
	s := screen(l)
	if k, _ := l.Kafka(); k.Step != ask {
		t.Fatalf("at the question (step %d) the side shows step %d; played %v", ask+1, k.Step+1, side.steps)
	}
	if strings.Contains(s, "after the reveal") {
		t.Fatalf("the verdict shows before the reveal:\n%s", s)
	}
	if l.Showing() {
		t.Fatalf("the side covers the question:\n%s", s)
	}
	press(l, "c")
	if s := screen(l); strings.Contains(s, "after the reveal") || !strings.Contains(s, "fact of step") {
		t.Fatalf("at the question the side shows a verdict, or no facts:\n%s", s)
	}
	press(l, "1", "right")
	s = screen(l)
	if !strings.Contains(s, "after the reveal: Kafka agreed") {
		t.Fatalf("the step that reveals the answer does not say Kafka agreed:\n%s", s)
	}
	if !strings.Contains(s, "simulation only: no broker") {
		t.Fatalf("a step no broker plays does not say simulation only:\n%s", s)
	}
	press(l, "left")
	if s := screen(l); strings.Contains(s, "after the reveal") {
		t.Fatalf("back at the question, the verdict shows again:\n%s", s)
	}
	press(l, "right", "right", "right")
	s = screen(l)
	if !strings.Contains(s, "cluster gone: live: the cluster at 127.0.0.1:9092 stopped answering") || !strings.Contains(s, "the cluster is gone") {
		t.Fatalf("a cluster gone is not a message:\n%s", s)
	}
	if pos := l.App().Session().Pos(); pos != ask+4 {
		t.Fatalf("the simulation stopped with the cluster: at step %d, want %d", pos, ask+4)
	}
	n := len(side.steps)
	press(l, "right")
	if len(side.steps) != n {
		t.Fatalf("a step was asked of a cluster gone: %v", side.steps)
	}
	// Each step is asked for when the player reaches it (going back
	// asks again: the session answers a step played from its cache).
	next := 0
	for _, st := range side.steps {
		if st > next {
			t.Fatalf("the steps asked of the side are %v: step %d before %d", side.steps, st+1, next+1)
		}
		if st == next {
			next++
		}
	}
	if next != side.goneAt+1 {
		t.Fatalf("the steps asked of the side are %v, want every one to %d", side.steps, side.goneAt+1)
	}
	if quit := press(l, "q", "y"); !quit {
		t.Fatalf("q, y does not quit:\n%s", screen(l))
	}
	if side.closed == 0 {
		t.Fatalf("leaving the lesson did not close its side")
	}
}

// lostAckAtStep1 is the live player on lost-ack at step 1 over a fake
// side that never goes away, at w x h.
func lostAckAtStep1(w, h int) *views.Live {
	side := &fakeSide{ask: 100, simOnly: 100, goneAt: 100}
	l := views.NewLive(views.LiveOptions{
		App:      views.Options{NoColor: true, StartLesson: "lost-ack", Kafka: 3},
		Lessons:  adapt.Lessons(),
		Open:     func(n string) (model.Session, error) { return liveSim(n, 3) },
		OpenSide: func(string) (views.LiveSide, error) { return side, nil },
	})
	run(l, l.Init())
	l.Update(tea.WindowSizeMsg{Width: w, Height: h})
	press(l, "right")
	return l
}

// TestLivePlayerWide: at 200x60 the side sits beside the simulation,
// about 96 columns wide, without a key.
func TestLivePlayerWide(t *testing.T) {
	l := lostAckAtStep1(200, 60)
	lines := strings.Split(screen(l), "\n")
	if len(lines) != 60 || !l.Showing() {
		t.Fatalf("at 200x60: %d lines, showing %v", len(lines), l.Showing())
	}
	at := strings.Index(lines[0], "Kafka's side")
	if at < 0 || ansi.StringWidth(lines[0][:at]) < 100 {
		t.Fatalf("the side is not on the right:\n%s", strings.Join(lines, "\n"))
	}
	if !strings.Contains(screen(l), "fact of step 1") || !strings.Contains(lines[1], "eoslab") && !strings.Contains(lines[0], "eoslab") {
		t.Fatalf("the side or the player is missing:\n%s", strings.Join(lines, "\n"))
	}
	for i, ln := range lines {
		if w := ansi.StringWidth(ln); w > 200 {
			t.Fatalf("line %d is %d wide", i, w)
		}
	}
}

// TestLivePlayerRandomKeys drives the live player with seeded random keys
// and resizes over a fake side that goes away part way: no panic, the
// simulation's position stays in range, and every screen fits the
// terminal.
func TestLivePlayerRandomKeys(t *testing.T) {
	keys := []string{"right", "right", "left", "c", "c", "1", "2", "3", "esc", "?", "d", "tab", "up", "down", "g", "G", "j", "k", "p", "r", "<", ">", "q", "n", "enter"}
	sizes := [][2]int{{80, 24}, {60, 20}, {200, 60}, {176, 30}, {175, 30}, {1, 1}, {0, 0}, {120, 40}}
	for seed := int64(1); seed <= 3; seed++ {
		r := rand.New(rand.NewSource(seed))
		side := &fakeSide{ask: 1, simOnly: 2, goneAt: 3 + r.Intn(6)}
		l := views.NewLive(views.LiveOptions{
			// Autoplay's clock ticks at once: a test never waits.
			App: views.Options{ASCII: seed == 2, StartLesson: "zombie", Kafka: 3,
				Tick: func(_ time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
					return func() tea.Msg { return fn(time.Time{}) }
				}},
			Lessons:  adapt.Lessons(),
			Open:     func(n string) (model.Session, error) { return liveSim(n, 3) },
			OpenSide: func(string) (views.LiveSide, error) { return side, nil },
		})
		run(l, l.Init())
		w, h := 80, 24
		l.Update(tea.WindowSizeMsg{Width: w, Height: h})
		for i := range liveRandomKeys {
			if r.Intn(40) == 0 {
				sz := sizes[r.Intn(len(sizes))]
				w, h = sz[0], sz[1]
				l.Update(tea.WindowSizeMsg{Width: w, Height: h})
			}
			if press(l, keys[r.Intn(len(keys))]) {
				break
			}
			if s := l.App().Session(); s != nil && (s.Pos() < 0 || s.Pos() > s.Len()) {
				t.Fatalf("seed %d key %d: position %d of %d", seed, i, s.Pos(), s.Len())
			}
			lines := strings.Split(l.View(), "\n")
			if w > 0 && h > 0 && len(lines) > h {
				t.Fatalf("seed %d key %d: %d lines at %dx%d", seed, i, len(lines), w, h)
			}
			for j, ln := range lines {
				if ansi.StringWidth(ln) > max(w, 0) {
					t.Fatalf("seed %d key %d: line %d is %d wide at %dx%d:\n%s", seed, i, j, ansi.StringWidth(ln), w, h, ansi.Strip(l.View()))
				}
			}
		}
	}
}

// liveRandomKeys is the number of keys each TestLivePlayerRandomKeys run
// sends.
const liveRandomKeys = 400

// TestLivePlayerHelpSaysSide: while Kafka's side has the keys (c), the
// help bar says the arrows scroll the side and c or esc closes it (at
// 80x24 and 60x20, where the side is drawn over the panels) or gives the
// keys back (at 200x60, beside them), never "scroll lesson"; c again
// gives the player its own help back.
func TestLivePlayerHelpSaysSide(t *testing.T) {
	for _, c := range []struct {
		w, h int
		back string
	}{{80, 24, "close Kafka's side"}, {60, 20, "close Kafka's side"}, {200, 60, "keys back"}} {
		l := lostAckAtStep1(c.w, c.h)
		helpBar := func() string {
			lines := strings.Split(screen(l), "\n")
			return lines[len(lines)-1]
		}
		before := helpBar()
		press(l, "c")
		got := helpBar()
		t.Logf("%dx%d: %q -> %q", c.w, c.h, before, got)
		if !l.Showing() || strings.Contains(got, "scroll lesson") || !strings.Contains(got, "scroll Kafka's side") {
			t.Errorf("%dx%d: with the side's keys the help bar says %q", c.w, c.h, got)
		}
		if c.w >= 80 && !strings.Contains(got, c.back) {
			t.Errorf("%dx%d: the help bar %q does not say what c does (%s)", c.w, c.h, got, c.back)
		}
		press(l, "c")
		if got := helpBar(); got != before {
			t.Errorf("%dx%d: after c again the help bar is %q, want the player's %q", c.w, c.h, got, before)
		}
	}
}

package adapt

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/lessons/progress"
	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/internal/viewtest"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
)

// drillApp is the real app on the drill screen, with a drill of seed and
// count, and the progress kept in dir.
func drillApp(t *testing.T, seed uint64, count int, dir string, w, h int) (tea.Model, *Drill, *progress.Store) {
	t.Helper()
	d, err := NewDrill(seed, count)
	if err != nil {
		t.Fatal(err)
	}
	st := progress.Open(progress.Options{Dir: dir})
	opts := views.Options{StartDrill: true, Progress: Progress{S: st},
		NewDrill: func(int) (model.Drill, error) { return d, nil }}
	m := views.NewApp(Lessons(), Open, opts)
	m, _ = m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m, d, st
}

// drillOf is the app on the drill screen at w x h, asking the named
// questions (lessons.DrillOf) of seed under kafka.
func drillOf(t *testing.T, seed uint64, kafka, w, h int, ids ...string) (tea.Model, *Drill) {
	t.Helper()
	d, err := lessons.DrillOf(seed, kafka, ids...)
	if err != nil {
		t.Fatal(err)
	}
	ad := WrapDrill(d)
	return drillModel(ad, w, h), ad
}

// drillModel is the app on the drill screen at w x h, playing d.
func drillModel(d model.Drill, w, h int) tea.Model {
	m := views.NewApp(Lessons(), Open, views.Options{StartDrill: true,
		NewDrill: func(int) (model.Drill, error) { return d, nil }})
	m, _ = m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

func press(m tea.Model, keys ...string) tea.Model {
	for _, k := range keys {
		m, _ = m.Update(viewtest.Key(k))
	}
	return m
}

// A seeded drill played headless through the TUI: right and wrong
// answers, the score on the way, the result with the concepts to revisit,
// and the score kept in the progress.
func TestDrillScreenScoresAndRevisits(t *testing.T) {
	dir := t.TempDir()
	m, d, st := drillApp(t, 42, 4, dir, 80, 24)
	inner := d.Inner()
	var missed []string
	for i := 0; i < d.Len(); i++ {
		// Next does nothing before an answer.
		m = press(m, "right")
		if d.Pos() != i {
			t.Fatalf("moved on without an answer: pos %d", d.Pos())
		}
		c := inner.Correct(i)
		if i == 1 || i == 2 {
			c = c%len(inner.Question(i).Checkpoint().Choices) + 1
			missed = append(missed, inner.Question(i).Concept)
		}
		m = press(m, string(rune('0'+c)))
		q := d.Question()
		if !q.Checkpoint.Answered || q.Checkpoint.Chosen != c || q.Checkpoint.Explanation == "" {
			t.Fatalf("question %d: %+v", i, q.Checkpoint)
		}
		viewtest.CheckScreen(t, m.View(), 80, 24, "drill")
		m = press(m, "right")
	}
	r := d.Result()
	if r.Right != 2 || r.Answered != 4 || r.Total != 4 {
		t.Fatalf("result %+v", r)
	}
	var got []string
	for _, rv := range r.Revisit {
		got = append(got, rv.Concept)
		if rv.LessonTitle == "" {
			t.Errorf("revisit %+v has no lesson title", rv)
		}
	}
	if strings.Join(got, "|") != strings.Join(dedupe(missed), "|") {
		t.Fatalf("revisit %v, want %v", got, missed)
	}
	v := m.View()
	if !strings.Contains(v, "2 of 4 right") || !strings.Contains(v, "Concepts to revisit") || !strings.Contains(v, "--seed 42") {
		t.Fatalf("result screen:\n%s", v)
	}
	drills := st.Data().Drills
	if len(drills) != 1 || drills[0].Seed != 42 || drills[0].Right != 2 || drills[0].Total != 4 || strings.Join(drills[0].Revisit, "|") != strings.Join(got, "|") {
		t.Fatalf("drills kept: %+v", drills)
	}
	// The score is on disk, for the next run.
	if d := progress.Open(progress.Options{Dir: dir}).Data().Drills; len(d) != 1 {
		t.Fatalf("on disk: %+v", d)
	}
	// o opens the first lesson to revisit.
	m = press(m, "o")
	s, ok := m.(views.App).Session().(*Session)
	if !ok || s.Title() == "" {
		t.Fatal("o did not open a lesson")
	}
	if want := r.Revisit[0].LessonTitle; s.Title() != want {
		t.Fatalf("opened %q, want %q", s.Title(), want)
	}
}

func dedupe(xs []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// Leaving a lesson keeps its place across runs; a new app's c continues
// it at that step, with the checkpoint answers given before.
func TestProgressContinuesAcrossRuns(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	open := func() (*player, *progress.Store) {
		st := progress.Open(progress.Options{Dir: dir})
		p := &player{t: t, m: views.NewApp(Lessons(), Open, views.Options{Progress: Progress{S: st}})}
		p.m, _ = p.m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		return p, st
	}
	p, st := open()
	p.press("enter") // the first lesson
	s := p.session()
	for s.Pos() < 4 {
		if s.Frame().Checkpoint != nil && !s.Frame().Checkpoint.Answered {
			p.answer(false)
		}
		p.press("right")
	}
	first := 0
	for k := 1; k <= 4; k++ {
		if s.Player().Chosen(k) != 0 {
			first = k
			break
		}
	}
	if first == 0 {
		t.Fatal("no checkpoint in the first four steps of the first lesson")
	}
	p.press("v") // on to Kafka 4, at the same step
	if s.Kafka() != 4 || s.Pos() != 4 {
		t.Fatalf("v: Kafka %d at %d", s.Kafka(), s.Pos())
	}
	p.press("q", "y")
	name := lessons.All()[0].Name
	if l := st.Lesson(name); l.Step != 4 || l.Kafka != 4 || l.Answers[first].Choice != s.Player().Chosen(first) || l.Answers[first].Right {
		t.Fatalf("kept %+v", l)
	}
	if !strings.Contains(p.m.View(), "at step 4 of") {
		t.Fatalf("home shows no place:\n%s", p.m.View())
	}

	// A new run: the list shows the place and c continues there.
	p2, _ := open()
	if !strings.Contains(p2.m.View(), "c continue") {
		t.Fatalf("no continue entry:\n%s", p2.m.View())
	}
	p2.press("c")
	s2 := p2.session()
	if s2.Pos() != 4 || s2.Kafka() != 4 || s2.Player().Chosen(first) != s.Player().Chosen(first) {
		t.Fatalf("continued at %d under Kafka %d with answer %d", s2.Pos(), s2.Kafka(), s2.Player().Chosen(first))
	}
	// Playing to the end marks the lesson finished for the next run.
	for range 40 {
		if cp := s2.Frame().Checkpoint; cp != nil && !cp.Answered {
			p2.answer(true)
		}
		p2.press("right")
	}
	p2.press("esc")
	p3, st3 := open()
	if !st3.Lesson(name).Finished || !strings.Contains(p3.m.View(), "finished") {
		t.Fatalf("not finished: %+v", st3.Lesson(name))
	}
}

// A corrupt progress file does not stop the app: the home screen says
// once that it was moved aside.
func TestCorruptProgressIsReportedOnHome(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, progress.FileName), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	st := progress.Open(progress.Options{Dir: dir})
	m := views.NewApp(Lessons(), Open, views.Options{Progress: Progress{S: st}})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	if v := m.View(); !strings.Contains(v, "Progress starts afresh") {
		t.Fatalf("no notice:\n%s", v)
	}
	m = press(m, "down")
	if v := m.View(); strings.Contains(v, "Progress starts afresh") {
		t.Fatal("the notice stays after a key")
	}
}

// A place past a lesson's end, from a file written for a longer lesson or
// edited by hand, shows as its end on the home screen, not as the number
// in the file.
func TestProgressPastTheEndShowsTheEnd(t *testing.T) {
	st := progress.Open(progress.Options{Dir: t.TempDir()})
	li := Lessons()[1]
	st.Reached(li.Name, 99999, 999999)
	m := views.NewApp(Lessons(), Open, views.Options{Progress: Progress{S: st}})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	v := m.View()
	if strings.Contains(v, "99999") || !strings.Contains(v, fmt.Sprintf("at step %d of %d", li.Steps, li.Steps)) {
		t.Fatalf("want %s at step %d of %d:\n%s", li.Name, li.Steps, li.Steps, v)
	}
}

// Goldens of the home screen with some progress and of one drill question,
// at 80x24.
func TestGoldenProgress(t *testing.T) {
	t.Run("home-80x24", func(t *testing.T) {
		dir := t.TempDir()
		st := progress.Open(progress.Options{Dir: dir})
		// The first three lessons, so that lessons added later do not
		// redraw this golden.
		var list []model.LessonInfo
		for _, li := range Lessons() {
			if li.Name == "lost-ack" || li.Name == "abort" || li.Name == "zombie" {
				list = append(list, li)
			}
		}
		st.Reached(list[0].Name, list[0].Steps, list[0].Steps)
		st.Reached(list[1].Name, 3, list[1].Steps)
		m := views.NewApp(list, Open, views.Options{Progress: Progress{S: st},
			NewDrill: func(int) (model.Drill, error) { return NewDrill(1, 5) }})
		m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		goldenScreen(t, m.View())
	})
	// Questions written for the drill, by name, so that lessons and
	// questions added later redraw neither golden.
	of := func(t *testing.T) (tea.Model, *Drill) {
		return drillOf(t, 7, 3, 80, 24, "init-fences-open-txn", "timeout-aborts")
	}
	t.Run("drill-question-80x24", func(t *testing.T) {
		m, _ := of(t)
		goldenScreen(t, m.View())
	})
	t.Run("drill-answered-80x24", func(t *testing.T) {
		m, d := of(t)
		c := d.Inner().Correct(0)
		m = press(m, string(rune('0'+c%len(d.Question().Checkpoint.Choices)+1)))
		goldenScreen(t, m.View())
	})
}

// The drill screen fits every terminal size, in Unicode and ASCII, from
// the first question to the result.
func TestDrillFitsEverySize(t *testing.T) {
	sizes := [][2]int{{1, 1}, {20, 5}, {60, 20}, {61, 19}, {80, 24}, {120, 40}, {200, 60}}
	for _, ascii := range []bool{false, true} {
		for _, sz := range sizes {
			d, err := NewDrill(5, 3)
			if err != nil {
				t.Fatal(err)
			}
			m := views.NewApp(Lessons(), Open, views.Options{ASCII: ascii, StartDrill: true,
				NewDrill: func(int) (model.Drill, error) { return d, nil }})
			m, _ = m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			for _, k := range []string{"down", "1", "down", "down", "up", "right", "2", "right", "3", "right", "down", "?", "?"} {
				m = press(m, k)
				viewtest.CheckScreen(t, m.View(), sz[0], sz[1], "drill")
			}
			if small := sz[0] < layout.MinWidth || sz[1] < layout.MinHeight; small && d.Pos() != 0 {
				// Behind "terminal too small" the keys wait.
				t.Fatalf("%dx%d: keys moved the drill behind the too-small screen, to %d", sz[0], sz[1], d.Pos())
			} else if !small && d.Pos() != d.Len() {
				t.Fatalf("%dx%d: the drill did not end: at %d of %d", sz[0], sz[1], d.Pos(), d.Len())
			}
		}
	}
}

// At 80x24 every question of the pool shows its question and all its
// choices without scrolling: the situation pane scrolls, the question's
// does not.
func TestDrillQuestionsFit80x24(t *testing.T) {
	pool, err := lessons.DrillPool()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range pool {
		d, err := lessons.DrillOf(1, 3, q.ID)
		if err != nil {
			t.Fatal(err)
		}
		ad := WrapDrill(d)
		m := views.NewApp(Lessons(), Open, views.Options{StartDrill: true,
			NewDrill: func(int) (model.Drill, error) { return ad, nil }})
		m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		v := m.View()
		for i, c := range d.Choices(0) {
			text := c.Text
			if len(text) > 30 {
				text = text[:30]
			}
			if want := string(rune('1'+i)) + ") " + text; !strings.Contains(v, want) {
				t.Errorf("%s: choice %q not on screen:\n%s", q.ID, want, v)
				break
			}
		}
	}
}

// simulationTrivia is what only this simulation's run knows: a broker's
// number or a logical time.
var simulationTrivia = regexp.MustCompile(`(?i)\bbroker[- ]?\d|\bt=\d`)

// A seeded drill of 10, under both versions, shows no broker number and
// no t= time on any screen of any question: before the answer, with its
// hint, and answered with the verdict and every why. The terminal is tall
// enough that nothing is scrolled out of the check. Six seeds between
// them ask both written and played questions.
func TestSeededDrillShowsNoSimulationTrivia(t *testing.T) {
	t.Parallel()
	written, played := 0, 0
	for n := range 6 {
		seed := uint64(42 + n)
		for _, kafka := range lessons.Versions {
			w, p := seededDrillShowsNoTrivia(t, seed, kafka)
			written, played = written+w, played+p
		}
	}
	if written == 0 || played == 0 {
		t.Fatalf("the drills asked %d written and %d played questions; want both", written, played)
	}
}

func seededDrillShowsNoTrivia(t *testing.T, seed uint64, kafka int) (written, played int) {
	t.Helper()
	{
		d, err := NewDrillFor(seed, 10, kafka)
		if err != nil {
			t.Fatal(err)
		}
		if d.Len() != 10 {
			t.Fatalf("a drill of %d", d.Len())
		}
		m := drillModel(d, 200, 60)
		for i := 0; i < d.Len(); i++ {
			q := d.Question()
			if q.Written {
				written++
			}
			wrong := d.Inner().Correct(i)%len(q.Checkpoint.Choices) + 1
			for _, keys := range [][]string{nil, {"h"}, {string(rune('0' + wrong))}} {
				m = press(m, keys...)
				if got := simulationTrivia.FindString(ansi.Strip(m.View())); got != "" {
					t.Fatalf("seed %d, Kafka %d, question %d (%s) shows %q:\n%s", seed, kafka, i+1, d.Inner().Question(i).ID, got, ansi.Strip(m.View()))
				}
			}
			if a := d.Question(); !a.Checkpoint.Answered || len(a.Why) != len(a.Checkpoint.Choices) || !a.HintShown || a.Hint == "" {
				t.Fatalf("question %d: answered %v, %d whys, hint %q", i+1, a.Checkpoint.Answered, len(a.Why), a.Hint)
			}
			m = press(m, "right")
		}
		played = d.Len() - written
		if r := d.Result(); r.Right != 0 || r.Answered != 10 || len(r.Revisit) == 0 {
			t.Fatalf("result %+v", r)
		}
	}
	return written, played
}

// On the drill screen h shows the hint under the choices (and the help
// bar stops offering it), and at the end r starts a drill of just the
// missed concepts.
func TestDrillScreenHintAndRetry(t *testing.T) {
	m, ad := drillOf(t, 3, 3, 80, 24, "timeout-aborts", "producer-fenced-90")
	d := ad.Inner()
	screen := func() string { return ansi.Strip(m.View()) }
	if !strings.Contains(screen(), "h hint (costs the point)") {
		t.Fatalf("no hint key offered:\n%s", screen())
	}
	m = press(m, "h")
	hint := d.Question(0).Checkpoint().Hint
	if s := screen(); !strings.Contains(s, "Hint: "+hint[:20]) || strings.Contains(s, "h hint") ||
		!strings.Contains(s, "a right answer to this question now earns no point") {
		t.Fatalf("after h:\n%s", s)
	}
	m = press(m, string(rune('0'+d.Correct(0))))
	if s := screen(); !strings.Contains(s, "Right after the hint: no point for this one.") {
		t.Fatalf("a right answer after the hint does not say it earns nothing:\n%s", s)
	}
	m = press(m, "right")
	if s := screen(); !strings.Contains(s, "Configuration:") && !strings.Contains(s, "Failure:") {
		t.Fatalf("the written question has no prompt of its kind:\n%s", s)
	}
	m = press(m, string(rune('0'+d.Correct(1)%len(d.Choices(1))+1)), "right")
	s := screen()
	if !strings.Contains(s, "0 of 2 right") || !strings.Contains(s, "1 more right after a hint") || !strings.Contains(s, "r drill the missed") {
		t.Fatalf("the result:\n%s", s)
	}
	m = press(m, "r")
	s = screen()
	if !strings.Contains(s, "Question 1 of") || !strings.Contains(s, "transaction timeout") {
		t.Fatalf("after r:\n%s", s)
	}
}

// Once a question is answered, ↓ scrolls the verdict: at 60x20 its last
// lines (where to check it, the lesson to open) come into view.
func TestDrillVerdictScrolls(t *testing.T) {
	m, ad := drillOf(t, 43, 3, 60, 20, "timeout-then-commit")
	d := ad.Inner()
	m = press(m, string(rune('0'+d.Correct(0))))
	if s := ansi.Strip(m.View()); strings.Contains(s, "o opens the lesson") {
		t.Fatalf("the verdict fits without scrolling; the test needs a longer one:\n%s", s)
	}
	m = press(m, "down", "down", "down", "down", "down", "down", "down", "down")
	if s := ansi.Strip(m.View()); !strings.Contains(s, "o opens the lesson") || !strings.Contains(s, "Check it:") {
		t.Fatalf("after scrolling down:\n%s", s)
	}
}

package cli

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/adapt"
	"github.com/eoslab/eoslab/views/export"
	"github.com/eoslab/eoslab/views/internal/viewtest"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/serve"
)

// The README's pictures, drawn from the real program: the views eoslab
// opens, fed the keys a user presses, their screens drawn to SVG by
// export.SVG as 'eoslab export --format svg' draws them. Regenerate them
// with:
//
//	go test ./views/cli -run TestREADMEPictures -update
//
// and the test fails when a picture in assets/screens is not what the
// program draws now.
const picW, picH = 100, 30

var screensDir = filepath.Join("..", "..", "assets", "screens")

func TestREADMEPictures(t *testing.T) {
	pictures := map[string]func(t *testing.T) string{
		"home":            homeScreen,
		"lesson":          lessonScreen,
		"sandbox":         sandboxScreen,
		"class-presenter": func(t *testing.T) string { p, _ := classScreens(t); return p },
		"class-student":   func(t *testing.T) string { _, s := classScreens(t); return s },
	}
	update := flag.Lookup("update") != nil && flag.Lookup("update").Value.String() == "true"
	for _, name := range []string{"home", "lesson", "sandbox", "class-presenter", "class-student"} {
		t.Run(name, func(t *testing.T) {
			got := export.SVG(pictures[name](t), picW, picH)
			path := filepath.Join(screensDir, name+".svg")
			if update {
				if err := os.MkdirAll(screensDir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil || string(want) != got {
				t.Fatalf("%s is not what eoslab draws now (%v); regenerate: go test ./views/cli -run TestREADMEPictures -update", path, err)
			}
		})
	}
}

// homeScreen is the lesson list eoslab opens on.
func homeScreen(t *testing.T) string {
	var m tea.Model = views.NewApp(adapt.Lessons(), adapt.Open, views.Options{Renderer: exportRenderer()})
	m, _ = m.Update(tea.WindowSizeMsg{Width: picW, Height: picH})
	return m.View()
}

// lessonScreen is a step of the zombie lesson, its question open.
func lessonScreen(t *testing.T) string {
	l, err := lessons.Load("zombie")
	if err != nil {
		t.Fatal(err)
	}
	d, err := lessonDoc(l, "zombie", 3, picW, picH)
	if err != nil {
		t.Fatal(err)
	}
	return d.Steps[5].Screen
}

// sandboxScreen is the sandbox's first preset with idempotence switched
// off and a response dropped: the retry writes the record twice, and the
// broken guarantee shows the events that led to it.
func sandboxScreen(t *testing.T) string {
	opts := withSandbox(views.Options{Renderer: exportRenderer()})
	var m tea.Model = views.NewSandbox(adapt.SandboxPresets(), opts.OpenSandbox, nil, opts)
	m, _ = m.Update(tea.WindowSizeMsg{Width: picW, Height: picH})
	for _, k := range append([]string{"1"}, sandboxKeys["idempotent"]...) {
		m, _ = m.Update(viewtest.Key(k))
	}
	return m.View()
}

// classScreens are a class of the zombie lesson at its first question:
// the presenter's seat, and a student's who has answered, both drawn
// without SSH from the class's Views.
func classScreens(t *testing.T) (presenter, student string) {
	c, err := serve.NewClass(lessons.Load, "zombie")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	pch, pleave := c.Join("teacher", true)
	defer pleave()
	ach, aleave := c.Join("ana", false)
	defer aleave()
	bch, bleave := c.Join("bo", false)
	defer bleave()
	vo := views.Options{Renderer: exportRenderer()}
	l, _ := lessons.Load("zombie")
	m := l.Meta()
	pres := serve.NewSeat(c, <-pch, serve.SeatOptions{Seat: "teacher", Presenter: true, Views: vo,
		Lessons: []model.LessonInfo{{Name: "zombie", Title: m.Title, Summary: m.Summary, Level: m.Level, Steps: m.Steps}}})
	ana := serve.NewSeat(c, <-ach, serve.SeatOptions{Seat: "ana", Views: vo})
	for _, s := range []*serve.Seat{pres, ana} {
		s.Update(tea.WindowSizeMsg{Width: picW, Height: picH})
	}
	// The presenter steps to the first question.
	var v *serve.View
	for v == nil || v.Ask == nil {
		pres.Update(viewtest.Key("right"))
		v = until(pch, func(x *serve.View) bool { return x.Pos > 0 && (v == nil || x.Pos > v.Pos) })
	}
	step := v.Pos
	c.Answer("ana", step, 2)
	c.Answer("bo", step, 1)
	answered := func(x *serve.View) bool { return x.Pos == step && x.Ask != nil && x.Ask.Answered == 2 }
	pres.Update(serve.ViewMsg(until(pch, answered)))
	ana.Update(serve.ViewMsg(until(ach, func(x *serve.View) bool { return x.Pos == step && x.Ask != nil && x.Ask.Mine == 2 })))
	until(bch, func(x *serve.View) bool { return x.Pos == step })
	return pres.View(), ana.View()
}

// until reads a seat's Views until one satisfies ok.
func until(ch <-chan *serve.View, ok func(*serve.View) bool) *serve.View {
	for v := range ch {
		if ok(v) {
			return v
		}
	}
	return nil
}

package adapt

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
	"github.com/eoslab/eoslab/engine/termsafe"
	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/internal/viewtest"
	"github.com/eoslab/eoslab/views/model"
)

// hostileBase is a sound lesson whose words in capitals are replaced by
// text a terminal would act on, after parsing: the parser refuses such
// text in a file, so this is what would reach the screen if something
// slipped past it (a future input path, a bug).
const hostileBase = `title: TITLE
summary: SUMMARY
level: basics
intro: INTRO
minutes: 5
setup:
  topic t
  producer P transactional.id=TX
  consumer C isolation.level=read_committed

step: STEP1
  say: SAY1
  do: P initTransactions
  do: run
  do: P beginTransaction
  do: P send t-0 VALUE
  do: run
  ask: QUESTION
  choice: CHOICE1 | expect txn TX state CompleteCommit
  choice: CHOICE2 | expect txn TX state Ongoing
  explain: EXPLAIN
  note: NOTE

step: STEP2
  say: SAY2
  do: P commitTransaction
  do: run
  do: C poll
  do: run
`

// hostile maps each placeholder to what issue 7 injected: a window title,
// a screen clear, an OSC 52 clipboard write, C1 controls, bidirectional
// overrides and isolates, a bell, invalid UTF-8.
var hostile = map[string]string{
	"TITLE":    "Title \x1b]0;pwned\x07",
	"SUMMARY":  "Summary \x1b[2J",
	"INTRO":    "Intro \x1b]52;c;ZXZpbA==\x07",
	"STEP1":    "Step \u202eeno",
	"SAY1":     "Say \u009b31m red",
	"QUESTION": "Question \u0085\u2066?",
	"CHOICE1":  "One \x1b[1A",
	"CHOICE2":  "Two \u200f\u061c",
	"EXPLAIN":  "Explain \x9d",
	"NOTE":     "Note \x1b]8;;http://x\x07link",
	"STEP2":    "Step \x07two",
	"SAY2":     "Say \xff\xfe",
	"P":        "P\u202e",
	"C":        "C\x1b[0m",
	"TX":       "tx\u009b",
	"VALUE":    "v\x1b[31m\u0085",
}

func hostileLesson(t *testing.T) *lessons.Lesson {
	t.Helper()
	l, err := lessons.Parse("hostile.lesson", []byte(hostileBase))
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Check(); err != nil {
		t.Fatal(err)
	}
	sub := func(s string) string {
		if h, ok := hostile[s]; ok {
			return h
		}
		return s
	}
	cmd := func(c *script.Command) {
		// Every string of the typed action or expectation, however deep.
		if c.Action != nil {
			c.Action = substituted(c.Action, sub).(engine.Action)
		}
		if c.Expect != nil {
			c.Expect = substituted(c.Expect, sub).(script.Expectation)
		}
		words := strings.Fields(c.Text)
		for i := range words {
			words[i] = sub(words[i])
		}
		c.Text = strings.Join(words, " ")
	}
	l.Title, l.Summary, l.Intro = sub(l.Title), sub(l.Summary), sub(l.Intro)
	for i := range l.Setup {
		cmd(&l.Setup[i])
	}
	if !strings.Contains(l.Setup[len(l.Setup)-1].Action.String(), "\x1b") {
		t.Fatalf("the hostile names did not reach the typed actions: %s", l.Setup[len(l.Setup)-1].Action)
	}
	for i := range l.Steps {
		s := &l.Steps[i]
		s.Title, s.Say, s.Note = sub(s.Title), sub(s.Say), sub(s.Note)
		for j := range s.Commands {
			cmd(&s.Commands[j])
		}
		if cp := s.Ask; cp != nil {
			cp.Question, cp.Explain = sub(cp.Question), sub(cp.Explain)
			for j := range cp.Choices {
				cp.Choices[j].Text = sub(cp.Choices[j].Text)
				for k := range cp.Choices[j].Expects {
					cmd(&cp.Choices[j].Expects[k])
				}
			}
		}
	}
	return l
}

// substituted returns a copy of x with sub applied to every string it
// holds, in fields, slices and arrays at any depth.
func substituted(x any, sub func(string) string) any {
	v := reflect.New(reflect.TypeOf(x)).Elem()
	v.Set(deepCopy(reflect.ValueOf(x)))
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			if v.CanSet() {
				v.SetString(sub(v.String()))
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				walk(v.Field(i))
			}
		case reflect.Slice, reflect.Array:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		}
	}
	walk(v)
	return v.Interface()
}

// deepCopy copies slices so that substituting leaves the parsed lesson's
// own backing arrays alone.
func deepCopy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			c.Index(i).Set(deepCopy(v.Index(i)))
		}
		return c
	case reflect.Struct:
		c := reflect.New(v.Type()).Elem()
		for i := 0; i < v.NumField(); i++ {
			if c.Field(i).CanSet() {
				c.Field(i).Set(deepCopy(v.Field(i)))
			}
		}
		return c
	}
	return v
}

// assertSafe fails if the screen holds a character a terminal would act
// on. The test profile draws no colour, so the screen has no escape
// sequence of its own: any ESC would be one that came from the lesson.
func assertSafe(t *testing.T, screen, where string) {
	t.Helper()
	for i, r := range screen {
		if r == '\n' {
			continue
		}
		if termsafe.Unsafe(r) || (r == utf8.RuneError && !strings.HasPrefix(screen[i:], "\uFFFD")) {
			t.Fatalf("%s: the screen holds U+%04X at byte %d: %q", where, r, i, screen[max(0, i-40):min(len(screen), i+40)])
		}
	}
}

// TestTUIEscapesTextFromFiles plays the hostile lesson in the TUI, from the
// list to the end with the checkpoint answered, at two sizes and with every
// panel focused, and checks that nothing drawn carries a raw control.
func TestTUIEscapesTextFromFiles(t *testing.T) {
	l := hostileLesson(t)
	info := []model.LessonInfo{{Name: "hostile", Title: l.Title, Summary: l.Summary, Level: l.Level, Steps: len(l.Steps)}}
	open := func(string) (model.Session, error) { return New(l), nil }
	for _, size := range [][2]int{{160, 48}, {80, 24}} {
		var m tea.Model = views.NewApp(info, open, views.Options{})
		m, _ = m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		screen := m.View()
		assertSafe(t, screen, "the list")
		if !strings.Contains(screen, `Title \x1b]0;pwned\x07`) {
			t.Fatalf("the title is not shown escaped:\n%s", screen)
		}
		keys := []string{"enter", "right", "1", "right", "left", "right", "right"}
		for i, k := range keys {
			m, _ = m.Update(viewtest.Key(k))
			assertSafe(t, m.View(), "after "+strings.Join(keys[:i+1], " "))
			for range 6 {
				m, _ = m.Update(viewtest.Key("tab"))
				assertSafe(t, m.View(), "after "+strings.Join(keys[:i+1], " ")+" and tab")
			}
		}
	}
}

// The lesson transcript (eoslab run --lesson) holds the hostile text raw:
// it is data, and the CLI escapes at its edge (termsafe.Writer, tested in
// main_test.go). This pins that the text does reach it, so that the edge
// is what makes it safe.
func TestTranscriptCarriesTextToTheEdge(t *testing.T) {
	out, _ := lessons.Transcript(hostileLesson(t))
	if !strings.Contains(out, hostile["TITLE"]) || !strings.Contains(out, hostile["VALUE"]) {
		t.Fatal("the transcript lost the hostile text")
	}
	assertSafe(t, termsafe.Escape(out), "the escaped transcript")
}

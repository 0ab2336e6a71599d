package adapt

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/views"
)

// screenText is what a reader sees on a screen, as one line of words: the
// colours, borders and the spaces that wrapping and padding add are gone,
// so a paragraph wrapped over several lines reads as it was written.
func screenText(view string) string {
	var words []string
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		l = strings.Map(func(r rune) rune {
			if strings.ContainsRune("│┃╭╮╰╯┏┓┗┛─━", r) {
				return ' '
			}
			return r
		}, l)
		words = append(words, strings.Fields(l)...)
	}
	return " " + strings.Join(words, " ") + " "
}

// oneLine is a text as screenText renders it.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// mustSee fails unless every text is on the screen without scrolling.
func mustSee(t *testing.T, where, view string, texts ...string) {
	t.Helper()
	seen := screenText(view)
	for _, s := range texts {
		if s = oneLine(s); s != "" && !strings.Contains(seen, " "+s+" ") {
			t.Errorf("%s: not on screen without scrolling: %q\n%s", where, s, ansi.Strip(view))
			return
		}
	}
}

// TestEveryStepReadsWithoutScrolling plays every built-in lesson at 80x24
// and 60x20, as a learner stepping through it. At 80x24 each step's whole
// text (at step 0 the lesson's title, summary and intro) is on screen as
// the step opens, and on a question step so are the question and every
// choice; at 60x20 the question and every choice are.
func TestEveryStepReadsWithoutScrolling(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {60, 20}} {
		for _, m := range lessons.All() {
			for _, k := range lessons.Versions {
				l, err := lessons.Load(m.Name)
				if err != nil {
					t.Fatal(err)
				}
				l = l.ForKafka(k)
				p := openPlayer(t, m.Name, size[0], size[1], views.Options{Kafka: k})
				s := p.session()
				if s.Kafka() != k {
					t.Fatalf("%s opened under Kafka %d, not %d", m.Name, s.Kafka(), k)
				}
				for pos := 0; pos <= s.Len(); pos++ {
					if pos > 0 {
						p.to(pos)
					}
					where := m.Name + " under Kafka " + itoa(k) + " at " + itoa(size[0]) + "x" + itoa(size[1]) + ", step " + itoa(pos)
					view := p.m.View()
					if size[0] == 80 {
						if st := s.Player().StepAt(pos); st != nil {
							mustSee(t, where, view, st.Title, st.Say)
						} else {
							mustSee(t, where, view, l.Title, l.Summary, l.Intro)
						}
					}
					cp := s.Frame().Checkpoint
					if cp == nil {
						continue
					}
					texts := []string{cp.Question}
					for i, c := range cp.Choices {
						texts = append(texts, itoa(i+1)+") "+c)
					}
					mustSee(t, where, view, texts...)
				}
			}
		}
	}
}

// TestGoldenReading draws what issue 8 is about, through the real engine,
// at a default terminal and a projector: a question step with four
// choices, a step's detail view, the help with its glyph legend, and the
// help opened from the Timeline, with the Timeline's legend first.
func TestGoldenReading(t *testing.T) {
	cases := []struct {
		name   string
		lesson string
		step   int
		keys   []string
	}{
		{"question", "lost-ack", 6, nil},
		{"details", "zombie", 8, []string{"d"}},
		{"help", "abort", 3, []string{"?"}},
		// Looking at the Timeline, ? opens with its legend.
		{"timeline-help", "lost-ack", 4, []string{"tab", "tab", "tab", "tab", "tab", "?"}},
	}
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		for _, c := range cases {
			name := c.lesson + "-" + c.name + "-" + itoa(size[0]) + "x" + itoa(size[1])
			t.Run(name, func(t *testing.T) {
				p := openPlayer(t, c.lesson, size[0], size[1], views.Options{})
				p.to(c.step)
				p.press(c.keys...)
				goldenScreen(t, p.m.View())
			})
		}
	}
}

// TestPanelsFollowTheStep: at 80x24 one slot shows one panel at a time.
// Until the learner picks a panel, it shows the one the step changed; a
// panel picked with tab stays, step after step, while each step gives the
// focus back to the lesson for scrolling its text.
func TestPanelsFollowTheStep(t *testing.T) {
	p := openPlayer(t, "abort", 80, 24, views.Options{})
	shows := func(panel string) {
		t.Helper()
		if v := ansi.Strip(p.m.View()); !strings.Contains(v, "["+panel) {
			t.Fatalf("step %d: the slot does not show %s:\n%s", p.session().Pos(), panel, v)
		}
	}
	if f := p.m.(views.App).Focus(); f.String() != "Lesson" {
		t.Fatalf("focus %v at the start; the lesson should have it", f)
	}
	for _, c := range []struct {
		step  int
		panel string
	}{{1, "Coordinator"}, {2, "Producers"}, {3, "Partitions"}, {4, "Consumers"}, {5, "Coordinator"}, {6, "Partitions"}} {
		p.to(c.step)
		shows(c.panel)
	}
	p.focus("Timeline")
	for step := 7; step <= 9; step++ {
		p.to(step)
		shows("Timeline")
		if f := p.m.(views.App).Focus(); f.String() != "Lesson" {
			t.Fatalf("step %d: focus %v; a step gives it back to the lesson", step, f)
		}
	}
}

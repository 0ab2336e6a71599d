package adapt

import (
	tea "github.com/charmbracelet/bubbletea"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/model"
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
// Until the learner picks a panel, it shows the step's subjects (the step
// view) or the panel the step changed; tab picks a panel for this step
// only: the next step follows the lesson again, and esc lets go of the
// panel before it leaves the lesson.
func TestPanelsFollowTheStep(t *testing.T) {
	p := openPlayer(t, "abort", 80, 24, views.Options{})
	shows := func(panel string) {
		t.Helper()
		if v := ansi.Strip(p.m.View()); !strings.Contains(v, "["+panel) {
			t.Fatalf("step %d: the slot does not show %s:\n%s", p.session().Pos(), panel, v)
		}
	}
	focus := func(want string) {
		t.Helper()
		if f := p.m.(views.App).Focus(); f.String() != want {
			t.Fatalf("step %d: focus %v, want %s", p.session().Pos(), f, want)
		}
	}
	focus("Lesson")
	for _, c := range []struct {
		step  int
		panel string
	}{{1, "Coordinator"}, {2, "Producers"}, {3, "This step"}, {4, "This step"}, {5, "This step"}, {6, "This step"}} {
		p.to(c.step)
		shows(c.panel)
	}
	p.focus("Timeline")
	shows("Timeline")
	// Esc lets go of the panel, and stays in the lesson.
	p.press("esc")
	focus("Lesson")
	shows("This step")
	if p.m.(views.App).Session() == nil || !strings.Contains(ansi.Strip(p.m.View()), "step 6/10") {
		t.Fatalf("esc on a focused panel left the lesson:\n%s", ansi.Strip(p.m.View()))
	}
	// A pick lasts for its step: the next one follows the lesson.
	p.focus("Timeline")
	p.to(7)
	shows("This step")
	focus("Lesson")
	// Focused, the arrow keys scroll the panel, not the lesson.
	p.focus("Timeline")
	before := ansi.Strip(p.m.View())
	p.press("up")
	if ansi.Strip(p.m.View()) == before {
		t.Fatalf("up on the focused Timeline did not scroll it:\n%s", before)
	}
	// So does the mouse wheel: a notch down undoes the line up.
	p.m, _ = p.m.Update(tea.MouseMsg{Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress})
	if got := ansi.Strip(p.m.View()); got != before {
		t.Fatalf("the wheel did not scroll the focused Timeline back:\n%s", got)
	}
}

// subjectMarks is what must be on screen for a step's subject to be seen:
// a partition's name and the row the step is about (the last it changed,
// else the last); a transactional id's last __transaction_state record,
// or the one being appended, up to its epoch; a consumer's name and what the step returned to it; a
// producer's name, producer id and epoch.
func subjectMarks(f *model.Frame, s model.Subject) []string {
	marks := []string{s.Name}
	switch s.Kind {
	case model.SubjectPartition:
		for _, pv := range f.Partitions {
			if pv.Name != s.Name || len(pv.Rows) == 0 {
				continue
			}
			r := pv.Rows[len(pv.Rows)-1]
			for _, x := range pv.Rows {
				if x.Changed {
					r = x
				}
			}
			if r.Kind == model.RowData {
				marks = append(marks, r.Values[0])
			} else {
				marks = append(marks, r.Kind.String()+" marker")
			}
		}
	case model.SubjectTxnLog:
		for _, c := range f.Coordinators {
			if c.TxnID == s.Name && len(c.Writes) > 0 {
				last := c.Writes[len(c.Writes)-1]
				if len(c.Appending) > 0 {
					// A record being appended is what the step is about.
					last = "appending " + c.Appending[len(c.Appending)-1]
				}
				w := strings.Fields(last)
				for i, x := range w {
					if strings.HasPrefix(x, "epoch=") {
						w = w[:i+1]
						break
					}
				}
				marks = append(marks, strings.Join(w, " "))
			}
		}
	case model.SubjectConsumer:
		for _, c := range f.Consumers {
			if c.Name == s.Name {
				for _, r := range c.Records {
					if r.Changed {
						marks = append(marks, r.Value)
					}
				}
			}
		}
	case model.SubjectProducer:
		for _, p := range f.Producers {
			if p.Name == s.Name && p.ProducerID >= 0 {
				marks = append(marks, "producerId "+strconv.FormatInt(p.ProducerID, 10)+" epoch "+itoa(int(p.Epoch)))
			}
		}
	}
	return marks
}

// TestStepSubjectsOnScreen plays every step of every lesson under both
// Kafka versions at 80x24 and 60x20, as a learner pressing only → and
// answering, and checks that what the step's show: line names is on
// screen: a partition's row the step is about, the coordinator's last
// record, what a consumer got.
func TestStepSubjectsOnScreen(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {60, 20}} {
		for _, m := range lessons.All() {
			for _, k := range lessons.Versions {
				p := openPlayer(t, m.Name, size[0], size[1], views.Options{Kafka: k})
				s := p.session()
				for pos := 1; pos <= s.Len(); pos++ {
					p.to(pos)
					f := s.Frame()
					seen := ansi.Strip(p.m.View())
					flat := screenText(seen)
					for _, sub := range f.Show {
						for _, mk := range subjectMarks(&f, sub) {
							if !strings.Contains(flat, oneLine(mk)) {
								t.Errorf("%s under Kafka %d at %dx%d, step %d: %s %q is not on screen (%q missing)\n%s",
									m.Name, k, size[0], size[1], pos, kindName(sub.Kind), sub.Name, mk, seen)
							}
						}
					}
				}
			}
		}
	}
}

func kindName(k model.SubjectKind) string {
	return [...]string{"partition", "producer", "consumer", "txnlog"}[k]
}

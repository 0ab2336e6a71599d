package player

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
)

// A step gets the chosen time for paceWords words, and more when it is
// longer: autoplay never cuts a long step short.
func TestAutoplayWaitsForLongSteps(t *testing.T) {
	m := Model{speed: 3, frame: &model.Frame{Narration: strings.Repeat("word ", paceWords)}}
	if got := m.stepDelay(); got != speeds[3] {
		t.Errorf("a step of %d words: %v, want %v", paceWords, got, speeds[3])
	}
	m.frame.Narration = strings.Repeat("word ", 3*paceWords)
	if got := m.stepDelay(); got != 3*speeds[3] {
		t.Errorf("a step of %d words: %v, want %v", 3*paceWords, got, 3*speeds[3])
	}
	if speeds[0] < 20*time.Second {
		t.Errorf("the slowest speed is %v; a learner may want 20 s or more a step", speeds[0])
	}
}

// TestCostLessonFollowsTheTable: in a lesson with a cost table, a step
// that changed a row brings the Producers panel forward (before the
// partitions it also changed), and so does a step that changed only the
// events (the bill); without the table the usual order holds.
func TestCostLessonFollowsTheTable(t *testing.T) {
	frameList := func(cost bool) []model.Frame {
		fs := []model.Frame{
			{Step: 0, Steps: 2, Producers: []model.ProducerView{{Name: "T"}}, Partitions: []model.PartitionView{{Name: "t-0"}}},
			{Step: 1, Steps: 2, Producers: []model.ProducerView{{Name: "T", Changed: true}}, Partitions: []model.PartitionView{{Name: "t-0", Changed: true}},
				Events: []model.EventLine{{Text: "e"}}, NewEvents: 1},
			{Step: 2, Steps: 2, Producers: []model.ProducerView{{Name: "T"}}, Partitions: []model.PartitionView{{Name: "t-0"}},
				Events: []model.EventLine{{Text: "e"}, {Text: "f"}}, NewEvents: 1},
		}
		if cost {
			fs[0].Cost = &model.CostView{Rows: []model.CostRow{{Client: "T"}}}
			fs[1].Cost = &model.CostView{Rows: []model.CostRow{{Client: "T", Produce: 1, Total: 1, Changed: true}}}
			fs[2].Cost = &model.CostView{Rows: []model.CostRow{{Client: "T", Produce: 1, Total: 1}}}
		}
		return fs
	}
	for _, c := range []struct {
		cost bool
		want [2]layout.PanelID // at steps 1 and 2
	}{
		{true, [2]layout.PanelID{layout.PanelProducers, layout.PanelProducers}},
		{false, [2]layout.PanelID{layout.PanelPartitions, layout.PanelEvents}},
	} {
		m := newTest(&frames{frames: frameList(c.cost)}, 80, 24, Options{})
		for step := 1; step <= 2; step++ {
			m, _ = press(m, "right")
			slot := m.place.SlotOf(layout.PanelProducers)
			if slot < 0 {
				t.Fatal("no slot holds the Producers panel at 80x24")
			}
			if got := m.activeIn(m.place.Slots[slot]); got != c.want[step-1] {
				t.Errorf("cost table %v, step %d: the slot shows panel %v, want %v", c.cost, step, got, c.want[step-1])
			}
		}
	}
}

// The player reports up what the root acts on: the end of the lesson,
// then leaving it with its session.
func TestReportsUp(t *testing.T) {
	s := &frames{frames: []model.Frame{{Steps: 1}, {Step: 1, Steps: 1}}}
	m := newTest(s, 80, 24, Options{})
	m, out := press(m, "right")
	if len(out) != 1 || out[0] != (FinishedMsg{Name: "test"}) {
		t.Fatalf("the last step reported %v, want FinishedMsg", out)
	}
	m, out = press(m, "esc")
	if len(out) != 2 || out[0] != (FinishedMsg{Name: "test"}) {
		t.Fatalf("esc at the end reported %v, want FinishedMsg then LeftMsg", out)
	}
	if l, ok := out[1].(LeftMsg); !ok || l.Session != s || l.Name != "test" {
		t.Fatalf("esc reported %#v, want LeftMsg with the session", out[1])
	}
	if m.Session() != nil || m.View() != "" {
		t.Error("the player kept the session it left")
	}
}

// Options.Side, when set, adds its lines for the step at the end of the
// details, under its title; a step it has nothing for shows the details
// as they are.
func TestSidePanel(t *testing.T) {
	var asked []int
	side := &SidePanel{Title: "Kafka's side", Lines: func(f *model.Frame, w int) []string {
		asked = append(asked, f.Step)
		if f.Step == 0 {
			return nil
		}
		return []string{"broker said NOT_COORDINATOR", "at width " + strings.Repeat("x", min(w, 3))}
	}}
	s := &frames{frames: []model.Frame{{Steps: 1, Narration: "zero"}, {Step: 1, Steps: 1, Narration: "one"}}}
	plain := newTest(&frames{frames: s.frames}, 80, 24, Options{})
	m := newTest(s, 80, 24, Options{Side: side})
	plain, _ = press(plain, "d")
	m, _ = press(m, "d")
	if a, b := ansi.Strip(m.View()), ansi.Strip(plain.View()); a != b || strings.Contains(a, "Kafka's side") {
		t.Fatalf("step 0, where the side panel has no lines: the details differ or show it:\n%s\n----\n%s", a, b)
	}
	m, _ = press(m, "d")
	m, _ = press(m, "right")
	m, _ = press(m, "d")
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "Kafka's side") || !strings.Contains(v, "broker said NOT_COORDINATOR") || !strings.Contains(v, "at width xxx") {
		t.Fatalf("step 1: the details have no side panel:\n%s", v)
	}
	if len(asked) == 0 || asked[len(asked)-1] != 1 {
		t.Errorf("the side panel was asked for steps %v, want the last to be 1", asked)
	}
}

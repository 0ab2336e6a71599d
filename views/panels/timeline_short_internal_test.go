package panels

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// In a lane too narrow for a request's name (the sandbox's Timeline at
// 80x24 leaves about 17 cells), the name is shortened to its known short
// form rather than cut mid-word; with room, it stays whole.
func TestTimelineShortRequestNames(t *testing.T) {
	actors := []model.Actor{{Name: "P"}, {Name: "C"}, {Name: "broker-1", Short: "b1"}, {Name: "broker-2", Short: "b2"}, {Name: "broker-3", Short: "b3"}}
	arrows := []model.Arrow{
		{From: "P", To: "broker-1", Label: "AddPartitionsToTxn t-0 pid=1000 epoch=0", Step: 1, State: model.ArrowDelivered,
			Name: "AddPartitionsToTxn", NameTail: len(" t-0 pid=1000 epoch=0"), Short: "AddPartitions"},
		{From: "broker-1", To: "P", Label: "InitProducerIdResponse NONE pid=1000 epoch=0", Reply: true, Step: 1, State: model.ArrowDelivered,
			Name: "InitProducerIdResponse", NameTail: len(" NONE pid=1000 epoch=0"), Short: "InitPidResponse", Shortest: "InitPidResp"},
		{From: "broker-1", To: "P", Label: "FindCoordinatorResponse NONE broker-1", Reply: true, Step: 1, State: model.ArrowDelivered,
			Name: "FindCoordinatorResponse", NameTail: len(" NONE broker-1"), Short: "FindCoordResponse", Shortest: "FindCoordResp"},
	}
	f := &model.Frame{Step: 1, Actors: actors, Timeline: arrows}
	p := Painter{Theme: theme.New(theme.Options{NoColor: true}), Width: 44}
	names := map[string]bool{}
	for _, n := range []string{"AddPartitionsToTxn", "AddPartitions", "InitProducerIdResponse", "InitPidResponse", "InitProducerIdResp", "InitPidResp",
		"FindCoordinatorResponse", "FindCoordResponse", "FindCoordinatorResp", "FindCoordResp"} {
		names[n] = true
	}
	for _, w := range []int{38, 40, 42, 44, 46} {
		p.Width = w
		_, body, _ := Timeline(f, p)
		var text []string
		for i := range body.Len() {
			text = append(text, ansi.Strip(body.Line(i)))
		}
		all := strings.Join(text, "\n")
		// Each arrow row's label starts with a whole name, full or short.
		for _, l := range text {
			if !strings.ContainsAny(l, "─┄") {
				continue
			}
			fs := strings.Fields(l[strings.LastIndex(l, "│")+len("│"):])
			if len(fs) == 0 || !names[fs[0]] {
				t.Errorf("at %d cells a name is cut: %q\n%s", w, l, all)
			}
		}
		if w == 40 && (!strings.Contains(all, "AddPartitions") || strings.Contains(all, "AddPartitionsTo")) {
			t.Errorf("at 40 cells the Timeline lacks AddPartitions:\n%s", all)
		}
	}
	p.Width = 160
	_, body, _ := Timeline(f, p)
	for i, a := range arrows {
		if l := ansi.Strip(body.Line(i)); !strings.Contains(l, a.Label) {
			t.Errorf("at 160 cells row %d is %q, want the label whole", i, l)
		}
	}
}

func TestShortLabel(t *testing.T) {
	add := model.Arrow{Name: "AddPartitionsToTxn", NameTail: len(" t-0"), Short: "AddPartitions"}
	init := model.Arrow{Name: "InitProducerIdResponse", Short: "InitPidResponse", Shortest: "InitPidResp"}
	prod := model.Arrow{Name: "ProduceResponse", NameTail: len(" NONE"), Shortest: "ProduceResp"}
	for _, c := range []struct {
		a     model.Arrow
		label string
		w, w2 int
		want  string
	}{
		{add, "AddPartitionsToTxn t-0", 40, 0, "AddPartitionsToTxn t-0"},
		{add, "AddPartitionsToTxn t-0", 15, 0, "AddPartitions t-0"},
		{add, "AddPartitionsToTxn t-0", 15, 30, "AddPartitions t-0"}, // first on row 1: cut there
		{add, "AddPartitionsToTxn t-0", 5, 0, "AddPartitions t-0"},
		{add, "AddPartitionsToTxn t-0", 5, 30, "AddPartitionsToTxn t-0"}, // the label starts on row 2, which holds it
		{add, "AddPartitionsToTxn t-0", 5, 18, "AddPartitions t-0"},      // row 2 would end it in an ellipsis
		// A mark put before the label (the sandbox's cause and cursor
		// marks) counts in the room and stays; after it the name can go
		// whole to the second row.
		{add, ">> ! AddPartitionsToTxn t-0", 20, 0, ">> ! AddPartitions t-0"},
		{add, ">> ! AddPartitionsToTxn t-0", 20, 30, ">> ! AddPartitionsToTxn t-0"},
		{prod, "ProduceResponse NONE", 12, 0, "ProduceResp NONE"},
		{prod, "! ProduceResponse NONE", 14, 0, "! ProduceResp NONE"},
		{init, "InitProducerIdResponse", 15, 0, "InitPidResponse"},
		{init, "InitProducerIdResponse", 5, 0, "InitPidResp"},
		{model.Arrow{}, "Produce t-0", 3, 0, "Produce t-0"},
		{add, "Add", 1, 0, "Add"},                                             // a label shorter than its name: as it is
		{add, "AddPartitionsToTx\x1b t-0", 5, 0, "AddPartitionsToTx\x1b t-0"}, // not where the name is: as it is
	} {
		if got := shortLabel(&c.a, c.label, c.w, c.w2); got != c.want {
			t.Errorf("shortLabel(%q, %d, %d) = %q, want %q", c.label, c.w, c.w2, got, c.want)
		}
	}
}

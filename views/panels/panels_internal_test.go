package panels

import (
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

func TestFlow(t *testing.T) {
	p := Painter{Theme: theme.New(theme.Options{}), Width: 24}
	cases := []struct {
		lead  string
		items []string
		want  []string
	}{
		{"  next seq ", []string{"t-0:3", "t-1:2"}, []string{"  next seq t-0:3  t-1:2"}},
		{"  next seq ", []string{"orders-0:1", "payments-0:1"}, []string{"  next seq orders-0:1", "    payments-0:1"}},
		{"  transactional.id ", []string{"payment-processor-1"}, []string{"  transactional.id", "    payment-processor-1"}},
		{"  last error ", []string{"PRODUCER_FENCED(90)"}, []string{"  last error", "    PRODUCER_FENCED(90)"}},
		{"  ", []string{"a-very-long-item-that-cannot-fit-anywhere"}, []string{"  a-very-long-item-that-cannot-fit-anywhere"}},
		{"  state ", nil, []string{"  state "}},
	}
	for _, c := range cases {
		if got := p.Flow(c.lead, c.items, "  ", 4); !reflect.DeepEqual(got, c.want) {
			t.Errorf("flow(%q, %q) = %q, want %q", c.lead, c.items, got, c.want)
		}
	}
}

// TestEventTone: the events panel draws a violation from the event's
// Violation field, whatever its text says.
func TestEventTone(t *testing.T) {
	p := Painter{Theme: theme.New(theme.Options{ASCII: true}), Width: 60}
	f := &model.Frame{Events: []model.EventLine{
		{Text: "t=3 invariant: VIOLATION duplicate-record: x", Violation: true},
		{Text: "t=4 p: a Violation in the text only"},
	}}
	_, c, _ := Events(f, p)
	glyph := p.Theme.Glyph(theme.Violated) + " "
	if got := c.Line(0); !strings.Contains(got, glyph+"t=3") {
		t.Errorf("flagged violation drawn as %q", got)
	}
	if got := c.Line(1); strings.Contains(got, glyph) {
		t.Errorf("an event whose text says violation is drawn as one: %q", got)
	}
}

// With room to spare the diagram draws the actors' full names; when they
// would leave the labels too little room it draws the short names, on one
// row, with the key to them in the lane; a label keeps its end when the
// lane holds it.
func TestTimelineHeaderAndLabels(t *testing.T) {
	th := theme.New(theme.Options{})
	actors := []model.Actor{{Name: "A"}, {Name: "B"}, {Name: "C"}, {Name: "broker-1", Short: "b1"}, {Name: "broker-2", Short: "b2"}, {Name: "broker-3", Short: "b3"}, {Name: "expert", Short: "exp"}}
	f := &model.Frame{Step: 1, Actors: actors, Timeline: []model.Arrow{
		{From: "broker-1", To: "broker-3", Label: "WriteTxnMarkers ABORT pid=1000 epoch=1", Step: 1, State: model.ArrowDelivered},
	}}
	head, body, _ := Timeline(f, Painter{Theme: th, Width: 78})
	if names := strings.Fields(head[0]); len(names) < len(actors) || strings.Join(names[:len(actors)], " ") != "A B C b1 b2 b3 exp" {
		t.Fatalf("header %q: want the short names on the first row", head)
	}
	for _, a := range actors[3:] {
		if !strings.Contains(strings.Join(head, "\n"), a.Short+" "+a.Name) {
			t.Errorf("header %q lacks the key %q", head, a.Short+" "+a.Name)
		}
	}
	if l := body.Line(0); !strings.Contains(l, "epoch=1") || cells.Width(l) > 78 {
		t.Errorf("label line %q: clipped or too wide", l)
	}
	head, _, _ = Timeline(f, Painter{Theme: th, Width: 160})
	if len(head) != 1 || !strings.Contains(head[0], "broker-3") || strings.Contains(head[0], "b3") {
		t.Errorf("header %q: want the full names when they fit", head)
	}
}

// timelineCells draws the diagram of f at width w and returns its body
// rows as cells (ANSI stripped) and where its lifelines are.
func timelineCells(t *testing.T, f *model.Frame, o theme.Options, w int) (rows [][]string, centers []int, laneX int) {
	t.Helper()
	p := Painter{Theme: theme.New(o), Width: w}
	_, body, _ := Timeline(f, p)
	tl := &timeline{p: p, f: f}
	tl.layout(f.Actors)
	for i := range body.Len() {
		l := ansi.Strip(body.Line(i))
		if cells.Width(l) > w {
			t.Fatalf("%d cells: row %d is %d cells: %q", w, i, cells.Width(l), l)
		}
		var cells []string
		for _, r := range l {
			cells = append(cells, string(r))
		}
		rows = append(rows, cells)
	}
	return rows, tl.centers, tl.laneX
}

// nineActors is a frame with nine actors and messages in every state, with
// labels longer than any lane.
func nineActors() *model.Frame {
	f := &model.Frame{Step: 3}
	for _, n := range []string{"p1", "p2", "payments", "orders", "rc", "ru"} {
		f.Actors = append(f.Actors, model.Actor{Name: n})
	}
	f.Actors[2].Short, f.Actors[3].Short = "pay", "ord"
	for i := 1; i <= 3; i++ {
		f.Actors = append(f.Actors, model.Actor{Name: "broker-" + itoa(i), Short: "b" + itoa(i)})
	}
	long := "Produce t-0 pid=1000 epoch=0 seq=0..2 values=a,b,c and a tail that no lane holds"
	for i, a := range f.Actors {
		for j, b := range f.Actors {
			if (i+j)%3 != 0 {
				continue
			}
			f.Timeline = append(f.Timeline, model.Arrow{From: a.Name, To: b.Name, Label: long, State: model.ArrowState((i + j) % 4),
				Reply: j < i, Error: i%4 == 0, Duplicate: j%5 == 0, Delayed: i%3 == 1, Step: i/3 + 1, Changed: i/3 == 2})
		}
	}
	return f
}

// No label cell covers a lifeline: with nine actors at 80 columns (the
// Timeline's 76 cells inside its borders) and at other widths, in every
// mode, each row's cell on every lifeline holds the lifeline or an arrow
// drawn across it, and the label starts in the lane, right of the last
// lifeline.
func TestTimelineLabelsNeverCoverLifelines(t *testing.T) {
	f := nineActors()
	for _, o := range []theme.Options{{}, {ASCII: true}, {NoColor: true}} {
		th := theme.New(o)
		sym := th.Sym
		diagram := map[string]bool{" ": true, sym.Lifeline: true, sym.Line: true, sym.Dashed: true, sym.Copy: true, sym.Right: true, sym.Left: true,
			sym.FlightRight: true, sym.FlightLeft: true, sym.Self: true, th.Glyph(theme.Dropped): true}
		for _, w := range []int{56, 76, 100, 156} {
			rows, centers, laneX := timelineCells(t, f, o, w)
			if len(rows) < len(f.Timeline) || len(rows) > maxLabelRows*len(f.Timeline) {
				t.Fatalf("%d rows for %d messages", len(rows), len(f.Timeline))
			}
			if last := centers[len(centers)-1]; laneX <= last {
				t.Fatalf("%+v %d: lane at %d, last lifeline at %d", o, w, laneX, last)
			}
			for i, cells := range rows {
				for _, x := range centers {
					if x >= len(cells) || !diagram[cells[x]] {
						t.Fatalf("%+v %d: row %d: lifeline cell %d holds %q: %q", o, w, i, x, cells[min(x, len(cells)-1)], strings.Join(cells, ""))
					}
				}
				for x := centers[len(centers)-1] + 1; x < min(laneX, len(cells)); x++ {
					if !diagram[cells[x]] {
						t.Fatalf("%+v %d: row %d: text at %d before the lane: %q", o, w, i, x, strings.Join(cells, ""))
					}
				}
			}
		}
	}
}

// TestGroupOffsets: the Consumers panel lists each group's committed and
// pending transactional offsets above the consumers, in words as well as
// colour (the NO_COLOR and ASCII screens say "committed" and "pending
// (txn)"), with the producer whose transaction holds a pending offset; a
// changed group is marked and is what the pane scrolls to; a frame without
// groups draws the consumers alone, as before.
func TestGroupOffsets(t *testing.T) {
	p := Painter{Theme: theme.New(theme.Options{NoColor: true, ASCII: true}), Width: 40}
	cons := []model.ConsumerView{{Name: "C", Isolation: "read_committed", ReadCommitted: true, Group: "g"}}
	f := &model.Frame{Consumers: cons, Groups: []model.GroupView{
		{ID: "g", Generation: 2, Committed: []model.PartitionOffset{{Partition: "in-0", Offset: 2}},
			Pending: []model.PendingOffset{{Partition: "in-0", Offset: 3, ProducerID: 2000}, {Partition: "in-1", Offset: 7, ProducerID: 2000}, {Partition: "in-2", Offset: 9, ProducerID: 2001}}, Changed: true},
		{ID: "h", Generation: 1},
	}}
	_, c, anchor := Consumers(f, p)
	var got []string
	for i := 0; i < c.Len(); i++ {
		got = append(got, strings.TrimRight(ansi.Strip(c.Line(i)), " "))
	}
	mark := p.Theme.Glyph(theme.Changed)
	want := []string{
		mark + " Group g offsets (generation 2)",
		"    committed      in-0:2",
		"    pending (txn)  in-0:3 pid 2000",
		"                   in-1:7 pid 2000",
		"                   in-2:9 pid 2001",
		"",
		"  Group h offsets (generation 1)",
		"    committed      none",
		"    pending (txn)  none",
		"",
	}
	if len(got) < len(want) || !reflect.DeepEqual(got[:len(want)], want) {
		t.Fatalf("group section:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got[len(want)] != "  C" {
		t.Errorf("the consumers follow the groups; line %d is %q", len(want), got[len(want)])
	}
	if anchor != (content.Range{From: 0, To: 4}) {
		t.Errorf("anchor %v, want the changed group's lines 0-4", anchor)
	}
	if st, ok := c.(content.Sticky); !ok {
		t.Error("the stacked content lost its sticky headings")
	} else if h, ok := st.StickyAt(3); !ok || !strings.Contains(ansi.Strip(h), "Group g offsets") {
		t.Errorf("sticky heading at line 3 = %q %v", h, ok)
	}

	// Nothing changed in the groups: the pane still scrolls to the
	// consumer that changed, below them.
	f.Groups[0].Changed = false
	f.Consumers[0].Changed = true
	f.Consumers[0].Records = []model.ConsumedRecord{{Partition: "in-0", Offset: 0, Value: "a", Changed: true}}
	_, c, a := Consumers(f, p)
	if a.From < len(want) || a.From != a.To || !strings.Contains(ansi.Strip(c.Line(a.From)), "in-0@0 a") {
		t.Errorf("anchor %v, want the changed consumer's new record, below the groups", a)
	}
	if !Changed(f, layout.PanelConsumers) {
		t.Error("a changed consumer marks the Consumers tab")
	}
	f.Consumers[0].Changed = false
	f.Groups[1].Changed = true
	if !Changed(f, layout.PanelConsumers) {
		t.Error("a changed group marks the Consumers tab")
	}

	// No groups: the consumers alone.
	_, alone, _ := Consumers(&model.Frame{Consumers: cons}, p)
	if l := strings.TrimRight(ansi.Strip(alone.Line(0)), " "); l != "  C" {
		t.Errorf("without groups the panel starts with %q", l)
	}
}

// TestCoordinatorLoading: a coordinator that is still loading its
// __transaction_state partition after a failover says so in words, instead
// of an empty state and an empty partition list that would read as "no
// transaction"; once loaded, the state is drawn as usual.
func TestCoordinatorLoading(t *testing.T) {
	p := Painter{Theme: theme.New(theme.Options{NoColor: true, ASCII: true}), Width: 76}
	states := []string{"Empty", "Ongoing", "PrepareCommit", "PrepareAbort", "CompleteCommit", "CompleteAbort", "Dead", "PrepareEpochFence"}
	text := func(c model.CoordinatorView) string {
		lines, _ := p.coordinatorLines(&c)
		return ansi.Strip(strings.Join(lines, "\n"))
	}
	loading := model.CoordinatorView{TxnID: "tx", Partition: "__transaction_state-3", Broker: "broker-2", States: states,
		Current: -1, ProducerID: -1, Loading: true}
	got := text(loading)
	for _, want := range []string{"state (loading __transaction_state-3)", "answers COORDINATOR_LOAD_IN_PROGRESS(14)", "partitions in txn: (loading)"} {
		if !strings.Contains(got, want) {
			t.Errorf("loading coordinator lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "[]") || strings.Contains(got, "partitions in txn: none") {
		t.Errorf("loading coordinator drawn as an empty state:\n%s", got)
	}
	loaded := loading
	loaded.Loading, loaded.Current, loaded.Partitions = false, 2, []string{"t-0"}
	got = text(loaded)
	if !strings.Contains(got, "state [PrepareCommit]") || !strings.Contains(got, "partitions in txn: t-0") || strings.Contains(got, "loading") {
		t.Errorf("loaded coordinator:\n%s", got)
	}
}

// TestCostTableFits: the cost table fits every pane from the side column
// of 160x48 up, in its full or its stacked form, with each client's total
// as a number (the bar only repeats it) and "-" for the markers of a
// client without a transactional.id; its changed row is the anchor.
func TestCostTableFits(t *testing.T) {
	c := &model.CostView{Rows: []model.CostRow{
		{Client: "A", Produce: 1, Total: 1},
		{Client: "a-very-long-client-name", Produce: 2, Init: 1, Total: 3},
		{Client: "T", Transactional: true, Produce: 6, Init: 1, Find: 1, Add: 5, End: 4, Total: 17, MarkerRequests: 6, Markers: 6, Changed: true},
	}}
	f := &model.Frame{Cost: c, Producers: []model.ProducerView{{Name: "A"}, {Name: "a-very-long-client-name"}, {Name: "T"}}}
	for _, ascii := range []bool{false, true} {
		th := theme.New(theme.Options{NoColor: ascii, ASCII: ascii})
		for w := 31; w <= 120; w++ {
			p := Painter{Theme: th, Width: w}
			lines, rows := p.costLines(c)
			for i, l := range lines {
				if cells.Width(l) > w {
					t.Fatalf("ascii %v width %d: line %d is %d cells: %q", ascii, w, i, cells.Width(l), l)
				}
			}
			for i, r := range c.Rows {
				row := ansi.Strip(strings.Join(lines[rows[i].From:rows[i].To+1], " "))
				if !strings.Contains(row, " "+itoa(r.Total)) {
					t.Errorf("width %d: row %d has no total %d: %q", w, i, r.Total, row)
				}
			}
			if full := rows[0].From == rows[0].To; full && !strings.Contains(ansi.Strip(lines[rows[0].From]), "-") {
				t.Errorf("width %d: A's markers are not '-': %q", w, lines[rows[0].From])
			}
			_, _, anchor := Producers(f, p)
			if anchor.From != rows[2].From || anchor.To != rows[2].To {
				t.Errorf("width %d: anchor %+v, T's rows %+v", w, anchor, rows[2])
			}
		}
	}
}

package views

import (
	"reflect"
	"strings"
	"testing"

	"eoslab/views/theme"
)

func TestFlow(t *testing.T) {
	p := painter{th: theme.New(theme.Options{}), w: 24}
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
		if got := p.flow(c.lead, c.items, "  ", 4); !reflect.DeepEqual(got, c.want) {
			t.Errorf("flow(%q, %q) = %q, want %q", c.lead, c.items, got, c.want)
		}
	}
}

// TestEventTone: the events panel draws a violation from the event's
// Violation field, whatever its text says.
func TestEventTone(t *testing.T) {
	p := painter{th: theme.New(theme.Options{ASCII: true}), w: 60}
	f := &Frame{Events: []EventLine{
		{Text: "t=3 invariant: VIOLATION duplicate-record: x", Violation: true},
		{Text: "t=4 p: a Violation in the text only"},
	}}
	_, c, _ := eventsContent(f, p)
	glyph := p.th.Glyph(theme.Violated) + " "
	if got := c.Line(0); !strings.Contains(got, glyph+"t=3") {
		t.Errorf("flagged violation drawn as %q", got)
	}
	if got := c.Line(1); strings.Contains(got, glyph) {
		t.Errorf("an event whose text says violation is drawn as one: %q", got)
	}
}

// Timeline names too wide for their columns go on two staggered rows
// rather than being cut to "broker-", and a label too long for the room
// right of its arrow moves left instead of losing its end.
func TestTimelineHeaderAndLabels(t *testing.T) {
	th := theme.New(theme.Options{})
	actors := []string{"A", "B", "C", "broker-1", "broker-2", "broker-3", "expert"}
	f := &Frame{Step: 1, Actors: actors, Timeline: []Arrow{
		{From: "broker-1", To: "broker-3", Label: "WriteTxnMarkers ABORT pid=1000 epoch=1", Step: 1},
	}}
	head, body, _ := timelineContent(f, painter{th: th, w: 60})
	if len(head) != 2 {
		t.Fatalf("header %q: want two staggered rows", head)
	}
	all := strings.Join(head, "\n")
	for _, a := range actors {
		if !strings.Contains(all, a) {
			t.Errorf("header %q lacks %q", head, a)
		}
	}
	if l := body.Line(0); !strings.Contains(l, "epoch=1") || width(l) > 60 {
		t.Errorf("label line %q: clipped or too wide", l)
	}
	head, _, _ = timelineContent(f, painter{th: th, w: 120})
	if len(head) != 1 {
		t.Errorf("header %q: want one row when the names fit", head)
	}
}

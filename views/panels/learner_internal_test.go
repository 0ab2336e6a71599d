package panels

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/pane"
	"github.com/eoslab/eoslab/views/theme"
)

// The event log speaks to the learner: no echo of the lesson's commands,
// the rule in words after what happened (not after a violation, whose
// rule only says "invariant"), and a line that says when time passed. (The
// session gives the texts without message numbers and the rules without
// their citations.)
func TestLearnerEvents(t *testing.T) {
	f := &model.Frame{Step: 1, NewEvents: 4}
	for _, e := range []model.EventLine{
		{Time: 0, Actor: "scenario", Text: "A send t-0 hello", Action: true},
		{Time: 0, Actor: "A", Text: "sends A -> broker-3 Produce t-0"},
		{Time: 30000, Actor: "A", Text: "gets REQUEST_TIMED_OUT(7)", Why: "retriable"},
		{Time: 30001, Actor: "coordinator(broker-1)", Text: "fences payment-processor-1",
			Why: "a new instance fences the open transaction; verification first"},
		{Time: 30001, Actor: "t-0", Text: "VIOLATION duplicate-record: a twice", Why: "invariant", Violation: true},
	} {
		e.Parts = true
		f.Events = append(f.Events, e)
	}
	_, body, anchor := Events(f, Painter{Theme: theme.New(theme.Options{}), Width: 200})
	var lines []string
	for i := 0; i < body.Len(); i++ {
		lines = append(lines, strings.TrimSpace(ansi.Strip(body.Line(i))))
	}
	got := strings.Join(lines, "\n")
	for _, bad := range []string{"scenario", "(invariant)"} {
		if strings.Contains(got, bad) {
			t.Errorf("the log shows %q:\n%s", bad, got)
		}
	}
	for _, want := range []string{
		"A sends A -> broker-3 Produce t-0",
		"… 30.0 s later",
		"A gets REQUEST_TIMED_OUT(7) (retriable)",
		"coordinator(broker-1) fences payment-processor-1 (a new instance fences the open transaction; verification first)",
		"t-0 VIOLATION duplicate-record: a twice",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the log lacks %q:\n%s", want, got)
		}
	}
	if anchor.From < 0 || anchor.To != len(lines)-1 {
		t.Errorf("anchor %+v: the new events are not revealed", anchor)
	}
}

// A partition's title stays on the first row while its log scrolls, and
// the scroll position still reaches the last line.
func TestHeadingsStayInView(t *testing.T) {
	th := theme.New(theme.Options{})
	p := pane.New(th)
	p.SetSize(80, 10)
	_, body, _ := Partitions(bigPartitions(), Painter{Theme: th, Width: 77})
	p.SetContent(nil, body, content.NoRange)
	first := func() string { return ansi.Strip(p.Lines()[1]) }
	if !strings.Contains(first(), "t-0 @ broker-1") {
		t.Fatalf("top: %q", first())
	}
	for range 30 {
		p.SetOffset(p.Offset() + 1)
	}
	if !strings.Contains(first(), "t-0 @ broker-1") || strings.Contains(ansi.Strip(p.Lines()[2]), "t-0 @") {
		t.Errorf("scrolled 30 lines into t-0: first rows %q, %q", first(), ansi.Strip(p.Lines()[2]))
	}
	p.SetOffset(1 << 20)
	lines := p.Lines()
	if !strings.Contains(ansi.Strip(lines[1]), "t-1 @ broker-1") || !strings.Contains(ansi.Strip(lines[len(lines)-2]), "producer state cache") {
		t.Errorf("at the bottom: heading %q, last row %q", ansi.Strip(lines[1]), ansi.Strip(lines[len(lines)-2]))
	}
}

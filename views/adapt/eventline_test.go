package adapt

import (
	"testing"

	"github.com/eoslab/eoslab/engine"
)

// TestEventLineParts: the frame holds each event once, in parts, and the
// lines the views make from them are the engine's: Line is
// engine.Event.Line byte for byte, and Learner is the engine's text
// without the message number, a send told from its typed fields, for
// every event of every lesson under each Kafka version.
func TestEventLineParts(t *testing.T) {
	eachLesson(t, func(t *testing.T, name string, k int) {
		s := openKafka(t, name, k)
		playTo(t, s, s.Len()-1)
		w := s.p.World()
		sends := 0
		for i := range w.EventCount() {
			e := w.EventAt(i)
			v := eventView(w, i)
			if got, want := v.Line(), e.Line(); got != want {
				t.Fatalf("event %d: Line %q, engine %q", i, got, want)
			}
			want := e.Unnumbered()
			if m := e.Message; e.Kind == engine.EvSend && m != nil && m.From == e.Actor {
				want = "sends " + m.Kind.String() + " to " + m.To + ": " + m.Detail()
				sends++
			}
			if got := v.Learner(); got != want {
				t.Fatalf("event %d: Learner %q, want %q", i, got, want)
			}
			if v.Why != e.RuleWords() || v.Time != e.Time || v.Actor != e.Actor ||
				v.Action != (e.Kind == engine.EvAction) || v.Violation != (e.Kind == engine.EvViolation) || !v.Parts {
				t.Fatalf("event %d: parts %+v for %q", i, v, e.Line())
			}
		}
		if sends == 0 {
			t.Fatalf("no send among %d events", w.EventCount())
		}
	})
}

// BenchmarkEventViews measures making a frame's events afresh (a jump
// behind the trail's window, to the start of a long lesson): maxEvents
// events of a world of over 100,000, each made once, in parts.
func BenchmarkEventViews(b *testing.B) {
	s := New(jumpLesson(b, 2600))
	playTo(b, s, 1)
	w := s.p.World()
	n := w.EventCount()
	if n < 100000 {
		b.Fatalf("%d events", n)
	}
	b.ReportAllocs()
	for b.Loop() {
		for i := n - maxEvents; i < n; i++ {
			_ = eventView(w, i)
		}
	}
}

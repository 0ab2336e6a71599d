package engine

import (
	"fmt"
	"testing"
)

// TestReorderSwapsOnlyTheTwoMessages: reorder exchanges the delivery slots
// of exactly two messages and leaves every other queued item alone (an
// earlier version rebuilt the heap and could hand a message slot to a timer).
func TestReorderSwapsOnlyTheTwoMessages(t *testing.T) {
	w := New(DefaultConfig())
	w.Apply(CreateTopic{Name: "t", Partitions: 4})
	w.Apply(producerWith("I", nil))
	for k := 0; k < 8; k++ {
		w.Apply(Send{Client: "I", TP: tp("t", k%4), Values: []string{fmt.Sprintf("v%d", k)}})
	}
	w.Apply(Run{})
	for k := 0; k < 12; k++ {
		w.Apply(Send{Client: "I", TP: tp("t", k%4), Values: []string{fmt.Sprintf("w%d", k)}})
	}
	// Delay some messages past the request timeouts, so message slots and
	// timer slots interleave in the heap.
	for k, m := range w.InFlight() {
		if k%3 == 0 {
			w.Apply(Delay{Msg: Selector{ID: m.ID}, Ms: 45000})
		}
	}
	base := w
	msgs := base.InFlight()
	if len(msgs) < 8 {
		t.Fatalf("want a busy network, have %d messages", len(msgs))
	}
	for x := range msgs {
		for y := range msgs {
			if x == y {
				continue
			}
			w := base.Clone()
			a, b := msgs[x], msgs[y]
			before := w.InFlight()
			if _, err := w.Apply(Reorder{First: Selector{ID: a.ID}, Second: Selector{ID: b.ID}}); err != nil {
				t.Fatal(err)
			}
			for i := range w.queue.len() {
				if w.queue.at(i).Kind == itemDeliver && w.queue.at(i).Msg == nil {
					t.Fatalf("reorder %s %s: a delivery slot lost its message", a.Name(), b.Name())
				}
			}
			after := w.InFlight()
			if len(after) != len(before) {
				t.Fatalf("reorder %s %s changed the number of messages in flight: %d -> %d", a.Name(), b.Name(), len(before), len(after))
			}
			for i := range before {
				want := before[i]
				switch want.ID {
				case a.ID:
					want = b
				case b.ID:
					want = a
				}
				if after[i] != want {
					t.Fatalf("reorder %s %s: slot %d holds %s, want %s", a.Name(), b.Name(), i, after[i].Name(), want.Name())
				}
			}
		}
	}
}

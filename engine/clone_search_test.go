package engine

import "testing"

// A search's copy is quiet: it counts the events a clone records, and
// stores none of them nor their words, its state and monitors the same.
func TestCloneForSearchQuiet(t *testing.T) {
	w := New(DefaultConfig())
	applyAll(t, w, CreateTopic{Name: "t", Partitions: 1, RF: 1}, DeclareProducer{Name: "P", Config: DefaultProducerConfig()},
		Send{Client: "P", TP: TP{Topic: "t"}, Values: []string{"a", "b"}})
	want := w.Clone()
	applyAll(t, want, Run{})
	var s SearchScratch
	c := w.CloneForSearch(&s)
	if err := c.ApplyForSearch(Run{}); err != nil {
		t.Fatal(err)
	}
	if c.StateHash() != want.StateHash() {
		t.Fatal("a quiet copy ends otherwise than a clone")
	}
	// The copy's history starts with one zero event.
	if got, n := c.EventCount()-1, want.EventCount()-w.EventCount(); got != n || n == 0 {
		t.Fatalf("the copy counted %d events, the clone recorded %d", got, n)
	}
	if c.events.evs.n != 1 || c.events.notes.n != 1 || c.events.msgs.n != 1 {
		t.Fatalf("the quiet copy stored events (%d), notes (%d) or messages (%d)", c.events.evs.n, c.events.notes.n, c.events.msgs.n)
	}
}

package engine

import "testing"

// StateHash tells worlds apart by what they will do, not by their history
// or their message numbers.
func TestStateHash(t *testing.T) {
	w := New(DefaultConfig())
	applyAll(t, w, CreateTopic{Name: "t", Partitions: 2, RF: 1}, DeclareProducer{Name: "P", Config: DefaultProducerConfig()},
		Send{Client: "P", TP: TP{Topic: "t"}, Values: []string{"a"}})
	h := w.StateHash()
	if c := w.Clone(); c.StateHash() != h {
		t.Fatal("a clone hashes otherwise")
	}
	if NewStateHasher().Hash(w) != h {
		t.Fatal("a StateHasher hashes otherwise than StateHash")
	}
	// A copy made and lost again leaves the same state, one message
	// number further on and with a longer history.
	renumbered := w.Clone()
	m := w.InFlight()[0]
	applyAll(t, renumbered, Duplicate{Msg: Selector{ID: m.ID}})
	copyID := renumbered.InFlight()[1].ID
	applyAll(t, renumbered, Drop{Msg: Selector{ID: copyID}})
	if renumbered.StateHash() != h {
		t.Fatal("a world that only numbered a lost copy hashes otherwise")
	}
	for _, a := range []Action{Drop{Msg: Selector{ID: m.ID}}, Deliver{Msg: Selector{ID: m.ID}},
		Send{Client: "P", TP: TP{Topic: "t", Partition: 1}, Values: []string{"b"}}, Advance{Ms: 1}} {
		c := w.Clone()
		applyAll(t, c, a)
		if c.StateHash() == h {
			t.Errorf("%s changes nothing the hash sees", a)
		}
	}
}

// A world made by CloneForSearch steps as a clone does, and its history
// is cleared for the next one.
func TestCloneForSearch(t *testing.T) {
	w := New(DefaultConfig())
	applyAll(t, w, CreateTopic{Name: "t", Partitions: 1, RF: 1}, DeclareProducer{Name: "P", Config: DefaultProducerConfig()},
		Send{Client: "P", TP: TP{Topic: "t"}, Values: []string{"a"}})
	var s SearchScratch
	want := w.Clone()
	applyAll(t, want, Run{})
	for i := 0; i < 3; i++ {
		c := w.CloneForSearch(&s)
		applyAll(t, c, Run{})
		if c.StateHash() != want.StateHash() {
			t.Fatalf("run %d: a search copy ends otherwise than a clone", i)
		}
		if c.ViolationCount(InvDuplicateRecord) != 0 {
			t.Fatal("violations")
		}
	}
	if n := w.EventCount(); n != len(w.EventsSince(0)) {
		t.Fatal("the original's history changed")
	}
}

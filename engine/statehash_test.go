package engine

import (
	"reflect"
	"testing"
	"unsafe"
)

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

// A struct is hashed by the words of its numbers and bools, masked
// (hashPlan.words): every byte of such a field counts, and no padding
// byte does (memory a value was copied over may hold anything there).
// Checked for every struct type of the world's state.
func TestStateHashMasksThePadding(t *testing.T) {
	sh := NewStateHasher()
	checked := 0
	for typ, p := range sh.plans {
		if p.op != opStruct || p.size == 0 {
			continue
		}
		inLeaf := make([]bool, p.size)
		for _, f := range p.fields {
			if f.plan.pure {
				for b := f.off; b < f.off+f.plan.size; b++ {
					inLeaf[b] = true
				}
			}
		}
		// A leaf that is not pure (a string, a slice, a pointer) holds a
		// zero there: its bytes stay zero here.
		refByte := make([]bool, p.size)
		for _, f := range p.refs {
			for b := f.off; b < f.off+f.plan.size; b++ {
				refByte[b] = true
			}
		}
		hash := func(v reflect.Value) uint64 {
			s := stateHasher{h: 7, sh: sh}
			s.at(p, v.Addr().UnsafePointer())
			return s.sum()
		}
		zero := reflect.New(typ).Elem()
		want := hash(zero)
		for b := uintptr(0); b < p.size; b++ {
			if refByte[b] {
				continue
			}
			v := reflect.New(typ).Elem()
			// A bool is 0 or 1: its byte is set to 1, any other to 0xA5.
			bs := unsafe.Slice((*byte)(v.Addr().UnsafePointer()), p.size)
			bs[b] = 0xA5
			if inLeaf[b] && isBoolByte(typ, b) {
				bs[b] = 1
			}
			got := hash(v)
			switch {
			case inLeaf[b] && got == want:
				t.Errorf("%v: byte %d of a field is not hashed", typ, b)
			case !inLeaf[b] && got != want:
				t.Errorf("%v: byte %d, padding, changes the hash", typ, b)
			}
		}
		checked++
	}
	if checked < 20 {
		t.Fatalf("only %d struct types checked", checked)
	}
}

// isBoolByte reports whether byte b of a struct of type typ is a bool's.
func isBoolByte(typ reflect.Type, b uintptr) bool {
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		if b < f.Offset || b >= f.Offset+f.Type.Size() {
			continue
		}
		switch f.Type.Kind() {
		case reflect.Bool:
			return true
		case reflect.Struct:
			return isBoolByte(f.Type, b-f.Offset)
		case reflect.Array:
			e := f.Type.Elem()
			return isBoolByte(reflect.StructOf([]reflect.StructField{{Name: "E", Type: e}}), (b-f.Offset)%e.Size())
		}
		return false
	}
	return false
}

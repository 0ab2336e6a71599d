package search

import "testing"

// The table keeps what a map of the same keeps: every hash put, with its
// last depth, through its growth, the hash 0 included.
func TestTableIsASetOfHashes(t *testing.T) {
	tab := newTable()
	want := map[uint64]uint8{}
	tab.put(0, 5) // kept as 1 (so no 1 is put below)
	want[0] = 5
	h := uint64(2)
	for i := 0; i < 5000; i++ {
		k := h
		if i%7 == 3 {
			k = h << 40 // hashes alike in their top bits: the same slot
		}
		tab.put(k, uint8(i%40))
		want[k] = uint8(i % 40)
		h = h*0x9E3779B97F4A7C15 + 1
	}
	tab.put(0, 9) // a hash put again at another depth
	want[0] = 9
	if tab.len() != len(want) {
		t.Fatalf("%d hashes in the table, %d put", tab.len(), len(want))
	}
	for k, d := range want {
		if got, ok := tab.get(k); !ok || got != d {
			t.Fatalf("hash %#x: depth %d, %v; want %d", k, got, ok, d)
		}
	}
	if _, ok := tab.get(0xdeadbeef); ok {
		t.Fatal("a hash never put is in the table")
	}
	tab.reset()
	if _, ok := tab.get(0); ok || tab.len() != 0 {
		t.Fatal("a reset table holds a hash")
	}
}

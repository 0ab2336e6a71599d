package engine

import (
	"reflect"
	"strings"
	"testing"
)

func TestRecords(t *testing.T) {
	vals := []string{"a", "", "hello world", "ü", ""}
	r := NewRecords(vals...)
	if r.Len() != len(vals) || !reflect.DeepEqual(r.Values(), vals) {
		t.Fatalf("values %q, want %q", r.Values(), vals)
	}
	if r.UID(3) != 0 || r.FirstUID() != 0 || r.Source(0) != nil || r.HasSources() {
		t.Fatal("plain records have no UIDs and no sources")
	}
	n := r.numbered(41)
	if n.UID(0) != 41 || n.UID(4) != 45 || n.FirstUID() != 41 || r.UID(0) != 0 {
		t.Fatalf("numbered from 41: %d..%d, and the original must stay unnumbered", n.UID(0), n.UID(4))
	}
	srcs := make([]Source, len(vals))
	for i := range srcs {
		srcs[i] = Source{TP: TP{Topic: "in"}, Offset: int64(10 + i)}
	}
	s := n.withSources(srcs)
	if got := s.At(2); got.Value != "hello world" || got.UID != 43 || got.Source == nil || got.Source.Offset != 12 {
		t.Fatalf("At(2) = %+v", got)
	}
	var none Records
	if none.Len() != 0 || none.FirstUID() != 0 || none.HasSources() || len(none.Values()) != 0 {
		t.Fatal("the zero Records holds nothing")
	}
}

// TestRecordsManyAndLong: the count past one byte of uvarint (128 and
// more records) and ends past 16 bits (more than 64 KB of values) come
// back as they went in.
func TestRecordsManyAndLong(t *testing.T) {
	for _, c := range []struct{ n, size int }{{127, 3}, {128, 3}, {300, 1}, {3, 40000}, {200, 400}, {10, 25}, {5, 3}, {9, 25}} {
		vals := make([]string, c.n)
		for i := range vals {
			vals[i] = strings.Repeat(string(rune('a'+i%26)), c.size+i%3)
		}
		r := NewRecords(vals...)
		if r.Len() != c.n || !reflect.DeepEqual(r.Values(), vals) {
			t.Fatalf("%d values of %d bytes: got %d back, or other values", c.n, c.size, r.Len())
		}
		if i := c.n - 1; r.Value(i) != vals[i] {
			t.Fatalf("%d values of %d bytes: value %d is %q", c.n, c.size, i, r.Value(i))
		}
	}
}

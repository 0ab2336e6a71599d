package engine

import (
	"reflect"
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

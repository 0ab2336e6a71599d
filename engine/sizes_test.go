package engine

import (
	"testing"
	"unsafe"
)

// TestEventSizes pins the size of an event and of the forms the log keeps
// it in: every event pays for each byte, most of a long run's heap is the
// history, and a field added without thought grows all of it.
func TestEventSizes(t *testing.T) {
	for _, c := range []struct {
		what      string
		got, want uintptr
	}{
		{"Event", unsafe.Sizeof(Event{}), 144},
		{"storedEvent", unsafe.Sizeof(storedEvent{}), 16},
	} {
		if c.got > c.want {
			t.Errorf("%s is %d bytes, more than %d", c.what, c.got, c.want)
		}
	}
}

package engine

import "testing"

func TestEventFieldReaders(t *testing.T) {
	acc := Event{say: sayAccepts, x: 3, y: 2, arg: 7}
	if s, n, o, ok := acc.Accepted(); !ok || s != 3 || n != 2 || o != 7 {
		t.Errorf("Accepted = %d %d %d %v", s, n, o, ok)
	}
	mk := Event{say: sayMarker, x: int32(MarkerAbort), y: 4, arg: 9}
	if m, ce, o, ok := mk.MarkerAppended(); !ok || m != MarkerAbort || ce != 4 || o != 9 {
		t.Errorf("MarkerAppended = %v %d %d %v", m, ce, o, ok)
	}
	du := Event{say: sayDurable, x: 1, arg: 5, epoch: 2}
	if p, o, ep, ok := du.Durable(); !ok || p != 1 || o != 5 || ep != 2 {
		t.Errorf("Durable = %d %d %d %v", p, o, ep, ok)
	}
	for _, e := range []Event{acc, du} {
		if _, _, _, ok := e.MarkerAppended(); ok {
			t.Errorf("MarkerAppended ok on say %d", e.say)
		}
	}
	if _, _, _, ok := mk.Accepted(); ok {
		t.Error("Accepted ok on a marker")
	}
	if _, _, _, ok := acc.Durable(); ok {
		t.Error("Durable ok on an accept")
	}
}

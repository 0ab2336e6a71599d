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

// TestConsumed: a consume event's kind, records and position are read
// from its typed arguments; other events and a quiet world's have none.
func TestConsumed(t *testing.T) {
	tp := TP{Topic: "t", Partition: 0}
	recs := []ConsumedRecord{{TP: tp, Offset: 3, Value: "a"}}
	fetched := Event{Kind: EvConsume, TP: tp, note: newNote(saysFetchReceives, []arg{isolation(true), tp, consumedRecords(recs), skippedBatches(nil), num(4)})}
	if k, rs, pos, ok := fetched.Consumed(); !ok || k != ConsumeFetched || len(rs) != 1 || rs[0].Value != "a" || pos != 4 {
		t.Errorf("fetched: %v %v %d %v", k, rs, pos, ok)
	}
	reset := Event{Kind: EvConsume, TP: tp, note: newNote(saysResetsToOffset, []arg{tp, num(2), sub(saysResetHW)})}
	if k, rs, pos, ok := reset.Consumed(); !ok || k != ConsumeReset || rs != nil || pos != 2 {
		t.Errorf("reset: %v %v %d %v", k, rs, pos, ok)
	}
	nothing := Event{Kind: EvConsume, say: sayNothingNew, arg: 5}
	if k, _, pos, ok := nothing.Consumed(); !ok || k != ConsumeNothingNew || pos != 5 {
		t.Errorf("nothing new: %v %d %v", k, pos, ok)
	}
	undecided := Event{Kind: EvConsume, TP: tp, note: newNote(saysReturnedOffsetsOfToThe, []arg{isolation(false), tp, batchOffsetsArg{2, 2}, sub(saysAbortedTxn)})}
	if k, rs, pos, ok := undecided.Consumed(); !ok || k != ConsumeUndecided || len(rs) != 2 || rs[1].Offset != 3 || pos != 2 {
		t.Errorf("undecided: %v %v %d %v", k, rs, pos, ok)
	}
	for _, e := range []Event{{Kind: EvConsume}, {Kind: EvInfo, note: reset.note}} {
		if _, _, _, ok := e.Consumed(); ok {
			t.Errorf("Consumed ok on %+v", e)
		}
	}
}

package engine

import (
	"reflect"
	"strconv"
	"testing"
)

// A clone shares the log's chunks; the live log and the clone then append
// on their own, across chunk boundaries, and neither sees the other's
// events, while both keep the shared ones.
func TestEventLogCloneAppends(t *testing.T) {
	var live eventLog
	add := func(l *eventLog, actor string, n int) {
		for i := 0; i < n; i++ {
			l.next().Actor = actor
		}
	}
	check := func(l *eventLog, want []string) {
		t.Helper()
		if l.len() != len(want) {
			t.Fatalf("len %d, want %d", l.len(), len(want))
		}
		for i, a := range want {
			if got := l.at(i).Actor; got != a {
				t.Fatalf("event %d by %q, want %q", i, got, a)
			}
		}
	}
	repeat := func(s string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = s
		}
		return out
	}
	add(&live, "shared", eventChunk+10)
	snap := live.clone()
	add(&live, "live", eventChunk)
	add(&snap, "snap", 20)
	check(&live, append(repeat("shared", eventChunk+10), repeat("live", eventChunk)...))
	check(&snap, append(repeat("shared", eventChunk+10), repeat("snap", 20)...))
	if live.slot(0) != snap.slot(0) {
		t.Error("the full chunk should stay shared")
	}
	again := snap.clone()
	add(&again, "again", 3)
	add(&snap, "snap", 3)
	check(&again, append(append(repeat("shared", eventChunk+10), repeat("snap", 20)...), repeat("again", 3)...))
	check(&snap, append(repeat("shared", eventChunk+10), repeat("snap", 23)...))
}

// The log keeps every field of an event: one set to a value in each
// field comes back the same from the log, from a clone and from a log
// that shared its chunks. An Event field the log does not know fails the
// test, so a new field is stored (flush, load) before it is used.
func TestEventLogKeepsEveryField(t *testing.T) {
	known := map[string]bool{"Time": true, "Seq": true, "Step": true, "Actor": true, "note": true, "Rule": true, "TxnID": true,
		"TP": true, "Message": true, "Kind": true, "Fault": true, "Code": true, "Change": true, "say": true, "epoch": true,
		"hasPID": true, "x": true, "pid": true, "arg": true, "y": true, "z": true}
	ty := reflect.TypeOf(Event{})
	for i := 0; i < ty.NumField(); i++ {
		if f := ty.Field(i); !known[f.Name] {
			t.Errorf("Event.%s is not kept by the event log: store it in storedEvent or wideEvent (flush, load) and add it here", f.Name)
		}
	}
	if len(known) != ty.NumField() {
		t.Errorf("the test knows %d fields, Event has %d", len(known), ty.NumField())
	}
	full := Event{Time: 7, Seq: 1, Step: 3, Actor: "broker-1", note: newNote(saysInvariant, nil), Rule: typedRule(RuleReadBound, ruleSayStopLSO, 5).withDetail(newNote(saysInvariant, nil)),
		TxnID: "tx", TP: TP{Topic: "t", Partition: 2}, Message: &Message{ID: 9}, Kind: EvSeqCheck, Fault: FaultDelayed,
		Code: OutOfOrderSequenceNumber, Change: TxnTransition(Ongoing, PrepareCommit), say: sayAccepts, epoch: 4, hasPID: true,
		x: 11, pid: 1000, arg: 12, y: 13, z: 14}
	var l eventLog
	l.push(Event{Actor: "scenario", Kind: EvAction})
	l.push(full)
	l.push(Event{Actor: "I", Kind: EvSend, Message: full.Message, say: saySends})
	snap := l.clone()
	var shared eventLog
	shared.push(Event{Actor: "scenario", Kind: EvAction})
	shared.push(full)
	shared.shareWith(&l)
	for name, log := range map[string]*eventLog{"log": &l, "clone": &snap, "shared": &shared} {
		if got := log.at(1); !sameEvent(got, full) {
			t.Errorf("%s: event came back as %+v, want %+v", name, got, full)
		}
		if got := log.at(2); got.Actor != "I" || got.Message != full.Message || got.Rule != (Rule{}) || got.HasTP() {
			t.Errorf("%s: the send came back as %+v", name, got)
		}
	}
}

// TestNameTabHashClash: two names with one hash get ids of their own, and
// a snapshot's table (frozen) copies both maps before it writes.
func TestNameTabHashClash(t *testing.T) {
	var tab nameTab
	a := tab.id("a")
	tab.ids.at[nameHash("b")] = int32(a - 1) // as if "b" hashed as "a" does
	b := tab.id("b")
	tab.recent = [nameCache]nameID{}
	if b == a || tab.at(b) != "b" || tab.id("b") != b || tab.id("a") != a {
		t.Fatalf("a=%d b=%d (b again %d, a again %d)", a, b, tab.id("b"), tab.id("a"))
	}
	tab.freeze()
	snap := tab
	c := tab.id("c")
	tab.recent = [nameCache]nameID{}
	if _, ok := snap.ids.at[nameHash("c")]; ok || snap.list.n != 2 || tab.id("c") != c || tab.id("b") != b {
		t.Fatal("a new name after freeze wrote the shared maps")
	}
}

// TestEventLogLateTimesAndWords: times past 32 bits come back (from the
// log and a clone that appends its own), and an event's words come back
// with or without a message and a wide part.
func TestEventLogLateTimesAndWords(t *testing.T) {
	words := newNote(saysInvariant, nil)
	times := []int64{0, 5, 1<<32 - 2, 1 << 32, 1<<32 - 1, 7, 1 << 40, 3}
	var l eventLog
	for i, tm := range times {
		e := l.next()
		e.Time, e.Actor, e.Kind = tm, "b", EvSend
		switch i % 3 {
		case 0:
			e.note = words
		case 1:
			e.note, e.Message = words, &Message{ID: int64(i)}
		}
	}
	snap := l.clone()
	snap.push(Event{Time: 1 << 33, Actor: "c", note: words})
	l.push(Event{Time: 9, Actor: "d"})
	for i, tm := range times {
		for name, log := range map[string]*eventLog{"log": &l, "clone": &snap} {
			e := log.at(i)
			if e.Time != tm || (e.note != words) != (i%3 == 2) || (e.Message != nil) != (i%3 == 1) {
				t.Errorf("%s: event %d came back as time %d, words %v, message %v", name, i, e.Time, e.note, e.Message)
			}
		}
	}
	l.flush()
	snap.flush()
	if e := snap.at(len(times)); e.Time != 1<<33 || e.note != words || e.Actor != "c" {
		t.Errorf("the clone's own event came back as %+v", e)
	}
	if e := l.at(len(times)); e.Time != 9 || e.Actor != "d" {
		t.Errorf("the log's own event came back as %+v", e)
	}
}

// TestEventLogOneRef: an event with only a message, only words, a message
// and a fault, or an actor whose name id passes 16 bits comes back as it
// went in (a stored event has one reference, and the wide part holds
// the rest).
func TestEventLogOneRef(t *testing.T) {
	m := &Message{ID: 3}
	words := newNote(saysInvariant, nil)
	var l eventLog
	for i := 0; i < 70000; i++ {
		l.names.id("a" + strconv.Itoa(i))
	}
	want := []Event{
		{Actor: "I", Kind: EvSend, Message: m, say: saySends},
		{Actor: "broker-1", Kind: EvInfo, note: words},
		{Actor: "network", Kind: EvFault, Fault: FaultDropped, Message: m, say: sayDrops},
		{Actor: "a69999", Kind: EvInfo, note: words, Time: 5},
		{Actor: "late-name", Kind: EvDeliver, Message: m, note: words},
	}
	for i, e := range want {
		e.Seq = int32(i)
		want[i] = e
		l.push(e)
	}
	l.flush()
	for i, e := range want {
		if got := l.at(i); !sameEvent(got, e) {
			t.Errorf("event %d came back as %+v, want %+v", i, got, e)
		}
	}
}

// TestEventLogKeepsActions: a send's action event is kept as its names
// and its records (not the action the caller made) and reads back as the
// same words; another action is kept as it is.
func TestEventLogKeepsActions(t *testing.T) {
	w := New(DefaultConfig())
	vals := []string{"a", "b c"}
	applyAll(t, w, CreateTopic{Name: "t", Partitions: 1}, producerWith("I", ackAll, ProducerAcks), send("I", tp("t", 0), vals...), Run{})
	vals[0] = "changed by the caller"
	var texts []string
	for i := 0; i < w.events.len(); i++ {
		if e := w.events.at(i); e.Kind == EvAction {
			texts = append(texts, e.Text())
		}
	}
	want := []string{"create-topic t partitions=1", "producer I acks=all", `I send t-0 a "b c"`, "run"}
	if len(texts) != len(want) || texts[2] != want[2] || w.events.sends.n != 1 || w.events.acts.n != 3 {
		t.Fatalf("actions read back as %q (want the send as %q); %d kept as sends, %d as actions", texts, want[2], w.events.sends.n, w.events.acts.n)
	}
}

package verify

import (
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// TestInjectUnderHold: an inject while the broker run holds every message
// the simulation has in flight is played (it was refused whole before);
// the file stops where the simulation delivers a held message, or a
// client's new request, to a broker before the inject's answer, and goes
// on where the answer comes first or only a held answer reaches a client.
func TestInjectUnderHold(t *testing.T) {
	src := "topic t partitions=2\nproducer a transactional.id=tx\na initTransactions\nrun\na beginTransaction\na send t-0 v0\nrun\n" +
		"a commitTransaction\nadvance 2\ndelay WriteTxnMarkers 500\ninject batch t-1 pid=1000 epoch=0 seq=0 transactional\n"
	w, d := world(t, src)
	inject := script.Command{Line: 11}
	if d.injectHeld(inject, w) {
		t.Fatal("an inject with nothing held: played")
	}
	d.holding = true
	if !d.injectHeld(inject, w) || d.inject == nil {
		t.Fatal("an inject while every message in flight is held: not played")
	}
	var marker *engine.Message
	for _, m := range w.InFlight() {
		if m.Kind.String() == "WriteTxnMarkers" {
			marker = m
		}
	}
	if marker == nil || !d.inject.held[marker.ID] {
		t.Fatalf("the markers in flight at the inject are not among the held: %v", d.inject.held)
	}
	deliver := func(m *engine.Message) engine.Event { return engine.Event{Kind: engine.EvDeliver, Message: m} }
	answer := &engine.Message{ID: 900, Kind: engine.MsgProduceResponse, From: "broker-1", To: "expert"}
	toClient := &engine.Message{ID: 901, Kind: engine.MsgEndTxnResponse, From: "broker-1", To: "a"}
	clientReq := &engine.Message{ID: 902, Kind: engine.MsgAddPartitionsToTxn, From: "a", To: "broker-1"}
	saved := *d.inject
	next := script.Command{Line: 12}
	d.lineEvents = []engine.Event{deliver(toClient), deliver(answer), deliver(marker)}
	d.injectOrder(next)
	if d.stopped != "" || d.inject != nil {
		t.Errorf("a held answer to a client, then the inject's answer, then the markers: stopped %q, inject %v", d.stopped, d.inject)
	}
	for _, first := range []*engine.Message{marker, clientReq} {
		d.inject, d.stopped = &saved, ""
		d.lineEvents = []engine.Event{deliver(first), deliver(answer)}
		d.injectOrder(next)
		if !strings.Contains(d.stopped, "before the answer to line 11's inject") {
			t.Errorf("%s from %s delivered before the inject's answer: stopped %q", first.Kind, first.From, d.stopped)
		}
	}
}

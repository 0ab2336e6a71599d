package live

import (
	"context"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eoslab/eoslab/engine/realkafka"
	"github.com/eoslab/eoslab/engine/realkafka/conn"

	"github.com/eoslab/eoslab/engine/realkafka/verify"
)

// TestReveal: a checkpoint's verdict from the facts of the step that
// reveals it.
func TestReveal(t *testing.T) {
	agree := verify.Row{Verdict: verify.Agree}
	differ := verify.Row{Verdict: verify.Differ, Expect: "expect producer A error PRODUCER_FENCED", Sim: "as the line says", Kafka: "error INVALID_PRODUCER_EPOCH"}
	known := differ
	known.Known = true
	simOnly := verify.Row{Verdict: verify.SimOnly, Why: "client state"}
	notPlayed := verify.Row{Verdict: verify.NotPlayed, Why: "messages in flight"}
	for _, c := range []struct {
		rows  []verify.Row
		kind  VerdictKind
		words string
	}{
		{[]verify.Row{agree, agree}, Agreed, "Kafka agreed"},
		{[]verify.Row{agree, simOnly}, Agreed, "Kafka agreed on 1 facts, 1 not compared"},
		{[]verify.Row{agree, differ}, Otherwise, "Kafka did otherwise on 1 of 2 facts: expect producer A error PRODUCER_FENCED: simulation as the line says; Kafka error INVALID_PRODUCER_EPOCH"},
		{[]verify.Row{known}, Otherwise, "Kafka did otherwise on 1 of 1 facts: expect producer A error PRODUCER_FENCED: simulation as the line says; Kafka error INVALID_PRODUCER_EPOCH (a known difference, listed with its reason in the known-differences file)"},
		{[]verify.Row{notPlayed, simOnly}, SimulationOnly, "simulation only: client state"},
		{[]verify.Row{notPlayed}, NoFacts, "not compared on Kafka: messages in flight"},
		{nil, NoFacts, "the step has no fact to compare"},
	} {
		v := reveal(3, c.rows)
		if v.Asked != 3 || v.Kind != c.kind || v.Words != c.words {
			t.Errorf("reveal(%v) = %+v, want kind %d %q", c.rows, v, c.kind, c.words)
		}
	}
}

// TestOpenRefused: bad input is a usage error before any cluster is
// asked.
func TestOpenRefused(t *testing.T) {
	for _, c := range []struct {
		o    Options
		name string
	}{
		{Options{}, "zombie"},
		{Options{Kafka: 4, TV: 0}, "zombie"},
	} {
		if _, err := Open(context.Background(), c.o, c.name); err == nil {
			t.Errorf("Open(%+v, %s) = nil error", c.o, c.name)
		} else if _, ok := err.(*UsageError); !ok {
			t.Errorf("Open(%+v, %s): %T %v, want a usage error", c.o, c.name, err, err)
		}
	}
}

// TestFates: a transactional batch takes the fate of the first marker
// after it from its producer; another producer's marker is not its.
func TestFates(t *testing.T) {
	l := realkafka.Log{Batches: []realkafka.Batch{
		{BaseOffset: 0, ProducerID: 1, Transactional: true},
		{BaseOffset: 1, ProducerID: 2, Transactional: true},
		{BaseOffset: 2, ProducerID: 2, Transactional: true, Control: true, Marker: "COMMIT"},
		{BaseOffset: 3, ProducerID: 1, Transactional: true, Control: true, Marker: "ABORT"},
		{BaseOffset: 4, ProducerID: 1, Transactional: true},
		{BaseOffset: 5, ProducerID: -1},
	}}
	var got []Fate
	for _, b := range fates(l) {
		got = append(got, b.Fate)
	}
	want := []Fate{FateAborted, FateCommitted, FateCommitted, FateAborted, FateOpen, FatePlain}
	if !slices.Equal(got, want) {
		t.Errorf("fates %v, want %v", got, want)
	}
}

// TestCloseNamesWhatIsLeft: a session whose driver ended (its deletes
// failed: the cluster is gone) closes with an error naming every topic
// and group the run made, and its transactional ids, rather than nil;
// a second Close says the same.
func TestCloseNamesWhatIsLeft(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing answers there now
	c, err := conn.Flags{Brokers: addr}.Build(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	// The check gives up at its bound whatever the machine's speed; a
	// short one keeps the test short.
	defer func(w time.Duration) { sweepWait = w }(sweepWait)
	sweepWait = 500 * time.Millisecond
	done := make(chan struct{})
	close(done) // the driver ended; its clean-up failed silently
	s := &Session{boot: c.Describe(), conn: c, done: done, pauses: make(chan pauseAt), resume: make(chan bool),
		prefix: "eoslab-verify-x-", made: made{topics: []string{"eoslab-verify-x-in", "eoslab-verify-x-out"},
			groups: []string{"eoslab-verify-x-g"}, txnIDs: []string{"eoslab-verify-x-A"}}}
	err = s.Close()
	if err == nil {
		t.Fatal("Close on a cluster gone: nil, want what is left")
	}
	for _, want := range []string{"did not answer", "topic eoslab-verify-x-in", "topic eoslab-verify-x-out", "group eoslab-verify-x-g", "eoslab-verify-x-A cannot be deleted"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Close: %v\nwant it to name %q", err, want)
		}
	}
	t.Log(err)
	if again := s.Close(); again == nil || again.Error() != err.Error() {
		t.Errorf("Close again: %v", again)
	}
}

package verify

import (
	"slices"
	"testing"
	"time"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

func parse(t *testing.T, src string) []script.Command {
	t.Helper()
	cmds, err := script.Parse("t.scn", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return cmds
}

// runAdvance plays src on the simulation and returns the events of its
// last line (an advance).
func runAdvance(t *testing.T, src string) []engine.Event {
	t.Helper()
	r := script.NewRunner()
	var evs []engine.Event
	for _, c := range parse(t, src) {
		e, _, err := r.Exec(c)
		if err != nil {
			t.Fatal(err)
		}
		evs = e
	}
	return evs
}

const timingOut = `topic t
producer a transactional.id=tx-a transaction.timeout.ms=20000
producer b transactional.id=tx-b
a initTransactions
b initTransactions
run
a beginTransaction
a send t-0 v0
run
advance 40000
`

// TestPlanTimeScale: a file whose transaction times out in the simulation
// plays its timeouts scaled so the shortest one that fires is
// minScaledTimeout; every transactional producer's timeout is divided by
// the same scale, so their order is kept. A file where nothing times out
// is not scaled.
func TestPlanTimeScale(t *testing.T) {
	ts := planTimeScale(parse(t, timingOut), 1)
	if !slices.Equal(ts.timesOut, []string{"tx-a"}) {
		t.Fatalf("times out %v, want [tx-a]", ts.timesOut)
	}
	if want := 20000 / float64(minScaledTimeout.Milliseconds()); ts.scale != want {
		t.Errorf("scale %v, want %v", ts.scale, want)
	}
	if d, ok := ts.scaledTimeout(20000); !ok || d != minScaledTimeout {
		t.Errorf("20000 ms plays as %v (scaled %v), want %v", d, ok, minScaledTimeout)
	}
	if d, _ := ts.scaledTimeout(60000); d != 3*minScaledTimeout {
		t.Errorf("60000 ms plays as %v, want %v", d, 3*minScaledTimeout)
	}
	quiet := planTimeScale(parse(t, "topic t\nproducer a transactional.id=tx-a\na initTransactions\nrun\nadvance 40000\n"), 1)
	if len(quiet.timesOut) != 0 || quiet.scale != 1 {
		t.Errorf("nothing times out, yet plan %+v", quiet)
	}
	if d, ok := quiet.scaledTimeout(60000); ok || d != 60*time.Second {
		t.Errorf("unscaled 60000 ms plays as %v (scaled %v)", d, ok)
	}
}

// TestAdvanceEvents: what an advance's events say decides how it is
// played: a timeout, a client's request timeout, an expiry.
func TestAdvanceEvents(t *testing.T) {
	evs := runAdvance(t, timingOut)
	if got := timedOut(evs); !slices.Equal(got, []string{"tx-a"}) {
		t.Errorf("timed out %v, want [tx-a]", got)
	}
	if len(expiredTxnIDs(evs)) > 0 || len(expiredProducers(evs)) > 0 || requestTimeout(evs) {
		t.Errorf("a timeout abort read as an expiry (%v, %v) or a request timeout (%v)", expiredTxnIDs(evs), expiredProducers(evs), requestTimeout(evs))
	}
	lost := runAdvance(t, "topic t\nproducer p\np send t-0 v\ndeliver InitProducerId\ndeliver InitProducerIdResponse\ndeliver Produce\ndrop ProduceResponse\nadvance 30000\n")
	if !requestTimeout(lost) || len(timedOut(lost)) != 0 {
		t.Errorf("a lost answer's advance: request timeout %v, timeouts %v", requestTimeout(lost), timedOut(lost))
	}
	expired := runAdvance(t, "topic t\nproducer a transactional.id=tx-a\na initTransactions\nrun\nadvance 608400000\n")
	if got := expiredTxnIDs(expired); !slices.Equal(got, []string{"tx-a"}) {
		t.Errorf("an idle id's week: expired ids %v, want [tx-a]", got)
	}
	// s21's advance: a timeout abort, then both ids expire.
	both := runAdvance(t, "topic t\nproducer a transactional.id=tx-a\nproducer e transactional.id=tx-e\na initTransactions\nrun\ne initTransactions\nrun\ne beginTransaction\ne send t-0 e1\nrun\nadvance 608400000\n")
	if got := expiredTxnIDs(both); !slices.Equal(got, []string{"tx-a", "tx-e"}) || !slices.Equal(timedOut(both), []string{"tx-e"}) {
		t.Errorf("timeout and expiry in one advance: expired %v, timed out %v", got, timedOut(both))
	}
	pexp := runAdvance(t, "config producer.id.expiration.ms=86400000\ntopic t\ninject batch t-0 pid=2000 epoch=3 seq=0 count=1\nrun\nadvance 90000000\n")
	if len(expiredProducers(pexp)) != 1 || len(expiredTxnIDs(pexp)) != 0 {
		t.Errorf("an idle producer's day: producers %v, ids %v", expiredProducers(pexp), expiredTxnIDs(pexp))
	}
}

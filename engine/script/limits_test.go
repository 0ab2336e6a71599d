package script

import (
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine"
)

// play runs a scenario on a world with cfg and returns how many events it
// made and the error that stopped it.
func play(t *testing.T, cfg engine.Config, src string) (int, error) {
	t.Helper()
	cmds, err := Parse("f.scn", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r := &Runner{World: engine.New(cfg)}
	for _, c := range cmds {
		if _, _, err := r.Exec(c); err != nil {
			return r.World.EventCount(), err
		}
	}
	return r.World.EventCount(), nil
}

// runaway is the nine-line scenario of issue 7 with more advances: a
// transaction commits while t-0 has no leader, and the clock is advanced
// by the most the language allows, again and again. Each advance used to
// add about 143,000 events (a WriteTxnMarkers "timeout" every 30 s for a
// request that was never sent), and the file reached 11 GB.
const runaway = `topic t rf=1
producer a transactional.id=x
a initTransactions
run
a beginTransaction
a send t-0 v
run
crash broker-3
a commitTransaction
`

func TestRunawayAdvanceStaysSmall(t *testing.T) {
	src := runaway + strings.Repeat("advance 2147483647\n", 3)
	n, err := play(t, engine.DefaultConfig(), src)
	if err != nil {
		t.Fatal(err)
	}
	// The marker waits for a leader without a timer; what is left is the
	// actions, the commit and a few expirations.
	if n > 150 {
		t.Fatalf("3 advances made %d events; the marker for t-0 must wait for a leader without firing", n)
	}
}

// TestLimitNamesLineAndLoop: an action stopped by a limit is an error that
// names the file and line and what kept the scheduler busy, and the three
// stepping commands all stop at it.
func TestLimitNamesLineAndLoop(t *testing.T) {
	cfg := engine.DefaultConfig()
	cfg.Limits.StepsPerAction = 5000
	for _, tc := range []struct{ last, want string }{
		// Each 24 days hold 185,000 of the coordinator's 10 s checks.
		{"advance 2147483647", `f.scn:4: advance 2147483647: stopped at 5000 steps for one action (after 5000 steps); what kept firing: timer "timed-out transaction check" of cluster (`},
		{"step 1000000", `f.scn:4: step 1000000: stopped at 5000 steps for one action (after 5000 steps); what kept firing: timer "timed-out transaction check" of cluster (`},
		{"run max=1000000", ""}, // run stops when nothing but the periodic checks is left
	} {
		src := "topic t\nproducer A\nA send t-0 x\n" + tc.last + "\n"
		_, err := play(t, cfg, src)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.last, err)
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s:\n got %v\nwant %s...", tc.last, err, tc.want)
		}
	}
}

// A loop of messages: a transaction's run is cut by an event limit, and the
// error names the message kinds the action delivered most.
func TestEventLimits(t *testing.T) {
	src := "topic t\nproducer A transactional.id=x\nA initTransactions\nrun\n"
	cfg := engine.DefaultConfig()
	cfg.Limits.EventsPerAction = 6
	_, err := play(t, cfg, src)
	if err == nil || !strings.HasPrefix(err.Error(), "f.scn:4: run: stopped at 6 events for one action (after ") ||
		!strings.Contains(err.Error(), "FindCoordinator") {
		t.Fatalf("got %v", err)
	}

	// The limit for a whole scenario counts every action's events: the
	// line that reaches it is named, and nothing after it runs.
	cfg = engine.DefaultConfig()
	cfg.Limits.Events = 40
	n, err := play(t, cfg, "topic t\nproducer A\n"+strings.Repeat("A send t-0 x\nrun\n", 20))
	if err == nil || !strings.Contains(err.Error(), ": stopped at 40 events in one scenario") {
		t.Fatalf("got %v", err)
	}
	if n > 40+10 {
		t.Fatalf("%d events held; the limit is 40 and one send adds a few", n)
	}
}

func TestDefaultLimitsAreSet(t *testing.T) {
	l := engine.DefaultConfig().Limits
	if l.StepsPerAction <= 0 || l.EventsPerAction <= 0 || l.Events < l.EventsPerAction {
		t.Fatalf("default limits %+v", l)
	}
}

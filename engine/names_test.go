package engine

import (
	"math/rand"
	"testing"
)

// applyRunningAll is Apply as it was before runClientsAfter: every client
// runs after every action. It is the reference runClientsAfter must match.
func applyRunningAll(w *World, a Action) {
	if a.Verb != "expect" {
		w.emit(EvAction, "scenario", a.String())
	}
	if err := w.apply(a); err == nil && !isSetupVerb(a.Verb) {
		w.runClients()
		w.checkInvariants()
	}
}

// TestRunClientsAfterMatchesRunningAll: running only the clients an action
// can have given work must be invisible. Swarm runs (faults, backoffs,
// processors, fencing) give the same history, event by event, as running
// every client after every action.
func TestRunClientsAfterMatchesRunningAll(t *testing.T) {
	type run struct {
		setup swarmSetup
		seeds []int64
	}
	var runs []run
	// Seeds 150 and 213 of the safe setup end a step and a deliver at the
	// time two producers' backoffs end (runBackoffDue's case).
	safe := []int64{150, 213}
	for seed := int64(1); seed <= 20; seed++ {
		safe = append(safe, seed)
	}
	runs = append(runs, run{safeSetup, safe})
	for _, s := range unsafeSetups {
		runs = append(runs, run{s, []int64{1, 2, 3, 4, 5}})
	}
	for _, r := range runs {
		seeds := r.seeds
		if raceEnabled {
			seeds = seeds[:3]
		}
		for _, seed := range seeds {
			compareRunClients(t, r.setup, seed)
		}
	}
}

func compareRunClients(t *testing.T, s swarmSetup, seed int64) {
	t.Helper()
	fast, ref := New(DefaultConfig()), New(DefaultConfig())
	for _, line := range s.setup {
		fast.Apply(mustAction(line))
		applyRunningAll(ref, mustAction(line))
	}
	r := rand.New(rand.NewSource(seed))
	for i := 0; i < 500; i++ {
		line := randomAction(ref, r, s, i)
		from := len(ref.Events)
		fast.Apply(mustAction(line))
		applyRunningAll(ref, mustAction(line))
		if len(fast.Events) != len(ref.Events) {
			t.Fatalf("%s seed %d, after %q: %d events, want %d", s.name, seed, line, len(fast.Events), len(ref.Events))
		}
		for k := from; k < len(ref.Events); k++ {
			if fast.Events[k].Line() != ref.Events[k].Line() {
				t.Fatalf("%s seed %d, after %q: event %d is %q, want %q", s.name, seed, line, k, fast.Events[k].Line(), ref.Events[k].Line())
			}
		}
	}
}

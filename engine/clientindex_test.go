package engine

import (
	"math/rand"
	"reflect"
	"testing"
)

// applyRunningAll is Apply as it was before runClientsAfter: every client
// runs after every action. It is the reference runClientsAfter must match.
func applyRunningAll(w *World, a Action) {
	w.beginChanges()
	w.applying++
	defer func() { w.applying-- }()
	w.emit(EvAction, "scenario", a.String())
	if c := addressedClient(a); c != "" {
		w.changes.actor(c)
	}
	w.beginAction(a)
	if err := w.apply(a); err == nil && !isSetup(a) {
		w.runClients()
		w.checkInvariants()
	}
	w.endAction()
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
	for _, a := range s.setup {
		fast.Apply(a)
		applyRunningAll(ref, a)
	}
	r := rand.New(rand.NewSource(seed))
	for i := 0; i < 500; i++ {
		a := randomAction(ref, r, s, i)
		from := len(ref.Events)
		fast.Apply(a)
		applyRunningAll(ref, a)
		if len(fast.Events) != len(ref.Events) {
			t.Fatalf("%s seed %d, after %s: %d events, want %d", s.name, seed, a, len(fast.Events), len(ref.Events))
		}
		for k := from; k < len(ref.Events); k++ {
			if fast.Events[k].Line() != ref.Events[k].Line() {
				t.Fatalf("%s seed %d, after %s: event %d is %q, want %q", s.name, seed, a, k, fast.Events[k].Line(), ref.Events[k].Line())
			}
		}
		// The change set too: a view marks what it names.
		fc, rc := fast.Changes(), ref.Changes()
		fc, rc = fc.clone(), rc.clone() // without the lookup indexes
		if !reflect.DeepEqual(fc, rc) {
			t.Fatalf("%s seed %d, after %s: change set %+v, want %+v", s.name, seed, a, fc, rc)
		}
	}
}

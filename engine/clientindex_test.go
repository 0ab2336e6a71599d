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
	w.emit(EvAction, "scenario", saysAction, a)
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
// processors, fencing), under transaction.version 1, 2 and a cluster
// switching between them, give the same history, event by event, and the
// same change sets as running every client after every action.
func TestRunClientsAfterMatchesRunningAll(t *testing.T) {
	t.Parallel()
	type run struct {
		setup    swarmSetup
		seeds    []int64
		versions []int
	}
	var runs []run
	// Seeds 150 and 213 of the safe setup end a step and a deliver at the
	// time two producers' backoffs end under TV1 (runBackoffDue's case).
	safe := []int64{150, 213}
	// And seeds 1..20 at the full -swarm.seeds 1000 (1..4 at the default
	// 200); the safeguard-off setups seeds 1..5 (1 at the default).
	for seed := int64(1); seed <= int64(swarmScale(20)); seed++ {
		safe = append(safe, seed)
	}
	runs = append(runs, run{safeSetup, safe, []int{swarmTV1, swarmTV2, swarmSwitching}})
	for _, s := range unsafeSetups {
		runs = append(runs, run{s, []int64{1, 2, 3, 4, 5}[:min(swarmScale(5), 5)], []int{swarmTV1, swarmTV2}})
	}
	for _, r := range runs {
		seeds := r.seeds
		if raceEnabled {
			seeds = seeds[:min(3, len(seeds))]
		}
		for _, v := range r.versions {
			for _, seed := range seeds {
				compareRunClients(t, r.setup, seed, v)
			}
		}
	}
}

func compareRunClients(t *testing.T, s swarmSetup, seed int64, version int) {
	t.Helper()
	fast, ref := New(DefaultConfig()), New(DefaultConfig())
	setup := s.setup
	if version == swarmTV2 {
		setup = append([]Action{versionConfig(2)}, setup...)
	}
	for _, a := range setup {
		fast.Apply(a)
		applyRunningAll(ref, a)
	}
	r := rand.New(rand.NewSource(seed))
	for i := 0; i < 500; i++ {
		var a Action
		if version == swarmSwitching && r.Intn(40) == 0 {
			a = versionConfig(int64(3 - ref.config.TransactionVersion))
		} else {
			a = randomAction(ref, r, s, i)
		}
		from := ref.events.len()
		fast.Apply(a)
		applyRunningAll(ref, a)
		if fast.events.len() != ref.events.len() {
			t.Fatalf("%s tv%d seed %d, after %s: %d events, want %d", s.name, version, seed, a, fast.events.len(), ref.events.len())
		}
		for k := from; k < ref.events.len(); k++ {
			if fast.events.at(k).Line() != ref.events.at(k).Line() {
				t.Fatalf("%s tv%d seed %d, after %s: event %d is %q, want %q", s.name, version, seed, a, k, fast.events.at(k).Line(), ref.events.at(k).Line())
			}
		}
		// The change set too: a view marks what it names.
		fc, rc := fast.Changes(), ref.Changes()
		fc, rc = fc.clone(), rc.clone() // without the lookup indexes
		if !reflect.DeepEqual(fc, rc) {
			t.Fatalf("%s tv%d seed %d, after %s: change set %+v, want %+v", s.name, version, seed, a, fc, rc)
		}
	}
}

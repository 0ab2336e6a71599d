package search

import (
	"testing"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// world plays a scenario's actions on a fresh world.
func world(t testing.TB, src string) *engine.World {
	t.Helper()
	cmds, err := script.Parse("test.scn", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	w := engine.New(engine.DefaultConfig())
	for _, c := range cmds {
		if c.Action != nil {
			if _, err := w.Apply(c.Action); err != nil {
				t.Fatal(err)
			}
		}
	}
	return w
}

const presetIdempotent = "topic t partitions=2\nproducer P\nconsumer C isolation.level=read_committed auto.offset.reset=earliest\n"

const lostAck = "topic t\nproducer P enable.idempotence=false\n"

func TestLostAckDuplicateWithoutIdempotence(t *testing.T) {
	w := world(t, lostAck)
	r := Find(w, Options{Invariant: engine.InvDuplicateRecord, Depth: 10, MaxStates: 1000000, Sends: 1, Without: FaultDuplicate | FaultDelay})
	if !r.Found {
		t.Fatalf("no schedule found: %+v", r)
	}
	for _, a := range r.Schedule {
		t.Log(a.String())
	}
	t.Log(r.States)
}

// The counting search's measure (BenchmarkSearchIdempotent's reached) is
// what the plain search keeps in its table when it hashes every world,
// the bound's included.
func TestCountedStatesAreTheReferenceStates(t *testing.T) {
	for _, src := range []string{presetIdempotent, lostAck} {
		w := world(t, src)
		for depth := 1; depth <= 4; depth++ {
			o := Options{Depth: depth, MaxStates: 10000000, Sends: 2}
			ref := FindReference(w, o)
			o.countBound = true
			if got := Find(w, o); got.reached != ref.States || got.Found != ref.Found {
				t.Errorf("depth %d, from %q: counted %d states (found %v), the plain search %d (found %v)",
					depth, src, got.reached, got.Found, ref.States, ref.Found)
			}
		}
	}
}

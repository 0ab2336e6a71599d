package verify

import (
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/realkafka/wire"
	"github.com/eoslab/eoslab/engine/script"
)

// world plays src on the simulation and returns the world and the
// driver's view of the file's declarations.
func world(t *testing.T, src string) (*engine.World, *driver) {
	t.Helper()
	r := script.NewRunner()
	d := &driver{decls: map[string]engine.DeclareProducer{}, cdecls: map[string]engine.DeclareConsumer{}}
	for _, c := range parse(t, src) {
		if p, ok := c.Action.(engine.DeclareProducer); ok {
			d.decls[p.Name] = p
		}
		if _, _, err := r.Exec(c); err != nil {
			t.Fatal(err)
		}
	}
	return r.World, d
}

// TestHoldPlan: a producer's answer in flight is held on its connection;
// a request not yet delivered likewise; brokers' own messages and pending
// broker work are not held, with why.
func TestHoldPlan(t *testing.T) {
	w, d := world(t, "topic t\nproducer p\np send t-0 v\ndeliver InitProducerId\ndeliver InitProducerIdResponse\ndeliver Produce\n")
	plan, why := d.holdPlan(w)
	if why != "" || len(plan) != 1 || plan[holdKey{"p", wire.Response, kmsg.Produce}] != 1 {
		t.Errorf("an answer in flight: plan %v, why %q; want p's ProduceResponse held", plan, why)
	}
	w, d = world(t, "topic t\nproducer p transactional.id=tx\np initTransactions\nrun\np beginTransaction\np send t-0 v\nrun\np commitTransaction\n")
	plan, why = d.holdPlan(w)
	if why != "" || plan[holdKey{"p", wire.Request, kmsg.EndTxn}] != 1 {
		t.Errorf("an EndTxn not yet delivered: plan %v, why %q; want it held", plan, why)
	}
	w, d = world(t, "topic t\nproducer p transactional.id=tx\np initTransactions\nrun\np beginTransaction\np send t-0 v\nrun\np commitTransaction\nstep\nstep\n")
	if plan, why = d.holdPlan(w); why == "" {
		t.Errorf("mid-commit (coordinator work pending): plan %v, no why", plan)
	}
	w, d = world(t, "topic t\nproducer p transactional.id=tx\np initTransactions\nrun\np beginTransaction\np send t-0 v\nrun\np commitTransaction\nstep\nstep\nstep\n")
	if _, why = d.holdPlan(w); !w.Busy() || !strings.Contains(why, "WriteTxnMarkers") {
		t.Errorf("markers in flight: busy %v, why %q; want the markers named", w.Busy(), why)
	}
}

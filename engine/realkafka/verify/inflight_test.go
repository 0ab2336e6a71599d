package verify

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/realkafka"
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

// ownedStub stands for a cluster verify owns; holdPlan only asks whether
// there is one.
type ownedStub struct{ realkafka.Owner }

// TestHoldPlanMarkers: on a cluster verify owns, the markers in flight
// are held on the leader's proxy; on a shared cluster they are not.
func TestHoldPlanMarkers(t *testing.T) {
	src := "topic t\nproducer p transactional.id=tx\np initTransactions\nrun\np beginTransaction\np send t-0 v\nrun\np commitTransaction\nstep\nstep\nstep\n"
	w, d := world(t, src)
	d.ctx = withOwner(context.Background(), ownedStub{})
	leader := "broker-" + fmt.Sprint(w.Partition(engine.TP{Topic: "t", Partition: 0}).Leader)
	plan, why := d.holdPlan(w)
	if why != "" || len(plan) != 1 || plan[holdKey{leader, wire.Request, kmsg.WriteTxnMarkers}] != 1 {
		t.Errorf("markers in flight on an owned cluster: plan %v, why %q; want the WriteTxnMarkers to %s (t-0's leader) held", plan, why, leader)
	}
	if why := d.lateMarkers(plan); why == "" {
		t.Error("a hold starting with markers already in flight and nothing queued: no why")
	}
	d.queue = []queued{{}}
	if why := d.lateMarkers(plan); why != "" {
		t.Errorf("a hold starting with a call queued: %q, want none", why)
	}
}

// TestPlacedCoordinator: a coordinator row is judged on an owned cluster
// when the prefix keeps the id's partition, and not otherwise.
func TestPlacedCoordinator(t *testing.T) {
	e := script.TxnCheck{ID: "payment-processor-1", Field: script.TxnCoordinator}
	p, ok := placedPrefix([]placedName{{e.ID, engine.TxnStateTopic}}, 3)
	if !ok {
		t.Fatal("no prefix")
	}
	d := &driver{ctx: context.Background(), prefix: p}
	if d.placedCoordinator(e) {
		t.Error("judged on a shared cluster")
	}
	d.ctx = withOwner(d.ctx, ownedStub{})
	if !d.placedCoordinator(e) {
		t.Errorf("prefix %q keeps the partition, yet not judged", p)
	}
	for i := 0; ; i++ {
		d.prefix = fmt.Sprintf("x%d-", i)
		if engine.PartitionFor(d.prefix+e.ID, simInternalPartitions) != engine.PartitionFor(e.ID, simInternalPartitions) {
			break
		}
	}
	if d.placedCoordinator(e) {
		t.Errorf("prefix %q moves the id to another partition, yet judged", d.prefix)
	}
}

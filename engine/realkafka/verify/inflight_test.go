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

// lateCopyWorld plays src up to its last line on the simulation with the
// driver noting, at each duplicate line, the copy the wrapper would hold
// (as fault does), and at the end the driver's position at that line.
func lateCopyWorld(t *testing.T, src string) (*engine.World, *driver) {
	t.Helper()
	r := script.NewRunner()
	cmds := parse(t, src)
	d := &driver{decls: map[string]engine.DeclareProducer{}, cdecls: map[string]engine.DeclareConsumer{}, cmds: cmds}
	for i, c := range cmds {
		d.at = i
		if p, ok := c.Action.(engine.DeclareProducer); ok {
			d.decls[p.Name] = p
		}
		target := d.resolve(c, r.World)
		if _, _, err := r.Exec(c); err != nil {
			t.Fatal(err)
		}
		if _, dup := c.Action.(engine.Duplicate); dup {
			target.world = r.World
			d.holdLateCopy(target, kmsg.EndTxn, d.lateCopyNext(c))
		}
	}
	return r.World, d
}

// TestHoldPlanLateCopy: a duplicate's copy the wrapper holds as a late
// copy is not a message a hold holds; the markers in flight beside it
// are (they were "more than one EndTxn in flight" before).
func TestHoldPlanLateCopy(t *testing.T) {
	src := "topic t\nproducer a transactional.id=tx\na initTransactions\nrun\na beginTransaction\na send t-0 v\nrun\n" +
		"a commitTransaction\nduplicate EndTxn\ndelay EndTxn 2000\nadvance 2\n"
	w, d := lateCopyWorld(t, src)
	d.ctx = withOwner(context.Background(), ownedStub{})
	plan, why := d.holdPlan(w)
	leader := "broker-" + fmt.Sprint(w.Partition(engine.TP{Topic: "t", Partition: 0}).Leader)
	if why != "" || plan[holdKey{leader, wire.Request, kmsg.WriteTxnMarkers}] != 1 || plan[holdKey{"a", wire.Request, kmsg.EndTxn}] != 0 {
		t.Errorf("a late copy of EndTxn in flight beside the markers: plan %v, why %q; want the markers held and no EndTxn", plan, why)
	}
	// Both copies still in flight: one is the original, held as any request.
	w, d = lateCopyWorld(t, "topic t\nproducer a transactional.id=tx\na initTransactions\nrun\na beginTransaction\na send t-0 v\nrun\n"+
		"a commitTransaction\nduplicate EndTxn\ndelay EndTxn 2000\n")
	if plan, why := d.holdPlan(w); why != "" || plan[holdKey{"a", wire.Request, kmsg.EndTxn}] != 1 {
		t.Errorf("the original and its late copy in flight: plan %v, why %q; want one EndTxn held", plan, why)
	}
}

// TestOrderHold: up to a run line, a hold that only orders a late copy
// and a delayed marker lets the client's retry.backoff.ms be pending (its
// simulated client took the copy's answer); holdPlan, which an expect
// line's comparison uses, does not.
func TestOrderHold(t *testing.T) {
	src := "topic t\nproducer a transactional.id=tx\na initTransactions\nrun\na beginTransaction\na send t-0 v\nrun\n" +
		"a commitTransaction\nduplicate EndTxn\nadvance 2\ndelay WriteTxnMarkers 300\nrun\n"
	cmds := parse(t, src)
	w, d := lateCopyWorld(t, strings.Join(strings.Split(src, "\n")[:11], "\n")+"\n")
	d.ctx = withOwner(context.Background(), ownedStub{})
	d.cmds, d.at = cmds, 10 // the delay line
	if !d.runNext() {
		t.Fatal("runNext: the line after the delay is run")
	}
	if _, why := d.holdPlan(w); !strings.Contains(why, "a waits out its retry.backoff.ms") {
		t.Errorf("holdPlan with the client's retry pending: why %q, want its retry.backoff.ms named", why)
	}
	leader := "broker-" + fmt.Sprint(w.Partition(engine.TP{Topic: "t", Partition: 0}).Leader)
	plan, why := d.orderHold(w)
	if why != "" || plan[holdKey{leader, wire.Request, kmsg.WriteTxnMarkers}] != 1 {
		t.Errorf("orderHold: plan %v, why %q; want the markers to %s held", plan, why, leader)
	}
	d.at = 9 // the advance line: an advance follows, not a run
	if d.runNext() {
		t.Error("runNext at the advance line: the next action is a delay")
	}
}

// nodesStub is a cluster verify owns with three live nodes.
type nodesStub struct{ realkafka.Owner }

func (nodesStub) Nodes() []realkafka.NodeState {
	return []realkafka.NodeState{{ID: 1}, {ID: 2}, {ID: 3}}
}

// TestHoldPlanFollowers: a replica fetch pending in the simulation is
// held on an owned cluster as the followers' Fetch at the leader's proxy
// (one per other live node), and an acks=all Produce waiting there for
// them is parked; on a shared cluster, or where a coordinator would
// write, it is not held, with why (before, every replica fetch pending
// was "work pending").
func TestHoldPlanFollowers(t *testing.T) {
	src := "topic t rf=3\nproducer one acks=1\nproducer all\none send t-0 a\ndeliver Produce\n"
	w, d := world(t, src)
	leader := "broker-" + fmt.Sprint(w.Partition(engine.TP{Topic: "t", Partition: 0}).Leader)
	if _, why := d.holdPlan(w); !strings.Contains(why, "followers have not fetched t-0 from its leader "+leader) {
		t.Errorf("a shared cluster: why %q, want the followers of t-0 named", why)
	}
	d.ctx = withOwner(context.Background(), nodesStub{})
	plan, why := d.holdPlan(w)
	if why != "" || plan[holdKey{leader, wire.Request, kmsg.Fetch}] != 2 || plan[holdKey{"one", wire.Response, kmsg.Produce}] != 1 {
		t.Errorf("an owned cluster: plan %v, why %q; want 2 Fetch held at %s and one's answer", plan, why, leader)
	}
	w, d = world(t, src+"run\nall send t-0 b\ndeliver InitProducerId\ndeliver InitProducerIdResponse\ndeliver Produce\n")
	d.ctx = withOwner(context.Background(), nodesStub{})
	if plan, why := d.holdPlan(w); why != "" || !d.replica.parked["all"] || len(plan) != 1 {
		t.Errorf("an acks=all Produce waiting for the followers: plan %v, why %q, parked %v; want the Fetch held and all parked", plan, why, d.replica.parked)
	}
	w, d = world(t, "topic t rf=3\nproducer tx transactional.id=x\nproducer one acks=1\none send t-0 a\ndeliver Produce\n")
	d.ctx = withOwner(context.Background(), nodesStub{})
	if _, why := d.holdPlan(w); !strings.Contains(why, "replica fetch") {
		t.Errorf("a file with a transactional id (a coordinator write would wait on held followers): why %q, want the replica fetch named", why)
	}
}

package verify

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/realkafka"
	"github.com/eoslab/eoslab/engine/realkafka/wire"
	"github.com/eoslab/eoslab/engine/script"
)

// A cluster verify owns (Options.Owner: `verify --cluster-dir DIR`, the
// directory of `eoslab kafka up --brokers N`) can be broken as the
// simulation's is: a broker crashed (SIGKILL) and restarted, a
// WriteTxnMarkers lost or delayed between the coordinator and a
// partition leader (on the inter-broker proxy of package realkafka). And
// its placement follows the simulation's: topics are created with the
// simulation's replica assignment, the internal topics' replicas are put
// in the simulation's order with their preferred leaders elected, and
// the run's name prefix is chosen so that each transactional id and
// group lands on a partition the simulation's broker leads.

// The owner travels in the run's context rather than as a field the
// driver's constructor sets, so this file stays beside the driver's
// rather than inside it.
type ownerKey struct{}

func withOwner(ctx context.Context, o realkafka.Owner) context.Context {
	if o == nil {
		return ctx
	}
	return context.WithValue(ctx, ownerKey{}, o)
}

func ownerOf(ctx context.Context) realkafka.Owner {
	o, _ := ctx.Value(ownerKey{}).(realkafka.Owner)
	return o
}

type prefixKey struct{}

// prefixFor is the run's name prefix for a file: a random one, or, on an
// owned cluster, one under which the file's transactional ids and groups
// are placed as the simulation places them (placedPrefix).
func prefixFor(ctx context.Context) string {
	if p, ok := ctx.Value(prefixKey{}).(string); ok {
		return p
	}
	return prefix()
}

// simInternalPartitions is the simulation's partition count of
// __transaction_state and __consumer_offsets (engine.DefaultConfig), which
// an owned cluster has too (realkafka's ownedLines).
const simInternalPartitions = 50

// simReplicas is the simulation's replica placement (engine's
// World.replicasFor, kept in step by TestSimReplicas): consecutive brokers
// from (abs(hash(topic)) + partition) % brokers.
func simReplicas(topic string, p int32, brokers, rf int) []int32 {
	if rf > brokers {
		rf = brokers
	}
	start := int((int64(engine.KafkaAbs(engine.JavaStringHash(topic))) + int64(p)) % int64(brokers))
	out := make([]int32, rf)
	for i := range out {
		out[i] = int32((start+i)%brokers + 1)
	}
	return out
}

// placedName is a name the placement must honour: a transactional id
// (its __transaction_state partition) or a group (__consumer_offsets).
type placedName struct {
	name  string
	topic string
}

// placedPrefix searches random prefixes until each name's prefixed
// partition is the one the simulation gives the bare name (so a
// coordinator's partition number agrees too) or, for files with many
// names, until it is at least led by the same broker. ok is false when
// neither was found within the bound.
func placedPrefix(names []placedName, brokers int) (string, bool) {
	if len(names) == 0 {
		return prefix(), true
	}
	exact := len(names) <= 3
	for try := 0; try < 2_000_000; try++ {
		if try == 1_000_000 {
			exact = false
		}
		var b [4]byte
		rand.Read(b[:])
		p := "eoslab-verify-" + hex.EncodeToString(b[:]) + "-"
		good := true
		for _, n := range names {
			want := engine.PartitionFor(n.name, simInternalPartitions)
			got := engine.PartitionFor(p+n.name, simInternalPartitions)
			if exact {
				good = want == got
			} else {
				good = simReplicas(n.topic, want, brokers, 3)[0] == simReplicas(n.topic, got, brokers, 3)[0]
			}
			if !good {
				break
			}
		}
		if good {
			return p, true
		}
	}
	return prefix(), false
}

// placedNames are the file's transactional ids and groups.
func placedNames(cmds []script.Command) []placedName {
	var out []placedName
	seen := map[string]bool{}
	add := func(n, topic string) {
		if n != "" && !seen[topic+"\x00"+n] {
			seen[topic+"\x00"+n] = true
			out = append(out, placedName{n, topic})
		}
	}
	for _, c := range cmds {
		switch a := c.Action.(type) {
		case engine.DeclareProducer:
			add(a.Config.TransactionalID, engine.TxnStateTopic)
		case engine.DeclareConsumer:
			add(a.GroupID, engine.OffsetsTopic)
		}
	}
	return out
}

// prepareOwned readies an owned cluster for a file: every node up, no
// fault left, the internal topics' replicas in the simulation's order and
// their preferred leaders elected; and it picks the file's prefix.
func prepareOwned(ctx context.Context, cl *kgo.Client, adm *kadm.Client, o realkafka.Owner, cmds []script.Command) (context.Context, error) {
	nodes := o.Nodes()
	for _, n := range nodes {
		if n.Crashed {
			if err := o.Restart(ctx, n.ID); err != nil {
				return ctx, fmt.Errorf("verify: restarting node %d: %w", n.ID, err)
			}
		}
	}
	if err := o.ClearFaults(); err != nil {
		return ctx, err
	}
	if err := placeInternal(ctx, adm, len(nodes)); err != nil {
		return ctx, err
	}
	if err := warmProducerIDs(ctx, cl, nodes); err != nil {
		return ctx, err
	}
	p, placed := placedPrefix(placedNames(cmds), len(nodes))
	ctx = context.WithValue(ctx, unplacedKey{}, !placed)
	base, err := txnLeaderEpochs(ctx, adm)
	if err != nil {
		return ctx, err
	}
	ctx = context.WithValue(ctx, epochKey{}, base)
	reqs, err := requestBase(o) // requests.go
	if err != nil {
		return ctx, fmt.Errorf("verify: reading the inter-broker proxies' requests: %w", err)
	}
	ctx = context.WithValue(ctx, reqBaseKey{}, reqs)
	return context.WithValue(ctx, prefixKey{}, p), nil
}

// warmProducerIDs has every node hand out a producer id once before the
// file begins. A broker takes producer ids in blocks from the controller
// and asks for its first block at its first InitProducerId, which it
// answers COORDINATOR_LOAD_IN_PROGRESS until the block is there
// (RPCProducerIdManager.generateProducerId: "Waiting for next block");
// the client retries. The simulation's brokers have their ids at once, and
// a cluster verify has played files on before has its blocks too: a
// fresh or restarted node would add retries to the file's request counts.
func warmProducerIDs(ctx context.Context, cl *kgo.Client, nodes []realkafka.NodeState) error {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	for _, n := range nodes {
		for {
			req := kmsg.NewPtrInitProducerIDRequest()
			req.TransactionTimeoutMillis, req.ProducerID, req.ProducerEpoch = -1, -1, -1
			resp, err := req.RequestWith(ctx, cl.Broker(n.ID))
			if err == nil && resp.ErrorCode == 0 {
				break
			}
			if err == nil {
				err = kerr.ErrorForCode(resp.ErrorCode)
			}
			if !errors.Is(err, kerr.CoordinatorLoadInProgress) && ctx.Err() == nil {
				return fmt.Errorf("verify: a producer id from node %d: %w", n.ID, err)
			}
			if err := sleepCtx(ctx, 100*time.Millisecond); err != nil {
				return fmt.Errorf("verify: node %d handed out no producer id: %w", n.ID, err)
			}
		}
	}
	return nil
}

type epochKey struct{}

// unplacedKey: no prefix put every name of the file where the
// simulation has it, so a broker fault would hit other coordinators.
type unplacedKey struct{}

func (d *driver) unplaced(c script.Command) bool {
	if u, _ := d.ctx.Value(unplacedKey{}).(bool); u {
		d.stop(c, "no run prefix puts every transactional id and group of the file on the broker the simulation has it on, so a broker fault would not hit what the file's does", false)
		return true
	}
	return false
}

// txnLeaderEpochs are the leader epochs of __transaction_state's
// partitions: a coordinator's epoch is its partition's leader epoch
// (TransactionStateManager loads a partition with the leader epoch as
// coordinatorEpoch). The simulation's start at 0 in every file; an owned
// cluster's carry the elections of the files before and of the
// placement, so a file's coordinator epochs are compared from where its
// partitions' stood when it began.
func txnLeaderEpochs(ctx context.Context, adm *kadm.Client) (map[int32]int32, error) {
	td, err := adm.ListTopicsWithInternal(ctx, engine.TxnStateTopic)
	if err != nil {
		return nil, fmt.Errorf("verify: reading %s's leader epochs: %w", engine.TxnStateTopic, err)
	}
	out := map[int32]int32{}
	for _, p := range td[engine.TxnStateTopic].Partitions {
		out[p.Partition] = p.LeaderEpoch
	}
	return out, nil
}

// coordEpoch is a coordinator epoch the broker run read (in a marker, or
// DescribeProducers'), counted from the file's start on an owned cluster:
// the producer's transactional id names the __transaction_state
// partition. Elsewhere, and for a producer it cannot name, it is as read.
func (d *driver) coordEpoch(pid int64, e int32) int32 {
	base, ok := d.ctx.Value(epochKey{}).(map[int32]int32)
	if !ok {
		return e
	}
	for _, r := range d.rev {
		if r.pid == pid && r.txid != "" {
			return e - base[engine.PartitionFor(r.txid, simInternalPartitions)]
		}
	}
	return e
}

// placeInternal makes sure __transaction_state and __consumer_offsets
// exist (a FindCoordinator creates them), reorders their replicas to the
// simulation's (a reorder moves no data) and elects the preferred
// leaders, then waits until every partition is led by its first replica.
func placeInternal(ctx context.Context, adm *kadm.Client, brokers int) error {
	ctx, cancel := context.WithTimeout(ctx, 120*time.Second)
	defer cancel()
	internal := []string{engine.TxnStateTopic, engine.OffsetsTopic}
	for {
		adm.FindTxnCoordinators(ctx, "eoslab-verify-placement")
		adm.FindGroupCoordinators(ctx, "eoslab-verify-placement")
		td, err := adm.ListTopicsWithInternal(ctx, internal...)
		if err == nil && len(td[internal[0]].Partitions) > 0 && len(td[internal[1]].Partitions) > 0 {
			for _, t := range internal {
				if n := len(td[t].Partitions); n != simInternalPartitions {
					return fmt.Errorf("verify: %s has %d partitions, the simulation's %d: verify --cluster-dir wants a cluster of eoslab kafka up --brokers N", t, n, simInternalPartitions)
				}
			}
			break
		}
		if err := sleepCtx(ctx, 200*time.Millisecond); err != nil {
			return fmt.Errorf("verify: the internal topics were not created: %w", err)
		}
	}
	for {
		td, err := adm.ListTopicsWithInternal(ctx, internal...)
		if err != nil {
			return err
		}
		req := kadm.AlterPartitionAssignmentsReq{}
		set := kadm.TopicsSet{}
		placed := true
		for _, t := range internal {
			for _, p := range td[t].Partitions {
				want := simReplicas(t, p.Partition, brokers, brokers)
				if !slices.Equal(p.Replicas, want) {
					req.Assign(t, p.Partition, want)
					placed = false
				}
				if p.Leader != want[0] {
					set.Add(t, p.Partition)
					placed = false
				}
			}
		}
		if placed {
			return nil
		}
		if len(req) > 0 {
			if _, err := adm.AlterPartitionAssignments(ctx, req); err != nil {
				return fmt.Errorf("verify: placing the internal topics' replicas: %w", err)
			}
		} else if len(set) > 0 {
			adm.ElectLeaders(ctx, kadm.ElectPreferredReplica, set)
		}
		if err := sleepCtx(ctx, 300*time.Millisecond); err != nil {
			return fmt.Errorf("verify: the internal topics' leaders were not placed as the simulation's: %w", err)
		}
	}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// createTopic creates a file's topic: with the simulation's replica
// assignment on an owned cluster, else one replica per partition.
func (d *driver) createTopic(ctx context.Context, a engine.CreateTopic, w *engine.World) error {
	n := max(a.Partitions, 1)
	o := ownerOf(d.ctx)
	if o == nil {
		r, err := d.adm.CreateTopic(ctx, n, 1, nil, d.name(a.Name))
		if err == nil {
			err = r.Err
		}
		return err
	}
	req := kmsg.NewPtrCreateTopicsRequest()
	req.TimeoutMillis = 30000
	t := kmsg.NewCreateTopicsRequestTopic()
	t.Topic, t.NumPartitions, t.ReplicationFactor = d.name(a.Name), -1, -1
	for p := range n {
		ra := kmsg.NewCreateTopicsRequestTopicReplicaAssignment()
		ra.Partition = p
		if pl := w.Partition(engine.TP{Topic: a.Name, Partition: p}); pl != nil {
			for _, r := range pl.Replicas {
				ra.Replicas = append(ra.Replicas, int32(r))
			}
		} else {
			ra.Replicas = simReplicas(a.Name, p, len(o.Nodes()), a.RF)
		}
		t.ReplicaAssignment = append(t.ReplicaAssignment, ra)
	}
	req.Topics = append(req.Topics, t)
	resp, err := req.RequestWith(ctx, d.raw)
	if err != nil {
		return err
	}
	for _, rt := range resp.Topics {
		if rt.ErrorCode != 0 {
			msg := ""
			if rt.ErrorMessage != nil {
				msg = ": " + *rt.ErrorMessage
			}
			return fmt.Errorf("%v%s", kerr.ErrorForCode(rt.ErrorCode), msg)
		}
	}
	return nil
}

// brokerOf is N of "broker-N".
func brokerOf(addr string) int {
	var n int
	if _, err := fmt.Sscanf(addr, "broker-%d", &n); err != nil {
		return 0
	}
	return n
}

// crashPoint is the simulation's point before a broker's crash: whether
// all it has in flight is WriteTxnMarkers (and their answers) between
// brokers, and to which leaders they go.
func crashPoint(w *engine.World) resolved {
	r := resolved{busy: w.Busy(), markersOnly: true}
	if debug {
		for _, m := range w.InFlight() {
			fmt.Fprintf(os.Stderr, "crash point: in flight %s %s -> %s\n", m.Kind, m.From, m.To)
		}
		for _, t := range w.PendingTimers() {
			fmt.Fprintf(os.Stderr, "crash point: timer %s of %s\n", t.Kind, t.Owner)
		}
	}
	for _, m := range w.InFlight() {
		name, _ := strings.CutSuffix(m.Kind.String(), "Response")
		if m.Kind.String() == "EndTxnResponse" {
			// The coordinator's answer, sent after PrepareCommit or
			// PrepareAbort was durable and before the markers: the
			// broker run's client gets it before the crash.
			continue
		}
		if name != "WriteTxnMarkers" {
			r.markersOnly = false
			continue
		}
		to := m.To
		if m.Kind.IsResponse() {
			to = m.From
		}
		if id := brokerOf(to); id > 0 {
			r.markers = append(r.markers, id)
		}
	}
	for _, t := range w.PendingTimers() {
		switch t.Kind {
		case engine.TimerRequestTimeout, engine.TimerAbortCheck, engine.TimerExpiryCheck:
		default:
			r.markersOnly = false
		}
	}
	return r
}

// crashBroker plays "crash broker-N" on an owned cluster: SIGKILL, then a
// wait (bounded) until no partition of the run names it as leader, which
// the simulation's failover does at once. At a quiet point the calls
// queued since run after it, at the next quiet point, as the
// simulation's run after its crash. Where the simulation has only markers in flight (the
// coordinator wrote PrepareCommit or PrepareAbort and answered EndTxn;
// the markers have not arrived), the broker run gets there by losing
// every WriteTxnMarkers to those leaders while the queued calls run, then
// crashes the broker and lets markers through again: what the crash cuts
// off is what the simulation's cuts off.
func (d *driver) crashBroker(c script.Command, id int, at resolved) {
	o := ownerOf(d.ctx)
	if o == nil {
		d.stop(c, "crashing a broker of a shared cluster is not done by verify (give --cluster-dir, the directory of eoslab kafka up --brokers 3)", false)
		return
	}
	if d.unplaced(c) {
		return
	}
	if at.busy && !at.markersOnly && d.crashHeld(c, id) { // replicahold.go
		return
	}
	if at.busy && !at.markersOnly {
		d.stop(c, "a broker crash while the simulation has client messages in flight: the broker run completes each call at once, so what the crash cuts off differs", false)
		return
	}
	if at.busy {
		// A delay line's marker would arrive after the delay, still
		// before the real failover is over (seconds), where the
		// simulation's arrives after the new coordinator's and is refused
		// as fenced: lost here, it leaves the log as the simulation's.
		d.loseNodeHolds() // markerhold.go
		o.ClearFaults()
		for _, l := range at.markers {
			if err := o.Fault(l, realkafka.FaultSpec{Key: int16(kmsg.WriteTxnMarkers), Dir: int(wire.Request), Action: int(wire.Drop), Times: -1}); err != nil {
				d.stop(c, "holding the markers back failed: "+err.Error(), false)
				return
			}
		}
		d.runQueued()
	}
	if err := o.Crash(id); err != nil {
		d.stop(c, "crashing the broker failed: "+err.Error(), false)
		return
	}
	if at.busy {
		o.ClearFaults()
	}
	d.awaitLeadersOff(int32(id))
	d.refreshMetadata()
}

// refreshMetadata makes the run's clients learn the new leaders now
// rather than at their next metadata refresh: the simulation's clients
// see a failover at once.
func (d *driver) refreshMetadata() {
	for _, p := range d.prods {
		if p.cl != nil && !p.closed {
			p.cl.ForceMetadataRefresh()
		}
	}
	for _, c := range d.cons {
		if c.cl != nil {
			c.cl.ForceMetadataRefresh()
		}
	}
	d.raw.ForceMetadataRefresh()
}

// runQueued runs the queued calls and waits for the unpaused clients,
// as flush does, without waiting for transactions to leave a Prepare
// state (their markers are being lost).
func (d *driver) runQueued() {
	for _, q := range d.queue {
		d.submit(q)
	}
	d.queue = nil
	for _, p := range d.prods {
		if !p.pause {
			p.busy.Wait()
		}
	}
	for _, c := range d.cons {
		if !c.pause {
			c.busy.Wait()
		}
	}
}

// clearMarkerDrops, at a quiet point, takes away the lost-marker rules a
// drop line installed: the simulation has sent those markers again.
func (d *driver) clearMarkerDrops() {
	if o := ownerOf(d.ctx); o != nil && d.markerDrops {
		o.ClearFaults()
		d.markerDrops = false
	}
}

// awaitLeadersOff waits until no partition of the run's topics or the
// internal topics is led by broker id (a partition with no other replica
// in sync stays offline, leader -1).
func (d *driver) awaitLeadersOff(id int32) {
	ctx, cancel := context.WithTimeout(d.ctx, 30*time.Second)
	defer cancel()
	topics := append([]string{engine.TxnStateTopic, engine.OffsetsTopic}, d.topics...)
	for {
		td, err := d.adm.ListTopicsWithInternal(ctx, topics...)
		if err == nil {
			off := true
			for _, t := range td {
				for _, p := range t.Partitions {
					off = off && p.Leader != id
				}
			}
			if off {
				return
			}
		}
		if sleepCtx(ctx, 100*time.Millisecond) != nil {
			return
		}
	}
}

// restartBroker plays "restart broker-N": the node starts on its data
// and verify waits until it is back in every ISR it belongs to. The
// calls queued before it run at the next quiet point, after it, as the
// simulation's (a send buffered while its leader was down goes then).
func (d *driver) restartBroker(c script.Command, id int) {
	o := ownerOf(d.ctx)
	if o == nil {
		d.stop(c, "restarting a broker of a shared cluster is not done by verify (give --cluster-dir, the directory of eoslab kafka up --brokers 3)", false)
		return
	}
	if err := o.Restart(d.ctx, id); err != nil {
		d.stop(c, "restarting the broker failed: "+err.Error(), false)
		return
	}
	d.refreshMetadata()
}

// markerFault installs a drop or delay of the next WriteTxnMarkers (or
// its response) the coordinator sends the leader the simulation's
// message goes to, on that leader's inter-broker proxy. A dropped
// request closes the proxied connection, which the coordinator's
// TransactionMarkerChannelManager sees as a disconnect and answers by
// sending the markers again, as the simulation's coordinator resends a
// lost one.
func (d *driver) markerFault(c script.Command, t resolved, to string) bool {
	o := ownerOf(d.ctx)
	if o == nil {
		return false
	}
	id := brokerOf(to)
	if id == 0 {
		return false
	}
	if d.unplaced(c) {
		return true
	}
	if d.markerHeld(c, t, to) { // markerhold.go
		return true
	}
	f := realkafka.FaultSpec{Key: int16(kmsg.WriteTxnMarkers), Dir: int(wire.Request)}
	if strings.HasSuffix(t.kind, "Response") {
		f.Dir = int(wire.Response)
	}
	switch a := c.Action.(type) {
	case engine.Drop:
		// Every copy until the simulation is quiet again: its
		// coordinator sends a lost marker again after
		// request.timeout.ms, Kafka's at once on the closed connection.
		f.Action, f.Times = int(wire.Drop), -1
		d.markerDrops = true
	case engine.Delay:
		if a.Ms > 10000 {
			d.stop(c, fmt.Sprintf("delay %d: the driver waits real time only up to 10 s", a.Ms), false)
			return true
		}
		if len(d.lateCopies) > 0 {
			// The simulation orders the late copy and the delayed
			// markers by its virtual clock; the broker run's are two
			// real-time waits on two connections, whose order the
			// machine's load decides.
			d.stop(c, "a delayed WriteTxnMarkers while the wrapper holds a late copy of a client's request: their order is the simulation's clock, the broker run's would be two real-time waits racing", false)
			return true
		}
		f.Action, f.DelayMs = int(wire.Delay), a.Ms
	default:
		return false
	}
	if err := o.Fault(id, f); err != nil {
		d.stop(c, "installing the fault between brokers failed: "+err.Error(), false)
	}
	return true
}

// requestLeader sends req and returns the answer; a Produce goes to its
// partition's leader. kgo's Client.Request sends a Produce to any broker
// (it splits only the requests its documentation lists), which on a
// cluster of several answers NOT_LEADER_OR_FOLLOWER when it is not the
// leader; a raw Produce (an inject, a mirrored producer's) is meant for
// the leader, as a client's is.
func (d *driver) requestLeader(ctx context.Context, cl *kgo.Client, req kmsg.Request) (kmsg.Response, error) {
	p, ok := req.(*kmsg.ProduceRequest)
	if !ok || len(p.Topics) == 0 || len(p.Topics[0].Partitions) == 0 {
		return cl.Request(ctx, req)
	}
	return d.leaderNamed(ctx, cl, p.Topics[0].Topic, p.Topics[0].Partitions[0].Partition).Request(ctx, req) // inject.go
}

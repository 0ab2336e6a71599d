package verify

import (
	"context"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/realkafka/wire"
	"github.com/eoslab/eoslab/engine/script"
)

// Followers that have not fetched yet. The simulation replicates a
// leader's appends one step after them (a replica fetch timer); until
// then the high watermark stays below the log end, an acks=all Produce
// waits for its answer, and a crash of the leader loses what was not
// copied. On a cluster verify owns, every follower's Fetch to a leader
// goes through the leader's inter-broker proxy (realkafka's owned.go), so
// the hold extends to them: each follower's next Fetch is held there
// (one per follower: ReplicaFetcherThread has one request in flight per
// leader), and only then are the calls that append let go, so nothing
// they append is copied until the simulation's followers fetch.
//
// Holding the followers of a broker holds every partition it leads,
// __transaction_state and __consumer_offsets ones too: a coordinator
// write there would wait, so a hold is made only where the simulation
// has nothing but the replica fetch pending, and only in a file without
// transactional ids or groups (noCoordinatorWrites), whose calls write
// nothing there.

// followerHolds adds to plan the followers' Fetch a hold keeps at each
// leader the simulation has a replica fetch pending on, and reports the
// clients whose acks=all Produce waits at such a leader (parked: its
// request delivered, its answer not yet sent). ok is false when the
// cluster is not one verify owns.
func (d *driver) followerHolds(w *engine.World, plan map[holdKey]int) bool {
	d.replica.parked, d.replica.tps = nil, nil
	if d.ctx == nil || ownerOf(d.ctx) == nil || !d.noCoordinatorWrites() {
		return false
	}
	o := ownerOf(d.ctx)
	live := 0
	for _, n := range o.Nodes() {
		if !n.Crashed {
			live++
		}
	}
	for _, t := range w.PendingTimers() {
		if t.Kind != engine.TimerReplicate || brokerOf(t.Owner) == 0 {
			continue
		}
		// Every live broker follows every other: the internal topics
		// have a replica on each (owned.go's replication factors).
		plan[holdKey{t.Owner, wire.Request, kmsg.Fetch}] = live - 1
		d.replica.tps = append(d.replica.tps, t.TP)
	}
	if len(d.replica.tps) == 0 {
		return true
	}
	d.replica.parked = map[string]bool{}
	for _, t := range w.PendingTimers() {
		if t.Kind != engine.TimerRequestTimeout {
			continue
		}
		if decl, isProd := d.decls[t.Owner]; isProd && decl.Config.Acks == -1 {
			d.replica.parked[t.Owner] = true
		}
	}
	return true
}

// replicaState is what a hold of followers knows: the partitions whose
// followers it holds and the clients parked at their leaders.
type replicaState struct {
	tps    []engine.TP
	parked map[string]bool
}

// parkMark is, before the queued calls go, each newly parked client's
// Produce count on the wire and the held partitions' log ends.
type parkMark struct {
	sent map[string]int
	ends map[engine.TP]int64
}

// parkClients marks the parked clients held (their calls block at the
// leader, so submit must not wait for them) and notes where the wire and
// the logs stand before their calls go.
func (d *driver) parkClients() parkMark {
	m := parkMark{sent: map[string]int{}, ends: map[engine.TP]int64{}}
	for name := range d.replica.parked {
		p := d.prods[name]
		if p == nil || d.held[name] {
			continue
		}
		d.held[name] = true
		p.pause = true
		m.sent[name] = p.faults().Sent(kmsg.Produce)
	}
	if len(m.sent) == 0 {
		return m
	}
	for _, tp := range d.replica.tps {
		if n, err := d.logEnd(script.Partition{Topic: tp.Topic, N: tp.Partition}); err == nil {
			m.ends[tp] = n
		}
	}
	return m
}

// awaitParked waits (bounded) until each newly parked client wrote its
// Produce and a held partition's leader appended it (its log end moved):
// the broker run's own request having landed, not the simulation's
// figure. A Produce the leader refuses lets the bound run out, and the
// rows then show what the leader holds.
func (d *driver) awaitParked(m parkMark) {
	if len(m.sent) == 0 {
		return
	}
	end := time.Now().Add(5 * time.Second)
	for time.Now().Before(end) {
		done := true
		for name, n := range m.sent {
			done = done && d.prods[name].faults().Sent(kmsg.Produce) > n
		}
		moved := len(m.ends) == 0
		for tp, n := range m.ends {
			if e, err := d.logEnd(script.Partition{Topic: tp.Topic, N: tp.Partition}); err == nil && e > n {
				moved = true
			}
		}
		if done && moved {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// awaitFollowers waits (bounded) until each leader's proxy holds plan's
// followers' Fetch: a Fetch already at the leader when the rule went in
// would copy what comes next (a follower's Fetch waits there up to
// replica.fetch.wait.max.ms, 500 ms, and returns at once on new data).
func (d *driver) awaitFollowers(plan map[holdKey]int) string {
	end := time.Now().Add(5 * time.Second)
	for k, n := range plan {
		if k.key != kmsg.Fetch || !isNode(k.client) {
			continue
		}
		for count(d.holder(k.client).Held(), k) < n {
			if time.Now().After(end) {
				return fmt.Sprintf("the followers of %s did not come to be held (%d of %d Fetch)", k.client, count(d.holder(k.client).Held(), k), n)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	return ""
}

// crashHeld plays a crash of broker id while the wire holds the
// simulation's messages in flight (the hold of the line before reached
// its point): the broker dies with what the simulation's dies with. What
// the followers' Fetch held on its proxy would have copied is lost with
// it; an answer it sent that a client's wrapper holds is still delivered
// when the simulation delivers it, as the simulation's network delivers
// a message already sent. It reports false when the broker run is not at
// the simulation's point.
func (d *driver) crashHeld(c script.Command, id int) bool {
	if !d.holding || len(d.early) > 0 || len(d.queue) > 0 {
		return false
	}
	o := ownerOf(d.ctx)
	if err := o.Crash(id); err != nil {
		d.stop(c, "crashing the broker failed: "+err.Error(), false)
		return true
	}
	addr := fmt.Sprintf("broker-%d", id)
	if n, ok := d.nodeHolds[addr]; ok {
		for _, h := range n.Held() {
			n.ReleaseCorr(h.Dir, h.CorrID, true)
		}
		n.ReleaseAll()
		delete(d.nodeHolds, addr)
	}
	rules := d.holdRules[:0]
	for _, k := range d.holdRules {
		if k.client != addr {
			rules = append(rules, k)
		}
	}
	d.holdRules = rules
	d.awaitLeadersOff(int32(id)) // cluster.go
	d.refreshMetadata()
	return true
}

// logEnd is the log end offset of tp's leader: ListOffsets latest with
// the debugging replica id (-2), which the leader answers without an
// isolation level, from its local log's end (KafkaApis.handleListOffsetRequest,
// Partition.fetchOffsetForTimestamp), where a consumer's (-1) gets the
// high watermark.
func (d *driver) logEnd(tp script.Partition) (int64, error) {
	ctx, cancel := context.WithTimeout(d.ctx, 30*time.Second)
	defer cancel()
	req := kmsg.NewPtrListOffsetsRequest()
	req.ReplicaID = -2
	rt := kmsg.NewListOffsetsRequestTopic()
	rt.Topic = d.name(tp.Topic)
	rp := kmsg.NewListOffsetsRequestTopicPartition()
	rp.Partition, rp.Timestamp, rp.CurrentLeaderEpoch = tp.N, -1, -1
	rt.Partitions = append(rt.Partitions, rp)
	req.Topics = append(req.Topics, rt)
	resp, err := req.RequestWith(ctx, d.raw)
	if err != nil {
		return 0, err
	}
	if len(resp.Topics) == 0 || len(resp.Topics[0].Partitions) == 0 {
		return 0, fmt.Errorf("ListOffsets: no answer for %s-%d", rt.Topic, tp.N)
	}
	p := resp.Topics[0].Partitions[0]
	if err := kerr.ErrorForCode(p.ErrorCode); err != nil {
		return 0, fmt.Errorf("ListOffsets: %w", err)
	}
	return p.Offset, nil
}

// noCoordinatorWrites reports whether the file's clients write nothing
// to a coordinator's log: no transactional id, no processor, no group.
func (d *driver) noCoordinatorWrites() bool {
	for _, p := range d.decls {
		if p.Config.TransactionalID != "" {
			return false
		}
	}
	for _, c := range d.cdecls {
		if c.GroupID != "" {
			return false
		}
	}
	return len(d.procs) == 0
}

// unholdFollowers lets the followers of each leader whose replica fetch
// the simulation has done fetch again: a held Fetch let go is followed by
// the follower's next, which a Hold rule left in place would hold. The
// proxy lifts a node's holds all at once (Owner.ReleaseHolds), so a
// leader with another message held (a marker) cannot have its followers
// let go alone.
func (d *driver) unholdFollowers(plan map[holdKey]int) string {
	var keep []holdKey
	done := map[string]bool{}
	for _, k := range d.holdRules {
		if !isNode(k.client) || k.key != kmsg.Fetch || plan[k] > 0 {
			keep = append(keep, k)
			continue
		}
		for o := range plan {
			if o.client == k.client && o != k && plan[o] > 0 {
				return fmt.Sprintf("the simulation's followers of %s fetched while a %s to it is held; the proxy lets a node's holds go only together", k.client, o)
			}
		}
		done[k.client] = true
	}
	for addr := range done {
		d.holder(addr).ReleaseAll()
		delete(d.nodeHolds, addr)
	}
	kept := keep[:0]
	for _, k := range keep {
		if !done[k.client] {
			kept = append(kept, k)
		}
	}
	d.holdRules = kept
	return ""
}

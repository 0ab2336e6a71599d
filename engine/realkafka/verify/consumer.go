package verify

import (
	"context"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// crashConsumer ends a consumer's instance. kgo's Close leaves the group
// (LeaveGroup), where a crashed Java consumer stays a member until its
// session times out (session.timeout.ms, 45 s by default) and the group
// then rebalances without it. The facts a file compares (what the next
// instance reads, the committed offsets) are the same either way once the
// session has expired; the explicit leave makes that immediate instead of
// 45 s of real time. The group's generation and members, which would
// differ, are not compared.
func (d *driver) crashConsumer(name string) {
	d.flush(nil)
	d.rawGone(name)
	cs := d.consumerOf(name)
	if cs.cl != nil {
		cs.cl.Close()
		cs.cl = nil
	}
	cs.crashed = true
}

// restartConsumer is a new instance with the same configuration: it joins
// the group again on its first poll and starts at the committed offsets
// (or where auto.offset.reset says). What the old instance handed out
// stays in values and offsets, as the simulation's consumer keeps them.
func (d *driver) restartConsumer(name string) {
	cs := d.consumerOf(name)
	if cs.raw != nil {
		if why := d.rawRestart(d.cdecls[name].GroupID, name); why != "" {
			d.stop(d.cmds[d.at], why, false)
		}
		return
	}
	cs.crashed, cs.lastErr = false, nil
	if d.obs != nil {
		cs.since = len(d.obs.exchanges())
	}
	for tp := range cs.pos {
		delete(cs.pos, tp)
	}
}

// pollNoReset is the poll of a consumer with auto.offset.reset=none. Java's
// poll throws NoOffsetForPartitionException for a partition without a
// committed offset before it fetches anything and keeps no position
// (SubscriptionState.resetInitializingPositions); franz-go's NoResetOffset
// instead keeps the partition and reports an error on every fetch. So the
// broker run asks the group coordinator first (OffsetFetch): with every
// partition committed the poll is played (kgo starts at the committed
// offsets, as Java does); otherwise nothing is fetched, as in Java, and the
// exception itself is a client fact, simulation-only.
func (d *driver) pollNoReset(c script.Command, name string, cd engine.DeclareConsumer) {
	if cd.GroupID == "" {
		d.stop(c, "auto.offset.reset=none without a group: nothing is ever committed for it", false)
		return
	}
	cs := d.consumerOf(name)
	d.enqueue(&cs.worker, func(ctx context.Context) {
		if cs.cl == nil && !d.allCommitted(ctx, cd) {
			return
		}
		d.poll(ctx, name, cs)
	})
}

// allCommitted says whether the group has a committed offset for every
// partition of the consumer's topics.
func (d *driver) allCommitted(ctx context.Context, cd engine.DeclareConsumer) bool {
	os, err := d.adm.FetchOffsets(ctx, d.prefix+cd.GroupID)
	if err != nil {
		return false
	}
	topics := cd.Topics
	if len(topics) == 0 {
		for _, t := range d.topics {
			topics = append(topics, t[len(d.prefix):])
		}
	}
	td, err := d.adm.ListTopics(ctx)
	if err != nil {
		return false
	}
	for _, t := range topics {
		for _, p := range td[d.name(t)].Partitions {
			if o, ok := os.Lookup(d.name(t), p.Partition); !ok || o.At < 0 {
				return false
			}
		}
	}
	return true
}

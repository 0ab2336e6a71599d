package verify

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// A group's members on the broker are kgo's own group consumers. One member
// joins, polls, commits and hands its group metadata (member id and
// generation, KIP-447) to sendOffsetsToTransaction as Java's
// consumer.groupMetadata() does. A second live member of the same group
// makes the coordinator rebalance: the first member's kgo client must
// rejoin, which happens on kgo's own schedule, not at a line of the file,
// so the generation each member holds at the next line is timing. The
// driver stops a file there (and at a rebalance line), rather than compare
// facts that depend on it.

// memberJoins is called before a consumer's poll: it stops the file when
// another live member of the consumer's group has a client on the broker.
func (d *driver) memberJoins(c script.Command, name string) bool {
	cd := d.cdecls[name]
	if cd.GroupID == "" {
		return true
	}
	for other, od := range d.cdecls {
		if other == name || od.GroupID != cd.GroupID {
			continue
		}
		if cs, ok := d.cons[other]; ok && cs.cl != nil && !cs.crashed {
			d.stop(c, "a second live member joins group "+cd.GroupID+": kgo rejoins the first member on its own schedule, so the generation each member holds at the next line is timing", false)
			return false
		}
		if cs, ok := d.cons[other]; ok && cs.raw != nil {
			d.stop(c, "a kgo member joins group "+cd.GroupID+" beside a member that never polls (a raw member, rawgroup.go), whose rejoin the coordinator would wait for until its rebalance timeout", false)
			return false
		}
	}
	return true
}

// member is a client of the file that is a live member of a group on the
// broker: a group consumer or a processor with a kgo client.
type member struct {
	name   string
	cl     *kgo.Client
	paused bool
}

// liveMembers are the group's members that have a kgo client now.
func (d *driver) liveMembers(group string) []member {
	var out []member
	for name, cd := range d.cdecls {
		if cs, ok := d.cons[name]; ok && cd.GroupID == group && cs.cl != nil && !cs.crashed {
			out = append(out, member{name, cs.cl, cs.pause})
		}
	}
	for name, pr := range d.procs {
		if pr.decl.GroupID == group && pr.prod.cl != nil && !pr.prod.closed {
			out = append(out, member{name, pr.prod.cl, pr.prod.pause})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// rebalance is the simulation's `rebalance G`: the group moves to the next
// generation and its members learn of it only when they rejoin, so a
// member's offsets at the old generation are refused (ILLEGAL_GENERATION,
// KIP-447). On the broker the group's one live member, a kgo client,
// rejoins at once (kgo's ForceRebalance: the leader's JoinGroup, which
// makes the coordinator bump the generation), and the file's lines that
// name an old generation name it relative to the current one
// (translateGeneration). A group with no live member, more than one, or a
// paused one (the coordinator would wait for it until its session times
// out) is not played.
//
// It runs at once, before any call still queued for the next quiet point:
// in the simulation too those calls reach the coordinator after the
// generation moved.
func (d *driver) rebalance(c script.Command, group string, w *engine.World) {
	ms := d.liveMembers(group)
	if len(ms) == 0 {
		// Members that never poll join raw (rawgroup.go).
		if why := d.ensureRaw(d.ctx, group); why != "" {
			d.stop(c, why, false)
			return
		}
		if raw := d.rawMembers(group); len(raw) > 0 {
			if why := d.rawRebalance(group); why != "" {
				d.stop(c, why, false)
				return
			}
			// Both runs are past this line's rebalance.
			d.noteJoin(group, d.cons[raw[0]].raw.gen, simGeneration(w, group))
			return
		}
	}
	switch {
	case len(ms) == 0:
		d.stop(c, "a rebalance of a group without a member on the broker: the simulation's members join at their declaration, the broker's at their first poll", false)
		return
	case len(ms) > 1:
		d.stop(c, "a rebalance of a group with more than one member on the broker: each kgo member rejoins on its own schedule", false)
		return
	case ms[0].paused:
		if cs, ok := d.cons[ms[0].name]; ok {
			d.evictPaused(cs)
			return
		}
		d.stop(c, "a rebalance while the member is paused: the coordinator waits for a paused member until its session times out (session.timeout.ms)", false)
		return
	}
	cl := ms[0].cl
	_, before := cl.GroupMetadata()
	cl.ForceRebalance()
	end := time.Now().Add(30 * time.Second)
	for time.Now().Before(end) {
		if _, gen := cl.GroupMetadata(); gen > before && d.groupStable(group) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	d.stop(c, "the member did not rejoin within 30 s after the rebalance", false)
}

func (d *driver) groupStable(group string) bool {
	ctx, cancel := context.WithTimeout(d.ctx, 5*time.Second)
	defer cancel()
	gs, err := d.adm.DescribeGroups(ctx, d.prefix+group)
	if err != nil {
		return false
	}
	return gs[d.prefix+group].State == "Stable"
}

// membership is how a sendOffsetsToTransaction line's member and
// generation read on the broker: the member id of the file's client the
// simulation's id names, and the generation as far behind the group's
// current one as the line's is behind the simulation's.
type membership struct {
	client string // the client whose broker member id stands for the line's (""; none)
	behind int32  // the line's generation's distance from the current one (-1: literal)
}

func (d *driver) membershipOf(a engine.SendOffsets, w *engine.World) membership {
	m := membership{behind: -1}
	g := w.Group(a.Group)
	if g == nil {
		return m
	}
	if a.Member != "" {
		for _, gm := range g.Members {
			if gm.MemberID == a.Member {
				m.client = gm.Client
			}
		}
	}
	if a.Generation != -1 && (m.client != "" || a.Consumer != "") {
		m.behind = g.Generation - a.Generation
	}
	return m
}

// translate rewrites a's member and generation for the broker (on the
// worker, when the call runs).
func (d *driver) translate(a engine.SendOffsets, m membership) engine.SendOffsets {
	var cl *kgo.Client
	who := m.client
	if who == "" {
		who = a.Consumer
	}
	for _, lm := range d.liveMembers(a.Group) {
		if lm.name == who {
			cl = lm.cl
		}
	}
	var id string
	var gen int32
	switch {
	case cl != nil:
		id, gen = cl.GroupMetadata()
	case d.cons[who] != nil && d.cons[who].raw != nil:
		id, gen = d.cons[who].raw.id, d.cons[who].raw.gen
	default:
		return a
	}
	if m.client != "" {
		a.Member = id
	}
	if m.behind >= 0 {
		a.Generation = gen - m.behind
	}
	return a
}

// evictPaused is `rebalance G` while the group's one member, a consumer,
// is paused: the simulation's coordinator moves on without it, as Kafka's
// does once the member's session times out (session.timeout.ms, 45 s by
// default, without a heartbeat) and removes it, which starts the next
// generation. On the broker the member leaves now instead: its held
// writes (heartbeats, fetches) go, and kgo's Close sends LeaveGroup, the
// same removal without 45 s of real time (as crashConsumer). The consumer
// joins again, as a new member, at its next poll, as a Java consumer
// whose session expired does.
func (d *driver) evictPaused(cs *consumer) {
	cs.faults().Resume()
	cs.pause = false
	cs.busy.Wait()
	cs.cl.Close()
	cs.cl, cs.evicted = nil, true
	for tp := range cs.pos {
		delete(cs.pos, tp)
	}
}

// genRef is where the broker run's members of a group first held a
// generation: the broker's, and the simulation's at the same line.
type genRef struct {
	broker, sim int32
	line        int
	// apart: why the runs' membership histories went apart since ("":
	// they did not).
	apart string
}

// genApart notes that the broker run's membership of group stops
// following the simulation's from here (why).
func (d *driver) genApart(group, why string) {
	d.genMu.Lock()
	defer d.genMu.Unlock()
	if r, ok := d.genRefs[group]; ok && r.apart == "" {
		r.apart = why
		d.genRefs[group] = r
	}
}

// noteJoin records the first generation the broker run's members of
// group hold (broker), beside the simulation's there (sim).
func (d *driver) noteJoin(group string, broker, sim int32) {
	d.genMu.Lock()
	defer d.genMu.Unlock()
	if d.genRefs == nil {
		d.genRefs = map[string]genRef{}
	}
	if _, ok := d.genRefs[group]; !ok && broker > 0 {
		d.genRefs[group] = genRef{broker: broker, sim: sim, line: int(d.obs.line.Load())}
	}
}

// simGeneration is the simulation's generation of group now (0: none).
func simGeneration(w *engine.World, group string) int32 {
	if g := w.Group(group); g != nil {
		return g.Generation
	}
	return 0
}

// groupGeneration compares `expect group G generation N` with the
// generation the coordinator's newest JoinGroup answer gave the group's
// live members on the broker run. The simulation's consumers join at
// their declaration, each in a generation of its own; the broker run's
// raw members join at the group's first rebalance line, kgo's at its
// first poll. The numbers are compared only where the two runs' first
// generations were the same, and no member's client was closed since (a
// crash on the broker run is kgo's LeaveGroup, a Java consumer's is a
// session timeout), so that every later one is a rebalance both runs
// made.
func (d *driver) groupGeneration(x script.GroupCheck) (bool, string, string) {
	d.genMu.Lock()
	ref, ok := d.genRefs[x.Group]
	d.genMu.Unlock()
	if !ok {
		return false, "", "no member of the group joined it on the broker run"
	}
	if ref.apart != "" {
		return false, "", ref.apart + ": the generation numbers are not the simulation's from there"
	}
	for _, c := range d.cmds[:min(d.at+1, len(d.cmds))] {
		var who string
		switch a := c.Action.(type) {
		case engine.Crash:
			who = a.Target.Client
		case engine.Restart:
			who = a.Target.Client
		}
		if c.Line <= ref.line || who == "" {
			continue
		}
		if d.cdecls[who].GroupID == x.Group || d.procs[who] != nil && d.procs[who].decl.GroupID == x.Group {
			return false, "", fmt.Sprintf("line %d crashes or restarts %s, a member of the group: the broker run closes its client, which leaves the group (LeaveGroup), where a crashed Java client sends nothing and is removed when its session times out: the generation numbers are not the simulation's from there", c.Line, who)
		}
	}
	if ref.broker != ref.sim {
		return false, "", fmt.Sprintf("the broker run's members joined the group at line %d in generation %d, where the simulation's group was at generation %d (the simulation's consumers join, and rejoin at a restart, from their declaration on; the broker run's from the group's first rebalance line, or kgo's first poll): the generation numbers are not the simulation's", ref.line, ref.broker, ref.sim)
	}
	gen, who := int32(0), ""
	for _, name := range d.rawMembers(x.Group) {
		if g := d.cons[name].raw.gen; g > gen {
			gen, who = g, name
		}
	}
	for _, m := range d.liveMembers(x.Group) {
		if _, g := m.cl.GroupMetadata(); g > gen {
			gen, who = g, m.name
		}
	}
	if who == "" {
		return false, "", "no live member of the group on the broker run holds a generation"
	}
	return int64(gen) == x.N.V, fmt.Sprintf("generation %d (the coordinator's JoinGroup answer to %s)", gen, who), ""
}

// notePolled records the generation a group consumer's kgo client joined
// in at its first poll (sim: the simulation's generation at the poll's
// line).
func (d *driver) notePolled(name string, cs *consumer, sim int32) {
	if cs.cl == nil || d.cdecls[name].GroupID == "" {
		return
	}
	_, gen := cs.cl.GroupMetadata()
	d.noteJoin(d.cdecls[name].GroupID, gen, sim)
}

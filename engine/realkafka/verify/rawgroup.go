package verify

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// A group member that never polls. The simulation's consumers join their
// group at their declaration; kgo's join at their first poll. A file that
// rebalances a group, or hands a member's metadata to
// sendOffsetsToTransaction, before its consumers poll is played with raw
// members: each such consumer joins the group with JoinGroup and SyncGroup
// of its own (kmsg, the classic protocol, as Java's ClassicKafkaConsumer
// does), on a connection of its own (a broker reads a connection's next
// request only after answering the one before, and a JoinGroup waits for
// the rebalance), and never heartbeats within the file: its session
// timeout outlasts the file. A `rebalance G` is then every raw member's
// JoinGroup at once (the leader's rejoin makes the coordinator start a new
// generation, GroupMetadataManager's classic join of an existing member)
// and SyncGroup. Its member id and generation are the coordinator's
// answers. At the consumer's first poll the raw member leaves the group
// (LeaveGroup) and kgo joins in its place.

// rawMember is one consumer's raw membership.
type rawMember struct {
	cl       *kgo.Client
	id       string
	gen      int32
	instance *string
}

const (
	rawSessionMs   = 300000 // outlasts a file; group.max.session.timeout.ms is 30 min by default
	rawRebalanceMs = 30000
)

// rawMembers are the consumers of group with raw membership, sorted.
func (d *driver) rawMembers(group string) []string {
	var out []string
	for name, cd := range d.cdecls {
		if cs, ok := d.cons[name]; ok && cd.GroupID == group && cs.raw != nil {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// rawCandidates are the consumers of group that a raw join would make
// members: declared with the group, not crashed, never polled.
func (d *driver) rawCandidates(group string) []string {
	var out []string
	for name, cd := range d.cdecls {
		if cd.GroupID != group {
			continue
		}
		if cs, ok := d.cons[name]; ok && (cs.cl != nil || cs.crashed || cs.raw != nil || cs.polled) {
			continue
		}
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// ensureRaw makes the group's never-polled consumers raw members (all in
// one join round), unless a kgo member is live in the group. It says why
// not, "" when the group's members are raw (or there are none to make).
func (d *driver) ensureRaw(ctx context.Context, group string) string {
	if len(d.liveMembers(group)) > 0 {
		return ""
	}
	names := d.rawCandidates(group)
	if len(names) == 0 {
		return ""
	}
	for _, n := range names {
		cs := d.consumerOf(n)
		cl, err := kgo.NewClient(append(d.sasl(), kgo.SeedBrokers(d.seed...), kgo.Dialer(d.dial()))...)
		if err != nil {
			return "a client for a raw group member: " + err.Error()
		}
		cs.raw = &rawMember{cl: cl}
		if inst := d.cdecls[n].InstanceID; inst != "" {
			cs.raw.instance = &inst
		}
	}
	if !containsStr(d.groups, d.prefix+group) {
		d.groups = append(d.groups, d.prefix+group)
	}
	return d.rawJoinAll(ctx, group, names)
}

// rawRound is one join round that trigger starts: its JoinGroup goes
// first and, once the coordinator prepares a rebalance, the others' at
// once (a member that rejoins while the group is still stable would be
// answered with the current generation and miss the round); then every
// member of the round syncs (the leader hands each an empty assignment:
// the simulation does not assign partitions inside a group). A trigger
// the coordinator answers without a rebalance (a static member's new
// instance in a stable group, KIP-345) syncs alone.
func (d *driver) rawRound(ctx context.Context, group, trigger string, others []string) string {
	ctx, cancel := context.WithTimeout(ctx, 2*rawRebalanceMs*time.Millisecond)
	defer cancel()
	type result struct {
		leader string
		err    error
	}
	tr := make(chan result, 1)
	go func() {
		l, err := d.rawJoin(ctx, group, trigger, d.cons[trigger].raw)
		tr <- result{l, err}
	}()
	var (
		first  *result
		joined []string
		leader string
		errs   []error
	)
	for first == nil && joined == nil {
		select {
		case r := <-tr:
			first = &r
			continue
		case <-ctx.Done():
			return "a raw member's JoinGroup: " + ctx.Err().Error()
		case <-time.After(20 * time.Millisecond):
		}
		if len(others) > 0 && d.groupState(group) == "PreparingRebalance" {
			var wg sync.WaitGroup
			var mu sync.Mutex
			for _, n := range others {
				wg.Add(1)
				go func() {
					defer wg.Done()
					l, err := d.rawJoin(ctx, group, n, d.cons[n].raw)
					mu.Lock()
					errs = append(errs, err)
					if l != "" {
						leader = l
					}
					mu.Unlock()
				}()
			}
			wg.Wait()
			joined = others
		}
	}
	if first == nil {
		r := <-tr
		first = &r
	}
	if err := errors.Join(append(errs, first.err)...); err != nil {
		return "a raw member's JoinGroup: " + err.Error()
	}
	if first.leader != "" {
		leader = first.leader
	}
	names := append([]string{trigger}, joined...)
	if debug {
		for _, n := range names {
			fmt.Fprintf(os.Stderr, "raw join %s: %s gen %d leader %s\n", n, d.cons[n].raw.id, d.cons[n].raw.gen, leader)
		}
	}
	var wg sync.WaitGroup
	serrs := make([]error, len(names))
	for i, n := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			serrs[i] = d.rawSync(ctx, group, d.cons[n].raw, leader == d.cons[n].raw.id, names)
		}()
	}
	wg.Wait()
	if err := errors.Join(serrs...); err != nil {
		return "a raw member's SyncGroup: " + err.Error()
	}
	d.rawLeaders[group] = leader
	return ""
}

// groupState is the group's state as DescribeGroups gives it ("" when
// it cannot be read).
func (d *driver) groupState(group string) string {
	ctx, cancel := context.WithTimeout(d.ctx, 5*time.Second)
	defer cancel()
	gs, err := d.adm.DescribeGroups(ctx, d.prefix+group)
	if err != nil {
		return ""
	}
	return gs[d.prefix+group].State
}

// rawJoinAll makes names raw members one at a time, as the simulation's
// consumers join at their declarations: each new member's join is a new
// generation the members before it rejoin.
func (d *driver) rawJoinAll(ctx context.Context, group string, names []string) string {
	for _, n := range names {
		var before []string
		for _, m := range d.rawMembers(group) {
			if m != n && d.cons[m].raw.id != "" {
				before = append(before, m)
			}
		}
		if why := d.rawRound(ctx, group, n, before); why != "" {
			return why
		}
	}
	return ""
}

// rawJoin is one member's JoinGroup, repeated once with the member id the
// coordinator hands a new member (MEMBER_ID_REQUIRED, KIP-394); it
// returns the group's leader.
func (d *driver) rawJoin(ctx context.Context, group, name string, m *rawMember) (string, error) {
	meta := kmsg.NewConsumerMemberMetadata()
	for _, t := range d.cdecls[name].Topics {
		meta.Topics = append(meta.Topics, d.name(t))
	}
	for range 3 {
		req := kmsg.NewPtrJoinGroupRequest()
		req.Group, req.MemberID, req.InstanceID = d.prefix+group, m.id, m.instance
		req.SessionTimeoutMillis, req.RebalanceTimeoutMillis = rawSessionMs, rawRebalanceMs
		req.ProtocolType = "consumer"
		p := kmsg.NewJoinGroupRequestProtocol()
		p.Name, p.Metadata = "range", meta.AppendTo(nil)
		req.Protocols = append(req.Protocols, p)
		resp, err := req.RequestWith(ctx, m.cl)
		if err != nil {
			return "", err
		}
		err = kerr.ErrorForCode(resp.ErrorCode)
		if errors.Is(err, kerr.MemberIDRequired) {
			m.id = resp.MemberID
			continue
		}
		if err != nil {
			return "", fmt.Errorf("%s: %w", name, err)
		}
		m.id, m.gen = resp.MemberID, resp.Generation
		return resp.LeaderID, nil
	}
	return "", fmt.Errorf("%s: no member id after MEMBER_ID_REQUIRED", name)
}

// rawSync is one member's SyncGroup; the leader sends the (empty)
// assignments of the round's members.
func (d *driver) rawSync(ctx context.Context, group string, m *rawMember, leader bool, names []string) error {
	req := kmsg.NewPtrSyncGroupRequest()
	req.Group, req.Generation, req.MemberID, req.InstanceID = d.prefix+group, m.gen, m.id, m.instance
	pt, pn := "consumer", "range"
	req.ProtocolType, req.Protocol = &pt, &pn
	if leader {
		for _, n := range names {
			a := kmsg.NewSyncGroupRequestGroupAssignment()
			a.MemberID = d.cons[n].raw.id
			ca := kmsg.NewConsumerMemberAssignment()
			a.MemberAssignment = ca.AppendTo(nil)
			req.GroupAssignment = append(req.GroupAssignment, a)
		}
	}
	resp, err := req.RequestWith(ctx, m.cl)
	if err != nil {
		return err
	}
	return kerr.ErrorForCode(resp.ErrorCode)
}

// rawRebalance is `rebalance G` over raw members.
func (d *driver) rawRebalance(group string) string {
	leader := d.rawLeaders[group]
	var others []string
	for _, n := range d.rawMembers(group) {
		if d.cons[n].raw.id == leader {
			leader = n
		} else {
			others = append(others, n)
		}
	}
	if len(others) == len(d.rawMembers(group)) {
		return "the raw members of " + group + " have no leader among them"
	}
	return d.rawRound(d.ctx, group, leader, others)
}

// rawRestart is a raw member's new instance: a static member rejoins
// with its group.instance.id and no member id, and the coordinator hands
// it a new member id (the old one is fenced, KIP-345); a dynamic one
// leaves and joins again as a new member.
func (d *driver) rawRestart(group, name string) string {
	m := d.cons[name].raw
	if m.instance == nil {
		d.rawLeave(group, m)
	}
	m.id = ""
	var others []string
	for _, n := range d.rawMembers(group) {
		if n != name {
			others = append(others, n)
		}
	}
	return d.rawRound(d.ctx, group, name, others)
}

// rawLeave takes a raw member out of its group (LeaveGroup) and closes its
// client.
func (d *driver) rawLeave(group string, m *rawMember) {
	ctx, cancel := context.WithTimeout(d.ctx, 10*time.Second)
	defer cancel()
	req := kmsg.NewPtrLeaveGroupRequest()
	req.Group = d.prefix + group
	lm := kmsg.NewLeaveGroupRequestMember()
	lm.MemberID, lm.InstanceID = m.id, m.instance
	req.Members = append(req.Members, lm)
	req.RequestWith(ctx, m.cl)
}

// rawGone ends the consumer's raw membership (its first poll, a crash,
// the end of the file).
func (d *driver) rawGone(name string) {
	cs := d.cons[name]
	if cs == nil || cs.raw == nil {
		return
	}
	d.rawLeave(d.cdecls[name].GroupID, cs.raw)
	cs.raw.cl.Close()
	cs.raw = nil
	d.genApart(d.cdecls[name].GroupID, fmt.Sprintf("at line %d %s's raw membership left the group for its kgo client's (group.go)", d.obs.line.Load(), name))
}

package verify

import (
	"fmt"
	"os"
	"strings"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/realkafka"
	"github.com/eoslab/eoslab/engine/realkafka/wire"
	"github.com/eoslab/eoslab/engine/script"
)

// Markers in flight. On a cluster verify owns, every WriteTxnMarkers a
// coordinator sends a partition leader (and the leader's answer) goes
// through the leader's inter-broker proxy in the eoslab kafka up process
// (realkafka's owned.go), so the hold of inflight.go extends to them: the
// proxy keeps the frame until the simulation delivers its marker, and an
// expect line asked meanwhile sees the leader without the marker (the
// partition's last stable offset still at the open transaction) and the
// coordinator in PrepareCommit or PrepareAbort, as the simulation's.

// holder is what a hold needs of the wire: a producer's wrapper, or a
// leader's inter-broker proxy through the Owner.
type holder interface {
	Held() []wire.Held
	ReleaseCorr(dir wire.Direction, corr int32, lose bool) bool
	Add(r wire.Rule)
	HasRule(key kmsg.Key, dir wire.Direction, a wire.Action) bool
	ReleaseAll()
}

// nodeHold holds on the way to one node of an owned cluster. The Owner
// keeps the frames; nodeHold remembers which Hold rules it added.
type nodeHold struct {
	o     realkafka.Owner
	id    int
	rules map[holdKey]bool
}

func (n *nodeHold) Held() []wire.Held {
	hs, _ := n.o.Held(n.id) // an error reads as nothing held: awaitHeld then says what is missing
	return hs
}

func (n *nodeHold) ReleaseCorr(dir wire.Direction, corr int32, lose bool) bool {
	ok, _ := n.o.Release(n.id, dir, corr, lose)
	return ok
}

func (n *nodeHold) Add(r wire.Rule) {
	if n.o.Fault(n.id, realkafka.FaultSpec{Key: int16(r.Key), Dir: int(r.Dir), Action: int(wire.Hold), Times: -1}) == nil {
		n.rules[holdKey{dir: r.Dir, key: r.Key}] = true
	}
}

func (n *nodeHold) HasRule(key kmsg.Key, dir wire.Direction, a wire.Action) bool {
	return a == wire.Hold && n.rules[holdKey{dir: dir, key: key}]
}

func (n *nodeHold) ReleaseAll() {
	n.o.ReleaseHolds(n.id)
	clear(n.rules)
}

// isNode: a hold key's client is a broker ("broker-N"), the leader a
// held marker goes to.
func isNode(client string) bool { return strings.HasPrefix(client, "broker-") }

// holder is the wire that holds client's messages.
func (d *driver) holder(client string) holder {
	if !isNode(client) {
		return d.prods[client].faults()
	}
	if n, ok := d.nodeHolds[client]; ok {
		return n
	}
	if d.nodeHolds == nil {
		d.nodeHolds = map[string]*nodeHold{}
	}
	n := &nodeHold{o: ownerOf(d.ctx), id: brokerOf(client), rules: map[holdKey]bool{}}
	d.nodeHolds[client] = n
	return n
}

// markerKey is the hold key of a WriteTxnMarkers message (or its
// answer) between two brokers, when the broker run can hold it: on a
// cluster verify owns, on the leader's proxy.
func (d *driver) markerKey(m *engine.Message, name string, dir wire.Direction) (holdKey, bool) {
	if name != "WriteTxnMarkers" || !isNode(m.From) || !isNode(m.To) || d.ctx == nil || ownerOf(d.ctx) == nil {
		return holdKey{}, false
	}
	leader := m.To
	if dir == wire.Response {
		leader = m.From
	}
	if brokerOf(leader) == 0 {
		return holdKey{}, false
	}
	return holdKey{leader, dir, kmsg.WriteTxnMarkers}, true
}

// lateMarkers says why a hold cannot start with markers in flight: the
// broker run has no call left to send that would make its coordinator
// write them, so they went out unheld ("" when a queued call remains).
func (d *driver) lateMarkers(plan map[holdKey]int) string {
	if d.holding || len(d.queue) > 0 {
		return ""
	}
	for k := range plan {
		if isNode(k.client) {
			return fmt.Sprintf("the simulation has a %s in flight, which the broker run's coordinator sent before the hold began", k)
		}
	}
	return ""
}

// releaseNodes lets every marker held on a proxy go on.
func (d *driver) releaseNodes() {
	for _, n := range d.nodeHolds {
		n.ReleaseAll()
	}
	d.nodeHolds = nil
}

// markerHeld plays a drop or delay of a marker the proxy holds: a drop
// loses it (the connection closes and the coordinator sends it again,
// which the drop rule of markerFault then loses too, until the simulation
// is quiet) and reports false so that markerFault adds that rule; a delay
// is the hold itself, which lets the marker go when the simulation
// delivers it (true: played).
func (d *driver) markerHeld(c script.Command, t resolved, to string) bool {
	if _, delay := c.Action.(engine.Delay); delay && !d.holding {
		return d.holdForDelay(c, t)
	}
	n, ok := d.nodeHolds[to]
	if !d.holding || !ok {
		return false
	}
	dir := wire.Request
	if strings.HasSuffix(t.kind, "Response") {
		dir = wire.Response
	}
	for _, h := range n.Held() {
		if h.Dir != dir || h.Key != kmsg.WriteTxnMarkers {
			continue
		}
		switch c.Action.(type) {
		case engine.Delay:
			return true
		case engine.Drop:
			// Lost, and no Hold rule left before the drop rule
			// markerFault adds for the resends (rules match in order).
			n.ReleaseCorr(dir, h.CorrID, true)
			n.ReleaseAll()
			return false
		}
		return false
	}
	return false
}

// holdForDelay starts holding at a delay line of a marker while the
// broker run's coordinator has not sent it yet (the call that makes it is
// still queued) and a broker fact is asked before the next run line: the
// hold then plays the delay, letting the marker go when the simulation
// delivers it, on the simulation's clock rather than a real-time wait.
// false leaves the line to the delay rule of markerFault.
//
// With a late copy held (latecopy.go) the hold is the only way to play
// the delay: the copy and the marker then both go when the simulation
// delivers them, in its order, where a real-time delay of the marker
// would race the copy's release.
func (d *driver) holdForDelay(c script.Command, t resolved) bool {
	if t.world == nil || (len(d.lateCopies) == 0 && !d.brokerFactAhead()) {
		return false
	}
	plan, why := d.holdPlan(t.world)
	if why != "" && len(d.lateCopies) > 0 && d.runNext() {
		plan, why = d.orderHold(t.world)
	}
	if debug {
		fmt.Fprintf(os.Stderr, "holdForDelay: plan %v why %q late %q\n", plan, why, d.lateMarkers(plan))
	}
	if why != "" || d.lateMarkers(plan) != "" {
		return false
	}
	for k := range plan {
		if isNode(k.client) {
			continue
		}
		if p := d.prods[k.client]; p == nil || p.pause || d.early[k.client] != 0 {
			return false
		}
	}
	d.startHold(c, plan, "the delayed marker") // inflight.go
	return true
}

// loseNodeHolds loses the markers held on the proxies, as a crash before
// their delivery loses the simulation's (crashBroker), and forgets the
// Hold rules, which the crash's ClearFaults removes.
func (d *driver) loseNodeHolds() {
	for _, n := range d.nodeHolds {
		for _, h := range n.Held() {
			n.ReleaseCorr(h.Dir, h.CorrID, true)
		}
	}
	d.nodeHolds = nil
}

// orderHold is the plan of a hold that only orders a late copy and a
// delayed marker, up to a run line that delivers everything: the hold
// compares no fact, so a client's retry.backoff.ms pending in the
// simulation (its client took an answer the broker run's TCP client
// cannot read, latecopy.go) does not keep it from the point. Other
// pending work still does.
func (d *driver) orderHold(w *engine.World) (map[holdKey]int, string) {
	plan, inFlight, why := d.messagesHeld(w)
	if why != "" {
		return nil, why
	}
	for _, t := range w.PendingTimers() {
		_, client := d.decls[t.Owner]
		switch {
		case t.Kind == engine.TimerAbortCheck, t.Kind == engine.TimerExpiryCheck:
		case t.Kind == engine.TimerRequestTimeout && (client || inFlight[t.Owner]):
		case t.Kind == engine.TimerRetryBackoff && client:
		default:
			return nil, d.pendingWhy(t) // inflight.go
		}
	}
	return plan, ""
}

// runNext reports whether the next action line after the one being
// played is a run (which delivers every message in flight).
func (d *driver) runNext() bool {
	for _, c := range d.cmds[d.at+1:] {
		if c.Action == nil {
			continue
		}
		_, run := c.Action.(engine.Run)
		return run
	}
	return false
}

package verify

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/realkafka/wire"
	"github.com/eoslab/eoslab/engine/script"
)

// Messages in flight. The simulation's calls only queue work; a stepping
// line moves it, so an expect line can sit between a request and its
// answer. The broker run reproduces such a point where every message in
// flight is between a producer of the file and a broker and nothing else
// is pending: it holds each such message in the fault wrapper (a request
// before the broker reads it, an answer before the client does), lets the
// client's queued calls run until the wrapper holds what the simulation
// has in flight, and compares the broker's facts there. After each later
// line it holds what the simulation newly has in flight and lets go what
// the simulation delivered; a dropped message is lost from the hold.

// holdKey is one kind of message on one producer's connection.
type holdKey struct {
	client string
	dir    wire.Direction
	key    kmsg.Key
}

func (k holdKey) String() string {
	return fmt.Sprintf("%s %s %s", k.client, kmsg.NameForKey(int16(k.key)), k.dir)
}

// holdPlan is how many messages of each kind the simulation has in flight
// on producers' connections, or why its point cannot be held.
func (d *driver) holdPlan(w *engine.World) (map[holdKey]int, string) {
	plan, inFlight, why := d.messagesHeld(w)
	if why != "" {
		return nil, why
	}
	followers := d.followerHolds(w, plan) // replicahold.go
	return plan, d.timersHeld(w, inFlight, followers)
}

// messagesHeld is holdPlan's plan of the messages in flight, with the
// actors they are between, or why they cannot be held.
func (d *driver) messagesHeld(w *engine.World) (map[holdKey]int, map[string]bool, string) {
	plan := map[holdKey]int{}
	inFlight := map[string]bool{}
	copies := d.copiesInFlight(w) // latecopy.go
	for _, m := range w.InFlight() {
		if copies[m.ID] {
			// A duplicate's copy the wrapper holds as a late copy: let go
			// when the simulation has delivered it (releaseLateCopies).
			continue
		}
		if d.ofInject(m) { // inject.go
			continue
		}
		name, client := strings.CutSuffix(m.Kind.String(), "Response")
		dir, who, peer := wire.Request, m.From, m.To
		if client {
			dir, who, peer = wire.Response, m.To, m.From
		}
		if k, ok := d.markerKey(m, name, dir); ok { // markerhold.go
			if plan[k]++; plan[k] > 1 {
				// TransactionMarkerChannelManager has one request in
				// flight per leader (InterBrokerSendThread).
				return nil, nil, fmt.Sprintf("more than one %s in flight to %s at once", m.Kind, k.client)
			}
			inFlight[m.From], inFlight[m.To] = true, true
			continue
		}
		if _, ok := d.decls[who]; !ok {
			return nil, nil, fmt.Sprintf("a %s between %s and %s is in flight; the wrapper holds only producers' messages to brokers", m.Kind, m.From, m.To)
		}
		if !strings.HasPrefix(peer, "broker-") {
			return nil, nil, fmt.Sprintf("a %s between %s and %s is in flight", m.Kind, m.From, m.To)
		}
		key, ok := keys[name]
		if !ok {
			return nil, nil, m.Kind.String() + " has no wire mapping"
		}
		k := holdKey{who, dir, key}
		if plan[k]++; plan[k] > 1 {
			// The Java client pipelines up to five requests on a
			// connection; the broker run sends one call at a time.
			return nil, nil, fmt.Sprintf("%s has more than one %s in flight at once; the broker run sends one call at a time, and a broker reads a connection's requests in order (a lost one takes those behind it with the connection), so the wire cannot hold them where the simulation's network has them", who, m.Kind)
		}
	}
	for k := range plan {
		inFlight[k.client] = true
	}
	return plan, inFlight, ""
}

// timersHeld says why the simulation's pending timers keep a hold from
// its point ("" when none does); inFlight are the actors with messages
// in flight.
//
// followers: the hold holds the followers' fetches (replicahold.go), so a
// pending replica fetch and a client's acks=all Produce parked at the
// leader (d.replica.parked) are part of the point.
func (d *driver) timersHeld(w *engine.World, inFlight map[string]bool, followers bool) string {
	// timing (kept for loseDoomed): the clients whose request timeout
	// the simulation has pending.
	d.timing = map[string]bool{}
	for _, t := range w.PendingTimers() {
		if t.Kind == engine.TimerRequestTimeout {
			d.timing[t.Owner] = true
		}
	}
	for _, t := range w.PendingTimers() {
		switch t.Kind {
		case engine.TimerRequestTimeout, engine.TimerAbortCheck, engine.TimerExpiryCheck:
			// A client's clock on a request in flight, and the
			// coordinator's periodic checks: no work of their own. A
			// client's clock with nothing of it in flight times a lost
			// message: the broker run's client, its connection reset,
			// retries at once, the simulation's only when it runs out.
			if t.Kind == engine.TimerRequestTimeout && !inFlight[t.Owner] && len(d.doomed[t.Owner]) == 0 && !d.replica.parked[t.Owner] {
				return fmt.Sprintf("%s waits out its %s on a lost message; the broker run's client retries at once", t.Owner, t.Kind)
			}
		case engine.TimerReplicate:
			if !followers {
				return d.pendingWhy(t)
			}
		default:
			return d.pendingWhy(t)
		}
	}
	return ""
}

// holdAt is an expect line's hold: the broker run is brought to the
// simulation's point, or why not ("" when the facts can be compared).
func (d *driver) holdAt(c script.Command, w *engine.World) string {
	if why := d.injectInFlight(w); why != "" { // inject.go
		return "the simulation has messages in flight here: " + why
	}
	plan, why := d.holdPlan(w)
	if why == "" {
		why = d.lateMarkers(plan)
	}
	if why == "" && !d.holding {
		for k := range plan {
			if isNode(k.client) {
				continue
			}
			if line, ok := d.early[k.client]; ok {
				why = fmt.Sprintf("the broker run let %s's calls run on at line %d, until the next quiet point", k.client, line)
			} else if p := d.prods[k.client]; p == nil || p.pause {
				why = "a client the broker run has not started or has paused has messages in flight"
			}
		}
	}
	if why != "" {
		d.letGo(c)
		return "the simulation has messages in flight here: " + why
	}
	if !d.holding {
		d.holding = true
		d.held = map[string]bool{}
	}
	if why := d.applyHolds(plan); why != "" {
		d.letGo(c)
		return why
	}
	d.learnHeld(w, plan)
	return ""
}

// letGo gives up holding at line c: the held clients' calls run on to
// completion, as they do when nothing is held, and are compared at the
// next quiet point. A fault line on them before then would land on a
// message already gone, so faultHeld refuses it.
func (d *driver) letGo(c script.Command) {
	if !d.holding {
		return
	}
	if debug {
		fmt.Fprintf(os.Stderr, "hold: let go at line %d\n", c.Line)
	}
	if d.early == nil {
		d.early = map[string]int{}
	}
	for name := range d.held {
		d.early[name] = c.Line
	}
	d.releaseHolds()
}

// learnHeld maps the producer ids of held producers that have theirs on
// both sides (their InitProducerId answered), as a quiet point does.
func (d *driver) learnHeld(w *engine.World, plan map[holdKey]int) {
	for name := range d.held {
		if plan[holdKey{name, wire.Request, kmsg.InitProducerID}] > 0 || plan[holdKey{name, wire.Response, kmsg.InitProducerID}] > 0 {
			continue
		}
		if info, ok := w.ProducerInfo(name); ok && info.ProducerID >= 0 {
			d.learn(name, d.prods[name], w)
		}
	}
}

// applyHolds makes the wire hold what plan says: new rules first (so an
// answer to a request let go is held if the simulation has it in
// flight), then the calls queued so far, then the messages the simulation
// delivered are let go; it waits until the wrapper holds plan.
func (d *driver) applyHolds(plan map[holdKey]int) string {
	for k := range plan {
		if !isNode(k.client) {
			p := d.prods[k.client]
			if p == nil {
				p = d.producer(k.client)
			}
			if !d.held[k.client] {
				d.held[k.client] = true
				p.pause = true // its calls block on the wire: submit must not wait
			}
		}
		if h := d.holder(k.client); !hasHold(h, k) {
			h.Add(wire.Rule{Key: k.key, Dir: k.dir, Action: wire.Hold, Times: -1})
			d.holdRules = append(d.holdRules, k)
		}
	}
	if why := d.unholdFollowers(plan); why != "" { // replicahold.go
		return why
	}
	if why := d.awaitFollowers(plan); why != "" {
		return why
	}
	mark := d.parkClients()
	for _, q := range d.queue {
		d.submit(q)
	}
	d.queue = nil
	d.awaitParked(mark)
	d.loseDoomed(plan)
	for _, k := range d.holdRules {
		f := d.holder(k.client)
		extra := count(f.Held(), k) - plan[k] - d.doomedOf(k)
		for _, h := range f.Held() {
			if extra <= 0 {
				break
			}
			if h.Dir == k.dir && h.Key == k.key && !h.Copy && !d.doomed[k.client][h.CorrID] {
				f.ReleaseCorr(h.Dir, h.CorrID, false)
				extra--
			}
		}
	}
	return d.awaitHeld(plan)
}

// A dropped message the wrapper holds stays held, doomed, while the
// simulation's client waits out its request.timeout.ms on it; the
// simulation's client then gives up on it and retries, and the wrapper
// loses it, which resets the connection and makes the broker run's
// client retry too. So a lost answer's retry comes when the simulation's
// does, not at once.

// loseDoomed loses the doomed messages of clients whose request timeout
// the simulation no longer has pending.
//
// A request timeout still pending may be the retry's own: where the
// simulation has the client's retry of a doomed message's request in
// flight and the wire does not hold it yet, the simulation's client
// gave up on the doomed message, and so does the wire.
func (d *driver) loseDoomed(plan map[holdKey]int) {
	for name, corrs := range d.doomed {
		f := d.prods[name].faults()
		if d.timing[name] && !d.retried(name, f, corrs, plan) {
			continue
		}
		for _, h := range f.Held() {
			if corrs[h.CorrID] {
				f.ReleaseCorr(h.Dir, h.CorrID, true)
			}
		}
		delete(d.doomed, name)
	}
}

// retried reports whether plan has name's retry of a doomed message in
// flight that the wire does not hold yet (only losing the doomed message
// makes its client send it).
func (d *driver) retried(name string, f *wire.Faults, corrs map[int32]bool, plan map[holdKey]int) bool {
	for _, h := range f.Held() {
		if !corrs[h.CorrID] {
			continue
		}
		k := holdKey{name, wire.Request, h.Key}
		if plan[k] > count(f.Held(), k) {
			return true
		}
	}
	return false
}

// doomedOf is how many held messages of k are doomed.
func (d *driver) doomedOf(k holdKey) int {
	if isNode(k.client) {
		return 0
	}
	n := 0
	for _, h := range d.prods[k.client].faults().Held() {
		if h.Dir == k.dir && h.Key == k.key && d.doomed[k.client][h.CorrID] {
			n++
		}
	}
	return n
}

func hasHold(f holder, k holdKey) bool { return f.HasRule(k.key, k.dir, wire.Hold) }

// count is how many messages of k the wire holds for a hold (a late
// copy, held until the simulation delivers it, is not one).
func count(hs []wire.Held, k holdKey) int {
	n := 0
	for _, h := range hs {
		if h.Dir == k.dir && h.Key == k.key && !h.Copy {
			n++
		}
	}
	return n
}

// awaitHeld waits (bounded) until the wrapper holds what plan says.
func (d *driver) awaitHeld(plan map[holdKey]int) string {
	end := time.Now().Add(5 * time.Second)
	for {
		var miss []string
		for _, k := range d.holdRules {
			if got := count(d.holder(k.client).Held(), k) - d.doomedOf(k); got != plan[k] {
				miss = append(miss, fmt.Sprintf("%s: %d held, the simulation has %d in flight", k, got, plan[k]))
			}
		}
		if len(miss) == 0 {
			return ""
		}
		if time.Now().After(end) {
			sort.Strings(miss)
			return "the broker run's client did not reach the simulation's point (" + strings.Join(miss, "; ") + ")"
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// reconcile follows an action line while holding: what the simulation
// delivered goes on, what it newly has in flight is held; when it is
// quiet, every hold goes.
func (d *driver) reconcile(c script.Command, w *engine.World) {
	d.injectOrder(c) // inject.go
	if !d.busy(w) {
		d.early = nil
	}
	if !d.holding {
		return
	}
	if d.stopped != "" || !d.busy(w) {
		d.releaseHolds()
		return
	}
	plan, why := d.holdPlan(w)
	if why == "" {
		why = d.applyHolds(plan)
	}
	if why != "" {
		if debug {
			fmt.Fprintf(os.Stderr, "hold: line %d: %s\n", c.Line, why)
		}
		d.letGo(c)
	}
}

// releaseHolds lets every held message go and waits for the clients'
// calls to finish, as a quiet point needs.
func (d *driver) releaseHolds() {
	if !d.holding {
		return
	}
	d.timing = nil
	d.loseDoomed(nil)
	for name := range d.held {
		p := d.prods[name]
		// A late copy stays held until the simulation delivers it
		// (releaseLateCopies): only the hold's rules and messages go.
		f := p.faults()
		for _, k := range d.holdRules {
			if k.client == name {
				f.Unhold(k.dir, k.key)
			}
		}
		for _, h := range f.Held() {
			if !h.Copy {
				f.ReleaseCorr(h.Dir, h.CorrID, false)
			}
		}
		p.pause = false
	}
	d.releaseNodes() // markerhold.go
	for name := range d.held {
		d.prods[name].busy.Wait()
	}
	d.holding, d.held, d.holdRules = false, nil, nil
}

// faultHeld plays a drop of a message the wrapper holds: it is lost from
// the hold. Other faults on a held message are not played.
func (d *driver) faultHeld(c script.Command, t resolved) bool {
	if line, ok := d.early[t.client]; ok && t.ok {
		d.stop(c, fmt.Sprintf("the broker run let %s's calls run on at line %d (its client did not follow the simulation's messages in flight); a fault on them now would land on a message already gone", t.client, line), false)
		return true
	}
	if !t.ok {
		return false
	}
	if _, delay := c.Action.(engine.Delay); delay && d.lateDelay {
		return false // the late copy of the line before plays it (fault)
	}
	if !d.holding {
		return d.holdForDrop(c, t)
	}
	p, ok := d.prods[t.client]
	if !ok || !d.held[t.client] {
		return false
	}
	name, isResp := strings.CutSuffix(t.kind, "Response")
	dir := wire.Request
	if isResp {
		dir = wire.Response
	}
	key, ok := keys[name]
	if !ok || count(p.faults().Held(), holdKey{t.client, dir, key}) == 0 {
		return false
	}
	if _, dup := c.Action.(engine.Duplicate); dup && d.copyHeld(c, t, p, dir, key) {
		return true
	}
	if _, drop := c.Action.(engine.Drop); !drop {
		d.stop(c, "a "+strings.Fields(c.Text)[0]+" of a message the broker run holds is not played", false)
		return true
	}
	for _, h := range p.faults().Held() {
		if h.Dir == dir && h.Key == key && !h.Copy && !d.doomed[t.client][h.CorrID] {
			if d.doomed == nil {
				d.doomed = map[string]map[int32]bool{}
			}
			if d.doomed[t.client] == nil {
				d.doomed[t.client] = map[int32]bool{}
			}
			d.doomed[t.client][h.CorrID] = true
			return true
		}
	}
	p.faults().Release(dir, key, true)
	return true
}

// expertOnly reports whether every message in flight is the expert's own
// (its raw requests and their answers). The broker run sends the
// expert's requests one after another on its connection, and a broker
// handles a connection's requests one at a time, in order
// (SocketServer mutes a connection until its request is answered), so
// an inject behind the expert's own requests lands where the
// simulation's does.
func expertOnly(w *engine.World) bool {
	for _, m := range w.InFlight() {
		if m.From != "expert" && m.To != "expert" {
			return false
		}
	}
	return true
}

// holdForDrop starts holding at a drop line of a producer's message while
// the simulation has messages in flight: the broker run's client is
// brought to the point before the line, with the dropped message held,
// and the message is doomed (see loseDoomed). It reports whether it
// played the line; false leaves the line to the plain drop rule.
func (d *driver) holdForDrop(c script.Command, t resolved) bool {
	if _, drop := c.Action.(engine.Drop); !drop || t.world == nil || !t.world.Busy() {
		return false
	}
	if _, ok := d.decls[t.client]; !ok || d.early[t.client] != 0 || !d.brokerFactAhead() {
		return false
	}
	k, ok := holdKeyOf(t)
	if !ok {
		return false
	}
	// The simulation's client now waits out its request timeout on the
	// dropped message: holdPlan lets it, as for a doomed message.
	d.doomed = map[string]map[int32]bool{t.client: {-1: true}}
	plan, why := d.holdPlan(t.world)
	d.doomed = nil
	if why != "" {
		return false
	}
	for name := range plan {
		if p := d.prods[name.client]; isNode(name.client) || p == nil || p.pause {
			return false
		}
	}
	if p := d.prods[t.client]; p == nil || p.pause {
		return false
	}
	if plan[k]++; plan[k] > 1 {
		return false
	}
	if !d.startHold(c, plan, "the drop's message") {
		return true
	}
	for _, h := range d.prods[t.client].faults().Held() {
		if h.Dir == k.dir && h.Key == k.key && !h.Copy {
			d.doomed = map[string]map[int32]bool{t.client: {h.CorrID: true}}
			break
		}
	}
	return true
}

// startHold starts holding plan at line c; when the wire does not get
// there the line stops the file, saying what could not be held.
func (d *driver) startHold(c script.Command, plan map[holdKey]int, what string) bool {
	d.holding, d.held = true, map[string]bool{}
	if why := d.applyHolds(plan); why != "" {
		d.letGo(c)
		d.stop(c, what+" could not be held: "+why, false)
		return false
	}
	return true
}

func holdKeyOf(t resolved) (holdKey, bool) {
	name, isResp := strings.CutSuffix(t.kind, "Response")
	dir := wire.Request
	if isResp {
		dir = wire.Response
	}
	key, ok := keys[name]
	return holdKey{t.client, dir, key}, ok
}

// brokerFactAhead reports whether a broker fact is expected before the
// next run line: only then is holding worth what it can cost (a client
// whose next call the simulation pipelines cannot follow a hold, and
// the rest of the file then stops at its next fault).
func (d *driver) brokerFactAhead() bool {
	for _, c := range d.cmds[d.at+1:] {
		if _, run := c.Action.(engine.Run); run {
			return false
		}
		if c.Action == nil && simOnlyWhy(c.Expect) == "" {
			return true
		}
	}
	return false
}

// leaveHold gives up holding before a pause, resume or crash line of a
// held client: the hold marks the client's worker as not to be waited
// for, which a pause sets and a resume clears on its own, and a crashed
// client's held call must end.
func (d *driver) leaveHold(c script.Command, name string) {
	if d.holding && d.held[name] {
		d.letGo(c)
	}
}

// copyHeld plays a duplicate of a request the wire holds: the network
// keeps a copy of it. The held request is marked to leave a late copy
// when it goes on (wire's CopyOnRelease), and the copy is then held
// until the simulation has delivered both (latecopy.go), as a duplicate
// and delay of a request not held is. A Produce copied with no delay
// line after it is not played (fault's rule: both copies at once).
func (d *driver) copyHeld(c script.Command, t resolved, p *producer, dir wire.Direction, key kmsg.Key) bool {
	late := d.lateCopyNext(c)
	if dir != wire.Request || (key == kmsg.Produce && !late) {
		return false
	}
	f := p.faults()
	for _, h := range f.Held() {
		if h.Dir == dir && h.Key == key && !h.Copy && !d.doomed[t.client][h.CorrID] && f.CopyOnRelease(h.CorrID) {
			d.holdLateCopy(t, key, late) // latecopy.go
			return true
		}
	}
	return false
}

// pendingWhy says why a pending timer of the simulation (other than a
// request timeout or a coordinator's periodic check) keeps the broker
// run from its point: work the simulation spreads over virtual time that
// a real cluster does at once.
func (d *driver) pendingWhy(t engine.Timer) string {
	switch t.Kind {
	case engine.TimerReplicate:
		if d.ctx != nil && ownerOf(d.ctx) != nil {
			return fmt.Sprintf("the simulation's followers have not fetched %s from its leader %s yet (replica fetch); the broker run's followers copy at once: verify holds followers only in a file without transactional ids or groups, whose coordinator writes would wait on them", t.TP, t.Owner)
		}
		return fmt.Sprintf("the simulation's followers have not fetched %s from its leader %s yet (replica fetch): a moment of replication, which only a cluster with followers has; the broker run's topic has one replica, its high watermark at the log end at once", t.TP, t.Owner)
	case engine.TimerTxnLogAppend:
		return fmt.Sprintf("the simulation's coordinator (%s) has a __transaction_state append not yet durable; a real coordinator's append is durable before verify can look", t.Owner)
	case engine.TimerRetryBackoff:
		if _, ok := d.decls[t.Owner]; ok {
			return fmt.Sprintf("%s waits out its retry.backoff.ms in the simulation; the broker run's client (franz-go) retries on its own clock", t.Owner)
		}
	}
	return fmt.Sprintf("the simulation has work pending (%s of %s), which a real broker does at once", t.Kind, t.Owner)
}

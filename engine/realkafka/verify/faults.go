package verify

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/realkafka/wire"
	"github.com/eoslab/eoslab/engine/script"
)

// worker runs one client's calls in order on a goroutine of its own, so
// that a paused client (its writes held by the fault wrapper) blocks only
// itself. Unpaused, the driver waits for each call before the next line's,
// which keeps the calls of different clients in the file's order.
type worker struct {
	once  sync.Once
	jobs  chan func()
	busy  sync.WaitGroup
	wf    *wire.Faults
	pause bool
}

func (w *worker) start() {
	w.once.Do(func() {
		w.jobs = make(chan func(), 64)
		w.wf = &wire.Faults{}
		go func() {
			for j := range w.jobs {
				j()
				w.busy.Done()
			}
		}()
	})
}

func (w *worker) faults() *wire.Faults {
	w.start()
	return w.wf
}

// enqueue keeps a call for the next quiet point of the simulation: the
// simulation's calls too only queue work until a stepping line moves it,
// and a fault line between them must be in place before the call's
// requests go.
func (d *driver) enqueue(w *worker, job func(ctx context.Context)) {
	w.start()
	d.noteCall(w)
	d.queue = append(d.queue, queued{w, job})
}

type queued struct {
	w   *worker
	job func(ctx context.Context)
}

// submit hands a call to its client's worker; unless the client is
// paused it waits for the call to finish.
func (d *driver) submit(q queued) {
	w := q.w
	if debug {
		fmt.Fprintf(os.Stderr, "submit (faults applied so far %v)\n", w.faults().Events())
	}
	w.busy.Add(1)
	w.jobs <- func() {
		ctx, cancel := context.WithTimeout(d.ctx, 90*time.Second)
		defer cancel()
		q.job(ctx)
	}
	if !w.pause {
		w.busy.Wait()
	}
}

func (d *driver) consumerOf(name string) *consumer {
	cs, ok := d.cons[name]
	if !ok {
		cs = &consumer{pos: map[engine.TP]int64{}}
		cs.start()
		d.watch(name, &cs.worker)
		d.cons[name] = cs
	}
	return cs
}

func (d *driver) workerOf(name string) *worker {
	if pr, ok := d.procs[name]; ok {
		return &pr.prod.worker
	}
	if _, ok := d.decls[name]; ok {
		return &d.producer(name).worker
	}
	if _, ok := d.cdecls[name]; ok {
		return &d.consumerOf(name).worker
	}
	return nil
}

// flush is a quiet point of the simulation: every unpaused client's calls
// are done; then the producer ids are mapped.
func (d *driver) flush(w *engine.World) {
	for _, q := range d.queue {
		d.submit(q)
	}
	d.queue = nil
	names := make([]string, 0, len(d.prods))
	for n, p := range d.prods {
		if !p.pause {
			p.busy.Wait()
		}
		names = append(names, n)
	}
	for _, c := range d.cons {
		if !c.pause {
			c.busy.Wait()
		}
	}
	d.expertWorker.busy.Wait()
	d.overlapped()
	sort.Strings(names)
	// The simulation is quiet: a marker it lost was sent again by now.
	d.clearMarkerDrops() // cluster.go
	d.settle(names)
	for _, n := range names {
		if w == nil {
			break
		}
		if p := d.prods[n]; !p.pause {
			d.learn(n, p, w)
		}
	}
}

// resolved is the message a fault line picks, read from the simulation's
// network before the line runs.
type resolved struct {
	kind   string // the Kafka request or response name
	client string // the client whose connection carries it
	// leader, for a message between brokers, is the broker the
	// connection that carries it goes to (cluster.go).
	leader string
	// markers, before a broker's crash, are the brokers the
	// simulation's WriteTxnMarkers in flight go to, when those are all
	// it has in flight (cluster.go); markersOnly says so.
	markers     []int
	markersOnly bool
	ok          bool
	busy        bool // the simulation had messages in flight before the line
	// events are the simulation's events of the line and world the
	// simulation after it (set after it ran).
	events []engine.Event
	world  *engine.World
	// loop is, before a processor's crash, how far its loop got
	// (processor.go).
	loop loopPoint
}

func (d *driver) resolve(c script.Command, w *engine.World) resolved {
	var sel engine.Selector
	switch a := c.Action.(type) {
	case engine.Drop:
		sel = a.Msg
	case engine.Duplicate:
		sel = a.Msg
	case engine.Delay:
		sel = a.Msg
	case engine.Crash:
		if a.Target.Broker > 0 {
			return crashPoint(w) // cluster.go
		}
		return resolved{}
	default:
		return resolved{}
	}
	for _, m := range w.InFlight() {
		if sel.ID > 0 && m.ID != sel.ID {
			continue
		}
		if sel.ID == 0 && (m.Kind != sel.Kind || (sel.From != "" && sel.From != m.From) || (sel.To != "" && sel.To != m.To)) {
			continue
		}
		client, leader := m.From, m.To
		if m.Kind.IsResponse() {
			client, leader = m.To, m.From
		}
		return resolved{kind: m.Kind.String(), client: client, leader: leader, ok: true}
	}
	return resolved{}
}

var keys = map[string]kmsg.Key{
	"Produce": kmsg.Produce, "Fetch": kmsg.Fetch, "InitProducerId": kmsg.InitProducerID,
	"AddPartitionsToTxn": kmsg.AddPartitionsToTxn, "AddOffsetsToTxn": kmsg.AddOffsetsToTxn,
	"EndTxn": kmsg.EndTxn, "TxnOffsetCommit": kmsg.TxnOffsetCommit, "FindCoordinator": kmsg.FindCoordinator,
	"OffsetCommit": kmsg.OffsetCommit, "OffsetFetch": kmsg.OffsetFetch, "ListOffsets": kmsg.ListOffsets,
}

// fault installs a drop, duplicate or delay on the connection of the
// client the message belongs to, for the next message of its kind: the
// broker run sends the client's queued calls only at the next quiet point.
func (d *driver) fault(c script.Command, t resolved) {
	if d.faultHeld(c, t) { // inflight.go
		return
	}
	if !t.ok {
		d.stop(c, "the simulation has no such message in flight", false)
		return
	}
	w := d.workerOf(t.client)
	if w == nil && strings.HasPrefix(t.kind, "WriteTxnMarkers") && d.markerFault(c, t, t.leader) { // cluster.go
		return
	}
	if w == nil {
		d.stop(c, fmt.Sprintf("%s travels between brokers (%s); the wrapper sits on clients' connections only", t.kind, t.client), false)
		return
	}
	dir := wire.Request
	name := t.kind
	if n, ok := strings.CutSuffix(name, "Response"); ok {
		dir, name = wire.Response, n
	}
	key, ok := keys[name]
	if !ok {
		d.stop(c, t.kind+" has no wire mapping", false)
		return
	}
	r := wire.Rule{Key: key, Dir: dir}
	switch a := c.Action.(type) {
	case engine.Drop:
		// A dropped acks=0 Produce vanishes and the connection stays up
		// (package wire), so the next send goes through as the
		// simulation's does.
		r.Action = wire.Drop
	case engine.Duplicate:
		switch {
		case dir == wire.Response:
			d.stop(c, "a duplicated "+t.kind+" hands the simulated client a second answer; a TCP client reads one answer per request", false)
			return
		case d.lateCopyNext(c):
			r.HoldCopy = true
			d.holdLateCopy(t, key, true) // latecopy.go
		case key != kmsg.Produce:
			// Both copies at once: the copy goes after the original's
			// answer (latecopy.go, bothAtOnce).
			r.HoldCopy = true
			d.holdLateCopy(t, key, false)
		}
		r.Action = wire.Duplicate
	case engine.Delay:
		if d.lateDelay {
			// The copy held by the line before stands for this delay.
			d.lateDelay = false
			return
		}
		if a.Ms > 10000 {
			d.stop(c, fmt.Sprintf("delay %d: the driver waits real time only up to 10 s", a.Ms), false)
			return
		}
		r.Action, r.Delay = wire.Delay, time.Duration(a.Ms)*time.Millisecond
		d.noteDelay(w)
	}
	w.faults().Add(r)
}

// setPaused is pause (a GC pause: the client's writes are held by the
// wrapper) and resume.
func (d *driver) setPaused(c script.Command, name string, on bool) {
	d.leaveHold(c, name) // inflight.go
	w := d.workerOf(name)
	if w == nil {
		d.stop(c, "pausing or resuming a processor has no broker mapping yet", false)
		return
	}
	w.pause = on
	if on {
		w.faults().Pause()
	} else {
		w.faults().Resume()
	}
}

// crash ends a client without a goodbye (kgo's Close sends no EndTxn);
// restart makes a new instance with the same configuration, which, like
// a restarted Java producer, must call initTransactions again.
func (d *driver) crash(c script.Command, t engine.Target, at resolved) {
	if t.Client == "" {
		d.crashBroker(c, t.Broker, at) // cluster.go
		return
	}
	d.leaveHold(c, t.Client) // inflight.go
	if p, ok := d.prods[t.Client]; ok {
		d.flush(nil)
		if p.cl != nil && !p.closed {
			p.cl.Close()
		}
		p.closed = true
		return
	}
	if _, ok := d.decls[t.Client]; ok {
		return
	}
	if _, ok := d.cdecls[t.Client]; ok {
		d.crashConsumer(t.Client)
		return
	}
	d.stop(c, "crashing a consumer or processor has no broker mapping yet", false)
}

func (d *driver) restart(c script.Command, t engine.Target) {
	if t.Client == "" {
		d.restartBroker(c, t.Broker) // cluster.go
		return
	}
	if p, ok := d.prods[t.Client]; ok {
		p.cl, p.closed, p.lastErr, p.hasAck = nil, false, nil, false
		d.producer(t.Client)
		return
	}
	if _, ok := d.decls[t.Client]; ok {
		return
	}
	if _, ok := d.cdecls[t.Client]; ok {
		d.restartConsumer(t.Client)
		return
	}
	d.stop(c, "restarting a consumer or processor has no broker mapping yet", false)
}

// settle waits, at a quiet point, until no transaction of the run is in a
// Prepare state: the simulation's quiet point has its markers written,
// and a real coordinator writes them after it answered EndTxn. Bounded.
func (d *driver) settle(names []string) {
	var ids []string
	for _, n := range names {
		if p := d.prods[n]; p.txid != "" && !p.pause {
			ids = append(ids, p.txid)
		}
	}
	if len(ids) == 0 {
		return
	}
	end := time.Now().Add(10 * time.Second)
	for time.Now().Before(end) {
		ctx, cancel := context.WithTimeout(d.ctx, 5*time.Second)
		ts, err := d.adm.DescribeTransactions(ctx, ids...)
		cancel()
		if err != nil {
			return
		}
		pending := false
		for _, t := range ts {
			if strings.HasPrefix(t.State, "Prepare") {
				pending = true
			}
		}
		if !pending {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// debug (EOSLAB_VERIFY_DEBUG set) traces the driver on standard error.
var debug = os.Getenv("EOSLAB_VERIFY_DEBUG") != ""

// resumeAll lets every paused client's held writes go before the clients
// close: a paused kgo client's Close waits on its writes (a group member's
// LeaveGroup, a producer's in-flight requests), and a file that stops while
// a client is paused must not hang its cleanup.
func (d *driver) resumeAll() {
	for _, p := range d.prods {
		p.faults().Resume()
		p.pause = false
	}
	for _, c := range d.cons {
		c.faults().Resume()
		c.pause = false
	}
}

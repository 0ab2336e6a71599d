package verify

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/realkafka"
	"github.com/eoslab/eoslab/engine/script"
)

// driver plays one file's actions on the cluster. Each client call runs to
// completion before the next line (the simulation's calls only queue work
// until a stepping line moves it), so a broker fact is compared only where
// the simulation is quiet too: no message in flight, no client work.
type driver struct {
	ctx    context.Context
	seed   []string
	adm    *kadm.Client
	raw    *kgo.Client
	prefix string
	topics []string // created, deleted at the end
	groups []string // that offsets were sent to, deleted at the end
	prods  map[string]*producer
	cons   map[string]*consumer
	decls  map[string]engine.DeclareProducer
	cdecls map[string]engine.DeclareConsumer
	// pids maps a broker producer id to the simulation's, learned from
	// the producers both runs name alike.
	pids map[int64]int64
	// rev maps a simulation producer id to the broker's (the newest
	// learned) and its transactional id, for the expert actions, which
	// name producers by the simulation's ids.
	rev map[int64]revEntry
	// stopped, once set, is why the rest of the file is not played (or
	// is simulation-only, when simOnly).
	stopped string
	simOnly bool
	stopAt  int
	queue   []queued
	// version is the transaction.version a config line set first.
	version    int64
	versionSet bool
	simTV      int
	expert     *kgo.Client
	// scale plays the file's timers (timescale.go); timer runs its
	// waits in line with the clients' calls.
	scale timeScale
	timer worker
	// restore: cluster-wide settings the file changed (settings.go).
	restore []restoreEntry
	// holding: the wire holds what the simulation has in flight
	// (inflight.go); held are the producers it holds, holdRules the
	// kinds.
	holding   bool
	held      map[string]bool
	holdRules []holdKey
	nodeHolds map[string]*nodeHold      // markers held on a leader's proxy (markerhold.go)
	early     map[string]int            // clients let go before a quiet point, and where
	doomed    map[string]map[int32]bool // held messages the file dropped, by client and correlation id
	timing    map[string]bool           // clients whose request timeout the simulation has pending
	cmds      []script.Command          // the file's lines; at is the one being played
	at        int
	// lateCopies are the duplicates' copies the wrapper holds, and
	// lateDelay that the next delay line is played by the last one
	// (latecopy.go).
	lateCopies []lateCopy
	lateDelay  bool
	// ov is a delay rule's state until the next quiet point; overlap,
	// that another worker's call was queued after it (overlap.go).
	ov      overlapState
	overlap bool
	// markerDrops: a drop line lost markers between brokers until the
	// next quiet point (cluster.go).
	markerDrops bool
	// procs are the file's processors (processor.go).
	procs map[string]*processor
	// expertWorker sends what the simulation's "expert" address sends.
	expertWorker worker
	// obs is the broker run's observation log (observe.go).
	obs *observer
	// rawLeaders: each group's leader among its raw members, by member
	// id (rawgroup.go).
	rawLeaders map[string]string
	// refusals: the inject lines the simulation's coordinator refuses;
	// skipped, those the broker run left out, by correlation id;
	// delivered, the simulation's newest answer to each client by kind
	// (refused.go).
	refusals  map[int]refusal
	skipped   map[int64]skippedInject
	delivered map[string]*engine.Message
	// mirroring: the file's producers are played raw, request by
	// request, as the simulation delivers them (mirror.go).
	mirroring bool
	mstate    mirrorState
	// other plays the file under the other protocol, for the lines this
	// one does not meet (unmetevent.go).
	other *otherRun
	// genRefs: where each group's members first held a generation on
	// the broker run (group.go).
	genRefs map[string]genRef
	genMu   sync.Mutex
	// inject is an inject played while the wire holds the simulation's
	// messages in flight, until its answer (inject.go); lineEvents are
	// the simulation's events of the line being played.
	inject     *heldInject
	lineEvents []engine.Event
	// replica: the followers a hold holds (replicahold.go).
	replica replicaState
}

type revEntry struct {
	pid  int64
	txid string
}

type producer struct {
	worker
	cl       *kgo.Client
	txid     string
	lastErr  error
	offset   int64
	hasAck   bool
	closed   bool
	declared engine.DeclareProducer
	// rawOffsets: this transaction holds offsets sent raw (sendOffsets).
	rawOffsets bool
	// actSends and actOffsets: the file's lines so far in this
	// transaction sent records, offsets.
	actSends, actOffsets bool
	// mirror, when set, plays the producer raw (mirror.go).
	mirror *mirror
	// behindAt: the file line whose commit or abort ended a transaction
	// of offsets alone with a raw EndTxn v5, which bumped the epoch kgo
	// holds; rawEnd is that EndTxn's answer (offsets.go).
	behindAt int
	rawEnd   *kmsg.EndTxnResponse
}

type consumer struct {
	worker
	cl      *kgo.Client
	values  []string
	offsets []int64
	pos     map[engine.TP]int64
	lastErr error
	// taken is where each value handed out came from (monitors.go).
	taken []engine.TPOffset
	// crashed: the instance is gone until a restart (consumer.go).
	crashed bool
	// since: the observed exchanges before it are an earlier instance's
	// (position.go).
	since int
	// raw: the consumer's group membership while it has not polled
	// (rawgroup.go); polled: a poll of it was queued.
	raw    *rawMember
	polled bool
	// evicted: the broker removed the consumer from its group at a
	// rebalance while it was paused (group.go), until its next poll.
	evicted bool
}

func playFile(ctx context.Context, raw *kgo.Client, adm *kadm.Client, file string, cmds []script.Command, simTV int) ([]Row, error) {
	d := &driver{ctx: ctx, adm: adm, raw: raw, prefix: prefixFor(ctx), prods: map[string]*producer{}, cons: map[string]*consumer{},
		decls: map[string]engine.DeclareProducer{}, cdecls: map[string]engine.DeclareConsumer{}, pids: map[int64]int64{}, rev: map[int64]revEntry{}, simTV: simTV, rawLeaders: map[string]string{}}
	d.seed = raw.OptValues(kgo.SeedBrokers)[0].([]string)
	d.scale = planTimeScale(cmds, simTV)
	if hasExpertTxn(cmds) {
		d.refusals = planRefusals(cmds, simTV) // refused.go
	}
	d.mirroring = planMirror(cmds, simTV) // mirror.go
	d.mstate = mirrorState{completing: map[string]bool{}, expert: map[int64]func(context.Context){}}
	defer d.cleanup()
	if err := d.preflight(); err != nil {
		return nil, err
	}
	d.obs = d.newObserver()
	defer d.obs.close()
	r := script.NewRunner()
	r.PinTransactionVersion(simTV)
	var rows []Row
	d.cmds = cmds
	for i, c := range cmds {
		if !d.pauseAt(c.Line, rows) {
			return rows, nil
		}
		d.at = i
		if c.Action != nil {
			d.obs.line.Store(int64(c.Line))
			var target resolved
			if d.stopped == "" {
				target = d.resolve(c, r.World)
				target.busy = r.World.Busy()
				target.loop = d.loopPoint(c, r.World)
			}
			evs, _, err := r.Exec(c)
			target.events, target.world, d.lineEvents = evs, r.World, evs
			d.noteDelivered(evs)
			d.mirrorLine(c, evs)
			if err != nil {
				// The simulation refused the line: what Kafka refuses at
				// run time is an event, not an error, so this is a broken
				// file; stop playing it on both sides.
				d.stop(c, "the simulation refused this line: "+err.Error(), false)
				continue
			}
			if d.stopped == "" {
				d.act(c, r.World, target)
				d.noteLine(c)
			}
			d.reconcile(c, r.World)
			d.releaseLateCopies(r.World)
			// A quiet point: a stepping line has moved everything. The
			// calls queued since the last one run now.
			if d.stopped == "" && c.Kind() == script.Step && !d.busy(r.World) {
				d.flush(r.World)
				// A copy whose original went in this flush.
				d.releaseLateCopies(r.World)
			}
			continue
		}
		_, fail, err := r.Exec(c)
		row := Row{File: file, Line: c.Line, Expect: c.Text, Kind: kindOf(c.Expect)}
		if err != nil {
			// A line written for the other protocol can name what this
			// one does not have.
			row.Verdict, row.Why = NotPlayed, fmt.Sprintf("the simulation under transaction.version %d cannot evaluate it: %v", simTV, err)
			rows = append(rows, row)
			continue
		}
		d.judge(&row, c, fail, r.World)
		d.noteScaled(&row)
		rows = append(rows, row)
	}
	d.pauseAt(0, rows)
	return rows, nil
}

func (d *driver) stop(c script.Command, why string, simOnly bool) {
	if d.stopped == "" {
		d.stopped, d.simOnly, d.stopAt = why, simOnly, c.Line
	}
}

// preflight refuses a prefix that names anything on the cluster.
func (d *driver) preflight() error {
	ctx, cancel := context.WithTimeout(d.ctx, 30*time.Second)
	defer cancel()
	td, err := d.adm.ListTopics(ctx)
	if err != nil {
		return fmt.Errorf("verify: listing topics: %w", err)
	}
	for t := range td {
		if strings.HasPrefix(t, d.prefix) {
			return &UsageError{fmt.Sprintf("verify: topic %s exists on the cluster; refusing to touch names with the prefix %s", t, d.prefix)}
		}
	}
	txs, err := d.adm.ListTransactions(ctx, nil, nil)
	if err == nil {
		for _, t := range txs.Sorted() {
			if strings.HasPrefix(t.TxnID, d.prefix) {
				return &UsageError{fmt.Sprintf("verify: transactional id %s exists on the cluster; refusing the prefix %s", t.TxnID, d.prefix)}
			}
		}
	}
	gs, err := d.adm.ListGroups(ctx)
	if err == nil {
		for _, g := range gs.Groups() {
			if strings.HasPrefix(g, d.prefix) {
				return &UsageError{fmt.Sprintf("verify: group %s exists on the cluster; refusing the prefix %s", g, d.prefix)}
			}
		}
	}
	return nil
}

// cleanup closes the clients and deletes the topics and groups it made.
// Transactional ids cannot be deleted; they expire on the broker
// (transactional.id.expiration.ms).
func (d *driver) cleanup() {
	defer d.restoreSettings()
	defer d.closeMirrors()
	d.resumeAll()
	d.loseLateCopies() // latecopy.go
	d.releaseHolds()
	for _, p := range d.prods {
		if p.cl != nil && !p.closed {
			p.cl.Close()
		}
	}
	if d.expert != nil {
		d.expert.Close()
	}
	var groups []string
	for name, c := range d.cons {
		if c.cl != nil {
			c.cl.Close()
		}
		d.rawGone(name)
	}
	for _, dc := range d.cdecls {
		if dc.GroupID != "" && !slices.Contains(d.groups, d.prefix+dc.GroupID) {
			groups = append(groups, d.prefix+dc.GroupID)
		}
	}
	groups = append(groups, d.groups...)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if len(groups) > 0 {
		d.adm.DeleteGroups(ctx, groups...)
	}
	if len(d.topics) > 0 {
		d.adm.DeleteTopics(ctx, d.topics...)
	}
}

func (d *driver) name(topic string) string { return d.prefix + topic }

// awaitLeaders waits (bounded) until every partition of a new topic has a
// leader: a Produce or Fetch before that gets NOT_LEADER_OR_FOLLOWER.
func (d *driver) awaitLeaders(ctx context.Context, topic string, n int) {
	end := time.Now().Add(15 * time.Second)
	for time.Now().Before(end) {
		td, err := d.adm.ListTopics(ctx, topic)
		if err == nil {
			t := td[topic]
			ok := t.Err == nil && len(t.Partitions) == n
			for _, p := range t.Partitions {
				ok = ok && p.Leader >= 0 && p.Err == nil
			}
			if ok {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// act plays one action on the cluster.
func (d *driver) act(c script.Command, w *engine.World, target resolved) {
	if d.mirrorAct(c, target) { // mirror.go
		return
	}
	ctx, cancel := context.WithTimeout(d.ctx, 60*time.Second)
	defer cancel()
	switch a := c.Action.(type) {
	case engine.Brokers:
		// The cluster has the nodes it has; replication facts are not
		// among those compared.
	case engine.SetConfig:
		for _, s := range a.Settings {
			switch s.Key {
			case engine.ConfigTransactionVersion:
				// The first is checked before playing (the file was
				// refused or agrees); a later change is an operator's
				// feature upgrade or downgrade.
				if d.versionSet && s.Value != d.version {
					d.stop(c, "a transaction.version change is an operator's kafka-features update; verify does not change a shared cluster's features", false)
				}
				d.version, d.versionSet = s.Value, true
			case engine.ConfigTeachDedup, engine.ConfigTeachFencing, engine.ConfigTeachLSO:
				if s.Value == 0 {
					d.stop(c, "a teaching switch turns off a Kafka safeguard; no broker can", true)
				}
			default:
				d.setting(c, s) // settings.go
			}
		}
	case engine.CreateTopic:
		if err := d.createTopic(ctx, a, w); err != nil { // cluster.go
			d.stop(c, "creating the topic failed: "+err.Error(), false)
			return
		}
		d.topics = append(d.topics, d.name(a.Name))
		d.awaitLeaders(ctx, d.name(a.Name), int(max(a.Partitions, 1)))
		// The leader's log exists a little after the metadata says so;
		// until then a Produce gets NOT_LEADER_OR_FOLLOWER, which would
		// make a lost answer to it no loss. A Fetch that answers says
		// the log is there (FetchLog retries until it does).
		for p := range max(a.Partitions, 1) {
			d.log(script.Partition{Topic: a.Name, N: p})
		}
	case engine.DeclareProducer:
		d.decls[a.Name] = a
	case engine.DeclareConsumer:
		d.cdecls[a.Name] = a
	case engine.DeclareProcessor:
		d.declareProcessor(a)
	case engine.Call:
		if _, ok := d.procs[a.Client]; ok && a.Method == engine.CallProcess {
			d.processCall(c, a.Client, w)
			return
		}
		if _, ok := d.decls[a.Client]; ok {
			if a.Method > engine.CallClose {
				d.stop(c, a.Method.String()+" has no broker mapping in the driver yet", false)
				return
			}
			p := d.producer(a.Client)
			if a.Method != engine.CallClose && d.kgoBehind(c, p) { // offsets.go
				return
			}
			switch a.Method {
			case engine.CallBeginTransaction:
				p.actSends, p.actOffsets = false, false
			case engine.CallCommitTransaction, engine.CallAbortTransaction:
				if p.actOffsets && !p.actSends && d.simTV >= 2 {
					// kgo ends it without EndTxn; endRaw sends the Java
					// client's EndTxn v5, which bumps the epoch kgo holds.
					p.behindAt = c.Line
				}
			}
			q := d.obs.queueCall(a.Client, a.Method) // javastate.go
			d.enqueue(&p.worker, func(ctx context.Context) {
				defer d.obs.markCall(q)()
				d.call(ctx, p, a.Method)
			})
			return
		}
		if cd, ok := d.cdecls[a.Client]; ok && a.Method == engine.CallPoll && cd.OffsetReset == engine.ResetNone {
			d.pollNoReset(c, a.Client, cd)
			return
		}
		if _, ok := d.cdecls[a.Client]; ok && a.Method == engine.CallPoll {
			if !d.memberJoins(c, a.Client) {
				return
			}
			cs := d.consumerOf(a.Client)
			cs.polled, cs.evicted = true, false
			sim := simGeneration(w, d.cdecls[a.Client].GroupID)
			d.enqueue(&cs.worker, func(ctx context.Context) {
				d.rawGone(a.Client) // kgo joins in the raw member's place
				d.poll(ctx, a.Client, cs)
				d.notePolled(a.Client, cs, sim) // group.go
			})
			return
		}
		d.stop(c, "a processor's process loop has no broker mapping in the driver yet", false)
	case engine.SendOffsets:
		if _, ok := d.decls[a.Client]; !ok {
			d.stop(c, "sendOffsetsToTransaction by a processor has no broker mapping in the driver yet", false)
			return
		}
		p := d.producer(a.Client)
		if d.kgoBehind(c, p) {
			return
		}
		p.actOffsets = true
		if g := d.prefix + a.Group; !slices.Contains(d.groups, g) {
			d.groups = append(d.groups, g)
		}
		m := d.membershipOf(a, w)
		for _, who := range []string{a.Consumer, m.client} {
			if cs, ok := d.cons[who]; ok && who != "" && cs.evicted {
				d.stop(c, "offsets with the group metadata of "+who+", which the broker removed from the group at the rebalance while it was paused; the simulation's paused member still holds it", false)
				return
			}
		}
		d.enqueue(&p.worker, func(ctx context.Context) { d.sendOffsets(ctx, p, d.translate(a, m)) })
	case engine.Send:
		p := d.producer(a.Client)
		if d.kgoBehind(c, p) {
			return
		}
		p.actSends = true
		d.enqueue(&p.worker, func(ctx context.Context) { d.send(ctx, p, a) })
	case engine.Drop, engine.Duplicate, engine.Delay:
		d.fault(c, target)
	case engine.Pause:
		d.setPaused(c, a.Client, true)
	case engine.Resume:
		d.setPaused(c, a.Client, false)
	case engine.Crash:
		if _, ok := d.procs[a.Target.Client]; ok {
			d.crashProcessor(c, a.Target.Client, target.loop)
			return
		}
		d.crash(c, a.Target, target)
	case engine.Restart:
		if _, ok := d.procs[a.Target.Client]; ok {
			d.restartProcessor(a.Target.Client)
			return
		}
		d.restart(c, a.Target)
	case engine.CommitSync:
		cd, ok := d.cdecls[a.Client]
		if !ok || cd.GroupID == "" {
			d.stop(c, "commitSync without a group", false)
			return
		}
		cs := d.consumerOf(a.Client)
		d.enqueue(&cs.worker, func(ctx context.Context) {
			os := kadm.Offsets{}
			for _, o := range a.Offsets {
				os.AddOffset(d.name(o.TP.Topic), o.TP.Partition, o.Offset, -1)
			}
			if cs.cl != nil {
				// A member commits with its generation, as Java's
				// commitSync does; a group with members refuses others.
				cs.lastErr = d.commitMember(ctx, cs.cl, a.Offsets)
				return
			}
			resp, err := d.adm.CommitOffsets(ctx, d.prefix+cd.GroupID, os)
			if err == nil {
				err = resp.Error()
			}
			cs.lastErr = err
		})
	case engine.Rebalance:
		d.rebalance(c, a.Group, w) // group.go
	case engine.Run, engine.Step, engine.Deliver:
		// Calls already ran to completion.
	case engine.Advance:
		d.advance(c, a, target.events)
	case engine.InjectBatch:
		if target.busy && !expertOnly(w) && !d.injectHeld(c, w) { // inject.go
			d.stop(c, "an inject while the simulation has messages in flight: the broker run sends each client call whole, so it cannot place the inject inside one", false)
			return
		}
		d.enqueue(&d.expertWorker, func(ctx context.Context) { d.injectBatch(ctx, a) })
	case engine.InjectMarker:
		if target.busy && !expertOnly(w) && !d.injectHeld(c, w) {
			d.stop(c, "an inject while the simulation has messages in flight: the broker run sends each client call whole, so it cannot place the inject inside one", false)
			return
		}
		d.enqueue(&d.expertWorker, func(ctx context.Context) { d.injectMarker(ctx, a) })
	case engine.InjectInitProducerID, engine.InjectAddPartitions, engine.InjectAddOffsets, engine.InjectEndTxn:
		if target.busy && !expertOnly(w) && d.skipRefused(c) { // refused.go
			return
		}
		if target.busy && !expertOnly(w) && !d.injectHeld(c, w) {
			d.stop(c, "an inject while the simulation has messages in flight: the broker run sends each client call whole, so it cannot place the inject inside one", false)
			return
		}
		d.enqueue(&d.expertWorker, func(ctx context.Context) { d.expertTxn(ctx, a, w) })
	case engine.InjectTxnState:
		d.stop(c, "inject txnstate writes the coordinator's record directly; no broker allows it", true)
	default:
		verb := strings.Fields(c.Text)[0]
		if f := strings.Fields(c.Text); len(f) > 1 && (d.decls[f[0]].Name != "" || d.cdecls[f[0]].Name != "") {
			verb = f[1] // a client's call: A sendOffsetsToTransaction
		}
		d.stop(c, fmt.Sprintf("%s has no broker mapping in the driver yet", verb), false)
	}
}

func (d *driver) producer(name string) *producer {
	if p, ok := d.prods[name]; ok && p.cl != nil {
		return p
	}
	decl := d.decls[name]
	cfg := decl.Config
	// ManualFlushing: a send line's records are all buffered before its
	// Flush lets them go, so they leave as one batch in one request, as
	// the Java producer's one send of them does. With linger 0 alone,
	// kgo's sink may take the first record before the others are added
	// (a busy machine makes two requests of one line).
	opts := append(d.sasl(), kgo.SeedBrokers(d.seed...), kgo.ProducerLinger(0), kgo.ManualFlushing(),
		kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.ProducerBatchCompression(kgo.NoCompression()))
	p, ok := d.prods[name]
	if !ok {
		p = &producer{declared: decl}
		p.start()
		d.watch(name, &p.worker)
	}
	opts = append(opts, kgo.Dialer(p.faults().Dialer(d.dial())))
	opts = append(opts, kgo.MaxVersions(d.maxVersions()))
	if cfg.TransactionalID != "" {
		p.txid = d.prefix + cfg.TransactionalID
		opts = append(opts, kgo.TransactionalID(p.txid))
		if decl.Set.Has(engine.ProducerTxnTimeoutMs) {
			opts = append(opts, kgo.TransactionTimeout(time.Duration(cfg.TxnTimeoutMs)*time.Millisecond))
		}
		if o := d.txnTimeoutOpt(decl); o != nil {
			opts = append(opts, o)
		}
	}
	// Java turns idempotence off quietly for acks 0 or 1 unless it was
	// asked for (then the config is refused, and so does kgo).
	plain := cfg.TransactionalID == "" && (!cfg.Idempotence || (cfg.Acks != -1 && !decl.Set.Has(engine.ProducerIdempotence)))
	if plain {
		opts = append(opts, kgo.DisableIdempotentWrite())
	}
	switch cfg.Acks {
	case 0:
		opts = append(opts, kgo.RequiredAcks(kgo.NoAck()))
	case 1:
		opts = append(opts, kgo.RequiredAcks(kgo.LeaderAck()))
	}
	// kgo refuses the in-flight limit with idempotence (it keeps its own
	// limit, as Java's at most 5).
	if plain && cfg.MaxInFlight > 0 {
		opts = append(opts, kgo.MaxProduceRequestsInflightPerBroker(cfg.MaxInFlight))
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		p.lastErr = err
	}
	p.cl = cl
	d.prods[name] = p
	return p
}

// maxVersions caps the request versions of the file's clients.
func (d *driver) maxVersions() *kversion.Versions {
	// sendOffsets sends TxnOffsetCommit raw: v5 is KIP-890 part 2's (the
	// Java client sends it only under transaction.version 2), and v6
	// names topics by id, which the raw request does not fill.
	vs := kversion.Stable()
	vs.SetMaxKeyVersion(int16(kmsg.TxnOffsetCommit), 5)
	if d.simTV < 2 {
		vs.SetMaxKeyVersion(int16(kmsg.TxnOffsetCommit), 4)
		// EndTxn v5 is KIP-890 part 2's too: a broker at
		// transaction.version 0 answers it UNSUPPORTED_VERSION
		// (TransactionCoordinator.handleEndTransaction), and the Java
		// producer sends it only under transaction.version 2
		// (TransactionManager.EndTxnHandler); endRaw sends it raw.
		vs.SetMaxKeyVersion(int16(kmsg.EndTxn), 4)
	}
	return vs
}

// learn maps the broker's producer id of name to the simulation's.
func (d *driver) learn(name string, p *producer, w *engine.World) {
	if p.cl == nil || p.closed {
		return
	}
	info, ok := w.ProducerInfo(name)
	if !ok || info.ProducerID < 0 {
		return
	}
	ctx, cancel := context.WithTimeout(d.ctx, 30*time.Second)
	defer cancel()
	id, _, err := p.cl.ProducerID(ctx)
	if err == nil && id >= 0 {
		d.pids[id] = info.ProducerID
		d.rev[info.ProducerID] = revEntry{id, p.txid}
	}
}

// clientOnly is an error franz-go made up without a broker's answer (no
// request went, or kerr.OperationNotAttempted): the Java client's error
// there is its own, so neither is a broker fact.
type clientOnly struct{ err error }

func (e *clientOnly) Error() string { return e.err.Error() }

// setErr records a call's error. OPERATION_NOT_ATTEMPTED is franz-go
// failing a call because an earlier one failed; Java re-throws the
// earlier error, so that one is kept.
func (p *producer) setErr(err error) {
	if errors.Is(err, kerr.OperationNotAttempted) {
		if p.lastErr != nil {
			return
		}
		err = &clientOnly{err}
	}
	p.lastErr = err
}

// call runs one producer call (on the producer's worker).
func (d *driver) call(ctx context.Context, p *producer, m engine.Method) {
	if p.cl == nil || p.closed {
		return
	}
	switch m {
	case engine.CallInitTransactions:
		if _, _, err := p.cl.ProducerID(ctx); err != nil {
			p.setErr(err)
		} else {
			p.lastErr = nil
		}
	case engine.CallBeginTransaction:
		p.rawOffsets = false
		if err := p.cl.BeginTransaction(); err != nil {
			p.lastErr = err
		} else {
			p.lastErr = nil
		}
	case engine.CallCommitTransaction, engine.CallAbortTransaction:
		how := kgo.TryCommit
		if m == engine.CallAbortTransaction {
			how = kgo.TryAbort
			if err := p.cl.AbortBufferedRecords(ctx); err != nil {
				p.setErr(err)
			}
		} else if err := p.cl.Flush(ctx); err != nil {
			p.setErr(err)
		}
		before := p.faults().Sent(kmsg.EndTxn)
		if err := p.cl.EndTransaction(ctx, how); err != nil {
			if p.faults().Sent(kmsg.EndTxn) == before {
				// franz-go answered without asking the coordinator.
				err = &clientOnly{err}
			}
			p.setErr(err)
		} else if p.rawOffsets && p.faults().Sent(kmsg.EndTxn) == before {
			// kgo saw nothing added (the offsets went raw): the Java
			// producer ends the transaction its AddOffsetsToTxn began.
			if err := d.endRaw(ctx, p, how == kgo.TryCommit); err != nil {
				p.setErr(err)
			}
		}
		p.rawOffsets = false
	case engine.CallFlush:
		if err := p.cl.Flush(ctx); err != nil {
			p.setErr(err)
		}
	case engine.CallClose:
		p.cl.Close()
		p.closed = true
	}
}

func (d *driver) send(ctx context.Context, p *producer, a engine.Send) {
	if p.cl == nil || p.closed {
		return
	}
	var recs []*kgo.Record
	for _, v := range a.Values {
		recs = append(recs, &kgo.Record{Topic: d.name(a.TP.Topic), Partition: a.TP.Partition, Value: []byte(v)})
	}
	wait := func() {}
	if p.declared.Config.Acks == 0 {
		wait = d.acksZero(ctx, p, a) // acks0.go
	}
	res := make(kgo.ProduceResults, len(recs))
	var done sync.WaitGroup
	for i, r := range recs {
		done.Add(1)
		p.cl.Produce(ctx, r, func(r *kgo.Record, err error) {
			res[i] = kgo.ProduceResult{Record: r, Err: err}
			done.Done()
		})
	}
	p.cl.Flush(ctx)
	done.Wait()
	wait()
	if debug {
		for _, r := range res {
			fmt.Fprintf(os.Stderr, "produce %s-%d offset %d err %v (faults %v)\n", r.Record.Topic, r.Record.Partition, r.Record.Offset, r.Err, p.faults().Events())
		}
	}
	if err := res.FirstErr(); err != nil {
		p.setErr(err)
	} else if len(res) > 0 && p.declared.Config.Acks != 0 {
		p.offset, p.hasAck = res[0].Record.Offset, true
	}
}

func (d *driver) poll(ctx context.Context, name string, cs *consumer) {
	cd := d.cdecls[name]
	if cs.crashed {
		return
	}
	if cs.cl == nil && cs.lastErr == nil {
		var topics []string
		if len(cd.Topics) > 0 {
			for _, t := range cd.Topics {
				topics = append(topics, d.name(t))
			}
		} else {
			topics = append(topics, d.topics...)
		}
		// Control records are kept so the position moves past markers,
		// as the Java consumer's does (the fetch position is the last
		// batch's next offset, Fetcher / CompletedFetch); they are not
		// handed out as records below.
		opts := append(d.sasl(), kgo.SeedBrokers(d.seed...), kgo.ConsumeTopics(topics...), kgo.Dialer(cs.faults().Dialer(d.dial())), kgo.KeepControlRecords())
		if cd.Isolation == engine.ReadCommitted {
			opts = append(opts, kgo.FetchIsolationLevel(kgo.ReadCommitted()))
		}
		switch cd.OffsetReset {
		case engine.ResetEarliest:
			opts = append(opts, kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
		case engine.ResetNone:
			opts = append(opts, kgo.ConsumeResetOffset(kgo.NoResetOffset()))
		default:
			opts = append(opts, kgo.ConsumeResetOffset(kgo.NewOffset().AtEnd()))
		}
		if cd.GroupID != "" {
			opts = append(opts, kgo.ConsumerGroup(d.prefix+cd.GroupID), kgo.DisableAutoCommit())
		}
		cl, err := kgo.NewClient(opts...)
		if err != nil {
			cs.lastErr = err
			return
		}
		cs.cl = cl
	}
	if cs.cl == nil {
		return
	}
	d.fetchInto(ctx, cs.cl, cs)
}

// fetchInto is one poll of cl for cs: it waits for the first records (a
// group join takes a few seconds), then takes what else is there at once,
// and returns the data records it took.
func (d *driver) fetchInto(ctx context.Context, cl *kgo.Client, cs *consumer) []*kgo.Record {
	var took []*kgo.Record
	wait := 5 * time.Second
	for i := 0; i < 20; i++ {
		pctx, cancel := context.WithTimeout(ctx, wait)
		fs := cl.PollFetches(pctx)
		cancel()
		n := 0
		fs.EachRecord(func(r *kgo.Record) {
			n++
			if r.Attrs.IsControl() {
				cs.pos[engine.TP{Topic: strings.TrimPrefix(r.Topic, d.prefix), Partition: r.Partition}] = r.Offset + 1
				return
			}
			took = append(took, r)
			cs.values = append(cs.values, string(r.Value))
			cs.offsets = append(cs.offsets, r.Offset)
			cs.taken = append(cs.taken, engine.TPOffset{TP: engine.TP{Topic: strings.TrimPrefix(r.Topic, d.prefix), Partition: r.Partition}, Offset: r.Offset})
			cs.pos[engine.TP{Topic: strings.TrimPrefix(r.Topic, d.prefix), Partition: r.Partition}] = r.Offset + 1
		})
		fs.EachError(func(_ string, _ int32, err error) {
			if !errors.Is(err, context.DeadlineExceeded) {
				cs.lastErr = err
			}
		})
		if n == 0 {
			return took
		}
		wait = 500 * time.Millisecond
	}
	return took
}

// errName is a Kafka error's name, or the client's error text.
func errName(err error) string {
	if err == nil {
		return "none"
	}
	var ke *kerr.Error
	if errors.As(err, &ke) {
		return ke.Message
	}
	return "franz-go: " + err.Error()
}

// simPID translates a broker producer id into the simulation's numbering.
func (d *driver) simPID(id int64) string {
	if id < 0 {
		return strconv.FormatInt(id, 10)
	}
	if s, ok := d.pids[id]; ok {
		return strconv.FormatInt(s, 10)
	}
	return fmt.Sprintf("%d(broker id, not mapped)", id)
}

func (d *driver) log(tp script.Partition) (realkafka.Log, error) {
	ctx, cancel := context.WithTimeout(d.ctx, 30*time.Second)
	defer cancel()
	return realkafka.FetchLog(ctx, d.raw, d.name(tp.Topic), tp.N)
}

func sortedTPs(m kadm.TopicsSet, strip string) []string {
	var out []string
	for t, ps := range m {
		for p := range ps {
			name := strings.TrimPrefix(t, strip)
			if strings.HasPrefix(t, "__consumer_offsets") {
				name = "__consumer_offsets"
				out = append(out, name)
				continue
			}
			out = append(out, fmt.Sprintf("%s-%d", name, p))
		}
	}
	sort.Strings(out)
	return out
}

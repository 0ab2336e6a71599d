package verify

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// Mirrored producers. The Java producer recovers from a sequence error
// with an epoch bump (KIP-360): a transactional producer's abortTransaction
// sends InitProducerId with its producer id and epoch, an idempotent
// producer bumps its epoch itself and restarts its sequences at 0
// (TransactionManager.bumpIdempotentEpochAndResetIdIfNeeded). franz-go
// does neither the Java way (OUT_OF_ORDER_SEQUENCE_NUMBER inside a
// transaction is fatal to its producer id), so a file whose producer bumps
// is played with raw requests (kmsg): each request the simulation's
// producer sends reaches the broker when the simulation delivers it, with
// the same producer id (the broker's for the simulation's), epoch,
// sequences and records. A dropped request never reaches it, a
// duplicated one reaches it twice, a lost answer is the simulation
// client's loss. The broker's answers are kept by the request's
// correlation id; a producer fact is the broker's answer to the request
// whose answer the simulation's client took it from.

// mirrorKeys are the requests a mirrored producer sends raw.
var mirrorKeys = map[engine.MsgKind]bool{}

func init() {
	for _, n := range []string{"Produce", "InitProducerId", "AddPartitionsToTxn", "AddOffsetsToTxn", "EndTxn", "TxnOffsetCommit", "FindCoordinator"} {
		k, _ := engine.MsgKindByName(n)
		mirrorKeys[k] = true
	}
}

// planMirror runs the simulation over cmds and says whether the file's
// producers are mirrored: one of them bumps its epoch the Java way (or
// ends a transaction of offsets alone under KIP-890 part 2), or sends a
// Produce batch again (a retry: which batches the Java client resends,
// when and how many at a time, is RecordAccumulator's and Sender's,
// which franz-go's retries and pipelining are not); the file has no
// processor, and its consumers act only after the producers' last
// request was delivered (their kgo calls run at quiet points, the
// mirror's requests at the simulation's deliveries); it crashes no
// broker, fires no broker timer, and its producers send only what the
// mirror sends (acks other than 0).
func planMirror(cmds []script.Command, simTV int) bool {
	r := script.NewRunner()
	r.PinTransactionVersion(simTV)
	prods := map[string]bool{}
	epochs := map[string]int16{} // the epoch of each producer's last InitProducerId answer
	given := map[int64]bool{}    // producer ids the coordinator gave the file's producers so far
	early := map[int64]bool{}    // producer ids an inject named before that
	// sends, offsets: a producer's transaction so far sent records,
	// offsets.
	sends, offsets := map[string]bool{}, map[string]bool{}
	// The Produce batches each producer sent, by partition, pid, epoch
	// and base sequence.
	type batchKey struct {
		tp    engine.TP
		pid   int64
		epoch int16
		seq   int32
	}
	// sent: the correlation id of each batch's newest send; answered:
	// the code of the answer each producer's client took, by
	// correlation id.
	sent := map[string]map[batchKey]int64{}
	answered := map[string]map[int64]engine.ErrorCode{}
	consumers := map[string]bool{}
	// counted: the file counts its clients' requests (expect requests):
	// a retry alone does not mirror it, since a mirrored producer's
	// requests are the simulation's own (mirrorOwn), and kgo's are a
	// client's conversation to compare.
	counted, retries := false, false
	consumed := false // a consumer acted
	bumps := false
	for _, c := range cmds {
		if _, ok := c.Expect.(script.RequestsCheck); ok {
			counted = true
		}
		switch a := c.Action.(type) {
		case engine.InjectBatch:
			early[a.ProducerID] = early[a.ProducerID] || !given[a.ProducerID]
		case engine.InjectMarker:
			early[a.ProducerID] = early[a.ProducerID] || !given[a.ProducerID]
		case engine.DeclareProcessor:
			return false
		case engine.DeclareConsumer:
			consumers[a.Name] = true
		case engine.Call:
			consumed = consumed || consumers[a.Client]
		case engine.CommitSync, engine.Rebalance:
			consumed = true
		case engine.Restart:
			consumed = consumed || consumers[a.Target.Client]
		case engine.Pause:
			consumed = consumed || consumers[a.Client]
		case engine.DeclareProducer:
			if a.Config.Acks == 0 {
				return false
			}
			prods[a.Name] = true
		case engine.Crash:
			if a.Target.Broker > 0 {
				return false
			}
			consumed = consumed || consumers[a.Target.Client]
		}
		evs, _, err := r.Exec(c)
		if err != nil {
			return false
		}
		if len(expiredTxnIDs(evs)) > 0 || len(expiredProducers(evs)) > 0 || len(timedOut(evs)) > 0 {
			// The broker's timers are played with kgo producers
			// (timescale.go, expiry.go, txnexpiry.go).
			return false
		}
		if _, ok := c.Action.(engine.Reorder); ok {
			// The broker run has no reorder of kgo's requests; the
			// mirror sends them in the simulation's order (mirrorAct).
			plain := len(evs) > 0
			for _, e := range evs {
				m := e.Message
				if m == nil {
					continue
				}
				if b, ok := m.Body.(*engine.ProduceRequest); !ok || !prods[m.From] || b.TransactionalID != "" {
					plain = false
				}
			}
			bumps = bumps || plain
		}
		for _, e := range evs {
			m := e.Message
			if m == nil {
				continue
			}
			if ip, ok := m.Body.(*engine.InitProducerIDResponse); ok && e.Kind == engine.EvDeliver && prods[m.To] && ip.Code == engine.None {
				epochs[m.To] = ip.ProducerEpoch
				if early[ip.ProducerID] {
					// The broker gives its own ids: an inject that named
					// the id before the producer had it cannot be mapped.
					return false
				}
				given[ip.ProducerID] = true
			}
			if r, ok := m.Body.(*engine.ProduceResponse); ok && e.Kind == engine.EvDeliver && prods[m.To] {
				if answered[m.To] == nil {
					answered[m.To] = map[int64]engine.ErrorCode{}
				}
				answered[m.To][m.Corr] = r.Code
			}
			if et, ok := m.Body.(*engine.EndTxnResponse); ok && e.Kind == engine.EvDeliver && prods[m.To] && et.Code == engine.None && et.V5 {
				epochs[m.To] = et.ProducerEpoch // KIP-890 part 2: the commit's bump
			}
			if e.Kind == engine.EvDeliver && prods[m.From] && !m.Kind.IsResponse() && consumed {
				// A consumer's kgo call, run at the next quiet point,
				// would see the broker where the mirror is, not where
				// the simulation's consumer is.
				return false
			}
			if e.Kind != engine.EvSend || !prods[m.From] {
				continue
			}
			if !mirrorKeys[m.Kind] {
				return false
			}
			switch b := m.Body.(type) {
			case *engine.TxnOffsetCommitRequest:
				offsets[m.From] = true
			case *engine.EndTxnRequest:
				// Under KIP-890 part 2 the EndTxn of a transaction with
				// offsets and no send bumps the epoch; kgo, which sent no
				// records, ends it without one (driver.go).
				bumps = bumps || simTV >= 2 && offsets[m.From] && !sends[m.From]
				offsets[m.From], sends[m.From] = false, false
			case *engine.InitProducerIDRequest:
				// KIP-360: the bump names the producer id and epoch.
				bumps = bumps || b.ProducerID >= 0
			case *engine.ProduceRequest:
				sends[m.From] = true
				if sent[m.From] == nil {
					sent[m.From] = map[batchKey]int64{}
				}
				for _, bt := range b.Batches {
					// The idempotent producer's own bump: a batch at an
					// epoch no answer gave it.
					if e, ok := epochs[m.From]; ok && bt.ProducerID >= 0 && bt.ProducerEpoch != e {
						bumps = true
					}
					// A retry of an idempotent batch whose send was
					// refused out of order, or whose request or answer
					// the network lost: franz-go's conversation there
					// is its own (a lost message takes its connection
					// on the wire). A retry after another retriable
					// answer is one request again on both clients.
					k := batchKey{b.TP, bt.ProducerID, bt.ProducerEpoch, bt.BaseSequence}
					if corr, ok := sent[m.From][k]; ok && bt.ProducerID >= 0 {
						code, got := answered[m.From][corr]
						retries = retries || !got || code == engine.OutOfOrderSequenceNumber
					}
					sent[m.From][k] = m.Corr
				}
			}
		}
	}
	return bumps || retries && !counted
}

// mirror is a mirrored producer's raw client and the broker's answers.
type mirror struct {
	cl *kgo.Client
	// answers: the broker's answer to each request, by the simulation's
	// correlation id (nil: the request failed on the client side).
	answers map[int64]kmsg.Response
	// got: the answers the simulation's client took, oldest first.
	got []*engine.Message
	// sent: the requests sent, by correlation id.
	sent map[int64]*engine.Message
	// raced: requests sent while the simulation's coordinator was still
	// writing its markers (see mirrorSend), by correlation id.
	raced map[int64]bool
	// delivered: the requests of each kind the simulation delivered
	// and the mirror sent (FindCoordinator aside: kgo finds the
	// coordinators itself).
	delivered map[engine.MsgKind]int
	// reached: the messages (by the simulation's id) the mirror sent.
	reached map[int64]bool
	// log: the producer's calls and the answers its Java client took,
	// in the simulation's order, for the replay of its state
	// (javastate.go); reqs: the raw requests, by correlation id.
	log  []mirrorItem
	reqs map[int64]kmsg.Request
}

// mirrorItem is one call of a mirrored producer (start or end), an
// answer its client took, or a restart (a new client).
type mirrorItem struct {
	m       engine.Method
	end     bool
	answer  *engine.Message
	restart bool
}

// mirrorState is a mirrored file's view of the simulation between
// deliveries.
type mirrorState struct {
	// completing: transactional ids whose EndTxn the simulation's
	// coordinator took and has not completed (its markers are being
	// written) at the event being followed.
	completing map[string]bool
	// ended: transactional ids an EndTxn went for since the broker was
	// last seen settled. Kept by id, not by producer: a second instance
	// of the id (a restart, a zombie's successor) finds the markers of
	// the first one's EndTxn pending on the real coordinator too.
	ended map[string]bool
	// expert: the expert's requests, by correlation id, sent when the
	// simulation delivers them.
	expert map[int64]func(context.Context)
}

// mirrorProducer sets up a mirrored producer (no kgo producer: the raw
// client's connections are observed as the producer's).
func (d *driver) mirrorProducer(name string) *producer {
	if p, ok := d.prods[name]; ok {
		return p
	}
	decl := d.decls[name]
	p := &producer{declared: decl}
	p.start()
	d.watch(name, &p.worker)
	if decl.Config.TransactionalID != "" {
		p.txid = d.prefix + decl.Config.TransactionalID
	}
	vs := kversion.Stable()
	vs.SetMaxKeyVersion(int16(kmsg.Produce), 12) // v13 names topics by id
	vs.SetMaxKeyVersion(int16(kmsg.AddPartitionsToTxn), 3)
	// TxnOffsetCommit v6 names topics by id; v5 is KIP-890 part 2's.
	vs.SetMaxKeyVersion(int16(kmsg.TxnOffsetCommit), 5)
	if d.simTV < 2 {
		vs.SetMaxKeyVersion(int16(kmsg.Produce), 11)
		vs.SetMaxKeyVersion(int16(kmsg.EndTxn), 4)
		vs.SetMaxKeyVersion(int16(kmsg.TxnOffsetCommit), 4)
	}
	cl, err := kgo.NewClient(append(d.sasl(), kgo.SeedBrokers(d.seed...), kgo.MaxVersions(vs), kgo.Dialer(p.faults().Dialer(d.dial())))...)
	if err != nil {
		p.lastErr = err
	}
	p.mirror = &mirror{cl: cl, answers: map[int64]kmsg.Response{}, raced: map[int64]bool{}, sent: map[int64]*engine.Message{}, delivered: map[engine.MsgKind]int{}, reached: map[int64]bool{}, reqs: map[int64]kmsg.Request{}}
	p.closed = true // no kgo producer: the calls the file makes are not played as calls
	d.prods[name] = p
	return p
}

// mirrorLine follows one line of the simulation: the requests it delivered
// from mirrored producers go to the broker now; the answers its clients
// took are noted.
func (d *driver) mirrorLine(c script.Command, evs []engine.Event) {
	if !d.mirroring || d.stopped != "" {
		return
	}
	ms := &d.mstate
	for _, e := range evs {
		if _, to, ok := e.Change.Txn(); ok && e.Kind == engine.EvTxnState && (to == engine.CompleteCommit || to == engine.CompleteAbort) {
			delete(ms.completing, e.TxnID)
		}
		if p, ok := d.prods[e.Actor]; ok && p.mirror != nil && e.Kind == engine.EvInfo {
			// The Java client's commit or abort returned.
			for _, m := range []engine.Method{engine.CallCommitTransaction, engine.CallAbortTransaction} {
				if strings.HasPrefix(e.Text(), m.String()+" returns") {
					p.mirror.log = append(p.mirror.log, mirrorItem{m: m, end: true})
				}
			}
		}
		m := e.Message
		if m == nil {
			continue
		}
		switch b := m.Body.(type) {
		case *engine.EndTxnRequest:
			if e.Kind == engine.EvDeliver {
				ms.completing[b.TransactionalID] = true
			}
		case *engine.EndTxnResponse:
			if e.Kind == engine.EvSend && b.Code != engine.None {
				for id := range ms.completing {
					if d.decls[m.To].Config.TransactionalID == id {
						delete(ms.completing, id)
					}
				}
			}
		}
		if job, ok := ms.expert[m.Corr]; ok && e.Kind == engine.EvDeliver && m.From == engine.ExpertAddr {
			delete(ms.expert, m.Corr)
			ctx, cancel := context.WithTimeout(d.ctx, 30*time.Second)
			job(ctx)
			cancel()
			continue
		}
		switch {
		case e.Kind == engine.EvDeliver && !m.Kind.IsResponse() && d.decls[m.From].Name != "":
			d.mirrorSend(c, d.mirrorProducer(m.From), m)
		case e.Kind == engine.EvSend && m.Kind.IsResponse() && d.decls[m.To].Name != "":
			d.mirrorLearn(c, d.mirrorProducer(m.To), m)
		case e.Kind == engine.EvDeliver && m.Kind.IsResponse() && d.decls[m.To].Name != "":
			p := d.mirrorProducer(m.To)
			p.mirror.got = append(p.mirror.got, m)
			p.mirror.log = append(p.mirror.log, mirrorItem{answer: m})
		}
	}
}

// brokerSide is the broker's producer id for one the simulation gave.
func (d *driver) brokerSide(pid int64) int64 {
	if r, ok := d.rev[pid]; ok && pid >= 0 {
		return r.pid
	}
	return pid
}

// mirrorSend sends m, a request of the simulation's producer, raw.
//
// A real coordinator writes its markers within milliseconds of its EndTxn
// answer, the simulation's when its messages are delivered. A request
// that reaches the simulation's coordinator while it still writes them
// (PrepareCommit, PrepareAbort) is raced: it may reach the real one
// before or after its markers; mirrorLearn stops the file where the two
// answers differ. Any other request after an EndTxn waits until the
// broker has written the markers too (settle).
func (d *driver) mirrorSend(c script.Command, p *producer, m *engine.Message) {
	if p.mirror.cl == nil || d.stopped != "" {
		return
	}
	if id := p.declared.Config.TransactionalID; id != "" {
		if d.mstate.completing[id] {
			p.mirror.raced[m.Corr] = true
		} else if d.mstate.ended[id] {
			d.settle([]string{p.declared.Name})
			delete(d.mstate.ended, id)
		}
		if _, ok := m.Body.(*engine.EndTxnRequest); ok {
			if d.mstate.ended == nil {
				d.mstate.ended = map[string]bool{}
			}
			d.mstate.ended[id] = true
		}
	}
	txid := func(id string) string { return d.prefix + id }
	var req kmsg.Request
	switch b := m.Body.(type) {
	case *engine.FindCoordinatorRequest:
		return // kgo finds the coordinator of each request itself
	case *engine.InitProducerIDRequest:
		r := kmsg.NewPtrInitProducerIDRequest()
		if b.TransactionalID != "" {
			id := txid(b.TransactionalID)
			r.TransactionalID = &id
		}
		ms := b.TimeoutMs
		if t, ok := d.scale.scaledTimeout(ms); ok {
			ms = t.Milliseconds()
		}
		r.TransactionTimeoutMillis = int32(ms)
		r.ProducerID, r.ProducerEpoch = d.brokerSide(b.ProducerID), b.ProducerEpoch
		req = r
	case *engine.AddPartitionsToTxnRequest:
		r := kmsg.NewPtrAddPartitionsToTxnRequest()
		r.TransactionalID, r.ProducerID, r.ProducerEpoch = txid(b.TransactionalID), d.brokerSide(b.ProducerID), b.ProducerEpoch
		d.partitionTopics(r, b.Partitions)
		req = r
	case *engine.AddOffsetsToTxnRequest:
		r := kmsg.NewPtrAddOffsetsToTxnRequest()
		r.TransactionalID, r.ProducerID, r.ProducerEpoch, r.Group = txid(b.TransactionalID), d.brokerSide(b.ProducerID), b.ProducerEpoch, d.prefix+b.GroupID
		if !containsStr(d.groups, r.Group) {
			d.groups = append(d.groups, r.Group)
		}
		req = r
	case *engine.TxnOffsetCommitRequest:
		r := kmsg.NewPtrTxnOffsetCommitRequest()
		r.TransactionalID, r.Group, r.ProducerID, r.ProducerEpoch = txid(b.TransactionalID), d.prefix+b.GroupID, d.brokerSide(b.ProducerID), b.ProducerEpoch
		r.Generation, r.MemberID = b.GenerationID, b.MemberID
		if b.GroupInstanceID != "" {
			inst := b.GroupInstanceID
			r.InstanceID = &inst
		}
		if !containsStr(d.groups, r.Group) {
			d.groups = append(d.groups, r.Group)
		}
		d.offsetTopics(r, b.Offsets)
		req = r
	case *engine.EndTxnRequest:
		r := kmsg.NewPtrEndTxnRequest()
		r.TransactionalID, r.ProducerID, r.ProducerEpoch, r.Commit = txid(b.TransactionalID), d.brokerSide(b.ProducerID), b.ProducerEpoch, b.Commit
		req = r
	case *engine.ProduceRequest:
		r := kmsg.NewPtrProduceRequest()
		if b.TransactionalID != "" {
			id := txid(b.TransactionalID)
			r.TransactionID = &id
		}
		r.Acks, r.TimeoutMillis = int16(b.Acks), 30000
		t := kmsg.NewProduceRequestTopic()
		t.Topic = d.name(b.TP.Topic)
		part := kmsg.NewProduceRequestTopicPartition()
		part.Partition = b.TP.Partition
		for _, bt := range b.Batches {
			part.Records = append(part.Records, buildBatch(engine.InjectBatch{ProducerID: d.brokerSide(bt.ProducerID), Epoch: bt.ProducerEpoch,
				Seq: bt.BaseSequence, Count: bt.Count, Values: bt.Records.Values(), Transactional: bt.Transactional})...)
		}
		t.Partitions = append(t.Partitions, part)
		r.Topics = append(r.Topics, t)
		req = r
	default:
		d.stop(c, fmt.Sprintf("a %s of a mirrored producer has no raw mapping", m.Kind), false)
		return
	}
	p.mirror.delivered[m.Kind]++
	p.mirror.reached[m.ID] = true
	ctx, cancel := context.WithTimeout(d.ctx, 30*time.Second)
	defer cancel()
	resp, err := d.requestLeader(ctx, p.mirror.cl, req) // cluster.go
	if debug {
		fmt.Fprintf(os.Stderr, "mirror %s %s: %v %+v\n", m.From, m.Kind, err, resp)
	}
	if err != nil {
		resp = nil
	}
	p.mirror.answers[m.Corr] = resp
	p.mirror.sent[m.Corr] = m
	p.mirror.reqs[m.Corr] = req
}

// mirrorLearn maps the producer id the broker gave a mirrored producer to
// the one the simulation gave it, from their answers to one InitProducerId;
// a raced request the two coordinators answered apart stops the file.
func (d *driver) mirrorLearn(c script.Command, p *producer, m *engine.Message) {
	if p.mirror.raced[m.Corr] {
		if code, _, _, _, ok := answerOf(p.mirror.answers[m.Corr]); ok && code != int16(m.Code()) {
			d.stop(c, fmt.Sprintf("%s reached the simulation's coordinator while it was still writing its markers (answered %s); the real coordinator had written them (answered %s): a race the broker run cannot hold",
				strings.TrimSuffix(m.Kind.String(), "Response"), m.Code(), errName(kerr.ErrorForCode(code))), false)
			return
		}
	}
	sim, ok := m.Body.(*engine.InitProducerIDResponse)
	if !ok || sim.Code != engine.None {
		return
	}
	if b, ok := p.mirror.answers[m.Corr].(*kmsg.InitProducerIDResponse); ok && b.ErrorCode == 0 {
		d.pids[b.ProducerID] = sim.ProducerID
		d.rev[sim.ProducerID] = revEntry{b.ProducerID, p.txid}
	}
}

// answerOf is the code, producer id, epoch and base offset of a broker
// answer (ok false when there is none).
func answerOf(r kmsg.Response) (code int16, pid int64, epoch int16, base int64, ok bool) {
	switch r := r.(type) {
	case *kmsg.InitProducerIDResponse:
		return r.ErrorCode, r.ProducerID, r.ProducerEpoch, -1, true
	case *kmsg.EndTxnResponse:
		return r.ErrorCode, r.ProducerID, r.ProducerEpoch, -1, true
	case *kmsg.AddOffsetsToTxnResponse:
		return r.ErrorCode, -1, -1, -1, true
	case *kmsg.AddPartitionsToTxnResponse:
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				if p.ErrorCode != 0 {
					return p.ErrorCode, -1, -1, -1, true
				}
			}
		}
		return 0, -1, -1, -1, true
	case *kmsg.TxnOffsetCommitResponse:
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				if p.ErrorCode != 0 {
					return p.ErrorCode, -1, -1, -1, true
				}
			}
		}
		return 0, -1, -1, -1, true
	case *kmsg.ProduceResponse:
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				return p.ErrorCode, -1, -1, p.BaseOffset, true
			}
		}
	}
	return 0, 0, 0, 0, false
}

// mirrorFact compares a producer fact of a mirrored producer: the broker's
// answer to the request whose answer the simulation's client took the
// fact from.
func (d *driver) mirrorFact(p *producer, x script.ProducerCheck, w *engine.World) (bool, string, string) {
	info, ok := w.ProducerInfo(x.Name)
	if !ok {
		return false, "", "the simulation has no such producer"
	}
	newest := func(pred func(*engine.Message) bool) *engine.Message {
		for i := len(p.mirror.got) - 1; i >= 0; i-- {
			if pred(p.mirror.got[i]) {
				return p.mirror.got[i]
			}
		}
		return nil
	}
	switch x.Field {
	case script.ClientState:
		st, by, why := d.mirrorJavaState(x.Name, p) // javastate.go
		if why != "" {
			return false, "", why
		}
		return st == x.State, fmt.Sprintf("state %s: the Java client's reading (TransactionManager) of the broker's answers to its requests sent raw, last %s", st, by), ""
	case script.ClientError:
		if info.LastError == engine.None {
			// No error: the broker's answer to the newest request
			// whose answer the client took carried none either.
			if len(p.mirror.got) == 0 {
				return false, "", "the simulation's client holds no error and took no answer: no answer to compare"
			}
			m := p.mirror.got[len(p.mirror.got)-1]
			code, _, _, _, ok := answerOf(p.mirror.answers[m.Corr])
			if !ok {
				return false, "", "the broker did not answer the request"
			}
			if code != int16(m.Code()) {
				// Another answer: the Java client would read it
				// otherwise.
				return false, "the broker answered " + errName(kerr.ErrorForCode(code)) + " where the simulation's client took " + m.Code().String(), ""
			}
			// The same answer: the client holds what the simulation's
			// holds (a retriable code is retried, not kept).
			return x.Error == "none", "error none (the broker's answer to the newest request whose answer the Java client took is the simulation's, " + m.Code().String() + ")", ""
		}
		m := newest(func(m *engine.Message) bool { return m.Code() == info.LastError })
		if m == nil {
			return false, "", "the Java client's own error (no answer it took carried " + info.LastError.String() + ")"
		}
		code, _, _, _, ok := answerOf(p.mirror.answers[m.Corr])
		if !ok {
			return false, "", "the broker did not answer the request"
		}
		got := errName(kerr.ErrorForCode(code))
		return got == x.Error, "error " + got + " (the broker's answer to the request the Java client took " + info.LastError.String() + " from)", ""
	case script.ClientPID, script.ClientEpoch:
		m := newest(func(m *engine.Message) bool {
			switch b := m.Body.(type) {
			case *engine.InitProducerIDResponse:
				return b.Code == engine.None
			case *engine.EndTxnResponse:
				return b.Code == engine.None && b.V5
			}
			return false
		})
		if m == nil {
			return false, "", "the simulation's client took its producer id from no answer"
		}
		simPID, simEpoch := int64(-1), int16(-1)
		switch b := m.Body.(type) {
		case *engine.InitProducerIDResponse:
			simPID, simEpoch = b.ProducerID, b.ProducerEpoch
		case *engine.EndTxnResponse:
			simPID, simEpoch = b.ProducerID, b.ProducerEpoch
		}
		if simPID != info.ProducerID {
			return false, "", "the Java producer's producer id is not the one its last answer gave: client memory"
		}
		if x.Field == script.ClientEpoch && simEpoch != info.Epoch {
			// The Java producer bumped its epoch itself (KIP-360): the
			// broker's fact is the epoch of the newest send it accepted.
			return d.acceptedEpoch(p, x, info.Epoch)
		}
		_, pid, epoch, _, ok := answerOf(p.mirror.answers[m.Corr])
		if !ok {
			return false, "", "the broker did not answer the request"
		}
		if x.Field == script.ClientPID {
			got := d.simPID(pid)
			return got == strconv.FormatInt(x.N, 10), "pid " + got + " (the broker's answer)", ""
		}
		return int64(epoch) == x.N, fmt.Sprintf("epoch %d (the broker's answer)", epoch), ""
	case script.ClientOffset:
		m := newest(func(m *engine.Message) bool {
			r, ok := m.Body.(*engine.ProduceResponse)
			return ok && r.Code == engine.None
		})
		if m == nil {
			return false, "", "the simulation's client took no acknowledged send"
		}
		code, _, _, base, ok := answerOf(p.mirror.answers[m.Corr])
		if !ok || code != 0 {
			return false, fmt.Sprintf("the broker answered the send with %s", errName(kerr.ErrorForCode(code))), ""
		}
		return base == x.N, fmt.Sprintf("offset %d", base), ""
	}
	return false, "", "not compared"
}

// mirrorQuiet reports whether everything the simulation has in flight is
// between a mirrored producer and a broker, and its pending timers are
// the mirrored producers' own or the coordinator's periodic checks: the
// broker run is then where the simulation is.
func (d *driver) mirrorQuiet(w *engine.World) bool {
	if !d.mirroring {
		return false
	}
	for _, m := range w.InFlight() {
		client, peer := m.From, m.To
		if m.Kind.IsResponse() {
			client, peer = m.To, m.From
		}
		if d.decls[client].Name == "" || !strings.HasPrefix(peer, "broker-") {
			return false
		}
	}
	for _, t := range w.PendingTimers() {
		switch {
		case d.decls[t.Owner].Name != "":
		case t.Kind == engine.TimerAbortCheck, t.Kind == engine.TimerExpiryCheck:
		default:
			return false
		}
	}
	return true
}

// mirrorAct plays an action line of a mirrored file that concerns its
// producers: nothing to do, the mirror follows what the simulation's
// producers send (mirrorLine). False for other actions.
func (d *driver) mirrorAct(c script.Command, t resolved) bool {
	if !d.mirroring {
		return false
	}
	producer := func(name string) bool { return d.decls[name].Name != "" }
	switch a := c.Action.(type) {
	case engine.Call:
		if !producer(a.Client) {
			return false
		}
		p := d.mirrorProducer(a.Client)
		p.mirror.log = append(p.mirror.log, mirrorItem{m: a.Method})
		return true
	case engine.Send:
		return producer(a.Client)
	case engine.SendOffsets:
		return producer(a.Client)
	case engine.Pause:
		return producer(a.Client)
	case engine.Resume:
		return producer(a.Client)
	case engine.Crash:
		return producer(a.Target.Client)
	case engine.Restart:
		if !producer(a.Target.Client) {
			return false
		}
		p := d.mirrorProducer(a.Target.Client)
		p.mirror.log = append(p.mirror.log, mirrorItem{restart: true})
		return true
	case engine.Drop, engine.Duplicate, engine.Delay:
		return t.ok && producer(t.client)
	case engine.Reorder:
		// The simulation delivers the two messages the other way
		// round; the mirror sends each at its delivery. Only for
		// producers without transactional.id: a transactional Produce
		// waits at the leader for its verification (KIP-890), which the
		// simulation's swapped message may overtake, while the mirror
		// sends the second only after the first was answered.
		n := 0
		for _, e := range t.events {
			if m := e.Message; m != nil {
				client := m.From
				if m.Kind.IsResponse() {
					client = m.To
				}
				if !producer(client) || d.decls[client].Config.TransactionalID != "" {
					return false
				}
				n++
			}
		}
		return n > 0
	case engine.InjectBatch:
		return d.mirrorExpert(t.events, func(ctx context.Context) { d.injectBatch(ctx, a) })
	case engine.InjectMarker:
		return d.mirrorExpert(t.events, func(ctx context.Context) { d.injectMarker(ctx, a) })
	case engine.InjectInitProducerID, engine.InjectAddPartitions, engine.InjectAddOffsets, engine.InjectEndTxn:
		return d.mirrorExpert(t.events, func(ctx context.Context) { d.expertTxn(ctx, a, t.world) })
	}
	return false
}

// mirrorExpert keeps an inject's request for the simulation's delivery of
// it (evs: the inject line's events, which send it).
func (d *driver) mirrorExpert(evs []engine.Event, job func(context.Context)) bool {
	for _, e := range evs {
		if m := e.Message; e.Kind == engine.EvSend && m != nil && m.From == engine.ExpertAddr && !m.Kind.IsResponse() {
			d.mstate.expert[m.Corr] = job
			return true
		}
	}
	return false
}

// closeMirrors closes the mirrored producers' raw clients.
func (d *driver) closeMirrors() {
	for _, p := range d.prods {
		if p.mirror != nil && p.mirror.cl != nil {
			p.mirror.cl.Close()
		}
	}
}

// acceptedEpoch compares the epoch of a producer that bumped it itself
// with the epoch of the newest send of it the broker accepted, when that
// send carried the producer's current epoch (epoch).
func (d *driver) acceptedEpoch(p *producer, x script.ProducerCheck, epoch int16) (bool, string, string) {
	for i := len(p.mirror.got) - 1; i >= 0; i-- {
		m := p.mirror.got[i]
		if _, ok := m.Body.(*engine.ProduceResponse); !ok {
			continue
		}
		sent := p.mirror.sent[m.Corr]
		if sent == nil {
			break
		}
		req, ok := sent.Body.(*engine.ProduceRequest)
		if !ok || len(req.Batches) == 0 || req.Batches[0].ProducerEpoch != epoch {
			break
		}
		code, _, _, _, ok := answerOf(p.mirror.answers[m.Corr])
		if !ok {
			break
		}
		if code != 0 {
			return false, fmt.Sprintf("the broker refused its send at epoch %d with %s", epoch, errName(kerr.ErrorForCode(code))), ""
		}
		return int64(epoch) == x.N, fmt.Sprintf("epoch %d (the newest send of it the broker accepted)", epoch), ""
	}
	return false, "", "the Java producer bumped its epoch itself (KIP-360) and sent nothing at it since: client memory"
}

// mirroredCount is the number of requests of kind the simulation
// delivered from the mirrored producer name, which the mirror sent one
// for one (ok false when name is not mirrored).
func (d *driver) mirroredCount(name string, kind engine.MsgKind) (int, bool) {
	p, ok := d.prods[name]
	if !ok || p.mirror == nil {
		return 0, false
	}
	return p.mirror.delivered[kind], true
}

// mirrorUnsent says why a request event of a mirrored producer (its
// send, or a broker's receipt of it) is not compared ("" when the event
// is not one): the mirror sends each of the producer's requests raw, one
// for one, when the simulation delivers it, so what it sent is the
// simulation's own, nothing the broker decided. The broker's answers to
// them are compared.
func (d *driver) mirrorUnsent(e engine.Event) string {
	m := e.Message
	if m == nil || m.Kind.IsResponse() || (e.Kind != engine.EvSend && e.Kind != engine.EvDeliver) {
		return ""
	}
	return d.mirrorOwn(m.From, m.Kind.String())
}

// mirrorOwn is why a line about the requests of kind the producer
// client sent is not compared when client is mirrored ("" otherwise).
func (d *driver) mirrorOwn(client, kind string) string {
	p, ok := d.prods[client]
	if !d.mirroring || !ok || p.mirror == nil {
		return ""
	}
	if k, ok := engine.MsgKindByName(kind); !ok || !mirrorKeys[k] || kind == "FindCoordinator" {
		return ""
	}
	return fmt.Sprintf("the broker run sends %s's requests raw, one for one as the simulation delivers them: what %s sends is the simulation's own here, nothing the broker decided (its answers are compared)", client, client)
}

// mirrorCounted is why a count of requests is not compared in a mirrored
// file ("" when it is): a mirrored producer's requests on the wire are
// the ones the simulation delivered, one for one.
func (d *driver) mirrorCounted(x script.RequestsCheck) string {
	if !d.mirroring {
		return ""
	}
	names := make([]string, 0, len(d.prods))
	for name := range d.prods {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if p := d.prods[name]; p.mirror != nil && (x.From == "" || x.From == name) {
			return fmt.Sprintf("the broker run sends %s's requests raw, one for one as the simulation delivers them: their count is the simulation's own here", name)
		}
	}
	return ""
}

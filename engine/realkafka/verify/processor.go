package verify

import (
	"context"
	"fmt"
	"sort"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// processor plays the simulation's consume-transform-produce application
// (engine.Processor) on one kgo client that is both a read_committed group
// consumer and a transactional producer, as a Kafka Streams task with
// exactly_once_v2 is one consumer and one producer sharing a thread. Its
// producer and consumer halves are registered under the processor's name in
// d.prods and d.cons, so the producer, consumer and transaction facts are
// read as for plain clients.
type processor struct {
	decl engine.DeclareProcessor
	prod *producer // holds the shared client and the worker
	cons *consumer // positions and values; its cl stays nil (prod.cl is it)
	// inited: initTransactions ran on the current instance.
	inited bool
	// begun: the simulation's loop count when the queued loop was asked
	// for, and its output record count then (see crashProcessor).
	loopQueued bool
	startEnd   int
	outParts   int32
}

func (d *driver) outTopic(pr *processor) (int32, bool) { return pr.outParts, pr.outParts > 0 }

func (d *driver) declareProcessor(a engine.DeclareProcessor) {
	if d.procs == nil {
		d.procs = map[string]*processor{}
	}
	pr := &processor{decl: a, prod: &producer{txid: d.prefix + a.TransactionalID}, cons: &consumer{pos: map[engine.TP]int64{}}}
	pr.prod.start()
	pr.cons.start()
	d.procs[a.Name] = pr
	d.prods[a.Name], d.cons[a.Name] = pr.prod, pr.cons
}

// procClient makes the processor's client: Kafka Streams' consumer settings
// (read_committed, auto.offset.reset=earliest, no auto commit) and its
// producer's (the transactional id), through the processor's fault wrapper.
func (d *driver) procClient(pr *processor) {
	opts := []kgo.Opt{kgo.SeedBrokers(d.seed...), kgo.ProducerLinger(0),
		kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.ProducerBatchCompression(kgo.NoCompression()),
		kgo.Dialer(pr.prod.faults().Dialer(nil)), kgo.MaxVersions(d.maxVersions()),
		kgo.TransactionalID(pr.prod.txid),
		kgo.ConsumerGroup(d.prefix + pr.decl.GroupID), kgo.ConsumeTopics(d.name(pr.decl.Input)),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.DisableAutoCommit(), kgo.KeepControlRecords()}
	cl, err := kgo.NewClient(opts...)
	pr.prod.cl, pr.prod.closed, pr.prod.hasAck, pr.inited = cl, false, false, false
	pr.prod.lastErr = err
	if g := d.prefix + pr.decl.GroupID; !containsStr(d.groups, g) {
		d.groups = append(d.groups, g)
	}
}

func containsStr(s []string, x string) bool {
	for _, e := range s {
		if e == x {
			return true
		}
	}
	return false
}

// loopUpto is how far a loop goes.
type loopUpto int

const (
	loopWhole   loopUpto = iota
	loopOffsets          // up to the offsets, no commit
	loopOutputs          // the outputs only
)

// processCall queues one `process` loop for the next quiet point.
func (d *driver) processCall(c script.Command, name string, w *engine.World) {
	pr := d.procs[name]
	t, ok := w.Topic(pr.decl.Output)
	if !ok {
		d.stop(c, "the processor's output topic is unknown", false)
		return
	}
	if pr.loopQueued {
		d.stop(c, "a second process call before the first one's loop ran on the broker", false)
		return
	}
	pr.loopQueued = true
	pr.outParts = t.Partitions
	pr.startEnd = w.RequestCount(engine.RequestFilter{Kind: engine.MsgEndTxn, KindSet: true, From: name})
	sim := simGeneration(w, pr.decl.GroupID)
	d.enqueue(&pr.prod.worker, func(ctx context.Context) {
		pr.loopQueued = false
		d.processLoop(ctx, pr, t.Partitions, loopWhole)
		if pr.prod.cl != nil && !pr.prod.closed && pr.decl.GroupID != "" {
			// The processor's client joined its group at its first
			// loop (group.go).
			_, gen := pr.prod.cl.GroupMetadata()
			d.noteJoin(pr.decl.GroupID, gen, sim)
		}
	})
}

// processLoop is one turn of engine.Processor's loop (World.runProcessor):
// initTransactions on a new instance, poll, and for what the poll took
// begin, one output per input (its value with a ' appended, to the input's
// partition modulo the output's count), the consumed offsets where the
// mode puts them, and commit; upto stops it early, where a crash came.
func (d *driver) processLoop(ctx context.Context, pr *processor, outParts int32, upto loopUpto) {
	p := pr.prod
	if p.cl == nil {
		d.procClient(pr)
	}
	if p.cl == nil || p.closed {
		return
	}
	if !pr.inited {
		if _, _, err := p.cl.ProducerID(ctx); err != nil {
			p.setErr(err)
			return
		}
		p.lastErr = nil
		pr.inited = true
	}
	ins := d.fetchInto(ctx, p.cl, pr.cons)
	if len(ins) == 0 {
		return
	}
	if err := p.cl.BeginTransaction(); err != nil {
		p.lastErr = err
		return
	}
	p.rawOffsets = false
	var recs []*kgo.Record
	for _, in := range ins {
		v := append(append([]byte(nil), in.Value...), '\'')
		recs = append(recs, &kgo.Record{Topic: d.name(pr.decl.Output), Partition: in.Partition % max(outParts, 1), Value: v})
	}
	// One send per input, as the loop's: each its own batch.
	for _, r := range recs {
		res := p.cl.ProduceSync(ctx, r)
		if err := res.FirstErr(); err != nil {
			p.setErr(err)
		} else {
			p.offset, p.hasAck = r.Offset, true
		}
	}
	if upto == loopOutputs {
		return
	}
	offsets := pr.offsets(d)
	switch pr.decl.Offsets {
	case engine.OffsetsInTransaction:
		member, gen := p.cl.GroupMetadata()
		d.sendOffsets(ctx, p, engine.SendOffsets{Client: pr.decl.Name, Group: pr.decl.GroupID, Offsets: offsets, Generation: gen, Member: member})
	case engine.OffsetsBefore:
		d.commitMember(ctx, p.cl, offsets)
	}
	if upto == loopOffsets {
		return
	}
	if err := p.cl.Flush(ctx); err != nil {
		p.setErr(err)
	}
	if err := p.cl.EndTransaction(ctx, kgo.TryCommit); err != nil {
		p.setErr(err)
		// The loop aborts an abortable failure and starts again from the
		// committed offsets (World.runProcessor, procAborting).
		if aerr := p.cl.EndTransaction(ctx, kgo.TryAbort); aerr == nil {
			d.rewind(ctx, pr)
		}
		return
	}
	if pr.decl.Offsets == engine.OffsetsAfter {
		d.commitMember(ctx, p.cl, offsets)
	}
}

// offsets are the positions the processor's consumer reached on its input.
func (pr *processor) offsets(d *driver) []engine.TPOffset {
	var out []engine.TPOffset
	for tp, o := range pr.cons.pos {
		if tp.Topic == pr.decl.Input && o >= 0 {
			out = append(out, engine.TPOffset{TP: tp, Offset: o})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].TP.Partition < out[j].TP.Partition })
	return out
}

// commitMember is a member's OffsetCommit with its generation, as Java's
// commitSync sends it.
func (d *driver) commitMember(ctx context.Context, cl *kgo.Client, offsets []engine.TPOffset) error {
	eo := map[string]map[int32]kgo.EpochOffset{}
	for _, o := range offsets {
		t := d.name(o.TP.Topic)
		if eo[t] == nil {
			eo[t] = map[int32]kgo.EpochOffset{}
		}
		eo[t][o.TP.Partition] = kgo.EpochOffset{Epoch: -1, Offset: o.Offset}
	}
	var err error
	cl.CommitOffsetsSync(ctx, eo, func(_ *kgo.Client, _ *kmsg.OffsetCommitRequest, resp *kmsg.OffsetCommitResponse, e error) {
		err = e
		if e == nil {
			for _, t := range resp.Topics {
				for _, p := range t.Partitions {
					if ke := kerr.ErrorForCode(p.ErrorCode); ke != nil {
						err = ke
					}
				}
			}
		}
	})
	return err
}

// rewind moves the processor's consumer back to the group's committed
// offsets (the start where none is), after an abort.
func (d *driver) rewind(ctx context.Context, pr *processor) {
	os, err := d.adm.FetchOffsets(ctx, d.prefix+pr.decl.GroupID)
	if err != nil {
		return
	}
	set := map[string]map[int32]kgo.EpochOffset{}
	for tp := range pr.cons.pos {
		at := int64(0)
		if o, ok := os.Lookup(d.name(tp.Topic), tp.Partition); ok && o.At >= 0 {
			at = o.At
		}
		if set[d.name(tp.Topic)] == nil {
			set[d.name(tp.Topic)] = map[int32]kgo.EpochOffset{}
		}
		set[d.name(tp.Topic)][tp.Partition] = kgo.EpochOffset{Epoch: -1, Offset: at}
		pr.cons.pos[tp] = at
	}
	pr.prod.cl.SetOffsets(set)
}

// loopPoint is how far a processor's loop got in the simulation when it
// crashed.
type loopPoint struct {
	quiet       bool   // nothing of the loop is left: it is whole
	beforeEnd   bool   // every output is sent, EndTxn is not
	offsetsSent bool   // beforeEnd: and the offsets' requests are sent
	description string // otherwise, what is left
}

// loopPoint reads the simulation before a crash line runs.
func (d *driver) loopPoint(c script.Command, w *engine.World) loopPoint {
	a, ok := c.Action.(engine.Crash)
	if !ok {
		return loopPoint{}
	}
	pr, ok := d.procs[a.Target.Client]
	if !ok {
		return loopPoint{}
	}
	if !w.Busy() {
		return loopPoint{quiet: true}
	}
	p := w.Producer(pr.decl.Name)
	if p == nil {
		return loopPoint{description: "no producer"}
	}
	ended := w.RequestCount(engine.RequestFilter{Kind: engine.MsgEndTxn, KindSet: true, From: pr.decl.Name}) > pr.startEnd
	// Unsent outputs: a partial send is finer than the broker run plays.
	left := len(p.NewParts) > 0
	for _, b := range p.Queue {
		// A batch on the network arrives; one still in the
		// accumulator does not.
		left = left || !b.InFlight
	}
	// Unsent offsets: the broker run leaves them out too.
	offsets := p.Offsets == nil
	for _, r := range p.Pending {
		switch r.Kind {
		case engine.MsgEndTxn:
		case engine.MsgAddOffsetsToTxn, engine.MsgTxnOffsetCommit:
			offsets = false
		default:
			left = true
		}
	}
	if !ended && !left && p.State == engine.CommittingTransaction {
		return loopPoint{beforeEnd: true, offsetsSent: offsets}
	}
	return loopPoint{description: fmt.Sprintf("its producer %s, EndTxn sent %v, outputs left to send %v", p.State, ended, left)}
}

// crashProcessor ends the processor's instance without a goodbye. A loop
// still queued runs first, as far as the simulation's got: whole when the
// simulation was quiet, or up to its commit when the simulation's instance
// had sent every request of its loop but EndTxn (requests on the network
// still arrive after a crash; answers are lost), which is the state right
// inside commitTransaction; any other point inside a loop is not played.
func (d *driver) crashProcessor(c script.Command, name string, at loopPoint) {
	pr := d.procs[name]
	if pr.loopQueued {
		t, _ := d.outTopic(pr)
		if !at.quiet && !at.beforeEnd {
			d.stop(c, "a crash inside a processor's loop ("+at.description+"): the broker run plays a loop whole or up to its EndTxn", false)
			return
		}
		upto := loopWhole
		if !at.quiet {
			upto = loopOutputs
			if at.offsetsSent {
				upto = loopOffsets
			}
		}
		// The queued job is replaced by the one that goes as far.
		d.dropQueued(&pr.prod.worker)
		pr.loopQueued = false
		d.submit(queued{&pr.prod.worker, func(ctx context.Context) { d.processLoop(ctx, pr, t, upto) }})
	}
	d.flush(nil)
	if pr.prod.cl != nil && !pr.prod.closed {
		pr.prod.cl.Close()
	}
	pr.prod.closed = true
}

// dropQueued removes w's calls from the queue.
func (d *driver) dropQueued(w *worker) {
	q := d.queue[:0]
	for _, x := range d.queue {
		if x.w != w {
			q = append(q, x)
		}
	}
	d.queue = q
}

// restartProcessor is a new instance: a new client, which joins the group
// and calls initTransactions on its first loop.
func (d *driver) restartProcessor(name string) {
	pr := d.procs[name]
	pr.prod.cl, pr.prod.closed, pr.prod.lastErr, pr.prod.hasAck, pr.inited = nil, false, nil, false, false
	pr.cons.pos = map[engine.TP]int64{}
}

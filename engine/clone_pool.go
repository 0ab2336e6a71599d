package engine

// cloneInto and the copy helpers below are Clone into a world that a
// search made before and no longer needs (CloneForSearchInto): the same
// copy, written into the maps, slices and client structs dst already
// owns, so that a search stepping thousands of copies a second does not
// allocate (and collect) some thirty objects for each. What Clone shares
// (the append-only histories, capped) is shared the same way; everything
// Clone copies is copied. An empty list may come out empty but not nil
// where Clone gives nil: no rule tells the two apart (it reads their
// lengths), nor does StateHash.

// reuse is buf emptied and filled with src. A buf too small is made
// with room for twice src: a step replaces many of a world's lists with
// lists of its own, just big enough, and each copy into that world then
// grew them again.
func reuse[T any](buf, src []T) []T {
	if len(src) == 0 && buf == nil {
		return nil
	}
	if cap(buf) < len(src) {
		buf = make([]T, 0, 2*len(src))
	}
	return append(buf[:0], src...)
}

// reuseMap is buf emptied and filled with src's entries, nil when src is
// nil (as Clone leaves it).
func reuseMap[K comparable, V any](buf, src map[K]V) map[K]V {
	if src == nil {
		return nil
	}
	if buf == nil {
		buf = make(map[K]V, len(src))
	} else if len(buf) == len(src) {
		// Most times buf was copied from a world one action from src,
		// with the same keys: overwriting its values keeps the map's
		// slots. Every key of src is then in buf, and the same count
		// means no other is.
		for k, v := range src {
			buf[k] = v
		}
		if len(buf) == len(src) {
			return buf
		}
		clear(buf)
	} else {
		clear(buf)
	}
	for k, v := range src {
		buf[k] = v
	}
	return buf
}

// reuseMapAlways is reuseMap for a map Clone always makes (never nil).
func reuseMapAlways[K comparable, V any](buf, src map[K]V) map[K]V {
	if src == nil {
		src = map[K]V{}
	}
	return reuseMap(buf, src)
}

// reusePtrMap fills buf with copies of src's values, each copied by cp
// into the struct buf held under the same key when there was one.
func reusePtrMap[K comparable, V any](buf, src map[K]*V, cp func(from, into *V)) map[K]*V {
	if buf == nil {
		buf = make(map[K]*V, len(src))
	}
	n := len(buf)
	for k, v := range src {
		d := buf[k]
		if d == nil {
			d = new(V)
			buf[k] = d
		}
		cp(v, d)
	}
	if len(buf) == len(src) && n == len(src) {
		// Every key of src is in buf, and buf has no other: the common
		// case (the same keys as the world it was copied from last),
		// with no second pass.
		return buf
	}
	for k := range buf {
		if _, ok := src[k]; !ok {
			delete(buf, k)
		}
	}
	return buf
}

// reusePtrs is reusePtrMap for a slice of pointers.
func reusePtrs[V any](buf, src []*V, cp func(from, into *V)) []*V {
	if len(buf) > len(src) {
		clear(buf[len(src):])
	}
	buf = buf[:min(len(buf), len(src))]
	for i, v := range src {
		if i == len(buf) {
			buf = append(buf, new(V))
		}
		if buf[i] == nil {
			buf[i] = new(V)
		}
		cp(v, buf[i])
	}
	return buf
}

// ptrPair is a struct of a world and the struct of its copy that holds
// the copy of it (the same key in both worlds' maps).
type ptrPair[V any] struct{ from, into *V }

// pairs are the structs of dst's partitions, __transaction_state
// partitions and groups paired with the ones of src, its copy's source,
// they were copied from last: a search copies one world into the same
// dst once per move, and ranging over the maps and finding each key in
// dst's was a third of the copy. gen counts the copies made into the
// world these pairs are of: a world copied into since its pairs were made
// (gen not srcGen) has other contents, though the same structs.
type pairs struct {
	src         *World
	gen, srcGen uint64
	parts       []ptrPair[PartitionLog]
	txnParts    []ptrPair[TxnStatePartition]
	groups      []ptrPair[Group]
}

// valid reports whether p pairs dst with src as they are: src not
// copied into since, and no key added on either side (keys are only
// added, never taken out, but by a copy: the same counts mean the same
// keys). parts, txnParts and groups are the sizes of dst's maps.
func (p *pairs) valid(src *World, srcGen uint64, parts, txnParts, groups int) bool {
	return p.src == src && p.srcGen == srcGen &&
		len(p.parts) == len(src.partitions) && len(p.parts) == parts &&
		len(p.txnParts) == len(src.txnParts) && len(p.txnParts) == txnParts &&
		len(p.groups) == len(src.groups) && len(p.groups) == groups
}

// pair makes p the pairs of dst, just copied from src.
func (p *pairs) pair(src, dst *World, srcGen uint64) {
	p.src, p.srcGen = src, srcGen
	p.parts, p.txnParts, p.groups = p.parts[:0], p.txnParts[:0], p.groups[:0]
	for k, v := range src.partitions {
		p.parts = append(p.parts, ptrPair[PartitionLog]{v, dst.partitions[k]})
	}
	for k, v := range src.txnParts {
		p.txnParts = append(p.txnParts, ptrPair[TxnStatePartition]{v, dst.txnParts[k]})
	}
	for k, v := range src.groups {
		p.groups = append(p.groups, ptrPair[Group]{v, dst.groups[k]})
	}
}

func copyPairs[V any](ps []ptrPair[V], cp func(from, into *V)) {
	for _, p := range ps {
		cp(p.from, p.into)
	}
}

// cloneInto makes dst a Clone of w, reusing dst's memory (dst must not
// be w, nor share a client or log struct with w or with a world still in
// use: a world made by Clone or cloneInto owns its own). p, if not nil,
// are dst's pairs (see pairs), srcGen w's copy count; they are kept up.
func (w *World) cloneInto(dst *World, p *pairs, srcGen uint64) {
	// The buffers dst owns, kept aside before it is overwritten: a World
	// is some 5 KB (the monitors, the name and tally caches), and a copy
	// of all of it, with the write barriers of its pointers, was a tenth
	// of the copy.
	old := struct {
		brokers    []Broker
		topics     []Topic
		queue      queue
		parked     []parkedRequest
		held       []heldResponse
		dirty      []TP
		requests   []RequestTally // the cost counters' lists (copying all of
		markers    []MarkerTally  // them, some 1.6 KB, was a twentieth of the copy)
		timeouts   timeoutIndex
		outputs    map[outputKey]pvec[int32]
		partitions map[TP]*PartitionLog
		txnParts   map[int32]*TxnStatePartition
		groups     map[string]*Group
		producers  []*Producer
		consumers  []*Consumer
		processors []*Processor
	}{dst.brokers, dst.topics, dst.queue, dst.parked, dst.held, dst.dirty, dst.cost.requests, dst.cost.markers,
		dst.timeouts, dst.outputs, dst.partitions, dst.txnParts, dst.groups, dst.producers, dst.consumers, dst.processors}
	dst.worldState = w.worldState
	if !dst.events.sameQuiet(&w.events) {
		dst.events = w.events
	}
	c := dst
	c.brokers = reuse(old.brokers, w.brokers)
	c.topics = reuse(old.topics, w.topics)
	c.violations = w.violations[:len(w.violations):len(w.violations)]
	c.queue = queue{keys: reuse(old.queue.keys, w.queue.keys), slab: reuse(old.queue.slab, w.queue.slab), free: reuse(old.queue.free, w.queue.free)}
	c.parked = reuse(old.parked, w.parked)
	c.held = reuse(old.held, w.held)
	c.dirty = reuse(old.dirty, w.dirty)
	// A search's world notes no change (ownEvents): its change set is
	// empty, and so is the copy's.
	c.changes = ChangeSet{off: true}
	// The name index and the tallies' indexes are shared until either
	// world adds a key (hashIndex.share): a search's copy seldom does,
	// and copying their maps was a tenth of the copy. The tallies'
	// indexes are kept built (Clone drops them, to be rebuilt on the
	// next request: a map made per copy).
	// The names and the tallies came with *dst = *w: assigning the
	// structs again (some 2.7 KB) was a twentieth of the copy.
	c.names.m = w.names.m.share()
	c.cost.requests = reuse(old.requests, w.cost.requests)
	c.cost.markers = reuse(old.markers, w.cost.markers)
	c.cost.requestAt = w.cost.requestAt.share()
	c.cost.markerAt = w.cost.markerAt.share()
	c.timeouts = w.timeouts.copyInto(old.timeouts)
	c.outputs = reuseMap(old.outputs, w.outputs)
	if p != nil && p.valid(w, srcGen, len(old.partitions), len(old.txnParts), len(old.groups)) {
		c.partitions, c.txnParts, c.groups = old.partitions, old.txnParts, old.groups
		copyPairs(p.parts, (*PartitionLog).cloneInto)
		copyPairs(p.txnParts, (*TxnStatePartition).cloneInto)
		copyPairs(p.groups, (*Group).cloneInto)
	} else {
		c.partitions = reusePtrMap(old.partitions, w.partitions, (*PartitionLog).cloneInto)
		c.txnParts = reusePtrMap(old.txnParts, w.txnParts, (*TxnStatePartition).cloneInto)
		c.groups = reusePtrMap(old.groups, w.groups, (*Group).cloneInto)
		if p != nil {
			p.pair(w, c, srcGen)
		}
	}
	c.producers = reusePtrs(old.producers, w.producers, (*Producer).cloneInto)
	c.consumers = reusePtrs(old.consumers, w.consumers, (*Consumer).cloneInto)
	c.processors = reusePtrs(old.processors, w.processors, (*Processor).cloneInto)
}

// The cloneInto of a struct keeps aside only the buffers of d it
// reuses, not the whole struct: a copy of each struct to the stack was a
// tenth of the copy.

// sameQuiet reports whether l and o are quiet histories a search's
// copies made over one scratch (ownEvents), with one name table: such a
// history stores nothing (flush counts its events), and ownEvents empties
// its count, so either is the other once emptied.
func (l *eventLog) sameQuiet(o *eventLog) bool {
	return l.quiet && o.quiet && len(l.evs.chunks) == 1 && len(o.evs.chunks) == 1 && l.evs.chunks[0] == o.evs.chunks[0] &&
		l.evs.n == o.evs.n && l.names.same(&o.names)
}

// same reports whether t and o hold the same names: the same chunks and
// count (a chunk is written past a list's count only by the one list
// that owns it).
func (t *nameTab) same(o *nameTab) bool {
	if t.list.n != o.list.n || len(t.list.chunks) != len(o.list.chunks) {
		return false
	}
	for i, c := range t.list.chunks {
		if o.list.chunks[i] != c {
			return false
		}
	}
	return true
}

func (p *PartitionLog) cloneInto(d *PartitionLog) {
	replicas, ongoing, unreplicated := d.Replicas, d.Ongoing, d.Unreplicated
	producers, verifying, seqMax := d.Producers, d.Verifying, d.SeqMax
	*d = *p
	d.Batches = p.Batches[:len(p.Batches):len(p.Batches)]
	d.Aborted = p.Aborted[:len(p.Aborted):len(p.Aborted)]
	d.Replicas = reuse(replicas, p.Replicas)
	d.Ongoing = reuse(ongoing, p.Ongoing)
	d.Unreplicated = reuse(unreplicated, p.Unreplicated)
	d.Producers = reuseMapAlways(producers, p.Producers)
	d.Verifying = reuseMap(verifying, p.Verifying)
	d.SeqMax = reuseMap(seqMax, p.SeqMax)
}

func (t *TxnStatePartition) cloneInto(d *TxnStatePartition) {
	old := *d
	*d = *t
	d.Log = t.Log[:len(t.Log):len(t.Log)]
	d.Replicas = reuse(old.Replicas, t.Replicas)
	d.Writes = reuse(old.Writes, t.Writes)
	d.Meta = reuseMapAlways(old.Meta, t.Meta)
	if old.Markers == nil {
		old.Markers = map[string]*markerJob{}
	}
	d.Markers = reusePtrMap(old.Markers, t.Markers, func(j, into *markerJob) {
		o := *into
		*into = *j
		into.Pending = reuse(o.Pending, j.Pending)
		into.Outstanding = reuseMapAlways(o.Outstanding, j.Outstanding)
	})
}

func (g *Group) cloneInto(d *Group) {
	old := *d
	*d = *g
	d.Members = reuse(old.Members, g.Members)
	d.Committed = reuseMapAlways(old.Committed, g.Committed)
	if old.Pending == nil {
		old.Pending = map[int64]map[TP]CommittedOffset{}
	}
	for pid := range old.Pending {
		if _, ok := g.Pending[pid]; !ok {
			delete(old.Pending, pid)
		}
	}
	for pid, m := range g.Pending {
		old.Pending[pid] = reuseMapAlways(old.Pending[pid], m)
	}
	d.Pending = old.Pending
}

func (p *Producer) cloneInto(d *Producer) {
	deferred, parts, queue, inFlight := d.Deferred, d.Parts, d.Queue, d.InFlight
	txnParts, newParts, addingParts, pending, offsets := d.TxnParts, d.NewParts, d.AddingParts, d.Pending, d.Offsets
	*d = *p
	d.Deferred = reuse(deferred, p.Deferred)
	d.Parts = reuse(parts, p.Parts)
	d.Queue = reuse(queue, p.Queue)
	d.InFlight = reuse(inFlight, p.InFlight)
	d.TxnParts = reuse(txnParts, p.TxnParts)
	d.NewParts = reuse(newParts, p.NewParts)
	d.AddingParts = reuse(addingParts, p.AddingParts)
	d.Pending = reuse(pending, p.Pending)
	if p.Offsets != nil {
		o := offsets
		if o == nil {
			o = new(OffsetsJob)
		}
		buf := o.Offsets
		*o = *p.Offsets
		o.Offsets = reuse(buf, p.Offsets.Offsets)
		d.Offsets = o
	}
}

func (x *Consumer) cloneInto(d *Consumer) {
	topics, positions, awaitReset, inFlight, deferred := d.Topics, d.Positions, d.AwaitReset, d.InFlight, d.Deferred
	*d = *x
	d.Topics = reuse(topics, x.Topics)
	d.Positions = reuse(positions, x.Positions)
	d.AwaitReset = reuse(awaitReset, x.AwaitReset)
	d.Received = x.Received[:len(x.Received):len(x.Received)]
	d.InFlight = reuse(inFlight, x.InFlight)
	d.Deferred = reuse(deferred, x.Deferred)
}

func (x *Processor) cloneInto(d *Processor) {
	prod, cons := d.Producer, d.Consumer
	*d = *x
	if prod == nil {
		prod = new(Producer)
	}
	if cons == nil {
		cons = new(Consumer)
	}
	x.Producer.cloneInto(prod)
	x.Consumer.cloneInto(cons)
	d.Producer, d.Consumer = prod, cons
}

package engine

// Clone copies the whole world. Logs and the event history are append-only
// with immutable entries, so the copy shares their backing arrays (capped so
// that neither side's appends are seen by the other); everything mutable is
// copied. This is what makes a snapshot cheap enough to take at every step.
func (w *World) Clone() *World {
	c := *w
	c.brokers = append([]Broker(nil), w.brokers...)
	c.topics = append([]Topic(nil), w.topics...)
	c.events = w.events.clone()
	c.violations = w.violations[:len(w.violations):len(w.violations)]
	c.queue = w.queue.clone()
	c.parked = append([]parkedRequest(nil), w.parked...)
	c.held = append([]heldResponse(nil), w.held...)
	c.dirty = append([]TP(nil), w.dirty...)
	c.changes = w.changes.clone()
	c.names = w.names.clone()
	c.cost = w.cost.clone()
	c.timeouts = w.timeouts.clone()
	if w.outputs != nil {
		c.outputs = make(map[outputKey]pvec[int32], len(w.outputs))
		for k, v := range w.outputs {
			c.outputs[k] = v
		}
	}
	c.partitions = make(map[TP]*PartitionLog, len(w.partitions))
	for tp, p := range w.partitions {
		c.partitions[tp] = p.clone()
	}
	c.txnParts = make(map[int32]*TxnStatePartition, len(w.txnParts))
	for k, t := range w.txnParts {
		c.txnParts[k] = t.clone()
	}
	c.groups = make(map[string]*Group, len(w.groups))
	for k, g := range w.groups {
		c.groups[k] = g.clone()
	}
	c.producers = make([]*Producer, len(w.producers))
	for i, p := range w.producers {
		c.producers[i] = p.clone()
	}
	c.consumers = make([]*Consumer, len(w.consumers))
	for i, x := range w.consumers {
		c.consumers[i] = x.clone()
	}
	c.processors = make([]*Processor, len(w.processors))
	for i, x := range w.processors {
		cp := *x
		cp.Producer = x.Producer.clone()
		cp.Consumer = x.Consumer.clone()
		c.processors[i] = &cp
	}
	return &c
}

// ShareHistory makes w's append-only histories views of later's arrays,
// which hold the same entries: later is a world that was stepped on after
// w was cloned from it, so each of its histories extends w's. The
// histories are the ones Clone shares instead of copying: the events, the
// violations, each partition's batches and aborted index, each
// __transaction_state log, each producer's acknowledged sends and each
// consumer's received records (a processor's too). A growing history moves
// to a bigger array now and then, and every snapshot would otherwise keep
// alive the array it was taken from: with a snapshot per step, those
// arrays add up to several times the history itself. A history whose last
// entry does not agree with later's (a truncated and rewritten log, a
// world that did not grow from w) is left alone.
func (w *World) ShareHistory(later *World) {
	w.events.shareWith(&later.events)
	shareTail(&w.violations, later.violations, equal[Violation])
	for tp, p := range w.partitions {
		if lp := later.partitions[tp]; lp != nil {
			shareTail(&p.Batches, lp.Batches, equal[Batch])
			shareTail(&p.Aborted, lp.Aborted, equal[AbortedTxn])
		}
	}
	for k, t := range w.txnParts {
		if lt := later.txnParts[k]; lt != nil {
			shareTail(&t.Log, lt.Log, sameTxnLogRecord)
		}
	}
	for i, c := range w.consumers {
		if i < len(later.consumers) && later.consumers[i].Name == c.Name {
			shareTail(&c.Received, later.consumers[i].Received, equal[ConsumedRecord])
		}
	}
	for i, pr := range w.processors {
		if i < len(later.processors) && later.processors[i].Name == pr.Name {
			lp := later.processors[i]
			shareTail(&pr.Consumer.Received, lp.Consumer.Received, equal[ConsumedRecord])
		}
	}
}

// shareTail makes *mine a capped view of later's first len(*mine) entries
// when later holds them in another array and its entry at the same place
// as *mine's last one is the same.
func shareTail[T any](mine *[]T, later []T, same func(a, b *T) bool) {
	s := *mine
	n := len(s)
	if n == 0 || len(later) < n || &s[n-1] == &later[n-1] || !same(&s[n-1], &later[n-1]) {
		return
	}
	*mine = later[:n:n]
}

func equal[T comparable](a, b *T) bool { return *a == *b }

// sameTxnLogRecord: a __transaction_state record is never rewritten, and
// its offset, time and id name it (its partition list makes it
// incomparable).
func sameTxnLogRecord(a, b *TxnLogRecord) bool {
	return a.Offset == b.Offset && a.LastUpdateTs == b.LastUpdateTs && a.TransactionalID == b.TransactionalID
}

func (p *PartitionLog) clone() *PartitionLog {
	c := *p
	c.Batches = p.Batches[:len(p.Batches):len(p.Batches)]
	c.Aborted = p.Aborted[:len(p.Aborted):len(p.Aborted)]
	c.Replicas = append([]int(nil), p.Replicas...)
	c.Ongoing = append([]TxnRange(nil), p.Ongoing...)
	c.Unreplicated = append([]TxnRange(nil), p.Unreplicated...)
	c.Producers = make(map[int64]ProducerStateEntry, len(p.Producers))
	for k, v := range p.Producers {
		c.Producers[k] = v
	}
	if p.Verifying != nil {
		c.Verifying = make(map[int64]VerificationState, len(p.Verifying))
		for k, v := range p.Verifying {
			c.Verifying[k] = v
		}
	}
	if p.SeqMax != nil {
		c.SeqMax = make(map[int64]seqMark, len(p.SeqMax))
		for k, v := range p.SeqMax {
			c.SeqMax[k] = v
		}
	}
	return &c
}

func (t *TxnStatePartition) clone() *TxnStatePartition {
	c := *t
	c.Log = t.Log[:len(t.Log):len(t.Log)]
	c.Replicas = append([]int(nil), t.Replicas...)
	c.Writes = append([]pendingWrite(nil), t.Writes...)
	c.Meta = make(map[string]TxnMetadata, len(t.Meta))
	for k, v := range t.Meta {
		c.Meta[k] = v
	}
	c.Markers = make(map[string]*markerJob, len(t.Markers))
	for k, j := range t.Markers {
		cj := *j
		cj.Pending = append([]TP(nil), j.Pending...)
		cj.Outstanding = make(map[int64][]TP, len(j.Outstanding))
		for corr, tps := range j.Outstanding {
			cj.Outstanding[corr] = tps
		}
		c.Markers[k] = &cj
	}
	return &c
}

func (g *Group) clone() *Group {
	c := *g
	c.Members = append([]GroupMember(nil), g.Members...)
	c.Committed = make(map[TP]CommittedOffset, len(g.Committed))
	for k, v := range g.Committed {
		c.Committed[k] = v
	}
	c.Pending = make(map[int64]map[TP]CommittedOffset, len(g.Pending))
	for pid, m := range g.Pending {
		cm := make(map[TP]CommittedOffset, len(m))
		for k, v := range m {
			cm[k] = v
		}
		c.Pending[pid] = cm
	}
	return &c
}

func (p *Producer) clone() *Producer {
	c := *p
	c.Deferred = append([]item(nil), p.Deferred...)
	c.Parts = append([]PartitionSeq(nil), p.Parts...)
	c.Queue = append([]ProducerBatch(nil), p.Queue...)
	c.InFlight = append([]InFlightRequest(nil), p.InFlight...)
	c.TxnParts = append([]TP(nil), p.TxnParts...)
	c.NewParts = append([]TP(nil), p.NewParts...)
	c.AddingParts = append([]TP(nil), p.AddingParts...)
	c.Pending = append([]TxnRequest(nil), p.Pending...)
	if p.Offsets != nil {
		o := *p.Offsets
		o.Offsets = append([]TPOffset(nil), p.Offsets.Offsets...)
		c.Offsets = &o
	}
	return &c
}

func (x *Consumer) clone() *Consumer {
	c := *x
	c.Topics = append([]string(nil), x.Topics...)
	c.Positions = append([]TPOffset(nil), x.Positions...)
	c.AwaitReset = append([]TP(nil), x.AwaitReset...)
	c.Received = x.Received[:len(x.Received):len(x.Received)]
	c.InFlight = append([]InFlightRequest(nil), x.InFlight...)
	c.Deferred = append([]item(nil), x.Deferred...)
	return &c
}

// CloneForTrial is Clone with an empty event history: for an action tried
// on a copy whose events are thrown away, where appending to the shared
// history would copy all of it.
func (w *World) CloneForTrial() *World {
	c := w.Clone()
	c.events = eventLog{}
	return c
}

package engine

// Clone copies the whole world. Logs and the event history are append-only
// with immutable entries, so the copy shares their backing arrays (capped so
// that neither side's appends are seen by the other); everything mutable is
// copied. This is what makes a snapshot cheap enough to take at every step.
func (w *World) Clone() *World {
	c := *w
	c.Brokers = append([]Broker(nil), w.Brokers...)
	c.Topics = append([]Topic(nil), w.Topics...)
	c.Events = w.Events[:len(w.Events):len(w.Events)]
	c.Violations = w.Violations[:len(w.Violations):len(w.Violations)]
	c.Queue = append(queue(nil), w.Queue...)
	c.Parked = append([]parkedRequest(nil), w.Parked...)
	c.Held = append([]heldResponse(nil), w.Held...)
	c.dirty = append([]TP(nil), w.dirty...)
	c.changes = w.changes.clone()
	c.TxnOutcomes = make(map[int64]MarkerType, len(w.TxnOutcomes))
	for k, v := range w.TxnOutcomes {
		c.TxnOutcomes[k] = v
	}
	c.Partitions = make(map[TP]*PartitionLog, len(w.Partitions))
	for tp, p := range w.Partitions {
		c.Partitions[tp] = p.clone()
	}
	c.TxnParts = make(map[int32]*TxnStatePartition, len(w.TxnParts))
	for k, t := range w.TxnParts {
		c.TxnParts[k] = t.clone()
	}
	c.Groups = make(map[string]*Group, len(w.Groups))
	for k, g := range w.Groups {
		c.Groups[k] = g.clone()
	}
	c.Producers = make([]*Producer, len(w.Producers))
	for i, p := range w.Producers {
		c.Producers[i] = p.clone()
	}
	c.Consumers = make([]*Consumer, len(w.Consumers))
	for i, x := range w.Consumers {
		c.Consumers[i] = x.clone()
	}
	c.Processors = make([]*Processor, len(w.Processors))
	for i, x := range w.Processors {
		cp := *x
		cp.Producer = x.Producer.clone()
		cp.Consumer = x.Consumer.clone()
		c.Processors[i] = &cp
	}
	return &c
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
	c.Acked = p.Acked[:len(p.Acked):len(p.Acked)]
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

package engine

// The expert actions: what an operator's tool or a misbehaving client could
// send, and no well-behaved client would. Requests come from ExpertAddr and
// go on the simulated network like any other, so every broker decision they
// meet is the real one; their answers go back to ExpertAddr, where no client
// acts on them and the delivery is only narrated.

// ExpertAddr is the network address of the expert actions: injected batches,
// markers and coordinator requests come from it and their answers go back to
// it.
const ExpertAddr = "expert"

// leaderOf is the live leader of a partition the expert writes to.
func (w *World) leaderOf(tp TP) (int, error) {
	p := w.partition(tp)
	if p == nil {
		return 0, errf("unknown partition %s", tp)
	}
	if p.Leader < 0 {
		return 0, errf("%s is offline", tp)
	}
	return p.Leader, nil
}

// injectBatch hands a partition leader a hand-made batch, as a Produce
// request with acks=all.
func (w *World) injectBatch(a InjectBatch) error {
	leader, err := w.leaderOf(a.TP)
	if err != nil {
		return err
	}
	count, copies := a.Count, a.Copies
	if count == 0 {
		count = int32(max(1, len(a.Values)))
	}
	if copies == 0 {
		copies = 1
	}
	values := make([]string, count)
	for i := range values {
		values[i] = "x" + itoa(int64(i))
		if i < len(a.Values) {
			values[i] = a.Values[i]
		}
	}
	recs := NewRecords(values...).numbered(w.nextUID + 1)
	w.nextUID += int64(count)
	b := Batch{ProducerID: a.ProducerID, ProducerEpoch: a.Epoch, BaseSequence: a.Seq, Count: count, Records: recs,
		Transactional: a.Transactional, Control: a.Control}
	batches := make([]Batch, copies)
	for i := range batches {
		batches[i] = b
	}
	req := &ProduceRequest{TP: a.TP, Acks: -1, Batches: batches}
	if b.Transactional {
		req.TransactionalID = w.transactionalIDOf(a.ProducerID)
		// The expert speaks the cluster's transaction version, as a
		// current client would: Produce v12 under transaction.version=2.
		req.TV2 = w.tv2Cluster()
	}
	w.send(MsgProduce, ExpertAddr, brokerAddr(leader), w.newCorr(), req)
	return nil
}

// injectMarker hands a partition leader a WriteTxnMarkers request for it.
func (w *World) injectMarker(a InjectMarker) error {
	leader, err := w.leaderOf(a.TP)
	if err != nil {
		return err
	}
	w.send(MsgWriteTxnMarkers, ExpertAddr, brokerAddr(leader), w.newCorr(), &WriteTxnMarkersRequest{ProducerID: a.ProducerID,
		ProducerEpoch: a.Epoch, CoordinatorEpoch: a.CoordinatorEpoch, Result: a.Result, Partitions: []TP{a.TP}, CoordPartition: -1})
	return nil
}

// transactionalIDOf finds the transactional.id the coordinators hold for a
// producer id. A transactional produce carries its transactional.id, which
// the leader needs for KIP-890 verification (ref 2.2 step 1); an injected
// batch stands in for that producer, so it carries the id that owns the pid.
func (w *World) transactionalIDOf(pid int64) string {
	for _, pn := range w.sortedTxnParts() {
		t := w.txnParts[pn]
		for _, id := range sortedKeys(t.Meta) {
			if t.Meta[id].ProducerID == pid {
				return id
			}
		}
	}
	return ""
}

// injectTxnState is an operator's hand-written __transaction_state record:
// the coordinator's metadata for an id is set as if it had been loaded from
// the log. It lets a lesson start where real clients would need thousands of
// round trips, such as an epoch near exhaustion (ref 7.S28).
func (w *World) injectTxnState(a InjectTxnState) error {
	id := a.TransactionalID
	t := w.txnPart(w.TxnPartitionFor(id))
	if t.Leader < 0 || t.Loading {
		return errf("%s has no coordinator now", t.name())
	}
	if m, ok := t.Meta[id]; ok && m.HasPending {
		return errf("%s has a transition in progress", id)
	}
	timeout := int64(60000)
	if m, ok := t.Meta[id]; ok {
		timeout = m.TimeoutMs
	}
	pid, epoch := a.ProducerID, a.Epoch
	meta := TxnMetadata{TransactionalID: id, ProducerID: pid, PrevProducerID: NoProducerID, NextProducerID: NoProducerID,
		ProducerEpoch: epoch, LastProducerEpoch: NoProducerEpoch, TimeoutMs: timeout, State: a.State, StartTs: -1, LastUpdateTs: w.now}
	t.Meta[id] = meta
	t.Log = append(t.Log, TxnLogRecord{Offset: int64(len(t.Log)), TransactionalID: id, ProducerID: pid, PrevProducerID: NoProducerID, NextProducerID: NoProducerID,
		ProducerEpoch: epoch, TimeoutMs: timeout, State: a.State, StartTs: -1, LastUpdateTs: w.now, CoordEpoch: t.CoordEpoch})
	if w.nextPIDBlk <= pid {
		// Keep later allocations from handing out this pid again.
		w.nextPIDBlk = (pid/ProducerIDBlockSize + 1) * ProducerIDBlockSize
	}
	w.changes.txnID(id)
	w.emit(EvTxnLog, w.coordActor(t), saysOperatorWritesPidEpochTo, quoted(id), a.State, num(pid), num(int64(epoch)), txnPart(t.Partition)).txn(id)
	return nil
}

// toCoordinator sends a coordinator request for a transactional id to the
// broker that leads the id's __transaction_state partition (ref 3.1), as a
// client does once FindCoordinator has answered. A coordinator that is still
// loading gets the request and answers COORDINATOR_LOAD_IN_PROGRESS, which
// is the broker's decision to show; only a partition with no live replica
// leaves nowhere to send it.
func (w *World) toCoordinator(txnID string, kind MsgKind, body Body) error {
	t := w.txnPart(w.TxnPartitionFor(txnID))
	if t.Leader < 0 {
		return errf("%s has no live replica: there is no coordinator for %s", t.name(), txnID)
	}
	w.send(kind, ExpertAddr, t.addr(), w.newCorr(), body)
	return nil
}

// injectInitProducerID sends InitProducerId with the fields as written, so
// the decision table of ref 3.4 can be driven row by row: a wrong expected
// producer id (step 8), an expected epoch that is neither the current nor
// the last one (step 10), a timeout out of range (step 3).
func (w *World) injectInitProducerID(a InjectInitProducerID) error {
	return w.toCoordinator(a.TransactionalID, MsgInitProducerID, &InitProducerIDRequest{TransactionalID: a.TransactionalID,
		TimeoutMs: a.TimeoutMs, ProducerID: a.ProducerID, ProducerEpoch: a.Epoch})
}

// injectAddPartitions sends AddPartitionsToTxn (ref 3.5).
func (w *World) injectAddPartitions(a InjectAddPartitions) error {
	return w.toCoordinator(a.TransactionalID, MsgAddPartitionsToTxn, &AddPartitionsToTxnRequest{TransactionalID: a.TransactionalID,
		ProducerID: a.ProducerID, ProducerEpoch: a.Epoch, Partitions: append([]TP(nil), a.Partitions...)})
}

// injectAddOffsets sends AddOffsetsToTxn (ref 3.5).
func (w *World) injectAddOffsets(a InjectAddOffsets) error {
	return w.toCoordinator(a.TransactionalID, MsgAddOffsetsToTxn, &AddOffsetsToTxnRequest{TransactionalID: a.TransactionalID,
		ProducerID: a.ProducerID, ProducerEpoch: a.Epoch, GroupID: a.Group})
}

// injectEndTxn sends EndTxn (ref 3.6): v5 under transaction.version=2, so
// the coordinator decides with the TV2 table (ref 6).
func (w *World) injectEndTxn(a InjectEndTxn) error {
	return w.toCoordinator(a.TransactionalID, MsgEndTxn, &EndTxnRequest{TransactionalID: a.TransactionalID,
		ProducerID: a.ProducerID, ProducerEpoch: a.Epoch, Commit: a.Commit, TV2: w.tv2Cluster()})
}

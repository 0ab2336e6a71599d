package engine

import ()

// parkedRequest is a transactional produce, or a TxnOffsetCommit at the group
// coordinator, waiting for the transaction coordinator's verification answer
// (KIP-890 part 1, ref 2.2 step 1, 2.4 and 5.2).
type parkedRequest struct {
	Corr  int64
	Msg   *Message
	Guard int64 // the verification guard it waits under
	// Since is when a TV2 leader first asked the coordinator to add the
	// partition; it bounds the leader's retries on CONCURRENT_TRANSACTIONS.
	Since int64
}

// deliverToBroker routes a message that reached a broker to the role that
// handles it: partition leader, transaction coordinator or group coordinator.
func (w *World) deliverToBroker(id int, m *Message) {
	addr := brokerAddr(id)
	switch body := m.Body.(type) {
	case *ProduceRequest:
		w.onProduce(id, m, body)
	case *FetchRequest:
		w.onFetch(id, m, body)
	case *ListOffsetsRequest:
		w.onListOffsets(id, m, body)
	case *FindCoordinatorRequest:
		w.onFindCoordinator(id, m, body)
	case *InitProducerIDRequest:
		w.onInitProducerID(id, m, body)
	case *AddPartitionsToTxnRequest:
		w.onAddPartitions(id, m, body)
	case *AddOffsetsToTxnRequest:
		w.onAddOffsets(id, m, body)
	case *EndTxnRequest:
		w.onEndTxn(id, m, body)
	case *WriteTxnMarkersRequest:
		w.onWriteTxnMarkers(id, m, body)
	case *WriteTxnMarkersResponse:
		w.onWriteTxnMarkersResponse(id, m, body)
	case *AddPartitionsToTxnResponse:
		w.onVerifyResponse(id, m, body)
	case *TxnOffsetCommitRequest:
		w.onTxnOffsetCommit(id, m, body)
	case *OffsetCommitRequest:
		w.onOffsetCommit(id, m, body)
	case *OffsetFetchRequest:
		w.onOffsetFetch(id, m, body)
	default:
		w.emit(EvInfo, addr, saysIgnores, m.Kind)
	}
}

func (w *World) reply(m *Message, kind MsgKind, body Body) {
	w.send(kind, m.To, m.From, m.Corr, body)
}

func (w *World) onProduce(id int, m *Message, r *ProduceRequest) {
	p := w.partitions[r.TP]
	if p == nil || p.Leader != id {
		w.emit(EvSeqCheck, brokerAddr(id), saysNotLeader, r.TP, NotLeaderOrFollower).on(r.TP).code(NotLeaderOrFollower)
		w.reply(m, MsgProduceResponse, &ProduceResponse{TP: r.TP, Code: NotLeaderOrFollower})
		return
	}
	// Step 0: record validation (LogValidator).
	if why, bad := invalidRecord(r); bad {
		w.emitRule(EvSeqCheck, r.TP.String(), why, saysRejectsTheProduce, InvalidRecord).on(r.TP).code(InvalidRecord)
		w.reply(m, MsgProduceResponse, &ProduceResponse{TP: r.TP, Code: InvalidRecord})
		return
	}
	b := &r.Batches[0]
	if r.TV2 && b.Transactional && b.ProducerID >= 0 {
		w.produceV2(id, p, m, r, -1)
		return
	}
	if b.Transactional && w.config.Verification && b.ProducerID >= 0 {
		if e, ok := p.Producers[b.ProducerID]; !ok || e.CurrentTxnFirstOffset < 0 {
			corr := w.newCorr()
			guard := p.startVerification(b.ProducerID, b.BaseSequence, b.ProducerEpoch, w.now, corr)
			w.parked = append(w.parked, parkedRequest{Corr: corr, Msg: m, Guard: guard})
			coord := w.txnCoordinatorBroker(r.TransactionalID)
			w.emitRule(EvSeqCheck, r.TP.String(), because(RuleVerifyBeforeAppend, saysFirstTransactionalBatchFromThis), saysHoldsPidSeqAndAsks, num(b.ProducerID), batchSeqs(b), r.TP).on(r.TP).txn(r.TransactionalID)
			if coord < 0 {
				w.finishVerify(corr, CoordinatorNotAvailable)
				return
			}
			w.send(MsgAddPartitionsToTxn, brokerAddr(id), brokerAddr(coord), corr, &AddPartitionsToTxnRequest{
				TransactionalID: r.TransactionalID, ProducerID: b.ProducerID, ProducerEpoch: b.ProducerEpoch,
				Partitions: []TP{r.TP}, VerifyOnly: true, VerifyCorr: corr})
			return
		}
	}
	w.finishProduce(p, m, r, 0)
}

func invalidRecord(r *ProduceRequest) (Rule, bool) {
	if len(r.Batches) != 1 {
		return because(RuleInvalidRecord, saysOneBatchPerPartition, num(len(r.Batches))), true
	}
	b := &r.Batches[0]
	if b.Control {
		return because(RuleInvalidRecord, saysNoControlBatches), true
	}
	if b.ProducerID >= 0 && b.BaseSequence < 0 {
		return because(RuleInvalidRecord, saysPidNeedsSequence), true
	}
	return Rule{}, false
}

// onVerifyResponse resumes a parked request with the coordinator's answer:
// a produce translated as the leader does for the produce response (ref
// 2.4), a TxnOffsetCommit as the group coordinator does (ref 5.2).
func (w *World) onVerifyResponse(id int, m *Message, r *AddPartitionsToTxnResponse) {
	code := None
	if len(r.Results) > 0 {
		code = r.Results[0].Code
	}
	w.finishVerify(r.VerifyCorr, code)
}

func (w *World) finishVerify(corr int64, code ErrorCode) {
	var pk parkedRequest
	found := false
	for i, x := range w.parked {
		if x.Corr == corr {
			pk = x
			// In place: Clone copies Parked, so no snapshot shares it.
			w.parked = removeOrdered(w.parked, i)
			found = true
			break
		}
	}
	if !found || w.finishVerifyV2(pk, code) {
		return
	}
	if _, ok := pk.Msg.Body.(*TxnOffsetCommitRequest); ok {
		w.finishTxnOffsetCommitVerify(pk, code)
		return
	}
	r := pk.Msg.Body.(*ProduceRequest)
	p := w.partitions[r.TP]
	id, _ := parseBrokerAddr(pk.Msg.To)
	if p == nil || p.Leader != id {
		w.reply(pk.Msg, MsgProduceResponse, &ProduceResponse{TP: r.TP, Code: NotLeaderOrFollower})
		return
	}
	var out ErrorCode
	switch code {
	case None:
		w.emitTyped(EvSeqCheck, r.TP.String(), sayVerified).on(r.TP).txn(r.TransactionalID)
		w.finishProduce(p, pk.Msg, r, pk.Guard)
		return
	case TransactionAbortable:
		out = TransactionAbortable
	case ProducerFenced:
		out = InvalidProducerEpoch
	case InvalidProducerIDMapping:
		out = InvalidProducerIDMapping
	default:
		out = NotEnoughReplicas
	}
	w.emitRule(EvSeqCheck, r.TP.String(), because(RuleVerifyResult, saysCoordinatorBecomesOnTheProduce, codeName(code), codeName(out)), saysVerificationFailedRejectsTheProduce, code, out).on(r.TP).txn(r.TransactionalID).code(out)
	w.reply(pk.Msg, MsgProduceResponse, &ProduceResponse{TP: r.TP, Code: out})
}

func (w *World) finishProduce(p *PartitionLog, m *Message, r *ProduceRequest, guard int64) {
	// A produce parked for verification resumes on the coordinator's
	// answer: a violation of its append is about the Produce.
	cur := w.cur
	w.cur = m
	w.appendProduce(p, m, r, guard)
	w.cur = cur
}

func (w *World) appendProduce(p *PartitionLog, m *Message, r *ProduceRequest, guard int64) {
	b := r.Batches[0]
	// A violation the append finds is logged after the append's event.
	w.holdViolations()
	res := w.appendClientBatch(p, b, guard)
	actor := p.TP.String()
	who := func() arg {
		return w.sub(saysPidEpochSeq, num(b.ProducerID), num(b.ProducerEpoch), batchSeqs(&b))
	}
	switch {
	case res.Code != None:
		rejects := w.sub(saysRejectsBatch, who())
		if res.Expected >= 0 && res.Code == OutOfOrderSequenceNumber {
			rejects = w.sub(saysRejectsBatchExpected, who(), num(res.Expected), num(b.BaseSequence))
		}
		w.emitRule(EvSeqCheck, actor, res.Rule, saysCodeNothingAppended, rejects, res.Code).on(r.TP).producer(b.ProducerID, b.ProducerEpoch).code(res.Code)
		w.releaseViolations()
		w.reply(m, MsgProduceResponse, &ProduceResponse{TP: r.TP, Code: res.Code})
		return
	case res.Duplicate:
		w.emitRule(EvSeqCheck, actor, res.Rule, saysFindsInIts5Batch, who(), num(res.BaseOffset)).on(r.TP).producer(b.ProducerID, b.ProducerEpoch)
	case b.ProducerID < 0:
		nb := &p.Batches[len(p.Batches)-1]
		w.emitRule(EvAppend, actor, res.Rule, saysAppendsValuesAtOffsetsNo, recordValues(nb.Values()), batchOffsets(nb)).on(r.TP).producer(b.ProducerID, b.ProducerEpoch)
	default:
		nb := &p.Batches[len(p.Batches)-1]
		e := w.emitTyped(EvSeqCheck, actor, sayAccepts).on(r.TP).producer(b.ProducerID, b.ProducerEpoch)
		e.Rule, e.x, e.y, e.arg, e.z = res.Rule, b.BaseSequence, nb.Count, nb.BaseOffset, -1
		if res.Expected >= 0 {
			e.z = res.Expected
		}
	}
	w.releaseViolations()
	if !res.Duplicate {
		w.afterAppend(p)
	}
	if r.Acks == 0 {
		return
	}
	resp := &ProduceResponse{TP: r.TP, Code: None, BaseOffset: res.BaseOffset, Duplicate: res.Duplicate}
	last := res.BaseOffset + int64(b.Count) - 1
	if r.Acks == 1 || p.HW > last {
		w.reply(m, MsgProduceResponse, resp)
		return
	}
	w.hold([]TPOffset{{TP: r.TP, Offset: last}}, m, MsgProduceResponse, resp)
}

func (w *World) onFetch(id int, m *Message, r *FetchRequest) {
	p := w.partitions[r.TP]
	if p == nil || p.Leader != id {
		w.reply(m, MsgFetchResponse, &FetchResponse{TP: r.TP, Code: NotLeaderOrFollower})
		return
	}
	var batches []Batch
	var aborted []AbortedTxn
	if r.ReadCommitted && w.config.Teach.NoLSO && p.LastStableOffset() < p.HW {
		lso := p.LastStableOffset()
		var n int
		batches, aborted, _ = p.readTo(r.Offset, p.HW, true, 500)
		for i := range batches {
			if batches[i].NextOffset() > lso && batches[i].NextOffset() > r.Offset {
				n++
			}
		}
		if n > 0 {
			w.emitRule(EvInfo, brokerAddr(id), teachRule(ConfigTeachLSO, sub(saysKafkaStopsAReadCommitted)), saysServesSReadCommittedFetch, quoted(m.From), r.TP, num(p.HW), num(lso)).on(r.TP)
		}
	} else {
		batches, aborted, _ = p.read(r.Offset, r.ReadCommitted, 500)
	}
	w.reply(m, MsgFetchResponse, &FetchResponse{TP: r.TP, Batches: batches, Aborted: aborted, HighWatermark: p.HW, LSO: p.LastStableOffset()})
}

// onListOffsets answers with the log start offset for EARLIEST_TIMESTAMP, and
// for LATEST_TIMESTAMP with the last offset the isolation level may read: the
// LSO for read_committed, the high watermark for read_uncommitted
// (Partition.fetchOffsetForTimestamp).
func (w *World) onListOffsets(id int, m *Message, r *ListOffsetsRequest) {
	p := w.partitions[r.TP]
	if p == nil || p.Leader != id {
		w.reply(m, MsgListOffsetsResponse, &ListOffsetsResponse{TP: r.TP, Code: NotLeaderOrFollower, Offset: -1})
		return
	}
	off := p.LogStartOffset
	if r.Latest {
		off = p.HW
		if r.ReadCommitted {
			if lso := p.LastStableOffset(); !w.config.Teach.NoLSO || lso == p.HW {
				off = lso
			} else {
				w.emitRule(EvInfo, brokerAddr(id), teachRule(ConfigTeachLSO, nil), saysAnswersSReadCommittedListoffsets, quoted(m.From), r.TP, num(p.HW), num(lso)).on(r.TP)
			}
		}
	}
	w.reply(m, MsgListOffsetsResponse, &ListOffsetsResponse{TP: r.TP, Offset: off})
}

// onWriteTxnMarkers appends one marker per partition (KafkaApis.handleWriteTxnMarkersRequest).
// Markers are written with acks=all, so the answer waits for replication.
func (w *World) onWriteTxnMarkers(id int, m *Message, r *WriteTxnMarkersRequest) {
	var results []TPCode
	var need []TPOffset
	for _, tp := range r.Partitions {
		p := w.partition(tp)
		if p == nil || p.Leader != id {
			w.emit(EvMarker, brokerAddr(id), saysNotLeaderForMarker, tp, NotLeaderOrFollower, r.Result).on(tp).txn(r.TransactionalID).code(NotLeaderOrFollower)
			results = append(results, TPCode{TP: tp, Code: NotLeaderOrFollower})
			continue
		}
		code, rule, late := w.appendMarker(p, r.ProducerID, r.ProducerEpoch, r.CoordinatorEpoch, r.Result, r.Txn, r.TransactionVersion, r.TV2Txn)
		if code != None {
			w.emitRule(EvMarker, tp.String(), rule, saysRejectsTheMarkerPidEpoch, r.Result, num(r.ProducerID), num(int64(r.ProducerEpoch)), code).on(tp).txn(r.TransactionalID).code(code).producer(r.ProducerID, r.ProducerEpoch)
		} else {
			e := w.emitTyped(EvMarker, tp.String(), sayMarker).on(tp).txn(r.TransactionalID).producer(r.ProducerID, r.ProducerEpoch)
			e.Rule, e.x, e.y, e.arg = rule, int32(r.Result), int32(r.CoordinatorEpoch), p.LEO-1
			if !w.events.quiet { // as in send: a search's world keeps no tally
				w.cost.countMarker(r.TransactionalID)
			}
			w.afterAppend(p)
			if tp.Topic == OffsetsTopic {
				w.resolvePendingOffsets(tp, r.ProducerID, r.Result, late)
			}
			need = append(need, TPOffset{TP: tp, Offset: p.LEO - 1})
		}
		results = append(results, TPCode{TP: tp, Code: code})
	}
	resp := &WriteTxnMarkersResponse{TransactionalID: r.TransactionalID, ProducerID: r.ProducerID, Results: results, CoordPartition: r.CoordPartition, CoordinatorEpoch: r.CoordinatorEpoch}
	// Markers are written with acks=all: the answer waits until every
	// marker of the request is replicated.
	w.hold(need, m, MsgWriteTxnMarkersResponse, resp)
}

package engine

import "math"

// Kafka 4's transaction protocol beside the classic one: transaction
// version 2, KIP-890 part 2 (ref 6). This file holds the cluster's side:
// the partition leader's implicit add for Produce v12, the group
// coordinator's for TxnOffsetCommit v5, the coordinator's TV2 EndTxn table
// with its epoch bump on every transaction, the TV2 fence and timeout
// arithmetic, epoch overflow at EndTxn, and the leader's marker check.
// tv2_client.go holds the producer's side.
//
// A broker picks the protocol from the request version, as Kafka does
// (KafkaApis: TransactionVersion.transactionVersionForEndTxn and
// ...ForAddPartitionsToTxn): Produce v12, TxnOffsetCommit v5, EndTxn v5 and
// the leaders' AddPartitionsToTxn v5 are TV2. Only the coordinator's own
// aborts (a fence by InitProducerId, a timeout) use the cluster's finalized
// transaction.version (txnManager.transactionVersionLevel), so on a TV2
// cluster they take the TV2 path even for a TV1 client's transaction.

// TV2Release is the set of TV2 details that differ between Kafka 4
// releases, each with the release that brought it (ref 6 "TV2 fixes by
// release", kafka-tv2-notes "Fix-to-release map"). Every such choice of the
// simulation is here, in one place. Kafka431 is the newest release the
// reference names and the one simulated; a rule text that depends on a
// choice names its Kafka issue and release.
type TV2Release struct {
	Name string
	// EarlyEpochReject: a transactional Produce v12 or TxnOffsetCommit v5
	// whose epoch is below the partition's stored epoch is refused with
	// INVALID_PRODUCER_EPOCH(47) before any coordinator call (KAFKA-18042,
	// 4.1.0; UnifiedLog.maybeStartTransactionVerification). Without it the
	// coordinator answers PRODUCER_FENCED(90), which the leader returns as 47.
	EarlyEpochReject bool
	// FirstSequenceZero: the first batch of a TV2 transaction from a pid
	// with no cached batch on the partition must start at sequence 0, or
	// it gets OUT_OF_ORDER_SEQUENCE_NUMBER(45) (KAFKA-18202, 4.1.0;
	// ProducerAppendInfo.checkSequence).
	FirstSequenceZero bool
	// EpochBeforeGuard: after the add, a stale epoch is refused with 47
	// before the verification guard is checked (KAFKA-19690: 4.0.2, 4.1.1,
	// 4.2.0; UnifiedLog.analyzeAndValidateProducerState); before, the
	// guard's INVALID_TXN_STATE(48) came first.
	EpochBeforeGuard bool
	// MarkerVersion is WriteTxnMarkers' TransactionVersion field (KIP-1228,
	// 4.2.0): 2 makes a leader require a TV2 marker's epoch to be strictly
	// greater than the stored one, except an equal epoch for a pid with no
	// open transaction (KAFKA-19999, 4.2.0) or, from 4.3.0, at
	// Short.MAX_VALUE; version 2 here has both exceptions. 0 is
	// WriteTxnMarkers v1, checked with the TV1 rule (ref 2.7).
	MarkerVersion int8
	// SingleFenceBump: a fence or timeout abort writes PrepareAbort at
	// epoch + 1 with lastProducerEpoch = epoch (KAFKA-19367: 4.0.1, 4.1.0).
	// 4.0.0 bumped twice: epoch + 2, lastProducerEpoch epoch + 1.
	SingleFenceBump bool
	// RotateOnFence: a fence or timeout abort at an exhausted epoch (>=
	// 32766) also allocates the next producer id, so CompleteAbort moves
	// to (Q, 0) (KAFKA-20090, 4.3.0). Before, CompleteAbort stays at
	// (P, 32767) and the next InitProducerId rotates.
	RotateOnFence bool
	// CommitRetryInCompleteAbort answers EndTxn(commit) at the retry epoch
	// in CompleteAbort. UNVERIFIED (ref 9 item 1): every release through
	// 4.3.1 answers INVALID_TXN_STATE(48); KAFKA-20785 (PR #23204) would
	// answer PRODUCER_FENCED(90), but its code is in no source read.
	CommitRetryInCompleteAbort ErrorCode
}

// Kafka431 is Kafka 4.3.1: every fix listed in ref 6, and 48 where
// KAFKA-20785 is unverified.
func Kafka431() TV2Release {
	return TV2Release{Name: "4.3.1", EarlyEpochReject: true, FirstSequenceZero: true, EpochBeforeGuard: true,
		MarkerVersion: 2, SingleFenceBump: true, RotateOnFence: true, CommitRetryInCompleteAbort: InvalidTxnState}
}

// tv2Cluster reports whether the cluster's finalized transaction.version
// is 2 or more.
func (w *World) tv2Cluster() bool { return w.config.TransactionVersion >= 2 }

// AddPartitionsToTxn retry by a TV2 leader on CONCURRENT_TRANSACTIONS
// (ReplicaManager.maybeRetryOnConcurrentTransactions, KAFKA-18654): every
// add.partitions.to.txn.retry.backoff.ms, for up to min(add.partitions.
// to.txn.retry.backoff.max.ms, request.timeout.ms) = min(100, 30000).
const (
	AddPartitionsLeaderBackoffMs  int64 = 20
	AddPartitionsLeaderRetryMaxMs int64 = 100
)

// ---- The partition leader: Produce v12 (ref 6 "TV2 implicit add").

// produceV2 starts (or, after CONCURRENT_TRANSACTIONS, restarts) a
// transactional Produce v12: ReplicaManager.handleProduceAppend ->
// maybeSendPartitionsToTransactionCoordinator with supportsEpochBump. since
// is when the leader first asked (-1: now).
func (w *World) produceV2(id int, p *PartitionLog, m *Message, r *ProduceRequest, since int64) {
	b := &r.Batches[0]
	who := sub(saysPidEpochSeq, num(b.ProducerID), num(b.ProducerEpoch), batchSeqs(b))
	e, known := p.Producers[b.ProducerID]
	if w.config.TV2.EarlyEpochReject && known && e.ProducerEpoch != NoProducerEpoch && b.ProducerEpoch < e.ProducerEpoch && !w.config.Teach.NoFencing {
		w.emitRule(EvSeqCheck, r.TP.String(), because(RuleTV2EpochBeforeAdd, saysTv2EpochStoredEpochRefused, num(int64(b.ProducerEpoch)), num(int64(e.ProducerEpoch))), saysRejectsBeforeAskingTheCoordinator, who, InvalidProducerEpoch).on(r.TP).txn(r.TransactionalID).code(InvalidProducerEpoch)
		w.reply(m, MsgProduceResponse, &ProduceResponse{TP: r.TP, Code: InvalidProducerEpoch})
		return
	}
	if known && e.CurrentTxnFirstOffset >= 0 && e.ProducerEpoch == b.ProducerEpoch {
		// UnifiedLog.hasOngoingTransaction: an open transaction of this
		// pid here at the same epoch; the coordinator already has it.
		w.finishProduce(p, m, r, 0)
		return
	}
	if since < 0 {
		since = w.now
	}
	corr := w.newCorr()
	guard := p.startVerification(b.ProducerID, b.BaseSequence, b.ProducerEpoch, w.now, corr)
	v := p.Verifying[b.ProducerID]
	v.TV2 = true
	p.Verifying[b.ProducerID] = v
	w.parked = append(w.parked, parkedRequest{Corr: corr, Msg: m, Guard: guard, Since: since})
	w.emitRule(EvSeqCheck, r.TP.String(), because(RuleTV2ImplicitAdd, saysTv2ImplicitAddForProduce), saysHoldsAndAsksTheCoordinator, who, r.TP).on(r.TP).txn(r.TransactionalID)
	w.sendAddV2(id, corr, r.TransactionalID, b.ProducerID, b.ProducerEpoch, r.TP, b.Txn)
}

// sendAddV2 is AddPartitionsToTxnManager.addOrVerifyTransaction in the
// ADD_PARTITION mode: AddPartitionsToTxn v5 with VerifyOnly=false.
func (w *World) sendAddV2(id int, corr int64, txnID string, pid int64, epoch int16, tp TP, txn int64) {
	coord := w.txnCoordinatorBroker(txnID)
	if coord < 0 {
		w.finishVerify(corr, CoordinatorNotAvailable)
		return
	}
	w.send(MsgAddPartitionsToTxn, brokerAddr(id), brokerAddr(coord), corr, &AddPartitionsToTxnRequest{
		TransactionalID: txnID, ProducerID: pid, ProducerEpoch: epoch, Partitions: []TP{tp}, VerifyCorr: corr, Txn: txn, TV2: true})
}

// finishVerifyV2 resumes a parked Produce v12 or TxnOffsetCommit v5 with
// the coordinator's answer to its add; it reports false for a TV1 request.
func (w *World) finishVerifyV2(pk parkedRequest, code ErrorCode) bool {
	switch r := pk.Msg.Body.(type) {
	case *ProduceRequest:
		if r.TV2 {
			w.resumeProduceV2(pk, r, code)
			return true
		}
	case *TxnOffsetCommitRequest:
		if r.TV2 {
			w.resumeTxnOffsetCommitV2(pk, r, code)
			return true
		}
	}
	return false
}

// staleAfterAdd is the epoch check that KAFKA-19690 puts ahead of the
// verification guard: a marker with a higher epoch may have landed while
// the add was under way. It returns the stored epoch when the request's is
// lower.
func (w *World) staleAfterAdd(p *PartitionLog, pid int64, epoch int16) (int16, bool) {
	e, ok := p.Producers[pid]
	if !w.config.TV2.EpochBeforeGuard || !ok || e.ProducerEpoch == NoProducerEpoch || epoch >= e.ProducerEpoch || w.config.Teach.NoFencing {
		return 0, false
	}
	return e.ProducerEpoch, true
}

// addGuard is the guard the append checks: the verification guard is
// checked only while transaction.partition.verification.enable is true
// (UnifiedLog.batchMissingRequiredVerification), though a TV2 add always
// happens.
func (w *World) addGuard(pk parkedRequest) int64 {
	if !w.config.Verification {
		return 0
	}
	return pk.Guard
}

func (w *World) resumeProduceV2(pk parkedRequest, r *ProduceRequest, code ErrorCode) {
	p := w.partitions[r.TP]
	id, _ := parseBrokerAddr(pk.Msg.To)
	if p == nil || p.Leader != id {
		w.reply(pk.Msg, MsgProduceResponse, &ProduceResponse{TP: r.TP, Code: NotLeaderOrFollower})
		return
	}
	b := &r.Batches[0]
	var out ErrorCode
	switch code {
	case None:
		w.emit(EvSeqCheck, r.TP.String(), saysCoordinatorAdded, r.TP).on(r.TP).txn(r.TransactionalID)
		if stored, stale := w.staleAfterAdd(p, b.ProducerID, b.ProducerEpoch); stale {
			w.emitRule(EvSeqCheck, r.TP.String(), because(RuleEpochBeforeGuard, saysEpochStoredEpochCheckedBefore, num(int64(b.ProducerEpoch)), num(int64(stored))), saysRejectsPidEpochSeqNothing, num(b.ProducerID), num(int64(b.ProducerEpoch)), batchSeqs(b), InvalidProducerEpoch).on(r.TP).txn(r.TransactionalID).code(InvalidProducerEpoch)
			w.reply(pk.Msg, MsgProduceResponse, &ProduceResponse{TP: r.TP, Code: InvalidProducerEpoch})
			return
		}
		w.finishProduce(p, pk.Msg, r, w.addGuard(pk))
		return
	case ConcurrentTransactions:
		if w.now-pk.Since < AddPartitionsLeaderRetryMaxMs {
			// The produce waits at the leader; the add is tried again.
			w.emitRule(EvSeqCheck, r.TP.String(), because(RuleTV2LeaderRetry, saysTV2LeaderRetries), saysTheCoordinatorAnswersATransition, code, num(AddPartitionsLeaderBackoffMs)).on(r.TP).txn(r.TransactionalID).code(code)
			corr := w.newCorr()
			w.parked = append(w.parked, parkedRequest{Corr: corr, Msg: pk.Msg, Guard: pk.Guard, Since: pk.Since})
			w.setTimer(AddPartitionsLeaderBackoffMs, Timer{Kind: TimerAddPartitionsRetry, Owner: brokerAddr(id), ID: corr, TP: r.TP})
			return
		}
		out = ConcurrentTransactions
	case ProducerFenced:
		out = InvalidProducerEpoch
	case InvalidProducerIDMapping:
		out = InvalidProducerIDMapping
	default:
		out = NotEnoughReplicas
	}
	why := because(RuleTV2AddResult, saysTv2ImplicitAddCoordinatorBecomes, codeName(code), codeName(out))
	if code == ConcurrentTransactions {
		why = because(RuleTV2AddUntranslated, saysTV2Untranslated)
	}
	w.emitRule(EvSeqCheck, r.TP.String(), why, saysTheAddFailedRejectsThe, code, out).on(r.TP).txn(r.TransactionalID).code(out)
	w.reply(pk.Msg, MsgProduceResponse, &ProduceResponse{TP: r.TP, Code: out})
}

// onAddPartitionsRetry runs a TV2 leader's add again after its backoff, as
// ReplicaManager's scheduled maybeSendPartitionsToTransactionCoordinator:
// the checks before the coordinator call run again too.
func (w *World) onAddPartitionsRetry(tm Timer) {
	for i, pk := range w.parked {
		if pk.Corr != tm.ID {
			continue
		}
		w.parked = removeOrdered(w.parked, i) // in place: Clone copies Parked
		r := pk.Msg.Body.(*ProduceRequest)
		id, _ := parseBrokerAddr(pk.Msg.To)
		p := w.partitions[r.TP]
		if p == nil || p.Leader != id {
			w.reply(pk.Msg, MsgProduceResponse, &ProduceResponse{TP: r.TP, Code: NotLeaderOrFollower})
			return
		}
		w.produceV2(id, p, pk.Msg, r, pk.Since)
		return
	}
}

// ---- The group coordinator: TxnOffsetCommit v5 (ref 5.2, 6).

// txnOffsetCommitV2 is the group coordinator's add for TxnOffsetCommit v5
// (CoordinatorPartitionWriter.maybeStartTransactionVerification in the
// ADD_PARTITION mode): it always adds __consumer_offsets-N to the
// transaction, whatever transaction.partition.verification.enable says,
// and never retries CONCURRENT_TRANSACTIONS itself.
func (w *World) txnOffsetCommitV2(id int, p *PartitionLog, m *Message, r *TxnOffsetCommitRequest) {
	e, known := p.Producers[r.ProducerID]
	if w.config.TV2.EarlyEpochReject && known && e.ProducerEpoch != NoProducerEpoch && r.ProducerEpoch < e.ProducerEpoch && !w.config.Teach.NoFencing {
		w.failTxnOffsetCommit(m, r, InvalidProducerEpoch, because(RuleTV2TxnOffsetStaleEpoch, saysTv2EpochStoredEpochOn, num(int64(r.ProducerEpoch)), num(int64(e.ProducerEpoch)), p.TP))
		return
	}
	if known && e.CurrentTxnFirstOffset >= 0 && e.ProducerEpoch == r.ProducerEpoch {
		w.writeTxnOffsetCommit(p, m, r, 0)
		return
	}
	corr := w.newCorr()
	guard := p.startVerification(r.ProducerID, NoSequence, r.ProducerEpoch, w.now, corr)
	w.parked = append(w.parked, parkedRequest{Corr: corr, Msg: m, Guard: guard, Since: w.now})
	w.emitRule(EvOffsets, groupActor(r.GroupID), because(RuleTV2TxnOffsetAdd, saysTxnoffsetcommitV5Tv2TheGroup), saysHoldsTxnOffsetCommitToAdd, tpOffsets(r.Offsets), num(r.ProducerID), p.TP).on(p.TP).txn(r.TransactionalID)
	w.sendAddV2(id, corr, r.TransactionalID, r.ProducerID, r.ProducerEpoch, p.TP, r.Txn)
}

func (w *World) resumeTxnOffsetCommitV2(pk parkedRequest, r *TxnOffsetCommitRequest, code ErrorCode) {
	p, ok := w.stillGroupCoordinator(pk, r)
	if !ok {
		return
	}
	switch code {
	case None:
		w.emit(EvOffsets, groupActor(r.GroupID), saysCoordinatorAddedForPid, p.TP, num(r.ProducerID)).on(p.TP).txn(r.TransactionalID)
		if stored, stale := w.staleAfterAdd(p, r.ProducerID, r.ProducerEpoch); stale {
			w.failTxnOffsetCommit(pk.Msg, r, InvalidProducerEpoch, because(RuleEpochBeforeGuard, saysEpochStoredEpochOnChecked, num(int64(r.ProducerEpoch)), num(int64(stored)), p.TP))
			return
		}
		w.writeTxnOffsetCommit(p, pk.Msg, r, w.addGuard(pk))
	case ProducerFenced:
		w.failTxnOffsetCommit(pk.Msg, r, InvalidProducerEpoch, because(RuleTV2TxnOffsetAddFailed, saysAddFailedFenced, p.TP))
	case ConcurrentTransactions:
		w.failTxnOffsetCommit(pk.Msg, r, code, because(RuleTV2TxnOffsetAddFailed, saysATransitionOfTheTransaction))
	default:
		w.failTxnOffsetCommit(pk.Msg, r, code, because(RuleTV2TxnOffsetAddFailed, saysAddFailedWith, p.TP, codeName(code)))
	}
}

// ---- The transaction coordinator.

// completingV2 reports whether a TV2 coordinator would hold a pending
// transition: Kafka sets the pending CompleteCommit/CompleteAbort before it
// answers the EndTxn that wrote PrepareX, and again when a new coordinator
// loads one (TransactionCoordinator.sendTxnMarkersCallback), so every TV2
// request during PrepareX meets "pending transition" first (ref 6).
func completingV2(meta TxnMetadata) bool {
	return meta.HasPending || meta.State == PrepareCommit || meta.State == PrepareAbort
}

func pendingState(meta TxnMetadata) TxnState {
	switch {
	case meta.HasPending:
		return meta.Pending
	case meta.State == PrepareCommit:
		return CompleteCommit
	}
	return CompleteAbort
}

// onAddPartitionsV2 is handleAddPartitionsToTransaction for a leader's TV2
// add, in the order of Kafka 4 (ref 6): the pending transition is checked
// before the producer id (KAFKA-18660), so a client already on a new
// producer id after an epoch overflow gets 51, not 49.
func (w *World) onAddPartitionsV2(id int, m *Message, r *AddPartitionsToTxnRequest) {
	answer := func(code ErrorCode) {
		res := make([]TPCode, len(r.Partitions))
		for i, tp := range r.Partitions {
			res[i] = TPCode{TP: tp, Code: code}
		}
		w.reply(m, MsgAddPartitionsToTxnResponse, &AddPartitionsToTxnResponse{Results: res, VerifyCorr: r.VerifyCorr})
	}
	fail := func(code ErrorCode, actor string, why Rule) {
		w.emitRule(EvClientError, actor, why, saysAnswersAddpartitionstotxnV5With, tpSet(r.Partitions), code).txn(r.TransactionalID).code(code)
		answer(code)
	}
	t, code := w.coordinatorCheck(id, r.TransactionalID)
	if code != None {
		fail(code, brokerAddr(id), because(RuleNotCoordinator, saysIsNotServedHereNow, txnPart(t.Partition)))
		return
	}
	actor := w.coordActor(t)
	meta, ok := t.Meta[r.TransactionalID]
	switch {
	case !ok:
		fail(InvalidProducerIDMapping, actor, because(RuleTV2AddPartitions, saysNoMetadataFor, quoted(r.TransactionalID)))
	case completingV2(meta):
		fail(ConcurrentTransactions, actor, because(RuleTV2PendingFirst, saysTransitionPendingFirst, pendingState(meta)))
	case meta.ProducerID != r.ProducerID:
		fail(InvalidProducerIDMapping, actor, because(RuleTV2AddPartitions, saysPidDoesNotMatch, num(r.ProducerID), num(meta.ProducerID)))
	case meta.ProducerEpoch != r.ProducerEpoch && !w.acceptFencedEpoch(actor, r.TransactionalID, r.ProducerEpoch, meta.ProducerEpoch, sub(saysAddpartitionstotxn)):
		fail(ProducerFenced, actor, because(RuleTV2AddPartitions, saysEpochIsNotTheCurrent, num(int64(r.ProducerEpoch)), num(int64(meta.ProducerEpoch))))
	case meta.State == Ongoing && containsAll(meta, r.Partitions):
		w.emitRule(EvInfo, actor, cite(RuleTV2AddPartitions), saysAlreadyHasInTheTransaction, tpSet(r.Partitions)).txn(r.TransactionalID)
		answer(None)
	default:
		target := w.ongoingTarget(t, meta, r.Partitions, r.Txn, MsgAddPartitionsToTxn)
		target.TV2 = true
		w.txnWrite(t, target, wAddPartitions, m, because(RuleTV2AddPartitions, saysTv2ImplicitAddOfFor, tpSet(r.Partitions)))
	}
}

func containsAll(meta TxnMetadata, tps []TP) bool {
	for _, tp := range tps {
		if !meta.hasPartition(tp) {
			return false
		}
	}
	return true
}

// endTxnCell is one cell of the TV2 EndTxn table: an error to answer, NONE
// for a retry (answered with the current producer id and epoch, no bump),
// or a PrepareX to write with an epoch bump.
type endTxnCell struct {
	Code    ErrorCode
	Prepare bool     // write To with an epoch bump
	To      TxnState // PrepareCommit or PrepareAbort
	Empty   bool     // an empty abort: no partitions, no markers
}

// endTxnKey picks a cell: the state (no pending transition), commit or
// abort, and whether the request's epoch is the retry epoch (the stored
// epoch - 1, or the overflow retry) or the current one.
type endTxnKey struct {
	State  TxnState
	Commit bool
	Retry  bool
}

// tv2EndTxnTable is ref 6's "TV2 EndTxn outcomes" as data (TransactionCoordinator.
// endTransaction, unchanged since 4.0.0 apart from the fence path). An
// epoch that is neither the retry nor the current one is PRODUCER_FENCED
// in every state. The PrepareX rows are reached only without a pending
// CompleteX, which a Kafka coordinator always sets (completingV2); they are
// kept for the table's sake.
func (w *World) tv2EndTxnTable(k endTxnKey) endTxnCell {
	prepare := func(to TxnState, empty bool) endTxnCell { return endTxnCell{Prepare: true, To: to, Empty: empty} }
	switch k.State {
	case Ongoing:
		switch {
		case k.Retry:
			return endTxnCell{Code: ProducerFenced}
		case k.Commit:
			return prepare(PrepareCommit, false)
		}
		return prepare(PrepareAbort, false)
	case PrepareCommit:
		switch {
		case !k.Retry:
			return endTxnCell{Code: ProducerFenced}
		case k.Commit:
			return endTxnCell{Code: ConcurrentTransactions}
		}
		return endTxnCell{Code: InvalidTxnState}
	case PrepareAbort:
		switch {
		case !k.Retry:
			return endTxnCell{Code: ProducerFenced}
		case k.Commit:
			return endTxnCell{Code: InvalidTxnState}
		}
		return endTxnCell{Code: ConcurrentTransactions}
	case CompleteCommit:
		switch {
		case k.Commit && k.Retry:
			return endTxnCell{Code: None}
		case k.Commit, k.Retry:
			return endTxnCell{Code: InvalidTxnState}
		}
		return prepare(PrepareAbort, true)
	case CompleteAbort:
		switch {
		case k.Commit && k.Retry:
			return endTxnCell{Code: w.config.TV2.CommitRetryInCompleteAbort}
		case k.Commit:
			return endTxnCell{Code: InvalidTxnState}
		case k.Retry:
			return endTxnCell{Code: None}
		}
		return prepare(PrepareAbort, true)
	case Empty:
		switch {
		case k.Retry:
			return endTxnCell{Code: ProducerFenced}
		case k.Commit:
			return endTxnCell{Code: InvalidTxnState}
		}
		return prepare(PrepareAbort, true)
	}
	return endTxnCell{Code: InvalidTxnState}
}

// onEndTxnV2 is TransactionCoordinator.endTransaction for EndTxn v5, its
// checks in Kafka's order (ref 6): no metadata -> 49; a pending transition
// -> 51; another producer id (not the overflow retry) -> 49; then the
// table, where an epoch that is neither the current one nor the retry one
// is 90.
func (w *World) onEndTxnV2(id int, m *Message, r *EndTxnRequest) {
	verb := endVerb(r.Commit)
	fail := func(code ErrorCode, actor string, why Rule) {
		w.emitRule(EvClientError, actor, why, saysAnswersEndtxnV5With, verb, code).txn(r.TransactionalID).code(code)
		w.reply(m, MsgEndTxnResponse, &EndTxnResponse{Code: code, V5: true, ProducerID: NoProducerID, ProducerEpoch: NoProducerEpoch})
	}
	t, code := w.coordinatorCheck(id, r.TransactionalID)
	if code != None {
		fail(code, brokerAddr(id), because(RuleNotCoordinator, saysIsNotServedHereNow, txnPart(t.Partition)))
		return
	}
	actor := w.coordActor(t)
	meta, ok := t.Meta[r.TransactionalID]
	if !ok {
		fail(InvalidProducerIDMapping, actor, because(RuleEndTxnV2, saysNoMetadataFor, quoted(r.TransactionalID)))
		return
	}
	if completingV2(meta) {
		fail(ConcurrentTransactions, actor, because(RuleEndTxnV2, saysTransitionPending, pendingState(meta)))
		return
	}
	// retryOnOverflow: the client retries the EndTxn that overflowed the
	// epoch, and the coordinator has moved to the next producer id.
	overflowRetry := meta.PrevProducerID == r.ProducerID && r.ProducerEpoch == EpochExhaustedAt && meta.ProducerEpoch == 0
	if meta.ProducerID != r.ProducerID && !overflowRetry {
		fail(InvalidProducerIDMapping, actor, because(RuleEndTxnV2, saysPidDoesNotMatch, num(r.ProducerID), num(meta.ProducerID)))
		return
	}
	retry := overflowRetry || int32(meta.ProducerEpoch) == int32(r.ProducerEpoch)+1
	epochs := sub(saysEpochIsCurrent, num(r.ProducerEpoch))
	if retry {
		epochs = sub(saysEpochIsRetry, num(r.ProducerEpoch), num(meta.ProducerEpoch))
		if overflowRetry {
			epochs = sub(saysEpochOverflowRetry, num(r.ProducerID), num(r.ProducerEpoch), num(meta.ProducerID))
		}
	} else if r.ProducerEpoch != meta.ProducerEpoch {
		if !w.acceptFencedEpoch(actor, r.TransactionalID, r.ProducerEpoch, meta.ProducerEpoch, sub(saysEndtxn)) {
			fail(ProducerFenced, actor, because(RuleEndTxnV2, saysEpochIsNeitherTheCurrent, num(int64(r.ProducerEpoch)), num(int64(meta.ProducerEpoch))))
			return
		}
		epochs = sub(saysEpochFencedTaken, num(r.ProducerEpoch), num(meta.ProducerEpoch), teachRule(ConfigTeachFencing, nil).note())
	}
	cell := w.tv2EndTxnTable(endTxnKey{State: meta.State, Commit: r.Commit, Retry: retry})
	rule := because(RuleEndTxnV2, saysStatePlusVerb, meta.State, verb, epochs)
	switch {
	case cell.Prepare:
		w.prepareEndV2(id, t, meta, cell, m, rule)
	case cell.Code == None:
		w.emitRule(EvInfo, actor, rule, saysAnswersEndtxnV5NoneWith, verb, num(meta.ProducerID), num(int64(meta.ProducerEpoch))).txn(r.TransactionalID)
		w.reply(m, MsgEndTxnResponse, &EndTxnResponse{V5: true, ProducerID: meta.ProducerID, ProducerEpoch: meta.ProducerEpoch})
	default:
		if meta.State == CompleteAbort && r.Commit && retry {
			rule = rule.and(because(RuleTV2RetryAnswer, saysAsInKafkaKafka20785, quoted(w.config.TV2.Name)))
		}
		fail(cell.Code, actor, rule)
	}
}

// prepareEndV2 writes PrepareCommit or PrepareAbort with the epoch bumped
// (TransactionMetadata.prepareAbortOrCommit under TV2): producerEpoch + 1,
// lastProducerEpoch = the old epoch, and a next producer id allocated when
// the old epoch is exhausted (generateTxnTransitMetadataForTxnCompletion).
func (w *World) prepareEndV2(id int, t *TxnStatePartition, meta TxnMetadata, cell endTxnCell, m *Message, rule Rule) {
	target := meta
	target.State = cell.To
	w.bumpForEndV2(id, t, meta, &target)
	target.LastUpdateTs = w.now
	if cell.Empty {
		// With TV2 a transaction may be aborted with nothing added; its
		// start time is then the update time.
		target.Partitions = nil
		target.StartTs = w.now
		rule = rule.withDetail(newNote(saysEmptyAbortBump, []arg{rule.note()}))
	}
	w.txnWrite(t, target, wEndTxn, m, rule)
}

// bumpForEndV2 sets the TV2 PrepareX epoch: epoch + 1 (not past
// Short.MAX_VALUE for an abort), lastProducerEpoch = epoch, prevProducerId
// = the current id, and the next producer id when the epoch is exhausted.
func (w *World) bumpForEndV2(id int, t *TxnStatePartition, meta TxnMetadata, target *TxnMetadata) {
	target.TV2 = true
	target.PrevProducerID = meta.ProducerID
	target.LastProducerEpoch = meta.ProducerEpoch
	target.ProducerEpoch = bumpedEpoch(meta.ProducerEpoch, 1)
	why := because(RuleTV2EndTxnBump, saysTV2MarkersNewEpoch)
	args := []arg{quoted(meta.TransactionalID), num(meta.ProducerID), num(meta.ProducerEpoch), num(target.ProducerEpoch), target.State, num(meta.ProducerEpoch)}
	text := saysEndV2Bump
	if meta.ProducerEpoch >= EpochExhaustedAt {
		target.NextProducerID = w.allocatePID(id)
		text, args = saysEndV2BumpExhausted, append(args, num(target.NextProducerID))
		why = because(RuleTV2Overflow, saysTv2HandlesEpochExhaustion32766)
	}
	w.emitRule(EvEpoch, w.coordActor(t), why, text, args...).txn(meta.TransactionalID)
}

// bumpedEpoch is epoch + by, never past Short.MAX_VALUE: Kafka does not
// bump an epoch already at 32767 (prepareFenceProducerEpoch,
// prepareAbortOrCommit), and the releases that could go past it (4.0.0's
// double bump at 32766, a commit at 32767 before KAFKA-20090) fail with an
// exception, which the simulation does not model.
func bumpedEpoch(epoch, by int16) int16 {
	if epoch > math.MaxInt16-by {
		return math.MaxInt16
	}
	return epoch + by
}

// endTxnAnswer is the EndTxn answer once PrepareX is durable: v4 carries
// nothing; v5 carries the CompleteX values the client goes on with, the
// bumped epoch or, after an overflow, the next producer id at epoch 0
// (ref 6; TransactionCoordinator: responseCallback(Errors.NONE,
// newPreSendMetadata.producerId, newPreSendMetadata.producerEpoch)).
func endTxnAnswer(req *Message, prepared TxnMetadata) *EndTxnResponse {
	if r, ok := req.Body.(*EndTxnRequest); !ok || !r.TV2 {
		return &EndTxnResponse{}
	}
	pid, epoch := prepared.ProducerID, prepared.ProducerEpoch
	if prepared.NextProducerID != NoProducerID {
		pid, epoch = prepared.NextProducerID, 0
	}
	return &EndTxnResponse{V5: true, ProducerID: pid, ProducerEpoch: epoch}
}

// fenceTargetV2 is the TV2 arithmetic of a fence by InitProducerId or a
// timeout abort on a cluster whose finalized transaction.version is 2 (ref 6
// "TV2 fencing"). It returns the rule, or "" on a TV1 cluster, where the
// caller's TV1 PrepareAbort(epoch + 1, lastEpoch -1) stands.
func (w *World) fenceTargetV2(id int, t *TxnStatePartition, meta TxnMetadata, target *TxnMetadata) Rule {
	if !w.tv2Cluster() {
		target.TV2 = false // endTransactionWithTV1: TV1 markers
		return Rule{}
	}
	rel := w.config.TV2
	target.TV2 = true
	target.PrevProducerID = meta.ProducerID
	rule := because(RuleTV2Fence, saysTv2FencePrepareabortAtEpoch, num(int64(meta.ProducerEpoch)))
	if rel.SingleFenceBump {
		target.ProducerEpoch = bumpedEpoch(meta.ProducerEpoch, 1)
		target.LastProducerEpoch = meta.ProducerEpoch
	} else {
		// Kafka 4.0.0 set the fenced epoch, then prepareAbortOrCommit
		// bumped it again.
		target.ProducerEpoch = bumpedEpoch(meta.ProducerEpoch, 2)
		target.LastProducerEpoch = bumpedEpoch(meta.ProducerEpoch, 1)
		rule = because(RuleTV2FenceDoubleBump, saysTV2FenceKafka400)
	}
	if rel.RotateOnFence && meta.ProducerEpoch >= EpochExhaustedAt {
		target.NextProducerID = w.allocatePID(id)
		rule = rule.and(because(RuleTV2FenceOverflow, saysEpochExhaustedKafka430, num(target.NextProducerID)))
	}
	return rule
}

// completeTargetV2 is TransactionMetadata.prepareComplete under TV2: after
// an overflow CompleteX moves to the next producer id at epoch 0.
func (w *World) completeTargetV2(t *TxnStatePartition, meta TxnMetadata, target *TxnMetadata) {
	if !meta.TV2 {
		return
	}
	target.PrevProducerID = meta.ProducerID
	if meta.NextProducerID != NoProducerID {
		target.ProducerID = meta.NextProducerID
		target.ProducerEpoch = 0
		w.emitRule(EvEpoch, w.coordActor(t), because(RuleTV2Overflow, saysTv2EpochOverflowCompletexIs), saysNextPidEpoch0, quoted(meta.TransactionalID), num(meta.ProducerID), num(int64(meta.ProducerEpoch)), num(target.ProducerID)).txn(meta.TransactionalID)
	}
	target.NextProducerID = NoProducerID
}

// markerVersion is the TransactionVersion a coordinator puts in its
// WriteTxnMarkers for a transaction (KIP-1228: the transaction's
// clientTransactionVersion).
func (w *World) markerVersion(meta TxnMetadata) int8 {
	if meta.TV2 {
		return w.config.TV2.MarkerVersion
	}
	return 0
}

// markerEpochCheck is ProducerAppendInfo.checkProducerEpoch for a marker
// (ref 2.7, 6). WriteTxnMarkers v1 and TV1 markers need epoch >= the stored
// epoch. A TV2 marker (v2, KIP-1228) needs a strictly greater epoch,
// except an equal one for a pid with no open transaction here: a retry of
// a marker already written (KAFKA-19999), or at Short.MAX_VALUE. It returns
// the error and the rule that decided.
func markerEpochCheck(e ProducerStateEntry, epoch int16, version int8) (ErrorCode, Reason, *note) {
	at := []arg{num(epoch), num(e.ProducerEpoch)}
	if version < 2 {
		if e.ProducerEpoch != NoProducerEpoch && epoch < e.ProducerEpoch {
			return InvalidProducerEpoch, RuleMarkerStaleEpoch, newNote(saysMarkerStale, at)
		}
		return None, RuleMarkerAccepted, newNote(saysMarkerEpochOK, at)
	}
	switch {
	case e.ProducerEpoch == NoProducerEpoch || epoch > e.ProducerEpoch:
		return None, RuleMarkerTV2Epoch, newNote(saysMarkerTV2Above, at)
	case epoch == e.ProducerEpoch && (e.CurrentTxnFirstOffset < 0 || epoch == math.MaxInt16):
		return None, RuleMarkerTV2Retry, newNote(saysMarkerTV2Retry, at[:1])
	}
	return InvalidProducerEpoch, RuleMarkerTV2Epoch, newNote(saysMarkerTV2Below, at)
}

// markerDataEpoch is the epoch of the data a marker decides: a TV2
// transaction's marker carries its epoch + 1. The fenced-write invariant
// compares the committed data with it.
func markerDataEpoch(epoch int16, tv2Txn bool) int16 {
	if tv2Txn {
		return epoch - 1
	}
	return epoch
}

// firstSequenceV2 is KAFKA-18202's check (ProducerAppendInfo.checkSequence):
// with a TV2 verification entry and no cached batch for the pid, the first
// batch must start at sequence 0.
func (w *World) firstSequenceV2(p *PartitionLog, e ProducerStateEntry, b *Batch) (appendResult, bool) {
	v, ok := p.Verifying[b.ProducerID]
	if !ok || !v.TV2 || !w.config.TV2.FirstSequenceZero || b.BaseSequence == 0 || e.NumCached > 0 {
		return appendResult{}, false
	}
	return appendResult{Code: OutOfOrderSequenceNumber, Expected: 0,
		Rule: because(RuleTV2FirstSeqZero, saysTheFirstTv2BatchOf, num(b.ProducerID))}, true
}

// validPreviousTxnStatesV2 is TransactionState.validPreviousStates with
// TV2's empty abort: PrepareAbort may follow Empty, CompleteCommit and
// CompleteAbort (ref 3.3).
var validPreviousTxnStatesV2 = map[TxnState][]TxnState{
	PrepareAbort: {Ongoing, PrepareEpochFence, Empty, CompleteCommit, CompleteAbort},
}

// validTxnTransitionFor checks a transition with the table of the target's
// transaction version.
func validTxnTransitionFor(from TxnState, to TxnMetadata) bool {
	return ValidTxnTransitionTV(from, to.State, to.TV2)
}

// ValidTxnTransitionTV reports whether from -> to is legal for a
// transaction under TV2 (tv2) or the classic protocol.
func ValidTxnTransitionTV(from, to TxnState, tv2 bool) bool {
	if ValidTxnTransition(from, to) {
		return true
	}
	if !tv2 {
		return false
	}
	for _, s := range validPreviousTxnStatesV2[to] {
		if s == from {
			return true
		}
	}
	return false
}

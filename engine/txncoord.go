package engine

import (
	"cmp"
	"math"
	"slices"
	"sort"
)

// TxnMetadata is the coordinator's entry for one transactional.id
// (TransactionMetadata.scala, ref 3.2).
type TxnMetadata struct {
	TransactionalID   string
	ProducerID        int64
	PrevProducerID    int64
	NextProducerID    int64
	ProducerEpoch     int16
	LastProducerEpoch int16
	TimeoutMs         int64
	State             TxnState
	HasPending        bool
	Pending           TxnState
	Partitions        []TP
	StartTs           int64
	LastUpdateTs      int64
	// Txn is simulation bookkeeping, not Kafka: the client transaction
	// instance the current (or last) Ongoing transaction serves, so the
	// invariants can tell which client transaction a marker decides.
	Txn int64
	// TV2 is clientTransactionVersion >= 2: the transaction was started by a
	// TV2 add, or ended by the TV2 EndTxn or fence path (ref 6, tv2.go).
	TV2 bool
}

func (m *TxnMetadata) hasPartition(tp TP) bool {
	for _, p := range m.Partitions {
		if p == tp {
			return true
		}
	}
	return false
}

// TxnLogRecord is one record of __transaction_state (TransactionLogValue, ref 3.2).
// lastProducerEpoch is deliberately absent: Kafka does not persist it.
type TxnLogRecord struct {
	Offset          int64
	TransactionalID string
	Tombstone       bool
	ProducerID      int64
	PrevProducerID  int64
	ProducerEpoch   int16
	TimeoutMs       int64
	State           TxnState
	Partitions      []TP
	StartTs         int64
	LastUpdateTs    int64
	CoordEpoch      int32
	Txn             int64 // simulation bookkeeping (TxnMetadata.Txn), so a new coordinator keeps it
	// NextProducerID and TV2 are the tagged fields NextProducerId and
	// ClientTransactionVersion: a TV2 PrepareX written at an exhausted
	// epoch names the producer id its CompleteX moves to (ref 6).
	NextProducerID int64
	TV2            bool
}

// String is the record as the coordinator panel shows it.
func (r TxnLogRecord) String() string {
	if r.Tombstone {
		return "@" + itoa(r.Offset) + " " + r.TransactionalID + " tombstone"
	}
	parts := "null"
	if len(r.Partitions) > 0 {
		parts = tpList(r.Partitions)
	}
	return "@" + itoa(r.Offset) + " " + r.TransactionalID + " " + r.State.String() + " pid=" + itoa(r.ProducerID) + " epoch=" + itoa(int64(r.ProducerEpoch)) + " partitions=" + parts
}

type writePurpose uint8

const (
	wInit writePurpose = iota
	wAddPartitions
	wAddOffsets
	wEndTxn
	wFence
	wTimeoutAbort
	wComplete
	wTombstone
)

type pendingWrite struct {
	ID      int64
	Target  TxnMetadata
	Purpose writePurpose
	Reply   *Message // the request to answer once durable
}

type markerJob struct {
	Txn             int64 // bookkeeping: TxnMetadata.Txn of the transaction decided
	TransactionalID string
	Result          MarkerType
	ProducerID      int64
	Epoch           int16
	Pending         []TP
	Outstanding     map[int64][]TP // corr -> partitions in that request
	Version         int8           // WriteTxnMarkers TransactionVersion (KIP-1228): 2 or 0
	TV2             bool           // bookkeeping: a TV2 transaction, its markers one epoch above its data
}

// TxnStatePartition is one partition of __transaction_state: its durable log
// (which survives the leader) and the leader's in-memory coordinator state
// (which does not).
type TxnStatePartition struct {
	Partition  int32
	Replicas   []int
	Leader     int
	CoordEpoch int32
	Loading    bool
	Log        []TxnLogRecord
	Meta       map[string]TxnMetadata
	Writes     []pendingWrite
	Markers    map[string]*markerJob
}

func (w *World) txnPart(p int32) *TxnStatePartition {
	if t, ok := w.txnParts[p]; ok {
		return t
	}
	reps := w.replicasFor(TxnStateTopic, p, 3)
	t := &TxnStatePartition{Partition: p, Replicas: reps, Leader: w.firstAlive(reps), Meta: map[string]TxnMetadata{}, Markers: map[string]*markerJob{}}
	w.txnParts[p] = t
	return t
}

func (w *World) txnCoordinatorBroker(txnID string) int {
	return w.txnPart(w.TxnPartitionFor(txnID)).Leader
}

func (t *TxnStatePartition) addr() string { return brokerAddr(t.Leader) }

func (t *TxnStatePartition) name() string {
	return TxnStateTopic + "-" + itoa(int64(t.Partition))
}

// allocatePID hands out the next producer id of a broker's block, taking a
// new block of 1000 from the controller when needed (ProducerIdsBlock).
func (w *World) allocatePID(brokerID int) int64 {
	b := w.broker(brokerID)
	if b.PIDNext >= b.PIDEnd {
		b.PIDNext = w.nextPIDBlk
		b.PIDEnd = w.nextPIDBlk + ProducerIDBlockSize
		w.nextPIDBlk += ProducerIDBlockSize
	}
	pid := b.PIDNext
	b.PIDNext++
	return pid
}

// coordinatorCheck answers NOT_COORDINATOR or COORDINATOR_LOAD_IN_PROGRESS
// when this broker cannot serve the id now.
func (w *World) coordinatorCheck(id int, txnID string) (*TxnStatePartition, ErrorCode) {
	t := w.txnPart(w.TxnPartitionFor(txnID))
	if t.Leader != id {
		return t, NotCoordinator
	}
	if t.Loading {
		return t, CoordinatorLoadInProgress
	}
	return t, None
}

func (w *World) onFindCoordinator(id int, m *Message, r *FindCoordinatorRequest) {
	leader := -1
	if r.Group {
		if p := w.partition(w.OffsetsPartitionFor(r.Key)); p != nil {
			leader = p.Leader
		}
	} else {
		leader = w.txnCoordinatorBroker(r.Key)
	}
	resp := &FindCoordinatorResponse{Key: r.Key, Group: r.Group, Broker: leader}
	if leader < 0 {
		resp.Code = CoordinatorNotAvailable
	}
	w.reply(m, MsgFindCoordinatorResponse, resp)
}

func (w *World) coordActor(t *TxnStatePartition) string {
	if t.Leader >= 0 && t.Leader < len(coordActors) {
		return coordActors[t.Leader]
	}
	return "coordinator(" + t.addr() + ")"
}

// coordActors are the coordinators' actor names, made once like brokerAddrs.
var coordActors = func() (a [len(brokerAddrs)]string) {
	for i := range a {
		a[i] = "coordinator(" + brokerAddr(i) + ")"
	}
	return a
}()

// onInitProducerID follows the decision table of ref 3.4, in order.
func (w *World) onInitProducerID(id int, m *Message, r *InitProducerIDRequest) {
	fail := func(code ErrorCode, actor string, why Rule) {
		w.emitTyped(EvClientError, actor, sayInitFails).txn(r.TransactionalID).code(code).Rule = why
		w.reply(m, MsgInitProducerIDResponse, &InitProducerIDResponse{Code: code, ProducerID: NoProducerID, ProducerEpoch: NoProducerEpoch})
	}
	if r.Idempotent {
		pid := w.allocatePID(id)
		w.emitRule(EvEpoch, brokerAddr(id), w.because(RuleInitIdempotent, saysTransactionalidNull), saysAllocatesPidEpoch0For, num(pid))
		w.reply(m, MsgInitProducerIDResponse, &InitProducerIDResponse{ProducerID: pid, ProducerEpoch: 0})
		return
	}
	actor := brokerAddr(id)
	if r.TransactionalID == "" {
		fail(InvalidRequest, actor, because(RuleInitEmptyID, saysEmptyTransactionalId))
		return
	}
	if r.TimeoutMs <= 0 || r.TimeoutMs > w.config.TxnMaxTimeoutMs {
		fail(InvalidTransactionTimeout, actor, because(RuleInitTimeout, saysTimeoutNotIn1Transaction, num(r.TimeoutMs), num(w.config.TxnMaxTimeoutMs)))
		return
	}
	if (r.ProducerID == NoProducerID) != (r.ProducerEpoch == NoProducerEpoch) {
		fail(InvalidRequest, actor, because(RuleInitPidEpochPair, saysOnlyOneOfProduceridEpoch))
		return
	}
	t, code := w.coordinatorCheck(id, r.TransactionalID)
	if code != None {
		why := because(RuleNotCoordinator, saysLedBy, txnPart(t.Partition), num(t.Leader))
		if code == CoordinatorLoadInProgress {
			why = because(RuleNotCoordinator, saysStillLoading, txnPart(t.Partition))
		}
		fail(code, actor, why)
		return
	}
	actor = w.coordActor(t)
	meta, ok := t.Meta[r.TransactionalID]
	if !ok {
		pid := w.allocatePID(id)
		meta = TxnMetadata{TransactionalID: r.TransactionalID, ProducerID: pid, PrevProducerID: NoProducerID, NextProducerID: NoProducerID,
			ProducerEpoch: NoProducerEpoch, LastProducerEpoch: NoProducerEpoch, TimeoutMs: r.TimeoutMs, State: Empty, StartTs: -1, LastUpdateTs: w.now}
		t.Meta[r.TransactionalID] = meta
		w.changes.txnID(r.TransactionalID)
		w.emitRule(EvInfo, actor, cite(RuleInitNewID), saysHasNoMetadataForAllocates, quoted(r.TransactionalID), num(pid)).txn(r.TransactionalID)
	}
	if meta.HasPending {
		fail(ConcurrentTransactions, actor, because(RuleInitPending, saysATransitionToIsIn, meta.Pending))
		return
	}
	if r.ProducerID != NoProducerID {
		okExpected := meta.ProducerEpoch == NoProducerEpoch || r.ProducerID == meta.ProducerID ||
			(r.ProducerID == meta.PrevProducerID && r.ProducerEpoch >= EpochExhaustedAt)
		if !okExpected {
			fail(ProducerFenced, actor, because(RuleInitPidMismatch, saysExpectedPidDoesNotMatch, num(r.ProducerID), num(meta.ProducerID)))
			return
		}
	}
	switch meta.State {
	case PrepareCommit, PrepareAbort:
		fail(ConcurrentTransactions, actor, typedRule(RuleInitCompleting, ruleSayCompleting, int32(meta.State)))
		return
	case Ongoing:
		w.fenceAndAbort(t, meta, wFence, m, because(RuleInitFence, saysANewInstanceFencesThe))
		return
	}
	target := meta
	target.TimeoutMs = r.TimeoutMs
	target.State = Empty
	target.Partitions = nil
	target.LastUpdateTs = w.now
	var rule Rule
	exhausted := meta.ProducerEpoch >= EpochExhaustedAt
	switch {
	case exhausted && (r.ProducerID == NoProducerID || r.ProducerEpoch == meta.ProducerEpoch):
		target.PrevProducerID = meta.ProducerID
		target.ProducerID = w.allocatePID(id)
		target.ProducerEpoch = 0
		target.LastProducerEpoch = NoProducerEpoch
		if r.ProducerID != NoProducerID {
			target.LastProducerEpoch = meta.ProducerEpoch
		}
		rule = because(RuleInitEpoch, saysEpochExhausted32766NewPid, num(int64(meta.ProducerEpoch)))
	case r.ProducerID == NoProducerID:
		target.ProducerEpoch = meta.ProducerEpoch + 1
		target.LastProducerEpoch = NoProducerEpoch
		rule = because(RuleInitEpoch, saysNoExpectedEpochEpoch1, num(int64(meta.ProducerEpoch)))
	case meta.ProducerEpoch == NoProducerEpoch || r.ProducerEpoch == meta.ProducerEpoch:
		target.ProducerEpoch = meta.ProducerEpoch + 1
		target.LastProducerEpoch = meta.ProducerEpoch
		rule = because(RuleInitEpoch, saysExpectedEpochMatchesBumpTo, num(int64(target.ProducerEpoch)), num(int64(meta.ProducerEpoch)))
	case r.ProducerEpoch == meta.LastProducerEpoch:
		rule = because(RuleInitEpoch, saysExpectedEpochIsLastproducerepochA)
	default:
		fail(ProducerFenced, actor, because(RuleInitEpoch, saysExpectedEpochIsNeitherCurrent, num(int64(r.ProducerEpoch)), num(int64(meta.ProducerEpoch)), num(int64(meta.LastProducerEpoch))))
		return
	}
	if target.ProducerID != meta.ProducerID || target.ProducerEpoch != meta.ProducerEpoch {
		w.emitRule(EvEpoch, actor, rule, saysPidEpochTo, quoted(r.TransactionalID), num(meta.ProducerID), num(int64(meta.ProducerEpoch)), num(target.ProducerID), num(int64(target.ProducerEpoch))).txn(r.TransactionalID)
		rule = Rule{}
	}
	w.txnWrite(t, target, wInit, m, rule)
}

// fenceAndAbort is prepareFenceProducerEpoch followed by an abort with the
// bumped epoch (ref 3.4 step 11, 3.8): PrepareEpochFence stays pending only
// and is replaced by PrepareAbort(epoch+1, lastEpoch -1).
func (w *World) fenceAndAbort(t *TxnStatePartition, meta TxnMetadata, purpose writePurpose, m *Message, why Rule) {
	actor := w.coordActor(t)
	w.checkTxnTransition(t, meta, PrepareEpochFence)
	w.emitTxnState(actor, meta.TransactionalID, meta.State, PrepareEpochFence, saysPendingNeverWrittenEpoch, num(int64(meta.ProducerEpoch)), num(int64(meta.ProducerEpoch+1))).Rule = why
	w.emit(EvFence, actor, saysFencesPidEpochOf, num(meta.ProducerID), num(int64(meta.ProducerEpoch)), quoted(meta.TransactionalID)).txn(meta.TransactionalID)
	target := meta
	target.ProducerEpoch = meta.ProducerEpoch + 1
	target.LastProducerEpoch = NoProducerEpoch
	target.State = PrepareAbort
	target.LastUpdateTs = w.now
	rule := w.fenceTargetV2(t.Leader, t, meta, &target)
	fenced := meta
	fenced.State = PrepareEpochFence
	// Kafka clears lastProducerEpoch as soon as it fences (endTransaction
	// with a pending PrepareEpochFence), so no retry can claim the old epoch,
	// and it sets the bumped epoch in memory before the PrepareAbort append
	// is durable (TransactionCoordinator.endTransaction; a failed append
	// leaves it there, which is why TransactionMetadata.hasFailedEpochFence
	// stops the next fence from bumping again).
	fenced.LastProducerEpoch = NoProducerEpoch
	fenced.ProducerEpoch = target.ProducerEpoch
	t.Meta[meta.TransactionalID] = fenced
	w.changes.txnID(meta.TransactionalID)
	w.txnWrite(t, target, purpose, m, rule)
}

// txnWrite appends a state change to __transaction_state. The change takes
// effect only once the append is durable (acks=all); meanwhile the pending
// state makes concurrent requests get CONCURRENT_TRANSACTIONS (ref 3.2).
func (w *World) txnWrite(t *TxnStatePartition, target TxnMetadata, purpose writePurpose, reply *Message, rule Rule) {
	meta := t.Meta[target.TransactionalID]
	if purpose != wTombstone && !validTxnTransitionFor(meta.State, target) {
		w.checkTxnTransition(t, meta, target.State)
	}
	meta.HasPending = true
	meta.Pending = target.State
	if purpose == wTombstone {
		meta.Pending = Dead
	}
	t.Meta[target.TransactionalID] = meta
	wid := w.newCorr()
	t.Writes = append(t.Writes, pendingWrite{ID: wid, Target: target, Purpose: purpose, Reply: reply})
	what := txnLogValue{state: target.State, pid: target.ProducerID, epoch: target.ProducerEpoch, parts: target.Partitions,
		tombstone: purpose == wTombstone, next: NoProducerID}
	if target.State != Empty {
		what.next = target.NextProducerID
	}
	w.emitRule(EvTxnLog, w.coordActor(t), rule, saysAppendsToTakesEffectOnce, quoted(target.TransactionalID), what, txnPart(t.Partition)).txn(target.TransactionalID)
	w.setTimer(w.config.LatencyMs, Timer{Kind: TimerTxnLogAppend, Owner: t.addr(), ID: wid, TP: TP{Topic: TxnStateTopic, Partition: t.Partition}})
}

func (w *World) checkTxnTransition(t *TxnStatePartition, meta TxnMetadata, to TxnState) {
	if !ValidTxnTransition(meta.State, to) {
		w.violate(InvIllegalTransition, w.coordActor(t), sub(saysIsNotALegalTransition, quoted(meta.TransactionalID), meta.State, to))
	}
}

// onTxnLogAppended applies a durable write and continues what it was for.
func (w *World) onTxnLogAppended(tm Timer) {
	t := w.txnParts[tm.TP.Partition]
	if t == nil {
		return
	}
	var pw pendingWrite
	found := false
	for i, x := range t.Writes {
		if x.ID == tm.ID {
			pw = x
			// In place: Clone copies Writes, so no snapshot shares it.
			t.Writes = removeOrdered(t.Writes, i)
			found = true
			break
		}
	}
	if !found {
		return
	}
	target := pw.Target
	actor := w.coordActor(t)
	rec := TxnLogRecord{Offset: int64(len(t.Log)), TransactionalID: target.TransactionalID, ProducerID: target.ProducerID, PrevProducerID: target.PrevProducerID,
		ProducerEpoch: target.ProducerEpoch, TimeoutMs: target.TimeoutMs, State: target.State, Partitions: target.Partitions,
		StartTs: target.StartTs, LastUpdateTs: target.LastUpdateTs, CoordEpoch: t.CoordEpoch, Txn: target.Txn, NextProducerID: target.NextProducerID, TV2: target.TV2}
	if pw.Purpose == wTombstone {
		rec = TxnLogRecord{Offset: int64(len(t.Log)), TransactionalID: target.TransactionalID, Tombstone: true, CoordEpoch: t.CoordEpoch}
	}
	t.Log = append(t.Log, rec)
	w.changes.txnID(target.TransactionalID)
	old := t.Meta[target.TransactionalID]
	if pw.Purpose == wTombstone {
		delete(t.Meta, target.TransactionalID)
		w.emitTxnState(actor, target.TransactionalID, old.State, Dead, saysTombstoneDurableTheIdIs)
		return
	}
	target.HasPending = false
	t.Meta[target.TransactionalID] = target
	w.noteTxnDeadline(target)
	e := w.emitTyped(EvTxnState, actor, sayDurable).txn(target.TransactionalID)
	e.Change, e.x, e.arg, e.epoch = TxnTransition(old.State, target.State), t.Partition, rec.Offset, target.ProducerEpoch
	switch pw.Purpose {
	case wInit:
		w.reply(pw.Reply, MsgInitProducerIDResponse, &InitProducerIDResponse{ProducerID: target.ProducerID, ProducerEpoch: target.ProducerEpoch})
	case wAddPartitions:
		req := pw.Reply.Body.(*AddPartitionsToTxnRequest)
		res := make([]TPCode, len(req.Partitions))
		for i, tp := range req.Partitions {
			res[i] = TPCode{TP: tp}
		}
		w.reply(pw.Reply, MsgAddPartitionsToTxnResponse, &AddPartitionsToTxnResponse{Results: res, VerifyCorr: req.VerifyCorr})
	case wAddOffsets:
		w.reply(pw.Reply, MsgAddOffsetsToTxnResponse, &AddOffsetsToTxnResponse{})
	case wEndTxn:
		w.reply(pw.Reply, MsgEndTxnResponse, endTxnAnswer(pw.Reply, target))
		w.startMarkers(t, target)
	case wFence:
		w.emitRule(EvClientError, actor, cite(RuleInitFence), saysAnswersTheNewInstanceS, ConcurrentTransactions).txn(target.TransactionalID).code(ConcurrentTransactions)
		w.reply(pw.Reply, MsgInitProducerIDResponse, &InitProducerIDResponse{Code: ConcurrentTransactions, ProducerID: NoProducerID, ProducerEpoch: NoProducerEpoch})
		w.startMarkers(t, target)
	case wTimeoutAbort:
		w.startMarkers(t, target)
	}
}

func (w *World) onAddPartitions(id int, m *Message, r *AddPartitionsToTxnRequest) {
	if r.VerifyOnly {
		w.onVerify(id, m, r)
		return
	}
	if r.TV2 {
		w.onAddPartitionsV2(id, m, r)
		return
	}
	all := func(code ErrorCode) []TPCode {
		res := make([]TPCode, len(r.Partitions))
		for i, tp := range r.Partitions {
			res[i] = TPCode{TP: tp, Code: code}
		}
		return res
	}
	fail := func(code ErrorCode, actor string, why Rule) {
		w.emitRule(EvClientError, actor, why, saysAnswersAddpartitionstotxnWith, tpSet(r.Partitions), code).txn(r.TransactionalID).code(code)
		w.reply(m, MsgAddPartitionsToTxnResponse, &AddPartitionsToTxnResponse{Results: all(code)})
	}
	if r.TransactionalID == "" {
		fail(InvalidRequest, brokerAddr(id), because(RuleAddPartitions, saysEmptyTransactionalId))
		return
	}
	for _, tp := range r.Partitions {
		if w.partitions[tp] == nil && w.partition(tp) == nil {
			res := all(OperationNotAttempted)
			for i := range res {
				if res[i].TP == tp {
					res[i].Code = 3
				}
			}
			w.reply(m, MsgAddPartitionsToTxnResponse, &AddPartitionsToTxnResponse{Results: res})
			return
		}
	}
	t, meta, code, why := w.coordinatorEntry(id, r.TransactionalID, r.ProducerID, r.ProducerEpoch, sub(saysAddpartitionstotxn))
	if code != None {
		fail(code, brokerAddr(id), because(RuleAddPartitions, saysArg, why))
		return
	}
	actor := w.coordActor(t)
	if meta.HasPending || meta.State == PrepareCommit || meta.State == PrepareAbort {
		fail(ConcurrentTransactions, actor, because(RuleAddPartitions, saysWithATransitionPendingOr, meta.State))
		return
	}
	if meta.State == Ongoing {
		missing := false
		for _, tp := range r.Partitions {
			if !meta.hasPartition(tp) {
				missing = true
			}
		}
		if !missing {
			w.emitRule(EvInfo, actor, cite(RuleAddPartitions), saysAlreadyHasInTheTransaction, tpSet(r.Partitions)).txn(r.TransactionalID)
			w.reply(m, MsgAddPartitionsToTxnResponse, &AddPartitionsToTxnResponse{Results: all(None)})
			return
		}
	}
	w.txnWrite(t, w.ongoingTarget(t, meta, r.Partitions, r.Txn, MsgAddPartitionsToTxn), wAddPartitions, m, because(RuleAddPartitions, saysAdd, tpSet(r.Partitions)))
}

// ongoingTarget is the Ongoing state with the union of partitions. It also
// keeps the bookkeeping of which client transaction the coordinator's
// transaction serves (see noteTxnOwner).
func (w *World) ongoingTarget(t *TxnStatePartition, meta TxnMetadata, add []TP, txn int64, request MsgKind) TxnMetadata {
	target := meta
	target.Partitions = append([]TP(nil), meta.Partitions...)
	for _, tp := range add {
		if !target.hasPartition(tp) {
			target.Partitions = append(target.Partitions, tp)
		}
	}
	sortTPs(target.Partitions)
	if meta.State != Ongoing {
		target.StartTs = w.now
	}
	target.TV2 = false // a TV1 request; the TV2 add sets it back (prepareAddPartitions)
	target.Txn = w.noteTxnOwner(t, meta, txn, request)
	target.State = Ongoing
	target.LastUpdateTs = w.now
	return target
}

// noteTxnOwner is the bookkeeping of which client transaction the
// coordinator's Ongoing transaction serves (TxnMetadata.Txn) once a request
// of client transaction txn has added to it. Client transaction ids grow in
// the order transactions begin. A transaction that starts belongs to the
// request's client transaction; one already Ongoing is taken over by a
// later client transaction of the same producer (TV1 keeps the epoch, so
// Kafka cannot tell them apart either). A request whose client transaction
// already had its turn (txn <= the last owner) that starts a transaction is
// Kafka's HazardLateAddToTxn: the new transaction serves no client, and gets
// an id no client holds.
func (w *World) noteTxnOwner(t *TxnStatePartition, meta TxnMetadata, txn int64, request MsgKind) int64 {
	switch {
	case txn == 0:
		return meta.Txn
	case txn > meta.Txn:
		return txn
	case meta.State == Ongoing:
		return meta.Txn
	}
	w.hazard(HazardLateAddToTxn, w.coordActor(t), sub(saysADelayedOfAnAlready, request, num(meta.ProducerID), quoted(meta.TransactionalID), meta.State), because(RuleHazardLateAdd, saysTv1KeepsTheEpochSo)).txn(meta.TransactionalID)
	w.nextTxn++
	return w.nextTxn
}

func sortTPs(tps []TP) { slices.SortFunc(tps, compareTPs) }

// compareTPs orders partitions by topic, then number. (slices.SortFunc,
// unlike sort.Slice, makes no closure and swapper on the heap per call.)
func compareTPs(a, b TP) int {
	if c := cmp.Compare(a.Topic, b.Topic); c != 0 {
		return c
	}
	return cmp.Compare(a.Partition, b.Partition)
}

// coordinatorEntry runs the checks shared by AddPartitionsToTxn,
// AddOffsetsToTxn and EndTxn: coordinator, metadata, pid and exact epoch.
func (w *World) coordinatorEntry(id int, txnID string, pid int64, epoch int16, what arg) (*TxnStatePartition, TxnMetadata, ErrorCode, arg) {
	t, code := w.coordinatorCheck(id, txnID)
	if code != None {
		return t, TxnMetadata{}, code, sub(saysIsNotServedHereNow, txnPart(t.Partition))
	}
	meta, ok := t.Meta[txnID]
	if !ok {
		return t, meta, InvalidProducerIDMapping, sub(saysNoMetadataFor, quoted(txnID))
	}
	if meta.ProducerID != pid {
		return t, meta, InvalidProducerIDMapping, sub(saysPidDoesNotMatch, num(pid), num(meta.ProducerID))
	}
	if meta.ProducerEpoch != epoch && !w.acceptFencedEpoch(w.coordActor(t), txnID, epoch, meta.ProducerEpoch, what) {
		return t, meta, ProducerFenced, sub(saysEpochIsNotTheCurrent, num(int64(epoch)), num(int64(meta.ProducerEpoch)))
	}
	return t, meta, None, nil
}

// onVerify answers a leader's verifyOnly AddPartitionsToTxn (ref 2.4).
func (w *World) onVerify(id int, m *Message, r *AddPartitionsToTxnRequest) {
	code := None
	t, c := w.coordinatorCheck(id, r.TransactionalID)
	meta, ok := t.Meta[r.TransactionalID]
	switch {
	case c != None:
		code = c
	case !ok || meta.ProducerID != r.ProducerID:
		code = InvalidProducerIDMapping
	case meta.ProducerEpoch != r.ProducerEpoch && !w.acceptFencedEpoch(w.coordActor(t), r.TransactionalID, r.ProducerEpoch, meta.ProducerEpoch, sub(saysVerificationOf, r.Partitions[0])):
		code = ProducerFenced
	case meta.State == PrepareCommit || meta.State == PrepareAbort:
		code = ConcurrentTransactions
	case !meta.hasPartition(r.Partitions[0]) || meta.State != Ongoing:
		code = TransactionAbortable
	}
	e := w.emitTyped(EvInfo, brokerAddr(id), sayVerifies).on(r.Partitions[0]).txn(r.TransactionalID).code(code)
	e.Rule, e.arg, e.epoch = cite(RuleVerifyPartitions), r.ProducerID, r.ProducerEpoch
	res := []TPCode{{TP: r.Partitions[0], Code: code}}
	w.reply(m, MsgAddPartitionsToTxnResponse, &AddPartitionsToTxnResponse{Results: res, VerifyOnly: true, VerifyCorr: r.VerifyCorr})
}

func (w *World) onAddOffsets(id int, m *Message, r *AddOffsetsToTxnRequest) {
	fail := func(code ErrorCode, actor string, why Rule) {
		w.emitRule(EvClientError, actor, why, saysAnswersAddoffsetstotxnWith, quoted(r.GroupID), code).txn(r.TransactionalID).code(code)
		w.reply(m, MsgAddOffsetsToTxnResponse, &AddOffsetsToTxnResponse{Code: code})
	}
	t, meta, code, why := w.coordinatorEntry(id, r.TransactionalID, r.ProducerID, r.ProducerEpoch, sub(saysAddoffsetstotxn))
	if code != None {
		fail(code, brokerAddr(id), because(RuleAddOffsets, saysArg, why))
		return
	}
	actor := w.coordActor(t)
	if meta.HasPending || meta.State == PrepareCommit || meta.State == PrepareAbort {
		fail(ConcurrentTransactions, actor, because(RuleAddOffsets, saysTransitionPendingOrCompleting))
		return
	}
	tp := w.OffsetsPartitionFor(r.GroupID)
	if meta.State == Ongoing && meta.hasPartition(tp) {
		w.emitRule(EvInfo, actor, cite(RuleAddOffsets), saysAlreadyHasInTheTransaction, tp).on(tp).txn(r.TransactionalID)
		w.reply(m, MsgAddOffsetsToTxnResponse, &AddOffsetsToTxnResponse{})
		return
	}
	w.txnWrite(t, w.ongoingTarget(t, meta, []TP{tp}, r.Txn, MsgAddOffsetsToTxn), wAddOffsets, m, because(RuleAddOffsets, saysAddoffsetstotxnAddsForGroup, tp, quoted(r.GroupID)))
}

// onEndTxn follows the TV1 table of ref 3.6; EndTxn v5 the TV2 one.
func (w *World) onEndTxn(id int, m *Message, r *EndTxnRequest) {
	if r.TV2 {
		w.onEndTxnV2(id, m, r)
		return
	}
	verb := endVerb(r.Commit)
	fail := func(code ErrorCode, actor string, why Rule) {
		w.emitRule(EvClientError, actor, why, saysAnswersEndtxnWith, verb, code).txn(r.TransactionalID).code(code)
		w.reply(m, MsgEndTxnResponse, &EndTxnResponse{Code: code})
	}
	t, meta, code, why := w.coordinatorEntry(id, r.TransactionalID, r.ProducerID, r.ProducerEpoch, sub(saysEndtxn))
	if code != None {
		fail(code, brokerAddr(id), because(RuleEndTxn, saysArg, why))
		return
	}
	actor := w.coordActor(t)
	if meta.HasPending {
		fail(ConcurrentTransactions, actor, because(RuleEndTxn, saysTransitionToPending, meta.Pending))
		return
	}
	switch meta.State {
	case Ongoing:
		target := meta
		target.State = PrepareAbort
		if r.Commit {
			target.State = PrepareCommit
		}
		target.LastUpdateTs = w.now
		target.TV2 = false // endTransactionWithTV1: its markers are TV1's, whatever added the partitions
		w.txnWrite(t, target, wEndTxn, m, because(RuleEndTxn, saysOngoing, verb))
	case PrepareCommit:
		if r.Commit {
			fail(ConcurrentTransactions, actor, because(RuleEndTxn, saysPreparecommitCommitStillCompleting))
		} else {
			fail(InvalidTxnState, actor, because(RuleEndTxn, saysPreparecommitAbortAPreparedCommit))
		}
	case PrepareAbort:
		if r.Commit {
			fail(InvalidTxnState, actor, because(RuleEndTxn, saysPrepareabortCommit))
		} else {
			fail(ConcurrentTransactions, actor, because(RuleEndTxn, saysPrepareabortAbortStillCompleting))
		}
	case CompleteCommit:
		if r.Commit {
			w.emitRule(EvInfo, actor, cite(RuleEndTxn), saysAnswersEndtxnCommitNoneAlready).txn(r.TransactionalID)
			w.reply(m, MsgEndTxnResponse, &EndTxnResponse{})
		} else {
			fail(InvalidTxnState, actor, because(RuleEndTxn, saysCompletecommitAbort))
		}
	case CompleteAbort:
		if !r.Commit {
			w.emitRule(EvInfo, actor, cite(RuleEndTxn), saysAnswersEndtxnAbortNoneAlready).txn(r.TransactionalID)
			w.reply(m, MsgEndTxnResponse, &EndTxnResponse{})
		} else {
			fail(InvalidTxnState, actor, because(RuleEndTxn, saysCompleteabortCommit))
		}
	default:
		fail(InvalidTxnState, actor, because(RuleEndTxn, saysStatePlus, meta.State, verb))
	}
}

// startMarkers sends WriteTxnMarkers to every partition leader of the
// transaction, concurrently (ref 3.7).
func (w *World) startMarkers(t *TxnStatePartition, meta TxnMetadata) {
	result := MarkerAbort
	if meta.State == PrepareCommit {
		result = MarkerCommit
	}
	job := &markerJob{Txn: meta.Txn, TransactionalID: meta.TransactionalID, Result: result, ProducerID: meta.ProducerID, Epoch: meta.ProducerEpoch,
		Pending: append([]TP(nil), meta.Partitions...), Outstanding: map[int64][]TP{}, Version: w.markerVersion(meta), TV2: meta.TV2}
	t.Markers[meta.TransactionalID] = job
	if len(job.Pending) == 0 {
		w.completeTxn(t, job)
		return
	}
	w.sendMarkers(t, job)
}

// sendMarkers sends the job's markers that are not in flight, one request
// per partition leader. A partition with no leader gets nothing: Kafka's
// TransactionMarkerChannelManager puts its marker in the queue for an
// unknown broker (markersQueueForUnknownBroker) and sends it once the
// metadata names a leader, without a request, a timeout or a retry in
// between (ref 3.7). Here that moment is the partition coming back online:
// restartBroker calls resendWaitingMarkers. (A timer per partition without
// a leader used to fire every request.timeout.ms for as long as it had
// none: about 143,000 events per advance of 24 days.)
func (w *World) sendMarkers(t *TxnStatePartition, job *markerJob) {
	byLeader := map[int][]TP{}
	var leaders []int
	busy := map[TP]bool{}
	for _, tps := range job.Outstanding {
		for _, tp := range tps {
			busy[tp] = true
		}
	}
	for _, tp := range job.Pending {
		if busy[tp] {
			continue
		}
		l := -1
		if p := w.partition(tp); p != nil {
			l = p.Leader
		}
		if _, ok := byLeader[l]; !ok {
			leaders = append(leaders, l)
		}
		byLeader[l] = append(byLeader[l], tp)
	}
	sort.Ints(leaders)
	for _, l := range leaders {
		if l < 0 {
			w.emitRule(EvMarker, w.coordActor(t), cite(RuleMarkersQueued), saysHasNoLeaderTheMarker, tpSet(byLeader[l]), job.Result).txn(job.TransactionalID)
			continue
		}
		corr := w.newCorr()
		job.Outstanding[corr] = byLeader[l]
		w.setTimer(30000, Timer{Kind: TimerRequestTimeout, Owner: t.addr(), ID: corr})
		w.send(MsgWriteTxnMarkers, t.addr(), brokerAddr(l), corr, &WriteTxnMarkersRequest{TransactionalID: job.TransactionalID, ProducerID: job.ProducerID,
			ProducerEpoch: job.Epoch, CoordinatorEpoch: t.CoordEpoch, Result: job.Result, Partitions: byLeader[l], CoordPartition: t.Partition, Txn: job.Txn,
			TransactionVersion: job.Version, TV2Txn: job.TV2})
	}
}

func (w *World) onWriteTxnMarkersResponse(id int, m *Message, r *WriteTxnMarkersResponse) {
	t := w.txnParts[r.CoordPartition]
	if t == nil || t.Leader != id || t.CoordEpoch != r.CoordinatorEpoch {
		return
	}
	job := t.Markers[r.TransactionalID]
	if job == nil {
		return
	}
	if _, ok := job.Outstanding[m.Corr]; !ok {
		return
	}
	delete(job.Outstanding, m.Corr)
	w.cancelTimer(TimerRequestTimeout, t.addr(), m.Corr)
	retry := false
	for _, res := range r.Results {
		switch {
		case res.Code == None:
			job.Pending = removeTP(job.Pending, res.TP)
		case res.Code == InvalidProducerEpoch || res.Code == TransactionCoordinatorFenced:
			w.emitRule(EvMarker, w.coordActor(t), cite(RuleMarkersGiveUp), saysGivesUpSendingMarkersFor, quoted(job.TransactionalID), res.Code, res.TP).on(res.TP).txn(job.TransactionalID).code(res.Code)
			delete(t.Markers, job.TransactionalID)
			return
		default:
			retry = true
		}
	}
	if len(job.Pending) == 0 && len(job.Outstanding) == 0 {
		w.completeTxn(t, job)
		return
	}
	if retry {
		w.sendMarkers(t, job)
	}
}

// resendWaitingMarkers sends the markers that waited for a partition with
// no leader, now that tp has one again.
func (w *World) resendWaitingMarkers(tp TP) {
	for _, pn := range w.sortedTxnParts() {
		t := w.txnParts[pn]
		if t.Leader < 0 || t.Loading {
			continue
		}
		for _, id := range sortedKeys(t.Markers) {
			if job := t.Markers[id]; hasTP(job.Pending, tp) && !job.inFlight(tp) {
				w.sendMarkers(t, job)
			}
		}
	}
}

// inFlight reports whether a WriteTxnMarkers request for tp awaits an answer.
func (j *markerJob) inFlight(tp TP) bool {
	for _, tps := range j.Outstanding {
		if hasTP(tps, tp) {
			return true
		}
	}
	return false
}

func removeTP(tps []TP, tp TP) []TP {
	out := tps[:0:0]
	for _, x := range tps {
		if x != tp {
			out = append(out, x)
		}
	}
	return out
}

// completeTxn writes CompleteCommit or CompleteAbort with no partitions.
func (w *World) completeTxn(t *TxnStatePartition, job *markerJob) {
	delete(t.Markers, job.TransactionalID)
	meta := t.Meta[job.TransactionalID]
	target := meta
	target.State = CompleteAbort
	if job.Result == MarkerCommit {
		target.State = CompleteCommit
	}
	target.Partitions = nil
	target.LastUpdateTs = w.now
	rule := because(RuleMarkersComplete, saysEveryMarkerAcknowledged)
	if len(meta.Partitions) == 0 {
		rule = because(RuleTV2EmptyAbort, saysAnEmptyAbortHasNo)
	}
	w.completeTargetV2(t, meta, &target)
	w.txnWrite(t, target, wComplete, nil, rule)
}

// onMarkerTimeout resends markers whose request got no answer.
func (w *World) onCoordinatorRequestTimeout(tm Timer) {
	for _, pn := range w.sortedTxnParts() {
		t := w.txnParts[pn]
		if t.addr() != tm.Owner {
			continue
		}
		for _, id := range sortedKeys(t.Markers) {
			job := t.Markers[id]
			if _, ok := job.Outstanding[tm.ID]; ok {
				delete(job.Outstanding, tm.ID)
				w.emit(EvTimer, w.coordActor(t), saysWritetxnmarkersForTimedOutResending, quoted(job.TransactionalID)).txn(job.TransactionalID)
				w.sendMarkers(t, job)
				return
			}
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// sortedIDs lists a map's producer ids in order, for deterministic output.
func sortedIDs[V any](m map[int64]V) []int64 {
	out := make([]int64, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func (w *World) sortedTxnParts() []int32 {
	out := make([]int32, 0, len(w.txnParts))
	for p := range w.txnParts {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// onAbortCheck is abortTimedOutTransactions (ref 3.8): Ongoing transactions
// past their timeout are fenced and aborted exactly as step 11 of ref 3.4.
func (w *World) onAbortCheck() {
	w.setTimer(w.config.AbortCheckIntervalMs, Timer{Kind: TimerAbortCheck, Owner: "cluster"})
	// Most checks find nothing: NextTxnDeadline is a lower bound of every
	// Ongoing transaction's deadline, so a check before it scans nothing.
	if w.now <= w.nextTxnDeadline {
		return
	}
	w.nextTxnDeadline = math.MaxInt64
	for _, t := range w.txnParts {
		for _, meta := range t.Meta {
			w.noteTxnDeadline(meta)
		}
	}
	for _, pn := range w.sortedTxnParts() {
		t := w.txnParts[pn]
		if t.Leader < 0 || t.Loading {
			continue
		}
		for _, id := range sortedKeys(t.Meta) {
			meta := t.Meta[id]
			if meta.State == Ongoing && !meta.HasPending && meta.StartTs+meta.TimeoutMs < w.now {
				w.fenceAndAbort(t, meta, wTimeoutAbort, nil, because(RuleTxnTimeout, saysStartedAtTTimeoutMs, num(meta.StartTs), num(meta.TimeoutMs)))
			}
		}
	}
}

// onExpiryCheck removes idle transactional ids (ref 3.8) and idle producer
// state on partitions (ref 2.1).
func (w *World) onExpiryCheck() {
	for _, pn := range w.sortedTxnParts() {
		t := w.txnParts[pn]
		if t.Leader < 0 || t.Loading {
			continue
		}
		for _, id := range sortedKeys(t.Meta) {
			meta := t.Meta[id]
			if (meta.State == Empty || meta.State == CompleteCommit || meta.State == CompleteAbort) && !meta.HasPending &&
				w.now-meta.LastUpdateTs >= w.config.TxnIDExpirationMs {
				w.txnWrite(t, meta, wTombstone, nil, because(RuleTxnIDExpiry, saysIdleForTransactionalIdExpiration))
			}
		}
	}
	for _, tp := range w.SortedPartitions() {
		w.expireProducers(w.partitions[tp])
	}
	w.setTimer(w.config.ExpiryCheckIntervalMs, Timer{Kind: TimerExpiryCheck, Owner: "cluster"})
}

// onLoadDone finishes a new coordinator's load of its partition (ref 3.9):
// the cache is rebuilt from the log, and Prepare* transactions get all their
// markers again under the new coordinator epoch.
func (w *World) onLoadDone(tm Timer) {
	t := w.txnParts[tm.TP.Partition]
	if t == nil || t.addr() != tm.Owner {
		return
	}
	t.Loading = false
	w.changes.txnIDsOf(t.Meta)
	t.Meta = map[string]TxnMetadata{}
	for _, r := range t.Log {
		if r.Tombstone {
			delete(t.Meta, r.TransactionalID)
			continue
		}
		t.Meta[r.TransactionalID] = TxnMetadata{TransactionalID: r.TransactionalID, ProducerID: r.ProducerID, PrevProducerID: r.PrevProducerID, NextProducerID: r.NextProducerID,
			ProducerEpoch: r.ProducerEpoch, LastProducerEpoch: NoProducerEpoch, TimeoutMs: r.TimeoutMs, State: r.State,
			Partitions: r.Partitions, StartTs: r.StartTs, LastUpdateTs: r.LastUpdateTs, Txn: r.Txn, TV2: r.TV2}
	}
	for _, meta := range t.Meta {
		w.noteTxnDeadline(meta)
	}
	w.changes.txnIDsOf(t.Meta)
	actor := w.coordActor(t)
	w.emitRule(EvTxnState, actor, because(RuleLastEpochNotPersisted, saysLastproducerepochIsNotPersistedIt), saysLoadedTransactionalIdsAsCoordinator, txnPart(t.Partition), num(int64(len(t.Meta))), num(int64(t.CoordEpoch)))
	for _, id := range sortedKeys(t.Meta) {
		meta := t.Meta[id]
		if meta.State == PrepareCommit || meta.State == PrepareAbort {
			what := resultName(meta.State == PrepareCommit)
			w.emitRule(EvMarker, actor, because(RuleLoadResendsMarkers, saysAPreparedTransactionIsFinished), saysReSendsTheMarkersOf, what, quoted(id), num(int64(t.CoordEpoch))).txn(id)
			w.startMarkers(t, meta)
		}
	}
}

// noteTxnDeadline lowers NextTxnDeadline to an Ongoing transaction's deadline.
func (w *World) noteTxnDeadline(m TxnMetadata) {
	if m.State == Ongoing && m.StartTs+m.TimeoutMs < w.nextTxnDeadline {
		w.nextTxnDeadline = m.StartTs + m.TimeoutMs
	}
}

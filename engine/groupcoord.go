package engine

// Group is the group coordinator's state for one consumer group (ref 5):
// membership (generation, members) for KIP-447 fencing, committed offsets,
// and pending transactional offsets keyed by producer id.
type Group struct {
	ID         string
	Generation int32
	Members    []GroupMember
	Committed  map[TP]CommittedOffset
	Pending    map[int64]map[TP]CommittedOffset
	Simple     bool // created by a group-less commit
}

// GroupMember is one member of a group.
type GroupMember struct {
	MemberID   string
	InstanceID string
	Client     string
}

// CommittedOffset is an offset and the offset of the record in
// __consumer_offsets that carried it (newer records win, ref 5.3).
type CommittedOffset struct {
	Offset       int64
	RecordOffset int64
}

func (g *Group) member(id string) (GroupMember, bool) {
	for _, m := range g.Members {
		if m.MemberID == id {
			return m, true
		}
	}
	return GroupMember{}, false
}

func (w *World) group(id string) *Group {
	g := w.groups[id]
	if g == nil {
		g = &Group{ID: id, Committed: map[TP]CommittedOffset{}, Pending: map[int64]map[TP]CommittedOffset{}}
		w.groups[id] = g
	}
	return g
}

// joinGroup adds a member and starts a new generation (the JoinGroup/SyncGroup
// rebalance is not simulated message by message).
func (w *World) joinGroup(groupID, client, instance string) string {
	g := w.group(groupID)
	w.nextMember++
	mid := client + "-" + itoa(w.nextMember)
	if instance != "" {
		for i, m := range g.Members {
			if m.InstanceID == instance {
				g.Members = append(g.Members[:i:i], g.Members[i+1:]...)
				break
			}
		}
	}
	g.Members = append(g.Members, GroupMember{MemberID: mid, InstanceID: instance, Client: client})
	g.Generation++
	g.Simple = false
	w.changes.group(groupID)
	w.emit(EvOffsets, "group("+groupID+")", saysJoinsAsGeneration, quoted(client), quoted(mid), num(int64(g.Generation)))
	return mid
}

func (w *World) groupCoordinatorCheck(id int, groupID string) (*PartitionLog, ErrorCode) {
	p := w.partition(w.OffsetsPartitionFor(groupID))
	if p == nil || p.Leader != id {
		return p, NotCoordinator
	}
	return p, None
}

// validateTxnOffsetCommit is the KIP-447 membership check (ref 5.2 table).
func (w *World) validateTxnOffsetCommit(r *TxnOffsetCommitRequest) (ErrorCode, arg) {
	g, exists := w.groups[r.GroupID]
	if !exists || (len(g.Members) == 0 && !g.Simple && g.Generation == 0) {
		if r.GenerationID < 0 {
			return None, sub(saysGroupDoesNotExistGeneration)
		}
		return IllegalGeneration, sub(saysGroupDoesNotExistAnd, num(int64(r.GenerationID)))
	}
	if r.GenerationID < 0 && r.MemberID == "" && r.GroupInstanceID == "" {
		return None, sub(saysGeneration0AndNoMember)
	}
	if r.GroupInstanceID != "" {
		for _, m := range g.Members {
			if m.InstanceID == r.GroupInstanceID && m.MemberID != r.MemberID {
				return FencedInstanceID, sub(saysStaticMemberNowMapsTo, quoted(r.GroupInstanceID), quoted(m.MemberID))
			}
		}
	}
	if _, ok := g.member(r.MemberID); !ok {
		return UnknownMemberID, sub(saysMemberIsNotInThe, quoted(r.MemberID))
	}
	if r.GenerationID != g.Generation {
		return IllegalGeneration, sub(saysGenerationIsNotTheGroup, num(int64(r.GenerationID)), num(int64(g.Generation)))
	}
	return None, sub(saysMemberAndGenerationMatch)
}

// onTxnOffsetCommit handles a TxnOffsetCommit at the group coordinator.
// Since Kafka 3.7 (KAFKA-15449, KIP-890 part 1) the group coordinator
// verifies with the transaction coordinator that the offsets partition is in
// the producer's transaction before it writes, unless the producer already
// has an open transaction on that partition (ref 5.2; GroupCoordinator.
// handleTxnCommitOffsets -> ReplicaManager.maybeStartTransactionVerification-
// ForPartition, the same path a produce takes, ref 2.2 step 1). Membership is
// checked only after verification, as doTxnCommitOffsets does.
func (w *World) onTxnOffsetCommit(id int, m *Message, r *TxnOffsetCommitRequest) {
	p, code := w.groupCoordinatorCheck(id, r.GroupID)
	if code != None {
		w.failTxnOffsetCommit(m, r, code, because(RuleNotGroupCoordinator, saysBrokerDoesNotLead, num(int64(id)), w.OffsetsPartitionFor(r.GroupID)))
		return
	}
	if r.TV2 && r.TransactionalID != "" && r.ProducerID >= 0 {
		w.txnOffsetCommitV2(id, p, m, r)
		return
	}
	if w.config.Verification && r.TransactionalID != "" && r.ProducerID >= 0 {
		if e, ok := p.Producers[r.ProducerID]; !ok || e.CurrentTxnFirstOffset < 0 {
			corr := w.newCorr()
			guard := p.startVerification(r.ProducerID, NoSequence, r.ProducerEpoch, w.now, corr)
			w.parked = append(w.parked, parkedRequest{Corr: corr, Msg: m, Guard: guard})
			w.emitRule(EvOffsets, groupActor(r.GroupID), because(RuleTxnOffsetVerify, saysKip890Part1Verification, p.TP), saysHoldsTxnOffsetCommitToVerify, tpOffsets(r.Offsets), num(r.ProducerID), p.TP).on(p.TP).txn(r.TransactionalID)
			coord := w.txnCoordinatorBroker(r.TransactionalID)
			if coord < 0 {
				w.finishVerify(corr, CoordinatorNotAvailable)
				return
			}
			w.send(MsgAddPartitionsToTxn, brokerAddr(id), brokerAddr(coord), corr, &AddPartitionsToTxnRequest{
				TransactionalID: r.TransactionalID, ProducerID: r.ProducerID, ProducerEpoch: r.ProducerEpoch,
				Partitions: []TP{p.TP}, VerifyOnly: true, VerifyCorr: corr})
			return
		}
	}
	w.writeTxnOffsetCommit(p, m, r, 0)
}

func groupActor(groupID string) string { return "group(" + groupID + ")" }

func (w *World) failTxnOffsetCommit(m *Message, r *TxnOffsetCommitRequest, code ErrorCode, why Rule) {
	w.emitRule(EvOffsets, groupActor(r.GroupID), why, saysRejectsTxnoffsetcommit, tpOffsets(r.Offsets), code).txn(r.TransactionalID).code(code)
	res := make([]TPCode, len(r.Offsets))
	for i, o := range r.Offsets {
		res[i] = TPCode{TP: o.TP, Code: code}
	}
	w.reply(m, MsgTxnOffsetCommitResponse, &TxnOffsetCommitResponse{Results: res})
}

// stillGroupCoordinator checks, when a parked TxnOffsetCommit resumes, that
// its broker still leads the group's offsets partition; if not, the
// request fails with the coordinator error.
func (w *World) stillGroupCoordinator(pk parkedRequest, r *TxnOffsetCommitRequest) (*PartitionLog, bool) {
	id, _ := parseBrokerAddr(pk.Msg.To)
	p, c := w.groupCoordinatorCheck(id, r.GroupID)
	if c != None {
		w.failTxnOffsetCommit(pk.Msg, r, c, because(RuleNotGroupCoordinator, saysBrokerNoLongerLeads, num(int64(id)), w.OffsetsPartitionFor(r.GroupID)))
		return nil, false
	}
	return p, true
}

// finishTxnOffsetCommitVerify resumes a parked TxnOffsetCommit with the
// transaction coordinator's answer. The errors reach the client as the
// classic group coordinator returns them for TxnOffsetCommit v4 (3.8+):
// AddPartitionsToTxnManager turns PRODUCER_FENCED into INVALID_PRODUCER_EPOCH
// and keeps TRANSACTION_ABORTABLE (genericError mode); the rest pass through
// GroupMetadataManager.maybeConvertOffsetCommitError unchanged (ref 5.2).
func (w *World) finishTxnOffsetCommitVerify(pk parkedRequest, code ErrorCode) {
	r := pk.Msg.Body.(*TxnOffsetCommitRequest)
	p, ok := w.stillGroupCoordinator(pk, r)
	if !ok {
		return
	}
	switch code {
	case None:
		w.emit(EvOffsets, groupActor(r.GroupID), saysVerificationPassedIsInThe, p.TP, num(r.ProducerID)).on(p.TP).txn(r.TransactionalID)
		w.writeTxnOffsetCommit(p, pk.Msg, r, pk.Guard)
	case ProducerFenced:
		w.failTxnOffsetCommit(pk.Msg, r, InvalidProducerEpoch, because(RuleTxnOffsetVerifyFailed, saysVerificationOfFailedWithProducer, p.TP))
	default:
		w.failTxnOffsetCommit(pk.Msg, r, code, because(RuleTxnOffsetVerifyFailed, saysVerificationOfFailedWithNothing, p.TP, codeName(code)))
	}
}

// writeTxnOffsetCommit checks membership (ref 5.2 table), then appends the
// offsets to __consumer_offsets as a transactional batch with the producer's
// id and epoch (origin COORDINATOR: the verification guard and the epoch
// check apply, ref 2.2) and keeps them pending until the marker (ref 5.1).
func (w *World) writeTxnOffsetCommit(p *PartitionLog, m *Message, r *TxnOffsetCommitRequest, guard int64) {
	code, why := w.validateTxnOffsetCommit(r)
	if code != None {
		w.failTxnOffsetCommit(m, r, code, because(RuleTxnOffsetMember, saysArg, why))
		return
	}
	e, known := p.Producers[r.ProducerID]
	open := known && e.CurrentTxnFirstOffset >= 0
	// UnifiedLog.analyzeAndValidateProducerState: a transactional write
	// with no open transaction here needs the guard it was verified under;
	// a marker in between removed it (ref 2.2 step 3).
	if w.config.Verification && !open {
		if v, ok := p.Verifying[r.ProducerID]; !ok || guard == 0 || v.Guard != guard {
			w.failTxnOffsetCommit(m, r, InvalidTxnState, because(RuleVerificationGuard, saysGuardNoLongerMatches, num(r.ProducerID), p.TP))
			return
		}
	}
	if known && r.ProducerEpoch < e.ProducerEpoch && !w.acceptFencedEpoch(brokerAddr(p.Leader), r.TransactionalID, r.ProducerEpoch, e.ProducerEpoch, sub(saysTxnoffsetcommitOn, p.TP)) {
		w.failTxnOffsetCommit(m, r, InvalidProducerEpoch, because(RuleTxnOffsetStaleEpoch, saysProducerEpochStoredOn, num(int64(r.ProducerEpoch)), num(int64(e.ProducerEpoch)), p.TP))
		return
	}
	if w.config.Verification && !open {
		w.checkOffsetsWriteVerified(p, r.TransactionalID, r.ProducerID)
	}
	g := w.group(r.GroupID)
	if r.GenerationID < 0 && len(g.Members) == 0 {
		g.Simple = true
	}
	recs := make([]string, len(r.Offsets))
	for i, o := range r.Offsets {
		recs[i] = r.GroupID + ":" + o.TP.String() + "=" + itoa(o.Offset)
	}
	b := Batch{ProducerID: r.ProducerID, ProducerEpoch: r.ProducerEpoch, BaseSequence: NoSequence, Count: int32(len(recs)), Transactional: true, Records: NewRecords(recs...), Txn: r.Txn}
	res := w.appendBatch(p, b, appendResult{})
	w.afterAppend(p)
	w.changes.group(r.GroupID)
	pend := g.Pending[r.ProducerID]
	if pend == nil {
		pend = map[TP]CommittedOffset{}
		g.Pending[r.ProducerID] = pend
	}
	for i, o := range r.Offsets {
		pend[o.TP] = CommittedOffset{Offset: o.Offset, RecordOffset: res.BaseOffset + int64(i)}
	}
	w.emitRule(EvOffsets, groupActor(r.GroupID), because(RuleTxnOffsetMember, saysArg, why), saysHoldsAsPendingForPid, tpOffsets(r.Offsets), num(r.ProducerID), p.TP, num(res.BaseOffset)).on(p.TP).txn(r.TransactionalID)
	resp := make([]TPCode, len(r.Offsets))
	for i, o := range r.Offsets {
		resp[i] = TPCode{TP: o.TP, Code: None}
	}
	last := res.BaseOffset + int64(b.Count) - 1
	w.hold([]TPOffset{{TP: p.TP, Offset: last}}, m, MsgTxnOffsetCommitResponse, &TxnOffsetCommitResponse{Results: resp})
}

// resolvePendingOffsets applies a marker that landed on __consumer_offsets:
// COMMIT makes the producer's pending offsets the committed ones (only if
// newer), ABORT discards them (ref 5.3). late is Kafka's
// HazardLateTxnMarker: the marker of an earlier transaction decides the
// offsets of a later one, whose outputs it does not commit with them, so
// the offsets-atomic check does not hold it to them.
func (w *World) resolvePendingOffsets(tp TP, pid int64, result MarkerType, late bool) {
	for _, gid := range sortedKeys(w.groups) {
		g := w.groups[gid]
		if w.OffsetsPartitionFor(gid) != tp {
			continue
		}
		pend := g.Pending[pid]
		if pend == nil {
			continue
		}
		w.changes.group(gid)
		delete(g.Pending, pid)
		tps := make([]TP, 0, len(pend))
		for t := range pend {
			tps = append(tps, t)
		}
		sortTPs(tps)
		for _, t := range tps {
			o := pend[t]
			if result == MarkerAbort {
				w.emit(EvOffsets, "group("+gid+")", saysDiscardsPendingOffsetOfPid, t, num(o.Offset), num(pid)).on(t)
				continue
			}
			old, had := g.Committed[t]
			if had && old.RecordOffset > o.RecordOffset {
				continue
			}
			g.Committed[t] = o
			w.emit(EvOffsets, "group("+gid+")", saysCommitsOffsetOfPidCommit, t, num(o.Offset), num(pid)).on(t)
			prev := int64(-1)
			if had {
				prev = old.Offset
			}
			if !late {
				w.checkOffsetsAtomic(gid, t, prev, o.Offset, pid)
			}
		}
	}
}

func (w *World) onOffsetCommit(id int, m *Message, r *OffsetCommitRequest) {
	actor := "group(" + r.GroupID + ")"
	res := make([]TPCode, len(r.Offsets))
	p, code := w.groupCoordinatorCheck(id, r.GroupID)
	for i, o := range r.Offsets {
		res[i] = TPCode{TP: o.TP, Code: code}
	}
	if code != None {
		w.reply(m, MsgOffsetCommitResponse, &OffsetCommitResponse{Results: res})
		return
	}
	recs := make([]string, len(r.Offsets))
	for i, o := range r.Offsets {
		recs[i] = r.GroupID + ":" + o.TP.String() + "=" + itoa(o.Offset)
	}
	b := w.appendBatch(p, Batch{ProducerID: NoProducerID, ProducerEpoch: NoProducerEpoch, BaseSequence: NoSequence, Count: int32(len(recs)), Records: NewRecords(recs...)}, appendResult{})
	w.afterAppend(p)
	g := w.group(r.GroupID)
	w.changes.group(r.GroupID)
	for i, o := range r.Offsets {
		old, had := g.Committed[o.TP]
		g.Committed[o.TP] = CommittedOffset{Offset: o.Offset, RecordOffset: b.BaseOffset + int64(i)}
		w.emit(EvOffsets, actor, saysCommitsOffsetOutsideAnyTransaction, o.TP, num(o.Offset)).on(o.TP)
		prev := int64(-1)
		if had {
			prev = old.Offset
		}
		w.checkOffsetsAtomic(r.GroupID, o.TP, prev, o.Offset, -1)
	}
	w.reply(m, MsgOffsetCommitResponse, &OffsetCommitResponse{Results: res})
}

// onOffsetFetch answers UNSTABLE_OFFSET_COMMIT while any requested partition
// has pending transactional offsets and the request requires stable offsets
// (ref 5.4).
func (w *World) onOffsetFetch(id int, m *Message, r *OffsetFetchRequest) {
	if _, code := w.groupCoordinatorCheck(id, r.GroupID); code != None {
		w.reply(m, MsgOffsetFetchResponse, &OffsetFetchResponse{Code: code})
		return
	}
	g := w.group(r.GroupID)
	if r.RequireStable {
		for _, pid := range sortedIDs(g.Pending) {
			for _, tp := range r.Partitions {
				if _, ok := g.Pending[pid][tp]; ok {
					w.emitRule(EvOffsets, "group("+r.GroupID+")", cite(RuleUnstableOffset), saysAnswersOffsetfetchWithPidHas, tp, UnstableOffsetCommit, num(pid)).on(tp).code(UnstableOffsetCommit)
					w.reply(m, MsgOffsetFetchResponse, &OffsetFetchResponse{Code: UnstableOffsetCommit})
					return
				}
			}
		}
	}
	out := make([]TPOffset, len(r.Partitions))
	for i, tp := range r.Partitions {
		out[i] = TPOffset{TP: tp, Offset: -1}
		if c, ok := g.Committed[tp]; ok {
			out[i].Offset = c.Offset
		}
	}
	w.reply(m, MsgOffsetFetchResponse, &OffsetFetchResponse{Offsets: out})
}

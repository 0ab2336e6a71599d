package engine

// The producer's side of transaction version 2 (KIP-890 part 2, ref 6),
// after Java's TransactionManager in Kafka 4: no AddPartitionsToTxn (a
// send puts the partition straight into partitionsInTransaction), no
// AddOffsetsToTxn (sendOffsetsToTransaction queues TxnOffsetCommit v5
// alone), EndTxn v5 whose answer carries the producer id and epoch to go on
// with, and no client-triggered epoch bump after an abortable error.
//
// How a producer learns the version. In Kafka the brokers advertise the
// finalized feature transaction.version in their ApiVersions responses,
// and the client re-reads it (maybeUpdateTransactionV2Enabled) in
// initTransactions() and in beginCompletingTransaction, after the EndTxn
// request is built: a transaction ends with the version it started with,
// and a switch takes effect with the next one. The simulation has no
// ApiVersions message; at those two moments the producer reads the
// cluster's finalized version, Config.TransactionVersion, which
// `config transaction.version=N` sets like kafka-features does.

// learnTxnVersion is maybeUpdateTransactionV2Enabled. init is true in
// initTransactions, where no bump is needed. An upgrade from TV1 to TV2
// later sets clientSideEpochBumpRequired: an InitProducerId(pid, epoch)
// follows the EndTxn just queued, so that the first TV2 transaction runs at
// a new epoch and nothing of the TV1 one counts as already added.
func (w *World) learnTxnVersion(p *Producer, init bool) {
	v2 := w.tv2Cluster()
	if v2 == p.TV2 {
		return
	}
	p.TV2 = v2
	rule := because(RuleClientVersion, saysTheClientReadsTheFinalized)
	switch {
	case v2 && init:
		w.emitRule(EvInfo, p.Name, rule, saysUsesTV2)
	case v2:
		p.BumpEpoch, p.TVUpgrade = true, true
		w.emitRule(EvInfo, p.Name, rule.and(because(RuleUpgradeBump, saysAnUpgradeNeedsABump)), saysUsesTV2Next)
	default:
		w.emitRule(EvInfo, p.Name, rule, saysUsesTransactionVersion1From)
	}
}

// upgradeTransition is the transition Kafka 4's TransactionManager adds
// for the upgrade's bump: COMMITTING_TRANSACTION -> INITIALIZING, when the
// committed transaction is followed by InitProducerId(pid, epoch)
// (State.isTransitionValid in 4.x). Aborts reach INITIALIZING in TV1 too.
func upgradeTransition(p *Producer, to ClientState) bool {
	return p.TVUpgrade && p.State == CommittingTransaction && to == Initializing
}

// addPartitionV2 is maybeAddPartition under TV2: the partition is in the
// transaction at once, and the transaction has started (the leader adds
// it at the coordinator when the first batch arrives).
func addPartitionV2(p *Producer, tp TP) {
	if !hasTP(p.TxnParts, tp) {
		p.TxnParts = append(p.TxnParts, tp)
		sortTPs(p.TxnParts)
	}
	p.TxnStarted = true
}

// offsetsRequest is what sendOffsetsToTransaction queues: AddOffsetsToTxn
// under TV1, TxnOffsetCommit v5 alone under TV2 (which also starts the
// transaction, transactionStarted).
func offsetsRequest(p *Producer) TxnRequest {
	if p.TV2 {
		p.TxnStarted = true
		return TxnRequest{Kind: MsgTxnOffsetCommit, V2: true}
	}
	return TxnRequest{Kind: MsgAddOffsetsToTxn}
}

// noEndTxnText is what the client says when it sends no EndTxn because
// nothing started the transaction, and the rule.
func noEndTxnText(p *Producer) (says, Rule) {
	if p.TV2 {
		return saysNoEndTxnTV2, because(RuleNoEndTxn, saysTransactionstartedIsFalse)
	}
	return saysNoEndTxn, because(RuleNoEndTxn, saysTransactionstartedIsFalse)
}

// bumpWaitText is what the client says when its EndTxn is done but the
// call still waits for the epoch bump queued behind it, and the rule.
func bumpWaitText(p *Producer) (arg, Rule) {
	if p.TVUpgrade {
		return sub(saysUpgradeBumpWait, txnCall(p.EndRequested != 2)), cite(RuleUpgradeBump)
	}
	return sub(saysAbortBumpWait), cite(RuleAbortEpochBump)
}

// onEndTxnRespV2 is EndTxnHandler.handleResponse for an EndTxn v5 answer.
// NONE carries the producer id and epoch to go on with: the client takes
// them and restarts every partition's sequence at 0 (setProducerIdAndEpoch,
// resetSequenceNumbers).
func (w *World) onEndTxnRespV2(p *Producer, h TxnRequest, r *EndTxnResponse) {
	if r.Code == None {
		if r.ProducerID != NoProducerID {
			was := []arg{num(r.ProducerID), num(r.ProducerEpoch), num(p.ProducerID), num(p.Epoch)}
			p.ProducerID, p.Epoch = r.ProducerID, r.ProducerEpoch
			for i := range p.Parts {
				p.Parts[i].NextSeq = 0
				p.Parts[i].LastAckedSeq = NoSequence
				p.Parts[i].Stale = false
			}
			w.emitRule(EvEpoch, p.Name, because(RuleEndTxnV5Epoch, saysTV2EndTxnV5Returns), saysHasPIDFromEndTxnV5, was...)
		}
		w.endTxnDone(p)
		return
	}
	// NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE and the retriable errors
	// (CONCURRENT_TRANSACTIONS while the previous transaction completes)
	// send the request again.
	if w.coordinatorRetry(p, h, r.Code) {
		return
	}
	// Otherwise the call fails with the error.
	aborting := p.EndRequested == 2
	p.EndRequested = 0
	switch code := r.Code; {
	case code == InvalidProducerEpoch || code == ProducerFenced:
		w.fatal(p, ProducerFenced, sub(saysEndTxnFenced))
	case code == UnknownProducerID:
		w.abortable(p, code, sub(saysEndtxn))
	case code == TransactionAbortable && aborting:
		// Aborting again after an abortable error would loop.
		w.fatal(p, errKafkaException, sub(saysEndtxnAbortFailedToAbort, code))
	case code == TransactionAbortable:
		w.abortable(p, code, sub(saysEndtxn))
	default:
		// INVALID_TXN_STATE, INVALID_PRODUCER_ID_MAPPING, authorization
		// and anything unlisted are fatal.
		w.fatal(p, code, sub(saysEndtxn))
	}
}

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
	rule := "ref 6: the client reads the finalized feature transaction.version (ApiVersions) in initTransactions and when a transaction ends"
	switch {
	case v2 && init:
		w.emitRule(EvInfo, p.Name, "uses transaction.version=2 (KIP-890 part 2): Produce v12 and TxnOffsetCommit v5 add to the transaction, EndTxn v5 bumps the epoch", rule)
	case v2:
		p.BumpEpoch, p.TVUpgrade = true, true
		w.emitRule(EvInfo, p.Name, "uses transaction.version=2 (KIP-890 part 2) from its next transaction; an InitProducerId(pid, epoch) bump follows this EndTxn", rule+"; an upgrade needs a bump (clientSideEpochBumpRequired)")
	default:
		w.emitRule(EvInfo, p.Name, "uses transaction.version=1 from its next transaction: AddPartitionsToTxn, AddOffsetsToTxn, EndTxn v4", rule)
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
func noEndTxnText(p *Producer) (string, string) {
	if p.TV2 {
		return "no send or sendOffsetsToTransaction in this transaction: no EndTxn is sent", "ref 1.3, 6: transactionStarted is false"
	}
	return "nothing was added to the transaction: no EndTxn is sent", "ref 1.3: transactionStarted is false"
}

// bumpWaitText is what the client says when its EndTxn is done but the
// call still waits for the epoch bump queued behind it, and the rule.
func bumpWaitText(p *Producer) (string, string) {
	if p.TVUpgrade {
		call := "commitTransaction"
		if p.EndRequested == 2 {
			call = "abortTransaction"
		}
		return "EndTxn is done; " + call + " still waits for the epoch bump of the upgrade to TV2 (InitProducerId)", "ref 6: clientSideEpochBumpRequired"
	}
	return "EndTxn(abort) is done; abortTransaction still waits for the epoch bump (InitProducerId)", "ref 1.3, 1.5: KIP-360"
}

// onEndTxnRespV2 is EndTxnHandler.handleResponse for an EndTxn v5 answer.
// NONE carries the producer id and epoch to go on with: the client takes
// them and restarts every partition's sequence at 0 (setProducerIdAndEpoch,
// resetSequenceNumbers).
func (w *World) onEndTxnRespV2(p *Producer, h TxnRequest, r *EndTxnResponse) {
	if r.Code == None {
		if r.ProducerID != NoProducerID {
			text := "has pid=" + itoa(r.ProducerID) + " epoch=" + itoa(int64(r.ProducerEpoch)) + " from the EndTxn v5 answer (was pid=" + itoa(p.ProducerID) +
				" epoch=" + itoa(int64(p.Epoch)) + "); sequences restart at 0"
			p.ProducerID, p.Epoch = r.ProducerID, r.ProducerEpoch
			for i := range p.Parts {
				p.Parts[i].NextSeq = 0
				p.Parts[i].LastAckedSeq = NoSequence
				p.Parts[i].Stale = false
			}
			w.emitRule(EvEpoch, p.Name, text, "ref 6: TV2 bumps the epoch on every EndTxn; EndTxn v5 returns it")
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
		w.fatal(p, ProducerFenced, "EndTxn: ProducerFencedException, another instance with the same transactional.id took over")
	case code == UnknownProducerID:
		w.abortable(p, code, "EndTxn")
	case code == TransactionAbortable && aborting:
		// Aborting again after an abortable error would loop.
		w.fatal(p, errKafkaException, "EndTxn(abort): Failed to abort transaction ("+code.String()+")")
	case code == TransactionAbortable:
		w.abortable(p, code, "EndTxn")
	default:
		// INVALID_TXN_STATE, INVALID_PRODUCER_ID_MAPPING, authorization
		// and anything unlisted are fatal.
		w.fatal(p, code, "EndTxn")
	}
}

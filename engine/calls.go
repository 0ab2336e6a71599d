package engine

// Client API calls, named after the Java producer and consumer. Misuse
// raises what Java raises (IllegalStateException, KafkaException) as a
// client error rather than a Go error: a lesson may want to show it.

func (w *World) apiError(p *Producer, code ErrorCode, text arg) {
	w.clientError(p, code, text, w.because(RuleClientState, saysArg, p.State))
}

func (w *World) usable(p *Producer, call string) bool {
	switch {
	case p.ConfigError != nil:
		w.apiError(p, errConfig, w.sub(saysTheProducerWasNeverConstructed, quoted(call), p.ConfigError))
	case p.Closed:
		w.apiError(p, errIllegalState, w.sub(saysTheProducerIsClosed, quoted(call)))
	case p.Crashed:
		w.apiError(p, errIllegalState, w.sub(saysTheProducerProcessHasCrashed, quoted(call)))
	case p.State == FatalError:
		w.apiError(p, errKafkaException, w.sub(saysTheProducerIsInFatal, quoted(call), codeName(p.LastError)))
	default:
		return true
	}
	return false
}

func (w *World) callInitTransactions(p *Producer) {
	if !w.usable(p, "initTransactions") {
		return
	}
	if !p.transactional() {
		w.apiError(p, errIllegalState, w.sub(saysInittransactionsNeedsATransactionalId))
		return
	}
	if p.State != Uninitialized {
		w.apiError(p, errIllegalState, w.sub(saysInittransactionsWasAlreadyCalled))
		return
	}
	w.learnTxnVersion(p, true)
	w.setClientState(p, Initializing)
	p.enqueue(TxnRequest{Kind: MsgInitProducerID})
}

func (w *World) callBegin(p *Producer) {
	if !w.usable(p, "beginTransaction") {
		return
	}
	if !p.transactional() || p.State != Ready {
		w.apiError(p, errIllegalState, w.sub(saysBegintransactionNeedsReadyTheProducer, p.State))
		return
	}
	w.nextTxn++
	p.Txn = w.nextTxn
	p.TxnStarted = false
	p.LastError = None
	w.setClientState(p, InTransaction)
}

// sendRecords is send(): the records become one batch in the accumulator.
func (w *World) sendRecords(p *Producer, tp TP, recs Records) {
	if !w.usable(p, "send") {
		return
	}
	if p.transactional() {
		switch p.State {
		case InTransaction:
		case AbortableError:
			w.apiError(p, errKafkaException, w.sub(saysSendTheTransactionIsIn, codeName(p.LastError)))
			return
		default:
			w.apiError(p, errIllegalState, w.sub(saysSendCannotSendOutsideA, p.State))
			return
		}
		if p.TV2 {
			addPartitionV2(p, tp)
		} else if !hasTP(p.TxnParts, tp) && !hasTP(p.NewParts, tp) && !hasTP(p.AddingParts, tp) {
			p.NewParts = append(p.NewParts, tp)
		}
	} else if p.idempotent() && p.ProducerID == NoProducerID {
		p.NeedInit = true
		if p.State == Uninitialized {
			p.State = Initializing
		}
	}
	recs = recs.numbered(w.nextUID + 1)
	w.nextUID += int64(recs.Len()) + 1
	p.Sends++
	p.Queue = append(p.Queue, ProducerBatch{ID: w.nextUID, TP: tp, Records: recs, BaseSeq: NoSequence, CreatedAt: w.now, Transactional: p.transactional(), Txn: p.Txn})
}

func (w *World) callSendOffsets(p *Producer, job *OffsetsJob) {
	if !w.usable(p, "sendOffsetsToTransaction") {
		return
	}
	if p.State != InTransaction {
		w.apiError(p, errIllegalState, w.sub(saysSendOffsetsNeedsInTransaction, p.State))
		return
	}
	p.Offsets = job
	p.enqueue(offsetsRequest(p))
}

// callEnd is commitTransaction (commit) or abortTransaction
// (TransactionManager.beginCommit / beginAbort). The call waits for its
// result: the EndTxn's, or, when the abort needs an epoch bump, the
// InitProducerId's queued behind it (KIP-360, ref 1.3, 1.5).
func (w *World) callEnd(p *Producer, commit bool) {
	name := "abortTransaction"
	if commit {
		name = "commitTransaction"
	}
	if !w.usable(p, name) {
		return
	}
	if commit {
		if p.State == AbortableError {
			w.apiError(p, errKafkaException, w.sub(saysCommittransactionCannotCommitInAbortable, codeName(p.LastError)))
			return
		}
		if p.State != InTransaction {
			w.apiError(p, errIllegalState, w.sub(saysCommittransactionNeedsInTransactionThe, p.State))
			return
		}
		w.setClientState(p, CommittingTransaction)
		p.EndRequested = 1
		w.beginCompletingTransaction(p, true)
		return
	}
	if p.State != InTransaction && p.State != AbortableError {
		w.apiError(p, errIllegalState, w.sub(saysAborttransactionNeedsInTransactionOr, p.State))
		return
	}
	// Under TV2 the EndTxn bumps the epoch; the client never asks for it
	// (needToTriggerEpochBumpFromClient, ref 6).
	needBump := !p.TV2 && p.State == AbortableError && (p.LastError == OutOfOrderSequenceNumber || p.LastError == InvalidProducerEpoch ||
		p.LastError == UnknownProducerID || p.LastError == InvalidProducerIDMapping || p.LastError == TransactionAbortable)
	if p.State == AbortableError {
		// In Java the application can abort only once its earlier calls
		// have failed: the Sender fails every queued request in
		// ABORTABLE_ERROR (maybeTerminateRequestWithError), so a queued
		// EndTxn(commit) is gone before the abort queues its own.
		w.terminateQueued(p)
	}
	w.setClientState(p, AbortingTransaction)
	p.EndRequested = 2
	if needBump {
		// KIP-360: after EndTxn(abort) the client asks InitProducerId(pid, epoch) for a bump.
		p.BumpEpoch = true
	}
	// Batches not yet sent are failed with the abort, and partitions not yet
	// added are forgotten (beginAbort clears newPartitionsInTransaction).
	p.dropUndrained()
	p.NewParts = nil
	w.beginCompletingTransaction(p, false)
}

// beginCompletingTransaction queues what ending the transaction takes
// (TransactionManager.beginCompletingTransaction): an AddPartitionsToTxn for
// partitions not yet added, the EndTxn, and the InitProducerId of an epoch
// bump after it. After INVALID_PRODUCER_ID_MAPPING the coordinator would not
// accept the EndTxn, so the abort goes straight to the bump.
func (w *World) beginCompletingTransaction(p *Producer, commit bool) {
	if len(p.NewParts) > 0 {
		p.AddingParts = append(p.AddingParts, p.NewParts...)
		p.NewParts = nil
		if !p.txnRequestQueued(MsgAddPartitionsToTxn) {
			p.enqueue(TxnRequest{Kind: MsgAddPartitionsToTxn})
		}
	}
	// The EndTxn is built with the transaction's version; the version is
	// then read again for the next transaction (tv2_client.go).
	v2 := p.TV2
	w.learnTxnVersion(p, false)
	if commit || v2 || p.LastError != InvalidProducerIDMapping {
		p.enqueue(TxnRequest{Kind: MsgEndTxn, Commit: commit, V2: v2})
		if !p.BumpEpoch {
			return
		}
	} else {
		w.emitRule(EvInfo, p.Name, cite(RuleSkipEndTxn), saysSendsNoEndtxnAfterThe, InvalidProducerIDMapping).code(InvalidProducerIDMapping)
		w.completeTransaction(p)
	}
	p.enqueue(TxnRequest{Kind: MsgInitProducerID, Bump: true})
}

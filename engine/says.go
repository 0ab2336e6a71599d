package engine

import "strings"

// says is the words of an event or of a rule's detail that no phrase of
// describe (or ruleSay) says: a template in saysTable whose {} are filled,
// in order, by the note's typed arguments when something shows the event.
// A decision picks a says code and hands over the values it decided on
// (numbers, partitions, codes, states, the names it already carries); it
// never builds words. TestNoProseAtTheDecision holds the engine to that.
type says uint16

// note is an event's or a rule's words as data: a says code and its
// arguments. A note is never changed once made, so events and snapshots
// share it.
type note struct {
	says says
	args []arg
}

// newNote is s with args as a note, or nil for saysNone.
func newNote(s says, args []arg) *note {
	if s == saysNone {
		return nil
	}
	return &note{says: s, args: args}
}

// copiedNote is newNote of a copy of args: emit's and record's
// variadic args then do not outlive the call, so a caller's list of them
// is not made on the heap, and a quiet world (eventLog.quiet), which
// makes no note, allocates none.
//
// A note of one or two arguments is made with them in one allocation,
// not two, and takes no more memory than the two did.
func copiedNote(s says, args []arg) *note {
	switch {
	case s == saysNone:
		return nil
	case len(args) == 0:
		return &note{says: s}
	case len(args) <= 2:
		x := &struct {
			n note
			a [2]arg
		}{n: note{says: s}}
		x.n.args = x.a[:copy(x.a[:], args)]
		return &x.n
	}
	return &note{says: s, args: append([]arg(nil), args...)}
}

// String renders the note: its template with each {} replaced by the
// next argument's words. A nil note is no words.
func (n *note) String() string {
	if n == nil {
		return ""
	}
	t := saysTable[n.says]
	var b strings.Builder
	b.Grow(len(t) + 16*len(n.args))
	i := 0
	for {
		k := strings.Index(t, "{}")
		if k < 0 {
			break
		}
		b.WriteString(t[:k])
		if i < len(n.args) {
			b.WriteString(n.args[i].String())
		}
		i++
		t = t[k+2:]
	}
	b.WriteString(t)
	return b.String()
}

// arg is one typed argument of a note: a value the decision already had
// (a number, a TP, an ErrorCode, a TxnState, a message kind, a name), put
// into words by its String when the note is shown.
type arg interface{ String() string }

// num is a number argument.
type num int64

func (n num) String() string { return itoa(int64(n)) }

// quoted is a quoted value: an identifier a user or a scenario gave (a
// transactional id, a group or member id, a client's name, a record value,
// a configuration value), shown as it is. It is never prose: a name is
// what the scenario said, not words the engine made.
type quoted string

func (n quoted) String() string { return string(n) }

// brokerName is a broker by its id, shown as its address (broker-1).
type brokerName int

func (b brokerName) String() string { return brokerAddr(int(b)) }

// msgName is a message by its id, shown as m12.
type msgName int64

func (m msgName) String() string { return "m" + itoa(int64(m)) }

// tpSet is a list of partitions, shown as [t-0,t-1].
type tpSet []TP

func (l tpSet) String() string { return tpList(l) }

// tpOffsets is a list of partition offsets, shown as {t-0=3,t-1=5}.
type tpOffsets []TPOffset

func (l tpOffsets) String() string { return offsetsList(l) }

// recordValues is a batch's record values, shown comma-separated.
type recordValues []string

func (v recordValues) String() string { return strings.Join(v, ",") }

// codeName is an error code shown by its name alone (PRODUCER_FENCED).
type codeName ErrorCode

func (c codeName) String() string { return ErrorCode(c).Name() }

// exceptionOf is an error code shown as the Java exception a client throws
// for it.
type exceptionOf ErrorCode

func (c exceptionOf) String() string { return exceptionName(ErrorCode(c)) }

// seqSpan is a range of sequence numbers, shown as 3 or 3..5.
type seqSpan struct{ from, to int32 }

func (s seqSpan) String() string { return seqRange(s.from, s.to) }

// seqsOf is a client batch's sequence numbers, shown as 0..2 or -1.
func seqsOf(b *ProducerBatch) arg {
	if b.BaseSeq == NoSequence {
		return num(-1)
	}
	return seqSpan{b.BaseSeq, addSeq(b.BaseSeq, int32(b.Records.Len())-1)}
}

// batchSpan is a log batch's base and count, for its sequences or offsets.
type batchSeqsArg struct{ base, count int32 }

func (s batchSeqsArg) String() string {
	b := Batch{BaseSequence: s.base, Count: s.count}
	return b.Seqs()
}

// batchSeqs is a log batch's sequence numbers, shown as 0..2 or -1.
func batchSeqs(b *Batch) arg { return batchSeqsArg{b.BaseSequence, b.Count} }

type batchOffsetsArg struct {
	base  int64
	count int32
}

func (o batchOffsetsArg) String() string {
	b := Batch{BaseOffset: o.base, Count: o.count}
	return b.Offsets()
}

// batchOffsets is a log batch's offsets, shown as 3 or 3..5.
func batchOffsets(b *Batch) arg { return batchOffsetsArg{b.BaseOffset, b.Count} }

// txnPart is a __transaction_state partition, shown as __transaction_state-3.
type txnPart int32

func (p txnPart) String() string { return TxnStateTopic + "-" + itoa(int64(p)) }

// sub is a note as an argument of another: words chosen at the decision
// from a fixed set (a says code), or a rule's detail that a further
// clause completes.
func sub(s says, args ...arg) arg { return newNote(s, args) }

// sub is the package's sub in a world that may be a search's: a quiet
// world (eventLog.quiet) words nothing, so its note is none (a nil arg,
// read only to word an event it does not keep). args are copied, so a
// caller's list of them is not made on the heap.
func (w *World) sub(s says, args ...arg) arg {
	if w.events.quiet {
		return nil
	}
	if n := copiedNote(s, args); n != nil {
		return n
	}
	return nil
}

// The says codes, each with its words in saysTable: first those of each
// engine file in the files' alphabetical order (apply.go to txncoord.go),
// then the ones that helpers returning notes use. A code is wording only:
// what decided an event, and where Kafka decides it, is its Rule's
// Reason in the rule table (rule.go).
const (
	saysNone says = iota
	saysRequestTimedOut
	saysNothingIsScheduled
	saysRunStoppedAfterMaxSteps
	saysIgnores
	saysNotLeader
	saysRejectsTheProduce
	saysHoldsPidSeqAndAsks
	saysFirstTransactionalBatchFromThis
	saysVerificationFailedRejectsTheProduce
	saysCoordinatorBecomesOnTheProduce
	saysFindsInIts5Batch
	saysAppendsValuesAtOffsetsNo
	saysServesSReadCommittedFetch
	saysAnswersSReadCommittedListoffsets
	saysNotLeaderForMarker
	saysRejectsTheMarkerPidEpoch
	saysSendsNoEndtxnAfterThe
	saysNoOffsetForPartition
	saysResetsToOffset
	saysAutoOffsetReset
	saysGetsFromOffsetfetchWaitsFor
	saysStartsAtCommittedOffset
	saysDuplicatesAs
	saysSwapsAndTheyArriveIn
	saysRebalancesGeneration
	saysIsAlreadyDown
	saysCrashes
	saysIsOfflineNoLiveReplica
	saysLeadershipMovesToLeaderEpoch
	saysIsOfflineNoTransactionCoordinator
	saysBecomesCoordinatorForWithCoordinator
	saysIsAlreadyUp
	saysRestarts
	saysIsBackOnlineWithAs
	saysCrashesEverythingInItsMemory
	saysRestartsAsANewInstance
	saysRestartsUninitialized
	saysPausesALongGcPause
	saysResumesAfterItsPauseUnaware
	saysJoinsAsGeneration
	saysBrokerDoesNotLead
	saysHoldsTxnOffsetCommitToVerify
	saysKip890Part1Verification
	saysRejectsTxnoffsetcommit
	saysBrokerNoLongerLeads
	saysVerificationPassedIsInThe
	saysVerificationOfFailedWithProducer
	saysVerificationOfFailedWithNothing
	saysGuardNoLongerMatches
	saysProducerEpochStoredOn
	saysHoldsAsPendingForPid
	saysDiscardsPendingOffsetOfPid
	saysCommitsOffsetOfPidCommit
	saysCommitsOffsetOutsideAnyTransaction
	saysAnswersOffsetfetchWithPidHas
	saysOperatorWritesPidEpochTo
	saysKafkaHazard
	saysViolation
	saysInvariant
	saysStartSequencesAtBeginning
	saysUnderTv1AMarkerIs
	saysUnderTv1TheNextTransaction
	saysReturnedOffsetsOfToThe
	saysReadUncommittedTheDefaultReturns
	saysNoProducerIdNotIdempotent
	saysSameEpochSeqMatchesA
	saysGuardGone
	saysEpochStoredEpoch
	saysVerificationOfSeqFromPid
	saysNoStateForPidHere
	saysNewEpochMustStartAt
	saysNewEpochStartingAt0
	saysSameEpochBaseIsNot
	saysSameEpochNothingCachedBase
	saysFirstTransactionalBatchHereThe
	saysMarkerCoordinatorepochStored
	saysNewLeaderTruncatesToThe
	saysProducerStateForPidExpired
	saysPidHasAnOpenTransaction
	saysGets
	saysFatalTheProducerMustBe
	saysFatal
	saysAbortableCallAborttransaction
	saysAbortable
	saysCommittransactionFailsTheTransactionHit
	saysAcks0CountsValuesAs
	saysAcks0CanLoseData
	saysCommitReturns
	saysAborttransactionReturns
	saysIgnoresNoRequestWaitsFor
	saysRetried
	saysRetriable
	saysThrows
	saysGetsOnItsFirstAddpartitionstotxn
	saysGetsOnTxnoffsetcommitRetriesAfter
	saysGetsForSeqRetriesThe
	saysGetsForSeqWhileAn
	saysEpochExhaustedAsksForA
	saysBumpsItsEpochLocallyTo
	saysIdempotentProducerHitAReal
	saysTheRecordIsNotDelivered
	saysNoAnswerToItsWithin
	saysTheRequestOrItsAnswer
	saysConstructionFails
	saysIsNotIdempotentNoProducer
	saysClosed
	saysTeachingSwitchFalseNotA
	saysEoslabTeachingSwitchNotA
	saysTakesOfAtFencedEpoch
	saysRejectsBeforeAskingTheCoordinator
	saysTv2EpochStoredEpochRefused
	saysHoldsAndAsksTheCoordinator
	saysTv2ImplicitAddForProduce
	saysCoordinatorAdded
	saysRejectsPidEpochSeqNothing
	saysEpochStoredEpochCheckedBefore
	saysTheCoordinatorAnswersATransition
	saysTV2LeaderRetries
	saysTv2ImplicitAddCoordinatorBecomes
	saysTV2Untranslated
	saysTheAddFailedRejectsThe
	saysTv2EpochStoredEpochOn
	saysHoldsTxnOffsetCommitToAdd
	saysTxnoffsetcommitV5Tv2TheGroup
	saysCoordinatorAddedForPid
	saysEpochStoredEpochOnChecked
	saysAddFailedFenced
	saysATransitionOfTheTransaction
	saysAddFailedWith
	saysAnswersAddpartitionstotxnV5With
	saysIsNotServedHereNow
	saysNoMetadataFor
	saysTransitionPendingFirst
	saysPidDoesNotMatch
	saysEpochIsNotTheCurrent
	saysAlreadyHasInTheTransaction
	saysTv2ImplicitAddOfFor
	saysAnswersEndtxnV5With
	saysTransitionPending
	saysEpochIsNeitherTheCurrent
	saysStatePlusVerb
	saysAnswersEndtxnV5NoneWith
	saysAsInKafkaKafka20785
	saysTV2MarkersNewEpoch
	saysTv2HandlesEpochExhaustion32766
	saysTv2FencePrepareabortAtEpoch
	saysTV2FenceKafka400
	saysEpochExhaustedKafka430
	saysNextPidEpoch0
	saysTv2EpochOverflowCompletexIs
	saysTheFirstTv2BatchOf
	saysTheClientReadsTheFinalized
	saysUsesTV2
	saysUsesTV2Next
	saysAnUpgradeNeedsABump
	saysUsesTransactionVersion1From
	saysTransactionstartedIsFalse
	saysTV2EndTxnV5Returns
	saysAllocatesPidEpoch0For
	saysTransactionalidNull
	saysEmptyTransactionalId
	saysTimeoutNotIn1Transaction
	saysOnlyOneOfProduceridEpoch
	saysHasNoMetadataForAllocates
	saysATransitionToIsIn
	saysExpectedPidDoesNotMatch
	saysANewInstanceFencesThe
	saysEpochExhausted32766NewPid
	saysNoExpectedEpochEpoch1
	saysExpectedEpochMatchesBumpTo
	saysExpectedEpochIsLastproducerepochA
	saysExpectedEpochIsNeitherCurrent
	saysPidEpochTo
	saysPendingNeverWrittenEpoch
	saysFencesPidEpochOf
	saysAppendsToTakesEffectOnce
	saysTombstoneDurableTheIdIs
	saysAnswersTheNewInstanceS
	saysAnswersAddpartitionstotxnWith
	saysWithATransitionPendingOr
	saysAdd
	saysTv1KeepsTheEpochSo
	saysAnswersAddoffsetstotxnWith
	saysTransitionPendingOrCompleting
	saysAddoffsetstotxnAddsForGroup
	saysAnswersEndtxnWith
	saysTransitionToPending
	saysOngoing
	saysPreparecommitCommitStillCompleting
	saysPreparecommitAbortAPreparedCommit
	saysPrepareabortCommit
	saysPrepareabortAbortStillCompleting
	saysAnswersEndtxnCommitNoneAlready
	saysCompletecommitAbort
	saysAnswersEndtxnAbortNoneAlready
	saysCompleteabortCommit
	saysStatePlus
	saysHasNoLeaderTheMarker
	saysGivesUpSendingMarkersFor
	saysEveryMarkerAcknowledged
	saysAnEmptyAbortHasNo
	saysWritetxnmarkersForTimedOutResending
	saysStartedAtTTimeoutMs
	saysIdleForTransactionalIdExpiration
	saysLoadedTransactionalIdsAsCoordinator
	saysLastproducerepochIsNotPersistedIt
	saysReSendsTheMarkersOf
	saysAPreparedTransactionIsFinished
	saysAction
	saysPidEpochSeq
	saysOneBatchPerPartition
	saysNoControlBatches
	saysPidNeedsSequence
	saysRejectsBatch
	saysRejectsBatchExpected
	saysCodeNothingAppended
	saysTheProducerWasNeverConstructed
	saysTheProducerIsClosed
	saysTheProducerProcessHasCrashed
	saysTheProducerIsInFatal
	saysInittransactionsNeedsATransactionalId
	saysInittransactionsWasAlreadyCalled
	saysBegintransactionNeedsReadyTheProducer
	saysSendTheTransactionIsIn
	saysSendCannotSendOutsideA
	saysSendOffsetsNeedsInTransaction
	saysCommittransactionCannotCommitInAbortable
	saysCommittransactionNeedsInTransactionThe
	saysAborttransactionNeedsInTransactionOr
	saysUnexpectedErrorInInitproduceridresponse
	saysInitproduceridFailed
	saysRequestFenced
	saysTxnoffsetcommitProducerfencedexception
	saysTxnoffsetcommitKafkaexception
	saysDeliveryTimeoutMsOrRetries
	saysTheBrokerLostThisProducer
	saysSendToFailed
	saysProduceToInvalidproducerepochexception
	saysEndTxnFenced
	saysEndtxn
	saysEndtxnAbortFailedToAbort
	saysArg
	saysConfigConflict
	saysConfigNeedsIdempotence
	saysAcksMustBeAll
	saysRetriesMustBePositive
	saysMaxInFlightAtMost5
	saysFetchReceives
	saysFetchReceivesNothing
	saysGroupDoesNotExistAnd
	saysGroupDoesNotExistGeneration
	saysGeneration0AndNoMember
	saysStaticMemberNowMapsTo
	saysMemberIsNotInThe
	saysGenerationIsNotTheGroup
	saysMemberAndGenerationMatch
	saysKafkaStopsAReadCommitted
	saysEpochStoredEpochIsNot
	saysTheLeaderSkipsTheDuplicate
	saysKafkaRefusesAnOlderEpoch
	saysTxnoffsetcommitOn
	saysAddpartitionstotxn
	saysVerificationOf
	saysSwitchBackOn
	saysSwitchOff
	saysAddoffsetstotxn
	saysResetLogStart
	saysResetHW
	saysResetLSO
	saysEpochIsCurrent
	saysEpochIsRetry
	saysEpochOverflowRetry
	saysEpochFencedTaken
	saysEmptyAbortBump
	saysEndV2Bump
	saysEndV2BumpExhausted
	saysLedBy
	saysStillLoading
	saysMarkerStale
	saysMarkerEpochOK
	saysMarkerTV2Above
	saysMarkerTV2Retry
	saysMarkerTV2Below
	saysTxnOffsetCommitName
	saysTxnOffsetCommitFailed
	saysNoEndTxnTV2
	saysNoEndTxn
	saysUpgradeBumpWait
	saysAbortBumpWait
	saysHasPIDFromEndTxnV5
	saysTheRecordAtOffsetsIs
	saysADelayedMarkerOfAn
	saysOffsetsAtCameFromA
	saysADelayedOfAnAlready
	saysAbortedTxn
	saysOpenTxn
	saysABatchWithEpochWas
	saysPidEpochSeqOverlapsOffsets
	saysTheRecordSentOnceIs
	saysCommitWithEpochCommitsOffsets
	saysConsumerReturnedDataOffsets
	saysOneTransactionGotOnOne
	saysOffsetsOfPidStartA
	saysLsoHwLeoDoesNot
	saysClientIsNotALegal
	saysIsNotALegalTransition
	saysInputHasCommittedOutputs
	saysOffsetCommittedOutputNot
)

// saysTable is the words of each says code; each {} is filled by the
// note's next argument. TestNoProseAtTheDecision checks that every call
// passes as many arguments as its code's words have {}.
var saysTable = [...]string{
	saysRequestTimedOut:                          "request timed out",
	saysNothingIsScheduled:                       "nothing is scheduled",
	saysRunStoppedAfterMaxSteps:                  "run stopped after max={} steps; the system is not quiet",
	saysIgnores:                                  "ignores {}",
	saysNotLeader:                                "is not the leader of {}: {}",
	saysRejectsTheProduce:                        "rejects the produce: {}",
	saysHoldsPidSeqAndAsks:                       "holds pid={} seq={} and asks the coordinator to verify {} is in the transaction",
	saysFirstTransactionalBatchFromThis:          "first transactional batch from this pid here, verification before append",
	saysVerificationFailedRejectsTheProduce:      "verification failed ({}): rejects the produce with {}; nothing appended",
	saysCoordinatorBecomesOnTheProduce:           "coordinator {} becomes {} on the produce response",
	saysFindsInIts5Batch:                         "finds {} in its 5-batch cache: duplicate, answers NONE with original offset {}, appends nothing",
	saysAppendsValuesAtOffsetsNo:                 "appends values={} at offsets {} (no producer id, no sequence check)",
	saysServesSReadCommittedFetch:                "serves {}'s read_committed fetch of {} up to the high watermark {}, past the LSO {}",
	saysAnswersSReadCommittedListoffsets:         "answers {}'s read_committed ListOffsets(latest) of {} with the high watermark {}, not the LSO {}",
	saysNotLeaderForMarker:                       "is not the leader of {}: {} for the {} marker",
	saysRejectsTheMarkerPidEpoch:                 "rejects the {} marker pid={} epoch={}: {}",
	saysSendsNoEndtxnAfterThe:                    "sends no EndTxn after {}: the coordinator would not accept it; the abort goes straight to InitProducerId(pid, epoch)",
	saysNoOffsetForPartition:                     "poll throws NoOffsetForPartitionException: no committed offset for {} and auto.offset.reset=none",
	saysResetsToOffset:                           "resets {} to offset {} ({})",
	saysAutoOffsetReset:                          "auto.offset.reset={}",
	saysGetsFromOffsetfetchWaitsFor:              "gets {} from OffsetFetch: waits for the pending transaction and tries again",
	saysStartsAtCommittedOffset:                  "starts {} at committed offset {}",
	saysDuplicatesAs:                             "duplicates {} as {} {}",
	saysSwapsAndTheyArriveIn:                     "swaps {} and {}: they arrive in the other order",
	saysRebalancesGeneration:                     "rebalances: generation {}",
	saysIsAlreadyDown:                            "is already down",
	saysCrashes:                                  "crashes",
	saysIsOfflineNoLiveReplica:                   "{} is offline: no live replica",
	saysLeadershipMovesToLeaderEpoch:             "{} leadership moves to {} (leader epoch {})",
	saysIsOfflineNoTransactionCoordinator:        "{} is offline: no transaction coordinator for its ids",
	saysBecomesCoordinatorForWithCoordinator:     "becomes coordinator for {} with coordinator epoch {}; loading (COORDINATOR_LOAD_IN_PROGRESS meanwhile)",
	saysIsAlreadyUp:                              "is already up",
	saysRestarts:                                 "restarts",
	saysIsBackOnlineWithAs:                       "{} is back online with {} as leader",
	saysCrashesEverythingInItsMemory:             "crashes: everything in its memory is gone",
	saysRestartsAsANewInstance:                   "restarts as a new instance",
	saysRestartsUninitialized:                    "restarts as a new instance (UNINITIALIZED, no producer id)",
	saysPausesALongGcPause:                       "pauses (a long GC pause: it neither sends nor reads)",
	saysResumesAfterItsPauseUnaware:              "resumes after its pause, unaware that time has passed",
	saysJoinsAsGeneration:                        "{} joins as {}; generation {}",
	saysBrokerDoesNotLead:                        "broker-{} does not lead {}",
	saysHoldsTxnOffsetCommitToVerify:             "holds TxnOffsetCommit {} of pid={} and asks the coordinator to verify {} is in the transaction",
	saysKip890Part1Verification:                  "KIP-890 part 1 verification of TxnOffsetCommit (since 3.7): no open transaction of this pid on {}",
	saysRejectsTxnoffsetcommit:                   "rejects TxnOffsetCommit {}: {}",
	saysBrokerNoLongerLeads:                      "broker-{} no longer leads {}",
	saysVerificationPassedIsInThe:                "verification passed: {} is in the transaction of pid={}",
	saysVerificationOfFailedWithProducer:         "verification of {} failed with PRODUCER_FENCED, returned as INVALID_PRODUCER_EPOCH; nothing written",
	saysVerificationOfFailedWithNothing:          "verification of {} failed with {}; nothing written",
	saysGuardNoLongerMatches:                     "the verification guard no longer matches; no open transaction of pid={} on {}",
	saysProducerEpochStoredOn:                    "producer epoch {} < {} stored on {}",
	saysHoldsAsPendingForPid:                     "holds {} as pending for pid={} (written to {} at {})",
	saysDiscardsPendingOffsetOfPid:               "discards pending offset {}={} of pid={} (ABORT)",
	saysCommitsOffsetOfPidCommit:                 "commits offset {}={} of pid={} (COMMIT)",
	saysCommitsOffsetOutsideAnyTransaction:       "commits offset {}={} outside any transaction",
	saysAnswersOffsetfetchWithPidHas:             "answers OffsetFetch {} with {}: pid={} has pending offsets",
	saysOperatorWritesPidEpochTo:                 "operator writes {} {} pid={} epoch={} to {}",
	saysKafkaHazard:                              "KAFKA HAZARD {}: {}",
	saysViolation:                                "VIOLATION {}: {}",
	saysInvariant:                                "invariant",
	saysStartSequencesAtBeginning:                "TxnPartitionEntry.startSequencesAtBeginning rewrites every unanswered batch of the partition, appended or not",
	saysUnderTv1AMarkerIs:                        "under TV1 a marker is taken when its epoch and coordinatorEpoch are at least the stored ones, so nothing tells it from that transaction's own; KIP-1228 (4.2.0) takes a TV2 marker at an equal epoch only when no transaction is open (KAFKA-19999)",
	saysUnderTv1TheNextTransaction:               "under TV1 the next transaction keeps the epoch, so once it has {} (or at all without verification, before 3.7) nothing refuses a late TxnOffsetCommit; KIP-890 part 2 (TV2) refuses it with INVALID_PRODUCER_EPOCH(47)",
	saysReturnedOffsetsOfToThe:                   "({}) returned {} offsets {} of {} to the application, as read_uncommitted does",
	saysReadUncommittedTheDefaultReturns:         "read_uncommitted, the default, returns every record below the high watermark, aborted and open transactions' too",
	saysNoProducerIdNotIdempotent:                "no producer id: not idempotent, appended without checks",
	saysSameEpochSeqMatchesA:                     "same epoch, seq {} matches a cached batch: duplicate, original offset {}",
	saysGuardGone:                                "the verification guard no longer matches (the entry it was verified under is gone); no open transaction here",
	saysEpochStoredEpoch:                         "epoch {} < stored epoch {}",
	saysVerificationOfSeqFromPid:                 "verification of seq {} from pid {} is under way here: base {} must not go first",
	saysNoStateForPidHere:                        "no state for pid {} here: any sequence is accepted",
	saysNewEpochMustStartAt:                      "new epoch {} > {} must start at sequence 0, got {}",
	saysNewEpochStartingAt0:                      "new epoch {} > {} starting at 0: cache cleared",
	saysSameEpochBaseIsNot:                       "same epoch, base {} is not last {} + 1",
	saysSameEpochNothingCachedBase:               "same epoch, nothing cached, base 0",
	saysFirstTransactionalBatchHereThe:           "first transactional batch here: the transaction starts at offset {}",
	saysMarkerCoordinatorepochStored:             "marker coordinatorEpoch {} < stored {}",
	saysNewLeaderTruncatesToThe:                  "{} new leader truncates to the high watermark: {} unreplicated offsets lost",
	saysProducerStateForPidExpired:               "{} producer state for pid {} expired after producer.id.expiration.ms",
	saysPidHasAnOpenTransaction:                  "pid {} has an open transaction here and the batch is not transactional",
	saysGets:                                     "gets {}: {}",
	saysFatalTheProducerMustBe:                   "{} (fatal: the producer must be closed)",
	saysFatal:                                    "fatal",
	saysAbortableCallAborttransaction:            "{} (abortable: call abortTransaction)",
	saysAbortable:                                "abortable",
	saysCommittransactionFailsTheTransactionHit:  "commitTransaction fails: the transaction hit {}; no EndTxn(commit) is sent, the application must call abortTransaction",
	saysAcks0CountsValuesAs:                      "acks=0: counts {} values={} as sent without any answer",
	saysAcks0CanLoseData:                         "acks=0 can lose data",
	saysCommitReturns:                            "commitTransaction returns: PrepareCommit is durable (markers may still be in flight)",
	saysAborttransactionReturns:                  "abortTransaction returns",
	saysIgnoresNoRequestWaitsFor:                 "ignores {} {}: no request waits for it",
	saysRetried:                                  "retried",
	saysRetriable:                                "retriable",
	saysThrows:                                   "{} throws {}",
	saysGetsOnItsFirstAddpartitionstotxn:         "gets {} on its first AddPartitionsToTxn: retries after 20 ms",
	saysGetsOnTxnoffsetcommitRetriesAfter:        "gets {} on TxnOffsetCommit: retries after backoff",
	saysGetsForSeqRetriesThe:                     "gets {} for {} seq={}: retries the same batch",
	saysGetsForSeqWhileAn:                        "gets {} for seq={} while an earlier batch is unresolved: retries",
	saysEpochExhaustedAsksForA:                   "epoch exhausted: asks for a brand-new pid with InitProducerId(null)",
	saysBumpsItsEpochLocallyTo:                   "bumps its epoch locally to {} (same pid {}, no request) and renumbers {} from 0",
	saysIdempotentProducerHitAReal:               "idempotent producer hit a real sequence gap",
	saysTheRecordIsNotDelivered:                  "{}; the record is not delivered",
	saysNoAnswerToItsWithin:                      "no answer to its {} within request.timeout.ms ({} ms)",
	saysTheRequestOrItsAnswer:                    "the request or its answer was lost",
	saysConstructionFails:                        "construction fails: {}",
	saysIsNotIdempotentNoProducer:                "is not idempotent: no producer id, no sequence numbers",
	saysClosed:                                   "closed",
	saysTeachingSwitchFalseNotA:                  "teaching switch {}=false: not a Kafka setting{}",
	saysEoslabTeachingSwitchNotA:                 "eoslab teaching switch, not a Kafka setting",
	saysTakesOfAtFencedEpoch:                     "takes {} of {} at fenced epoch {} (current epoch {})",
	saysRejectsBeforeAskingTheCoordinator:        "rejects {}: {} before asking the coordinator; nothing appended",
	saysTv2EpochStoredEpochRefused:               "TV2 epoch {} < stored epoch {}: refused before any coordinator call (Kafka 4.1.0)",
	saysHoldsAndAsksTheCoordinator:               "holds {} and asks the coordinator to add {} to the transaction",
	saysTv2ImplicitAddForProduce:                 "TV2 implicit add: for Produce v12 the leader sends AddPartitionsToTxn (verifyOnly=false); the client sends none",
	saysCoordinatorAdded:                         "the coordinator added {} to the transaction",
	saysRejectsPidEpochSeqNothing:                "rejects pid={} epoch={} seq={}: {}; nothing appended",
	saysEpochStoredEpochCheckedBefore:            "epoch {} < stored epoch {}, checked before the verification guard (Kafka 4.0.2)",
	saysTheCoordinatorAnswersATransition:         "the coordinator answers {} (a transition of the transaction is pending): the leader retries the add in {} ms",
	saysTV2LeaderRetries:                         "a TV2 leader retries 51 every add.partitions.to.txn.retry.backoff.ms (20) for up to 100 ms",
	saysTv2ImplicitAddCoordinatorBecomes:         "TV2 implicit add: coordinator {} becomes {} on the produce response",
	saysTV2Untranslated:                          "TV2 returns CONCURRENT_TRANSACTIONS untranslated after 100 ms of leader retries (TV1 sends NOT_ENOUGH_REPLICAS); the producer retries",
	saysTheAddFailedRejectsThe:                   "the add failed ({}): rejects the produce with {}; nothing appended",
	saysTv2EpochStoredEpochOn:                    "TV2 epoch {} < stored epoch {} on {}: refused before any coordinator call (Kafka 4.1.0)",
	saysHoldsTxnOffsetCommitToAdd:                "holds TxnOffsetCommit {} of pid={} and asks the coordinator to add {} to the transaction",
	saysTxnoffsetcommitV5Tv2TheGroup:             "TxnOffsetCommit v5 (TV2): the group coordinator adds the offsets partition; the client sends no AddOffsetsToTxn",
	saysCoordinatorAddedForPid:                   "the coordinator added {} to the transaction of pid={}",
	saysEpochStoredEpochOnChecked:                "epoch {} < stored epoch {} on {}, checked before the verification guard (Kafka 4.0.2)",
	saysAddFailedFenced:                          "the add of {} failed with PRODUCER_FENCED, returned as INVALID_PRODUCER_EPOCH; nothing written",
	saysATransitionOfTheTransaction:              "a transition of the transaction is pending; no server-side retry on this path, the producer retries",
	saysAddFailedWith:                            "the add of {} failed with {}; nothing written",
	saysAnswersAddpartitionstotxnV5With:          "answers AddPartitionsToTxn v5 {} with {}",
	saysIsNotServedHereNow:                       "{} is not served here now",
	saysNoMetadataFor:                            "no metadata for {}",
	saysTransitionPendingFirst:                   "a transition to {} is pending (checked first)",
	saysPidDoesNotMatch:                          "pid {} does not match {}",
	saysEpochIsNotTheCurrent:                     "epoch {} is not the current epoch {}",
	saysAlreadyHasInTheTransaction:               "already has {} in the transaction: NONE, nothing written",
	saysTv2ImplicitAddOfFor:                      "TV2 implicit add of {} for the leader",
	saysAnswersEndtxnV5With:                      "answers EndTxn v5({}) with {}",
	saysTransitionPending:                        "a transition to {} is pending",
	saysEpochIsNeitherTheCurrent:                 "epoch {} is neither the current epoch {} nor the retry epoch",
	saysStatePlusVerb:                            "{} + {}, {}",
	saysAnswersEndtxnV5NoneWith:                  "answers EndTxn v5({}) NONE with the current pid={} epoch={}: a retry, no bump",
	saysAsInKafkaKafka20785:                      "as in Kafka {} (KAFKA-20785 would answer PRODUCER_FENCED(90); UNVERIFIED)",
	saysTV2MarkersNewEpoch:                       "TV2 bumps the epoch on every EndTxn; the markers carry the new epoch",
	saysTv2HandlesEpochExhaustion32766:           "TV2 handles epoch exhaustion (>= 32766) at EndTxn: the markers carry epoch 32767, then CompleteX moves to the next producer id at epoch 0",
	saysTv2FencePrepareabortAtEpoch:              "TV2 fence: PrepareAbort at epoch + 1, lastProducerEpoch {} (Kafka 4.0.1)",
	saysTV2FenceKafka400:                         "TV2 fence in Kafka 4.0.0: PrepareAbort at epoch + 2, lastProducerEpoch epoch + 1 (fixed in 4.0.1)",
	saysEpochExhaustedKafka430:                   "epoch exhausted: nextProducerId={} (Kafka 4.3.0)",
	saysNextPidEpoch0:                            "{} pid={} epoch={} -> pid={} epoch=0",
	saysTv2EpochOverflowCompletexIs:              "TV2 epoch overflow: CompleteX is written with the next producer id",
	saysTheFirstTv2BatchOf:                       "the first TV2 batch of pid {} with nothing cached here must start at sequence 0 (Kafka 4.1.0)",
	saysTheClientReadsTheFinalized:               "the client reads the finalized feature transaction.version (ApiVersions) in initTransactions and when a transaction ends",
	saysUsesTV2:                                  "uses transaction.version=2 (KIP-890 part 2): Produce v12 and TxnOffsetCommit v5 add to the transaction, EndTxn v5 bumps the epoch",
	saysUsesTV2Next:                              "uses transaction.version=2 (KIP-890 part 2) from its next transaction; an InitProducerId(pid, epoch) bump follows this EndTxn",
	saysAnUpgradeNeedsABump:                      "an upgrade needs a bump",
	saysUsesTransactionVersion1From:              "uses transaction.version=1 from its next transaction: AddPartitionsToTxn, AddOffsetsToTxn, EndTxn v4",
	saysTransactionstartedIsFalse:                "transactionStarted is false",
	saysTV2EndTxnV5Returns:                       "TV2 bumps the epoch on every EndTxn; EndTxn v5 returns it",
	saysAllocatesPidEpoch0For:                    "allocates pid={} epoch=0 for an idempotent producer; nothing is written",
	saysTransactionalidNull:                      "transactionalId null",
	saysEmptyTransactionalId:                     "empty transactional id",
	saysTimeoutNotIn1Transaction:                 "timeout {} not in 1..{} (transaction.max.timeout.ms)",
	saysOnlyOneOfProduceridEpoch:                 "only one of producerId/epoch given",
	saysHasNoMetadataForAllocates:                "has no metadata for {}: allocates pid={} (epoch -1, Empty, not yet written)",
	saysATransitionToIsIn:                        "a transition to {} is in progress",
	saysExpectedPidDoesNotMatch:                  "expected pid {} does not match {}",
	saysANewInstanceFencesThe:                    "a new instance fences the open transaction",
	saysEpochExhausted32766NewPid:                "epoch {} exhausted (>= 32766): new pid, epoch 0",
	saysNoExpectedEpochEpoch1:                    "no expected epoch: epoch {} + 1",
	saysExpectedEpochMatchesBumpTo:               "expected epoch matches: bump to {}, lastEpoch {}",
	saysExpectedEpochIsLastproducerepochA:        "expected epoch is lastProducerEpoch: a retry, current epoch returned without a bump",
	saysExpectedEpochIsNeitherCurrent:            "expected epoch {} is neither current {} nor last {}",
	saysPidEpochTo:                               "{} pid={} epoch={} -> pid={} epoch={}",
	saysPendingNeverWrittenEpoch:                 " (pending, never written): epoch {} -> {}",
	saysFencesPidEpochOf:                         "fences pid={} epoch={} of {}",
	saysAppendsToTakesEffectOnce:                 "appends {} {} to {} (takes effect once replicated)",
	saysTombstoneDurableTheIdIs:                  ": tombstone durable, the id is forgotten",
	saysAnswersTheNewInstanceS:                   "answers the new instance's InitProducerId with {}: it must retry once the abort completes",
	saysAnswersAddpartitionstotxnWith:            "answers AddPartitionsToTxn {} with {}",
	saysWithATransitionPendingOr:                 "{} with a transition pending or completing",
	saysAdd:                                      "add {}",
	saysTv1KeepsTheEpochSo:                       "TV1 keeps the epoch, so the coordinator cannot tell; KIP-890 part 2 (TV2) bumps the epoch on every transaction",
	saysAnswersAddoffsetstotxnWith:               "answers AddOffsetsToTxn {} with {}",
	saysTransitionPendingOrCompleting:            "transition pending or completing",
	saysAddoffsetstotxnAddsForGroup:              "AddOffsetsToTxn adds {} for group {}",
	saysAnswersEndtxnWith:                        "answers EndTxn({}) with {}",
	saysTransitionToPending:                      "transition to {} pending",
	saysOngoing:                                  "Ongoing + {}",
	saysPreparecommitCommitStillCompleting:       "PrepareCommit + commit: still completing",
	saysPreparecommitAbortAPreparedCommit:        "PrepareCommit + abort: a prepared commit always commits",
	saysPrepareabortCommit:                       "PrepareAbort + commit",
	saysPrepareabortAbortStillCompleting:         "PrepareAbort + abort: still completing",
	saysAnswersEndtxnCommitNoneAlready:           "answers EndTxn(commit) NONE: already CompleteCommit, an idempotent retry",
	saysCompletecommitAbort:                      "CompleteCommit + abort",
	saysAnswersEndtxnAbortNoneAlready:            "answers EndTxn(abort) NONE: already CompleteAbort, an idempotent retry",
	saysCompleteabortCommit:                      "CompleteAbort + commit",
	saysStatePlus:                                "{} + {}",
	saysHasNoLeaderTheMarker:                     "{} has no leader: the {} marker waits until one is elected",
	saysGivesUpSendingMarkersFor:                 "gives up sending markers for {} after {} from {}",
	saysEveryMarkerAcknowledged:                  "every marker acknowledged",
	saysAnEmptyAbortHasNo:                        "an empty abort has no markers to write",
	saysWritetxnmarkersForTimedOutResending:      "WriteTxnMarkers for {} timed out: resending",
	saysStartedAtTTimeoutMs:                      "started at t={}, timeout {} ms passed",
	saysIdleForTransactionalIdExpiration:         "idle for transactional.id.expiration.ms",
	saysLoadedTransactionalIdsAsCoordinator:      "loaded {} ({} transactional ids) as coordinator epoch {}",
	saysLastproducerepochIsNotPersistedIt:        "lastProducerEpoch is not persisted, it reloads as -1",
	saysReSendsTheMarkersOf:                      "re-sends the {} markers of {} with coordinatorEpoch {}",
	saysAPreparedTransactionIsFinished:           "a prepared transaction is finished by the new coordinator",
	saysAction:                                   "{}",
	saysPidEpochSeq:                              "pid={} epoch={} seq={}",
	saysOneBatchPerPartition:                     "a v2 produce must carry exactly one batch per partition, got {}",
	saysNoControlBatches:                         "clients may not write control batches",
	saysPidNeedsSequence:                         "a batch with a producer id needs baseSequence >= 0",
	saysRejectsBatch:                             "rejects {}",
	saysRejectsBatchExpected:                     "rejects {}: expected seq {}, got {}",
	saysCodeNothingAppended:                      "{}: {}; nothing appended",
	saysTheProducerWasNeverConstructed:           "{}: the producer was never constructed: {}",
	saysTheProducerIsClosed:                      "{}: the producer is closed",
	saysTheProducerProcessHasCrashed:             "{}: the producer process has crashed (restart it)",
	saysTheProducerIsInFatal:                     "{}: the producer is in FATAL_ERROR after {}; only close() is possible",
	saysInittransactionsNeedsATransactionalId:    "initTransactions needs a transactional.id",
	saysInittransactionsWasAlreadyCalled:         "initTransactions was already called",
	saysBegintransactionNeedsReadyTheProducer:    "beginTransaction needs READY, the producer is {}",
	saysSendTheTransactionIsIn:                   "send: the transaction is in ABORTABLE_ERROR after {}; abort it first",
	saysSendCannotSendOutsideA:                   "send: cannot send outside a transaction (state {})",
	saysSendOffsetsNeedsInTransaction:            "sendOffsetsToTransaction needs IN_TRANSACTION, the producer is {}",
	saysCommittransactionCannotCommitInAbortable: "commitTransaction: cannot commit in ABORTABLE_ERROR after {}; abort instead",
	saysCommittransactionNeedsInTransactionThe:   "commitTransaction needs IN_TRANSACTION, the producer is {}",
	saysAborttransactionNeedsInTransactionOr:     "abortTransaction needs IN_TRANSACTION or ABORTABLE_ERROR, the producer is {}",
	saysUnexpectedErrorInInitproduceridresponse:  "Unexpected error in InitProducerIdResponse",
	saysInitproduceridFailed:                     "InitProducerId failed",
	saysRequestFenced:                            "{}: ProducerFencedException, another instance with the same transactional.id took over",
	saysTxnoffsetcommitProducerfencedexception:   "TxnOffsetCommit: ProducerFencedException",
	saysTxnoffsetcommitKafkaexception:            "TxnOffsetCommit: KafkaException",
	saysDeliveryTimeoutMsOrRetries:               "delivery.timeout.ms or retries exhausted after {}",
	saysTheBrokerLostThisProducer:                "the broker lost this producer's sequence",
	saysSendToFailed:                             "send to {} failed",
	saysProduceToInvalidproducerepochexception:   "produce to {}: InvalidProducerEpochException",
	saysEndTxnFenced:                             "EndTxn: ProducerFencedException, another instance with the same transactional.id took over",
	saysEndtxn:                                   "EndTxn",
	saysEndtxnAbortFailedToAbort:                 "EndTxn(abort): Failed to abort transaction ({})",
	saysArg:                                      "{}",
	saysConfigConflict:                           "ConfigException: enable.idempotence=true but {}",
	saysConfigNeedsIdempotence:                   "ConfigException: transactional.id needs idempotence, which is disabled",
	saysAcksMustBeAll:                            "acks must be all",
	saysRetriesMustBePositive:                    "retries must be greater than 0",
	saysMaxInFlightAtMost5:                       "max.in.flight.requests.per.connection must be at most 5",
	saysFetchReceives:                            "({}) receives {} {}{}; position {}",
	saysFetchReceivesNothing:                     "({}) receives nothing from {}{}; position {}",
	saysGroupDoesNotExistAnd:                     "group does not exist and generation {} >= 0",
	saysGroupDoesNotExistGeneration:              "group does not exist, generation < 0: a simple group is created",
	saysGeneration0AndNoMember:                   "generation < 0 and no member: accepted without member checks",
	saysStaticMemberNowMapsTo:                    "static member {} now maps to {}",
	saysMemberIsNotInThe:                         "member {} is not in the group",
	saysGenerationIsNotTheGroup:                  "generation {} is not the group's generation {}",
	saysMemberAndGenerationMatch:                 "member and generation match",
	saysKafkaStopsAReadCommitted:                 "; Kafka stops a read_committed fetch at the last stable offset, so open transactions stay unread",
	saysEpochStoredEpochIsNot:                    "; epoch {} < stored epoch {} is not refused (Kafka answers INVALID_PRODUCER_EPOCH)",
	saysTheLeaderSkipsTheDuplicate:               "; the leader skips the duplicate and sequence checks: seq {} appended as it comes",
	saysKafkaRefusesAnOlderEpoch:                 "; Kafka refuses an older epoch with PRODUCER_FENCED(90) or INVALID_PRODUCER_EPOCH(47)",
	saysTxnoffsetcommitOn:                        "TxnOffsetCommit on {}",
	saysAddpartitionstotxn:                       "AddPartitionsToTxn",
	saysVerificationOf:                           "verification of {}",
	saysSwitchBackOn:                             "teaching switch {}=true: Kafka's safeguard is back on",
	saysSwitchOff:                                "teaching switch {}=false: Kafka's safeguard is OFF",
	saysAddoffsetstotxn:                          "AddOffsetsToTxn",
	saysResetLogStart:                            "the log start offset",
	saysResetHW:                                  "the high watermark",
	saysResetLSO:                                 "the LSO",
	saysEpochIsCurrent:                           "epoch {} is the current epoch",
	saysEpochIsRetry:                             "epoch {} is the retry epoch (current {} - 1)",
	saysEpochOverflowRetry:                       "pid {} epoch {} retries the EndTxn that overflowed to pid {}",
	saysEpochFencedTaken:                         "fenced epoch {} taken as the current epoch {} ({})",
	saysEmptyAbortBump:                           "{}: an empty abort (no partitions, no markers), epoch bump",
	saysEndV2Bump:                                "{} pid={} epoch={} -> epoch={} for {}, lastProducerEpoch {}",
	saysEndV2BumpExhausted:                       "{} pid={} epoch={} -> epoch={} for {}, lastProducerEpoch {}; epoch exhausted: nextProducerId={}",
	saysLedBy:                                    "{} is led by broker-{}",
	saysStillLoading:                             "{} is still being loaded by this new coordinator",
	saysMarkerStale:                              "marker epoch {} < stored epoch {}",
	saysMarkerEpochOK:                            "epoch {} >= stored {}",
	saysMarkerTV2Above:                           "TV2 marker epoch {} > stored {}",
	saysMarkerTV2Retry:                           "TV2 marker epoch {} == stored with no open transaction: a retry of a written marker",
	saysMarkerTV2Below:                           "TV2 marker epoch {} <= stored epoch {}",
	saysTxnOffsetCommitName:                      "TxnOffsetCommit",
	saysTxnOffsetCommitFailed:                    "TxnOffsetCommit (CommitFailedException)",
	saysNoEndTxnTV2:                              "no send or sendOffsetsToTransaction in this transaction: no EndTxn is sent",
	saysNoEndTxn:                                 "nothing was added to the transaction: no EndTxn is sent",
	saysUpgradeBumpWait:                          "EndTxn is done; {} still waits for the epoch bump of the upgrade to TV2 (InitProducerId)",
	saysAbortBumpWait:                            "EndTxn(abort) is done; abortTransaction still waits for the epoch bump (InitProducerId)",
	saysHasPIDFromEndTxnV5:                       "has pid={} epoch={} from the EndTxn v5 answer (was pid={} epoch={}); sequences restart at 0",
	saysTheRecordAtOffsetsIs:                     "the record {} at offsets {} is appended again at {}: pid={} bumped its epoch after a sequence gap and renumbered this unanswered batch, already appended under epoch {}, as epoch {} seq={}",
	saysADelayedMarkerOfAn:                       "a delayed {} marker of an earlier, already completed transaction of pid={} closes the later transaction open here from offset {} at the same epoch; the {} decides it",
	saysOffsetsAtCameFromA:                       "offsets {} at {} came from a TxnOffsetCommit of an earlier, already ended transaction of pid={}; the {} of the transaction it joined decides them",
	saysADelayedOfAnAlready:                      "a delayed {} of an already ended transaction of pid={} starts a new transaction of {} in {} that no client is running; only the timeout will end it",
	saysAbortedTxn:                               "an aborted transaction",
	saysOpenTxn:                                  "a transaction still open",
	saysABatchWithEpochWas:                       "a batch with epoch {} was accepted after epoch {}",
	saysPidEpochSeqOverlapsOffsets:               "pid={} epoch={} seq={} overlaps offsets {}",
	saysTheRecordSentOnceIs:                      "the record {} sent once is now in the log twice (offsets {} and again at {})",
	saysCommitWithEpochCommitsOffsets:            "COMMIT with epoch {} commits offsets {} written with fenced epoch {}",
	saysConsumerReturnedDataOffsets:              "{} consumer returned {} data {} offsets {}",
	saysOneTransactionGotOnOne:                   "one transaction got {} on one partition and {} on {}",
	saysOffsetsOfPidStartA:                       "offsets of pid={} start a transaction on {} that is not in the coordinator's transaction of {}: no marker of that transaction will decide them",
	saysLsoHwLeoDoesNot:                          "LSO {} <= HW {} <= LEO {} does not hold",
	saysClientIsNotALegal:                        "client {} -> {} is not a legal transition (TransactionManager.State.isTransitionValid)",
	saysIsNotALegalTransition:                    "{} {} -> {} is not a legal transition (TransactionMetadata validPreviousStates)",
	saysInputHasCommittedOutputs:                 "input {}@{} has {} committed outputs",
	saysOffsetCommittedOutputNot:                 "offset {}={} is committed but the output for input {}@{} is not",
}

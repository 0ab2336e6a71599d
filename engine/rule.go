package engine

import "strings"

// Reason is what decided an event: one rule of Kafka (or of this
// simulation, for an invariant or a teaching switch). Each reason has one
// entry in the rule table below: its code, its words, the Kafka source a
// reader can look up and the protocol versions it applies to. An event
// carries a Rule: one or more reasons, each with its arguments in words.
type Reason uint8

// Reasons, in the order of the rule table.
const (
	RuleNone Reason = iota

	// Producer client: configuration, states and errors.
	RuleIdempotenceConfig
	RuleClientState
	RuleClientThrows
	RuleErrorFatal
	RuleErrorAbortable
	RuleErrorFindCoordinator
	RuleErrorRetriable
	RuleAddPartitionsBackoff
	RuleTxnOffsetRetriable
	RuleBatchRetriable
	RuleBatchFailed
	RuleSeqUnresolvedRetry
	RuleRequestTimeout
	RuleAcksZero
	RuleNoEndTxn
	RuleSkipEndTxn
	RuleAbortEpochBump
	RuleIdempotentBump
	RuleIdempotentNewPid
	RuleClientVersion
	RuleUpgradeBump
	RuleEndTxnV5Epoch

	// Consumer.
	RuleOffsetReset
	RuleUnstableOffsetRetry
	RuleReadBound
	RuleReadUncommitted

	// Partition leader: produce validation (the decision table of
	// ProducerAppendInfo) and verification (KIP-890 part 1).
	RuleInvalidRecord
	RuleNotIdempotent
	RuleVerifyBeforeAppend
	RuleVerifyResult
	RuleVerificationGuard
	RuleEpochBeforeGuard
	RuleSeqDuplicate
	RuleSeqStaleEpoch
	RuleSeqVerifying
	RuleSeqNoState
	RuleSeqNewEpoch
	RuleSeqNewEpochNotZero
	RuleSeqInOrder
	RuleSeqOutOfOrder
	RuleTxnNotTransactional
	RuleTxnFirstOffset
	RuleTV2FirstSeqZero
	RuleTV2EpochBeforeAdd
	RuleTV2ImplicitAdd
	RuleTV2LeaderRetry
	RuleTV2AddResult
	RuleTV2AddUntranslated

	// Partition leader: transaction markers.
	RuleMarkerStaleEpoch
	RuleMarkerCoordinatorFenced
	RuleMarkerAccepted
	RuleMarkerTV2Epoch
	RuleMarkerTV2Retry

	// Transaction coordinator: InitProducerId.
	RuleInitIdempotent
	RuleInitEmptyID
	RuleInitTimeout
	RuleInitPidEpochPair
	RuleNotCoordinator
	RuleInitNewID
	RuleInitPending
	RuleInitPidMismatch
	RuleInitCompleting
	RuleInitEpoch
	RuleInitFence

	// Transaction coordinator: AddPartitionsToTxn, AddOffsetsToTxn.
	RuleAddPartitions
	RuleAddOffsets
	RuleVerifyPartitions
	RuleTV2AddPartitions
	RuleTV2PendingFirst

	// Transaction coordinator: EndTxn, markers, timeouts, failover.
	RuleEndTxn
	RuleEndTxnV2
	RuleTV2EndTxnBump
	RuleTV2Overflow
	RuleTV2EmptyAbort
	RuleTV2Fence
	RuleTV2FenceDoubleBump
	RuleTV2FenceOverflow
	RuleTV2RetryAnswer
	RuleMarkersQueued
	RuleMarkersGiveUp
	RuleMarkersComplete
	RuleTxnTimeout
	RuleTxnIDExpiry
	RuleCoordinatorLoad
	RuleLastEpochNotPersisted
	RuleLoadResendsMarkers

	// Group coordinator: transactional offsets (KIP-447).
	RuleNotGroupCoordinator
	RuleTxnOffsetVerify
	RuleTxnOffsetVerifyFailed
	RuleTxnOffsetMember
	RuleTxnOffsetStaleEpoch
	RuleTxnOffsetPending
	RuleTV2TxnOffsetAdd
	RuleTV2TxnOffsetStaleEpoch
	RuleTV2TxnOffsetAddFailed
	RuleUnstableOffset

	// Kafka's own hazards (named in HazardNames).
	RuleHazardLateMarker
	RuleHazardLateAdd
	RuleHazardLateTxnOffset
	RuleHazardSequenceRewrite

	// This simulation's own: an invariant, a teaching switch.
	RuleInvariant
	RuleTeachingSwitch

	numReasons
)

// Versions says which transaction protocol versions a rule applies to.
type Versions uint8

// Protocol versions.
const (
	BothVersions Versions = iota // transaction.version 1 and 2
	ClassicOnly                  // transaction.version 1: KIP-98, with KIP-890 part 1 verification
	KIP890Only                   // transaction.version 2: KIP-890 part 2
)

func (v Versions) String() string {
	switch v {
	case ClassicOnly:
		return "classic"
	case KIP890Only:
		return "KIP-890"
	}
	return "both"
}

// RuleInfo is one entry of the rule table: a reason's code (what a
// scenario's reason= filter names), its words, where Kafka decides it (a
// class and method, a KIP or a JIRA; empty for this simulation's own
// rules) and the protocol versions it applies to.
type RuleInfo struct {
	Reason   Reason
	Code     string
	Words    string
	Source   string
	Versions Versions
}

// ruleTable is the one place a reason's code, words, source and versions
// are written. Paths are omitted: a class name finds its file in
// apache/kafka (clients/ for the producer and consumer, core/ and
// storage/ for the broker, transaction-coordinator/ and
// group-coordinator/ for the coordinators).
var ruleTable = [numReasons]RuleInfo{
	RuleNone: {Code: "none"},

	RuleIdempotenceConfig:    {Code: "idempotence-config", Words: "idempotence needs acks=all, retries > 0 and at most 5 in flight; a transactional id needs idempotence", Source: "ProducerConfig.postProcessAndValidateIdempotenceConfigs"},
	RuleClientState:          {Code: "client-state", Words: "an API call that is illegal in the client's transaction state", Source: "TransactionManager.transitionTo (State.isTransitionValid)"},
	RuleClientThrows:         {Code: "client-throws", Words: "a waiting commitTransaction or abortTransaction throws the producer's last error", Source: "TransactionalRequestResult.fail"},
	RuleErrorFatal:           {Code: "error-fatal", Words: "a fatal error: the producer must be closed", Source: "TransactionManager.transitionToFatalError"},
	RuleErrorAbortable:       {Code: "error-abortable", Words: "an abortable error: the application must call abortTransaction", Source: "TransactionManager.transitionToAbortableError"},
	RuleErrorFindCoordinator: {Code: "error-find-coordinator", Words: "NOT_COORDINATOR or COORDINATOR_NOT_AVAILABLE: the client finds the coordinator again and retries", Source: "TransactionManager.TxnRequestHandler.lookupCoordinator"},
	RuleErrorRetriable:       {Code: "error-retriable", Words: "a retriable coordinator error: the request is sent again after retry.backoff.ms", Source: "TransactionManager.TxnRequestHandler.reenqueue"},
	RuleAddPartitionsBackoff: {Code: "add-partitions-backoff", Words: "CONCURRENT_TRANSACTIONS on the first AddPartitionsToTxn of a transaction is retried after 20 ms", Source: "TransactionManager.AddPartitionsToTxnHandler.handleResponse"},
	RuleTxnOffsetRetriable:   {Code: "txn-offset-retriable", Words: "a retriable TxnOffsetCommit error: the request is sent again", Source: "TransactionManager.TxnOffsetCommitHandler.handleResponse"},
	RuleBatchRetriable:       {Code: "batch-retriable", Words: "a retriable produce error: the same batch is sent again", Source: "Sender.canRetry"},
	RuleBatchFailed:          {Code: "batch-failed", Words: "a produce batch failed for good: its records are not delivered", Source: "Sender.failBatch, TransactionManager.handleFailedBatch"},
	RuleSeqUnresolvedRetry:   {Code: "seq-unresolved-retry", Words: "OUT_OF_ORDER_SEQUENCE_NUMBER while an earlier batch of the partition is unresolved is retried", Source: "TransactionManager.canRetry"},
	RuleRequestTimeout:       {Code: "request-timeout", Words: "no answer within request.timeout.ms: the request or its answer was lost", Source: "NetworkClient.handleTimedOutRequests"},
	RuleAcksZero:             {Code: "acks-zero", Words: "with acks=0 a batch counts as sent when it leaves, without any answer", Source: "Sender.sendProduceRequest"},
	RuleNoEndTxn:             {Code: "no-endtxn", Words: "a transaction that added nothing ends without an EndTxn", Source: "TransactionManager.nextRequest (transactionStarted)"},
	RuleSkipEndTxn:           {Code: "skip-endtxn", Words: "after INVALID_PRODUCER_ID_MAPPING the abort skips EndTxn and goes to InitProducerId", Source: "TransactionManager.beginCompletingTransaction", Versions: ClassicOnly},
	RuleAbortEpochBump:       {Code: "abort-epoch-bump", Words: "an abort after an abortable error bumps the epoch with InitProducerId(pid, epoch)", Source: "KIP-360, TransactionManager.beginAbort", Versions: ClassicOnly},
	RuleIdempotentBump:       {Code: "idempotent-bump", Words: "an idempotent producer bumps its epoch locally after a real sequence gap", Source: "TransactionManager.bumpIdempotentProducerEpoch"},
	RuleIdempotentNewPid:     {Code: "idempotent-new-pid", Words: "an idempotent producer whose epoch is exhausted asks for a new producer id", Source: "TransactionManager.resetIdempotentProducerId"},
	RuleClientVersion:        {Code: "client-version", Words: "the client reads the finalized feature transaction.version in initTransactions and when a transaction ends", Source: "KIP-890, TransactionManager.initializeTransactions"},
	RuleUpgradeBump:          {Code: "upgrade-bump", Words: "an upgrade from transaction.version 1 to 2 needs an InitProducerId(pid, epoch) bump", Source: "KIP-890, TransactionManager.clientSideEpochBumpRequired"},
	RuleEndTxnV5Epoch:        {Code: "endtxn-v5-epoch", Words: "under TV2 every EndTxn bumps the epoch and EndTxn v5 returns it", Source: "KIP-890, TransactionManager.EndTxnHandler", Versions: KIP890Only},

	RuleOffsetReset:         {Code: "offset-reset", Words: "no committed offset: the consumer applies auto.offset.reset", Source: "SubscriptionState.resetInitializingPositions"},
	RuleUnstableOffsetRetry: {Code: "unstable-offset-retry", Words: "UNSTABLE_OFFSET_COMMIT: the consumer waits for the pending transaction and fetches again", Source: "ConsumerCoordinator.OffsetFetchResponseHandler"},
	RuleReadBound:           {Code: "read-bound", Words: "a fetch returns records up to the high watermark (read_uncommitted) or the last stable offset (read_committed)", Source: "UnifiedLog.read (FetchIsolation)"},

	RuleReadUncommitted: {Code: "read-uncommitted", Words: "a read_uncommitted consumer returns open and aborted transactions' records: Kafka's documented behaviour, not a violation", Source: "ConsumerConfig isolation.level"},

	RuleInvalidRecord:       {Code: "invalid-record", Words: "record validation: one batch per partition, no control batch from a client, a sequence with a producer id", Source: "LogValidator.validateBatch"},
	RuleNotIdempotent:       {Code: "not-idempotent", Words: "a batch without a producer id is appended without sequence checks", Source: "UnifiedLog.analyzeAndValidateProducerState"},
	RuleVerifyBeforeAppend:  {Code: "verify-before-append", Words: "the first transactional batch of a pid on a partition is verified with the coordinator before the append", Source: "KIP-890, ReplicaManager.handleProduceAppend"},
	RuleVerifyResult:        {Code: "verify-result", Words: "a failed verification's coordinator error becomes the produce response's error", Source: "KIP-890, AddPartitionsToTxnManager.verifyTransaction"},
	RuleVerificationGuard:   {Code: "verification-guard", Words: "the verification guard the produce was verified under no longer matches", Source: "UnifiedLog.analyzeAndValidateProducerState (VerificationGuard)"},
	RuleEpochBeforeGuard:    {Code: "epoch-before-guard", Words: "an older epoch is refused before the verification guard is checked", Source: "KAFKA-19690"},
	RuleSeqDuplicate:        {Code: "seq-duplicate", Words: "same epoch and the same sequences as one of the 5 cached batches: a duplicate, answered with the original offset", Source: "ProducerStateEntry.findDuplicateBatch"},
	RuleSeqStaleEpoch:       {Code: "seq-stale-epoch", Words: "a batch of an older epoch than the stored one is refused", Source: "ProducerAppendInfo.checkProducerEpoch"},
	RuleSeqVerifying:        {Code: "seq-verifying", Words: "while a lower sequence of the pid is being verified, a higher one may not go first", Source: "ProducerAppendInfo.checkSequence (VerificationStateEntry)"},
	RuleSeqNoState:          {Code: "seq-no-state", Words: "no state for the pid on the partition: any sequence is accepted", Source: "ProducerAppendInfo.checkSequence"},
	RuleSeqNewEpoch:         {Code: "seq-new-epoch", Words: "a newer epoch starting at sequence 0 is accepted and clears the cache", Source: "ProducerAppendInfo.checkSequence"},
	RuleSeqNewEpochNotZero:  {Code: "seq-new-epoch-not-zero", Words: "a newer epoch must start at sequence 0", Source: "ProducerAppendInfo.checkSequence"},
	RuleSeqInOrder:          {Code: "seq-in-order", Words: "same epoch, the base sequence follows the last one: accepted", Source: "ProducerAppendInfo.checkSequence"},
	RuleSeqOutOfOrder:       {Code: "seq-out-of-order", Words: "same epoch, the base sequence does not follow the last one: OUT_OF_ORDER_SEQUENCE_NUMBER", Source: "ProducerAppendInfo.checkSequence"},
	RuleTxnNotTransactional: {Code: "txn-not-transactional", Words: "a non-transactional batch from a pid with an open transaction on the partition is refused", Source: "ProducerAppendInfo.appendDataBatch"},
	RuleTxnFirstOffset:      {Code: "txn-first-offset", Words: "the first transactional batch of a pid on a partition starts its transaction there", Source: "ProducerAppendInfo.appendDataBatch"},
	RuleTV2FirstSeqZero:     {Code: "tv2-first-seq-zero", Words: "under TV2 the first batch of a pid with nothing cached must start at sequence 0", Source: "KAFKA-18202, ProducerAppendInfo.checkSequence", Versions: KIP890Only},
	RuleTV2EpochBeforeAdd:   {Code: "tv2-epoch-before-add", Words: "under TV2 an epoch below the partition's stored epoch is refused before any coordinator call", Source: "KAFKA-18042, UnifiedLog.maybeStartTransactionVerification", Versions: KIP890Only},
	RuleTV2ImplicitAdd:      {Code: "tv2-implicit-add", Words: "under TV2 the partition leader adds the partition to the transaction for Produce v12; the client sends no AddPartitionsToTxn", Source: "KIP-890, AddPartitionsToTxnManager.addOrVerifyTransaction", Versions: KIP890Only},
	RuleTV2LeaderRetry:      {Code: "tv2-leader-retry", Words: "a TV2 leader retries CONCURRENT_TRANSACTIONS every add.partitions.to.txn.retry.backoff.ms for up to 100 ms", Source: "KAFKA-18654", Versions: KIP890Only},
	RuleTV2AddResult:        {Code: "tv2-add-result", Words: "a failed implicit add's coordinator error becomes the produce response's error", Source: "KIP-890, AddPartitionsToTxnManager.addOrVerifyTransaction", Versions: KIP890Only},
	RuleTV2AddUntranslated:  {Code: "tv2-add-untranslated", Words: "under TV2 CONCURRENT_TRANSACTIONS reaches the producer untranslated after the leader's retries", Source: "KAFKA-18654", Versions: KIP890Only},

	RuleMarkerStaleEpoch:        {Code: "marker-stale-epoch", Words: "a marker of an older epoch than the stored one is refused", Source: "ProducerAppendInfo.checkProducerEpoch"},
	RuleMarkerCoordinatorFenced: {Code: "marker-coordinator-fenced", Words: "a marker of an older coordinator epoch than the stored one is refused", Source: "ProducerAppendInfo.checkCoordinatorEpoch"},
	RuleMarkerAccepted:          {Code: "marker-accepted", Words: "a marker is appended: it ends the pid's open transaction on the partition", Source: "ProducerAppendInfo.appendEndTxnMarker"},
	RuleMarkerTV2Epoch:          {Code: "marker-tv2-epoch", Words: "a TV2 marker needs an epoch above the stored one", Source: "KIP-1228, ProducerAppendInfo.checkProducerEpoch", Versions: KIP890Only},
	RuleMarkerTV2Retry:          {Code: "marker-tv2-retry", Words: "a TV2 marker at the stored epoch with no open transaction is a retry of a written marker", Source: "KAFKA-19999", Versions: KIP890Only},

	RuleInitIdempotent:   {Code: "init-idempotent", Words: "InitProducerId without a transactional id: a new pid at epoch 0, nothing written", Source: "TransactionCoordinator.handleInitProducerId"},
	RuleInitEmptyID:      {Code: "init-empty-id", Words: "InitProducerId with an empty transactional id: INVALID_REQUEST", Source: "TransactionCoordinator.handleInitProducerId"},
	RuleInitTimeout:      {Code: "init-timeout", Words: "a transaction timeout outside 1..transaction.max.timeout.ms: INVALID_TRANSACTION_TIMEOUT", Source: "TransactionCoordinator.handleInitProducerId"},
	RuleInitPidEpochPair: {Code: "init-pid-epoch-pair", Words: "only one of producerId and producerEpoch given: INVALID_REQUEST", Source: "KafkaApis.handleInitProducerIdRequest"},
	RuleNotCoordinator:   {Code: "not-coordinator", Words: "this broker does not lead, or is still loading, the transaction's __transaction_state partition", Source: "TransactionStateManager.getTransactionState"},
	RuleInitNewID:        {Code: "init-new-id", Words: "no metadata for the transactional id: a new pid in Empty at epoch -1, not yet written", Source: "TransactionCoordinator.handleInitProducerId"},
	RuleInitPending:      {Code: "init-pending", Words: "a state transition is in progress: CONCURRENT_TRANSACTIONS", Source: "TransactionCoordinator.prepareInitProducerIdTransit"},
	RuleInitPidMismatch:  {Code: "init-pid-mismatch", Words: "the expected producer id does not match: PRODUCER_FENCED", Source: "TransactionCoordinator.prepareInitProducerIdTransit"},
	RuleInitCompleting:   {Code: "init-completing", Words: "PrepareCommit or PrepareAbort is still completing: CONCURRENT_TRANSACTIONS", Source: "TransactionCoordinator.prepareInitProducerIdTransit"},
	RuleInitEpoch:        {Code: "init-epoch", Words: "the epoch is bumped (a new pid once exhausted), a retry gets the current one, any other expected epoch is fenced", Source: "TransactionMetadata.prepareIncrementProducerEpoch, prepareProducerIdRotation"},
	RuleInitFence:        {Code: "init-fence", Words: "a new instance fences the open transaction: it is aborted at epoch + 1", Source: "TransactionMetadata.prepareFenceProducerEpoch"},

	RuleAddPartitions:    {Code: "add-partitions", Words: "AddPartitionsToTxn writes Ongoing with the union of the partitions", Source: "TransactionCoordinator.handleAddPartitionsToTransaction", Versions: ClassicOnly},
	RuleAddOffsets:       {Code: "add-offsets", Words: "AddOffsetsToTxn adds the group's __consumer_offsets partition to the transaction", Source: "KafkaApis.handleAddOffsetsToTxnRequest", Versions: ClassicOnly},
	RuleVerifyPartitions: {Code: "verify-partitions", Words: "the coordinator verifies that a partition is in the transaction", Source: "KIP-890, TransactionCoordinator.handleVerifyPartitionsInTransaction"},
	RuleTV2AddPartitions: {Code: "tv2-add-partitions", Words: "the coordinator's checks of a leader's AddPartitionsToTxn v5", Source: "KIP-890, TransactionCoordinator.handleAddPartitionsToTransaction", Versions: KIP890Only},
	RuleTV2PendingFirst:  {Code: "tv2-pending-first", Words: "a pending transition is checked before the producer id", Source: "KAFKA-18660", Versions: KIP890Only},

	RuleEndTxn:                {Code: "endtxn", Words: "the EndTxn table of transaction.version 1: state and result decide", Source: "TransactionCoordinator.endTransaction", Versions: ClassicOnly},
	RuleEndTxnV2:              {Code: "endtxn-v2", Words: "the EndTxn table of transaction.version 2: state, result and epoch decide", Source: "KIP-890, TransactionCoordinator.endTransaction", Versions: KIP890Only},
	RuleTV2EndTxnBump:         {Code: "tv2-endtxn-bump", Words: "under TV2 every EndTxn bumps the epoch; the markers carry the new epoch", Source: "KIP-890, TransactionMetadata.prepareAbortOrCommit", Versions: KIP890Only},
	RuleTV2Overflow:           {Code: "tv2-overflow", Words: "under TV2 an exhausted epoch moves to the next producer id when the transaction completes", Source: "KAFKA-18660", Versions: KIP890Only},
	RuleTV2EmptyAbort:         {Code: "tv2-empty-abort", Words: "an abort with nothing added has no markers to write", Source: "KIP-890, TransactionCoordinator.endTransaction", Versions: KIP890Only},
	RuleTV2Fence:              {Code: "tv2-fence", Words: "a TV2 fence writes PrepareAbort at epoch + 1", Source: "KAFKA-19367", Versions: KIP890Only},
	RuleTV2FenceDoubleBump:    {Code: "tv2-fence-double-bump", Words: "Kafka 4.0.0's TV2 fence bumped the epoch twice", Source: "KAFKA-19367", Versions: KIP890Only},
	RuleTV2FenceOverflow:      {Code: "tv2-fence-overflow", Words: "a TV2 fence at an exhausted epoch moves to the next producer id", Source: "KAFKA-20090", Versions: KIP890Only},
	RuleTV2RetryAnswer:        {Code: "tv2-retry-answer", Words: "Kafka's answer to a commit retry after a completed abort; KAFKA-20785 would change it", Source: "KAFKA-20785", Versions: KIP890Only},
	RuleMarkersQueued:         {Code: "markers-queued", Words: "a marker for a partition without a leader waits until one is elected", Source: "TransactionMarkerChannelManager.addTxnMarkersToBrokerQueue (markersQueueForUnknownBroker)"},
	RuleMarkersGiveUp:         {Code: "markers-give-up", Words: "INVALID_PRODUCER_EPOCH or TRANSACTION_COORDINATOR_FENCED: the coordinator stops sending the transaction's markers", Source: "TransactionMarkerRequestCompletionHandler.onComplete"},
	RuleMarkersComplete:       {Code: "markers-complete", Words: "every marker acknowledged: the coordinator writes CompleteCommit or CompleteAbort", Source: "TransactionMarkerChannelManager.maybeWriteTxnCompletion"},
	RuleTxnTimeout:            {Code: "txn-timeout", Words: "an Ongoing transaction past its timeout is fenced and aborted", Source: "TransactionCoordinator.abortTimedOutTransactions"},
	RuleTxnIDExpiry:           {Code: "txn-id-expiry", Words: "a transactional id idle for transactional.id.expiration.ms is removed with a tombstone", Source: "TransactionStateManager.removeExpiredTransactionalIds"},
	RuleCoordinatorLoad:       {Code: "coordinator-load", Words: "a new coordinator loads __transaction_state; meanwhile requests get COORDINATOR_LOAD_IN_PROGRESS", Source: "TransactionStateManager.loadTransactionsForTxnTopicPartition"},
	RuleLastEpochNotPersisted: {Code: "last-epoch-not-persisted", Words: "lastProducerEpoch is not in the log record, so it reloads as -1", Source: "TransactionLog.readTxnRecordValue, KAFKA-20357"},
	RuleLoadResendsMarkers:    {Code: "load-resends-markers", Words: "a loaded PrepareCommit or PrepareAbort is finished by the new coordinator", Source: "TransactionCoordinator.onElection"},

	RuleNotGroupCoordinator:    {Code: "not-group-coordinator", Words: "this broker does not lead the group's __consumer_offsets partition: NOT_COORDINATOR", Source: "CoordinatorRuntime.scheduleTransactionalWriteOperation"},
	RuleTxnOffsetVerify:        {Code: "txn-offset-verify", Words: "TxnOffsetCommit is verified with the transaction coordinator when the pid has no open transaction on the offsets partition", Source: "KAFKA-15449, CoordinatorPartitionWriter.maybeStartTransactionVerification"},
	RuleTxnOffsetVerifyFailed:  {Code: "txn-offset-verify-failed", Words: "a failed verification of a TxnOffsetCommit: nothing is written", Source: "KAFKA-15449, CoordinatorPartitionWriter.maybeStartTransactionVerification"},
	RuleTxnOffsetMember:        {Code: "txn-offset-member", Words: "the group coordinator's member and generation checks of a TxnOffsetCommit", Source: "OffsetMetadataManager.validateTransactionalOffsetCommit"},
	RuleTxnOffsetStaleEpoch:    {Code: "txn-offset-stale-epoch", Words: "a TxnOffsetCommit of an older epoch than the one stored on the offsets partition is refused", Source: "ProducerAppendInfo.checkProducerEpoch"},
	RuleTxnOffsetPending:       {Code: "txn-offset-pending", Words: "transactional offsets are held as pending until the transaction's marker", Source: "OffsetMetadataManager.replay (pendingTransactionalOffsets)"},
	RuleTV2TxnOffsetAdd:        {Code: "tv2-txn-offset-add", Words: "TxnOffsetCommit v5: the group coordinator adds the offsets partition; the client sends no AddOffsetsToTxn", Source: "KIP-890, CoordinatorPartitionWriter.maybeStartTransactionVerification", Versions: KIP890Only},
	RuleTV2TxnOffsetStaleEpoch: {Code: "tv2-txn-offset-stale-epoch", Words: "under TV2 a TxnOffsetCommit below the stored epoch is refused", Source: "KIP-890, KAFKA-18042", Versions: KIP890Only},
	RuleTV2TxnOffsetAddFailed:  {Code: "tv2-txn-offset-add-failed", Words: "a failed add of the offsets partition: nothing is written", Source: "KIP-890, CoordinatorOperationExceptionHelper", Versions: KIP890Only},
	RuleUnstableOffset:         {Code: "unstable-offset", Words: "OffsetFetch with requireStable answers UNSTABLE_OFFSET_COMMIT while offsets are pending", Source: "OffsetMetadataManager.fetchOffsets (requireStable)"},

	RuleHazardLateMarker:    {Code: "hazard-late-marker", Words: "under TV1 a delayed marker of an earlier transaction can close a later one at the same epoch", Source: "KIP-890, KIP-1228, KAFKA-19999", Versions: ClassicOnly},
	RuleHazardLateAdd:       {Code: "hazard-late-add", Words: "under TV1 a delayed AddPartitionsToTxn can start a transaction no client runs", Source: "KIP-890", Versions: ClassicOnly},
	RuleHazardLateTxnOffset: {Code: "hazard-late-txn-offset", Words: "under TV1 a delayed TxnOffsetCommit can join the next transaction", Source: "KIP-890", Versions: ClassicOnly},

	RuleHazardSequenceRewrite: {Code: "hazard-sequence-rewrite", Words: "an idempotent producer's epoch bump renumbers an unanswered batch already in the log, which is appended again", Source: "KAFKA-14034, TransactionManager.bumpIdempotentProducerEpoch"},

	RuleInvariant:      {Code: "invariant", Words: "an invariant this simulation checks after every step (not a Kafka rule)"},
	RuleTeachingSwitch: {Code: "teaching-switch", Words: "a decision taken because an eoslab teaching switch is off (not a Kafka setting)"},
}

func init() {
	for i := range ruleTable {
		ruleTable[i].Reason = Reason(i)
	}
}

// String is the reason's code.
func (r Reason) String() string {
	if r < numReasons {
		return ruleTable[r].Code
	}
	return "reason" + itoa(int64(r))
}

// Info is the reason's entry in the rule table.
func (r Reason) Info() RuleInfo {
	if r < numReasons {
		return ruleTable[r]
	}
	return RuleInfo{Reason: r, Code: r.String()}
}

// Rules is the rule table, every reason but RuleNone, as a copy.
func Rules() []RuleInfo {
	out := make([]RuleInfo, numReasons-1)
	copy(out, ruleTable[1:])
	return out
}

// ReasonByCode finds a reason by its code.
func ReasonByCode(code string) (Reason, bool) {
	for i := Reason(1); i < numReasons; i++ {
		if ruleTable[i].Code == code {
			return i, true
		}
	}
	return RuleNone, false
}

// WriteRules writes the rule table as text, one rule a paragraph: its
// code and versions, its words and its Kafka source.
func WriteRules(b *strings.Builder) {
	for _, r := range Rules() {
		b.WriteString(r.Code)
		b.WriteString(" (")
		b.WriteString(r.Versions.String())
		b.WriteString(")\n  ")
		b.WriteString(r.Words)
		b.WriteString("\n  Kafka: ")
		if r.Source == "" {
			b.WriteString("none, this simulation's own")
		} else {
			b.WriteString(r.Source)
		}
		b.WriteString("\n")
	}
}

// Rule is what decided an event: a reason and its arguments (Detail), and
// possibly further reasons (a batch's sequence check and the transaction
// it starts). The zero Rule is no rule. A Rule is never changed once made,
// so events and snapshots share its parts. It is 16 bytes, as every event
// carries one: the common rules' arguments are a number (say, arg) worded
// when shown, the others' words and the further reasons are behind ext.
type Rule struct {
	Reason Reason
	say    ruleSay
	arg    int32
	ext    *ruleExt
}

// ruleExt is the part of a rule few have: its detail as a note (a says
// code and its typed arguments) and the rule that follows it.
type ruleExt struct {
	detail *note
	more   *Rule
}

// next is the rule that follows r, or nil.
func (r *Rule) next() *Rule {
	if r.ext == nil {
		return nil
	}
	return r.ext.more
}

// Detail is the rule's arguments in words (of its first reason; Parts
// gives each reason's).
func (r Rule) Detail() string { return r.detail() }

// note is the rule's detail as a note, if it has one (not for a detail
// worded by ruleSay).
func (r Rule) note() *note {
	if r.ext == nil {
		return nil
	}
	return r.ext.detail
}

// withDetail is r with detail d (its further reasons kept).
func (r Rule) withDetail(d *note) Rule {
	x := ruleExt{detail: d, more: r.next()}
	r.ext, r.say, r.arg = &x, ruleSayDetail, 0
	return r
}

// ruleSay is how a rule's detail is worded from its argument, for the
// rules of the common steps, whose words used to be made where they were
// decided. The zero ruleSay is a detail in words (Detail).
type ruleSay uint8

const (
	ruleSayDetail     ruleSay = iota
	ruleSaySameBase           // same epoch, base nextSeq(arg) == last arg + 1
	ruleSayStopLSO            // reads stop at the LSO arg
	ruleSayStopHW             // reads stop at the high watermark arg
	ruleSayCompleting         // TxnState(arg) is still completing
)

// detail is the rule's arguments in words.
func (r *Rule) detail() string {
	switch r.say {
	case ruleSaySameBase:
		return "same epoch, base " + itoa(int64(nextSeq(r.arg))) + " == last " + itoa(int64(r.arg)) + " + 1"
	case ruleSayStopLSO:
		return "reads stop at the LSO " + itoa(int64(r.arg))
	case ruleSayStopHW:
		return "reads stop at the high watermark " + itoa(int64(r.arg))
	case ruleSayCompleting:
		return TxnState(r.arg).String() + " is still completing"
	}
	if r.ext == nil {
		return ""
	}
	return r.ext.detail.String()
}

// withDetailIf is r with p's words, if p has them.
func (r Rule) withDetailIf(p *Rule) Rule {
	if p.ext != nil && p.ext.detail != nil {
		return r.withDetail(p.ext.detail)
	}
	return r
}

// typedRule is rule reason with a detail worded by say from arg.
func typedRule(reason Reason, say ruleSay, arg int32) Rule {
	return Rule{Reason: reason, say: say, arg: arg}
}

// because is a rule: reason r with its detail, the note s with args.
func because(r Reason, s says, args ...arg) Rule {
	if s == saysNone {
		return Rule{Reason: r}
	}
	// The rule's extension, its note and up to three arguments in one
	// allocation; args, copied, stays on the caller's stack.
	x := &struct {
		ext ruleExt
		n   note
		a   [3]arg
	}{n: note{says: s}}
	if len(args) <= len(x.a) {
		x.n.args = x.a[:copy(x.a[:], args)]
	} else {
		x.n.args = append([]arg(nil), args...)
	}
	x.ext.detail = &x.n
	return Rule{Reason: r, ext: &x.ext}
}

// because is the package's because in a world that may be a search's
// (eventLog.quiet): a quiet world makes no words a person reads, so its
// rule is the reason alone (what a decision reads: Has, and). args are
// copied (copiedNote), so a caller's list of them is not made on the heap.
// The hot paths of a search use it.
func (w *World) because(r Reason, s says, args ...arg) Rule {
	if s == saysNone || w.events.quiet {
		return Rule{Reason: r}
	}
	return Rule{Reason: r, ext: &ruleExt{detail: copiedNote(s, args)}}
}

// cite is a rule with no arguments.
func cite(r Reason) Rule { return Rule{Reason: r} }

// IsZero reports whether r is no rule.
func (r Rule) IsZero() bool { return r.Reason == RuleNone }

// and is r followed by o.
func (r Rule) and(o Rule) Rule {
	if r.IsZero() {
		return o
	}
	if o.IsZero() {
		return r
	}
	tail := r
	x := ruleExt{more: &o}
	if r.ext != nil {
		x.detail = r.ext.detail
		if r.ext.more != nil {
			rest := r.ext.more.and(o)
			x.more = &rest
		}
	}
	tail.ext = &x
	return tail
}

// Parts are the rule's reasons in order, each with its own detail.
func (r Rule) Parts() []Rule {
	if r.IsZero() {
		return nil
	}
	var out []Rule
	for p := &r; p != nil; p = p.next() {
		out = append(out, Rule{Reason: p.Reason, say: p.say, arg: p.arg}.withDetailIf(p))
	}
	return out
}

// Has reports whether reason is one of the rule's reasons.
func (r Rule) Has(reason Reason) bool {
	for p := &r; p != nil && !p.IsZero(); p = p.next() {
		if p.Reason == reason {
			return true
		}
	}
	return false
}

// String is the rule as a transcript shows it: each part as its Kafka
// source and its detail ("ProducerAppendInfo.checkSequence: same epoch,
// base 1 == last 0 + 1"), parts joined by "; ".
func (r Rule) String() string {
	var b strings.Builder
	r.write(&b)
	return b.String()
}

func (r Rule) write(b *strings.Builder) {
	for p := &r; p != nil && !p.IsZero(); p = p.next() {
		if p != &r {
			b.WriteString("; ")
		}
		info := p.Reason.Info()
		detail := p.detail()
		b.WriteString(info.Source)
		if info.Source != "" && detail != "" {
			b.WriteString(": ")
		}
		b.WriteString(detail)
		if info.Source == "" && detail == "" {
			b.WriteString(info.Words)
		}
	}
}

// Words is the rule for a reader who does not follow citations: the
// details of its parts, without the sources.
func (r Rule) Words() string {
	var out []string
	for p := &r; p != nil && !p.IsZero(); p = p.next() {
		if d := p.detail(); d != "" {
			out = append(out, d)
		}
	}
	return strings.Join(out, "; ")
}

// RuleWords is the event's rule in words (Rule.Words).
func (e *Event) RuleWords() string { return e.Rule.Words() }

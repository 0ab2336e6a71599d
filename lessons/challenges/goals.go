package challenges

import "github.com/eoslab/eoslab/engine"

// goals is the table of challenges, in the order they are numbered.
var goals = []Goal{
	{
		Name: "lost-ack-duplicate", Level: 1, Kafka: []int{3},
		Title:    "write a record twice with idempotence off",
		Goal:     "With a producer that has enable.idempotence=false, make one send appear twice in the log.",
		Hint:     "Let the Produce reach the leader, then drop its ProduceResponse and let request.timeout.ms pass.",
		Why:      "Without a producer id and sequence the leader cannot tell a retry from a new batch (UnifiedLog.analyzeAndValidateProducerState appends a batch without a producer id unchecked); Sender.canRetry sends the same batch again.",
		Solution: "01-lost-ack-duplicate.scn", NearMiss: "drop ProduceResponse             # ... and its answer is lost",
		Judge: aViolation(engine.InvDuplicateRecord, "no record sent once is in the log twice"),
	},
	{
		Name: "lost-ack-deduplicated", Level: 1, Kafka: []int{3},
		Title:    "lose an acknowledgement without a duplicate",
		Goal:     "With idempotence on, lose a ProduceResponse and have the leader answer the retry as a duplicate.",
		Hint:     "An idempotent producer first needs its producer id: deliver InitProducerId and its response, then the Produce, then drop the answer.",
		Why:      "The leader keeps the last 5 batches of each producer id and answers a retry with the same epoch and sequences from that cache (ProducerStateEntry.findDuplicateBatch, KIP-98).",
		Solution: "02-lost-ack-deduplicated.scn", NearMiss: "drop ProduceResponse",
		Judge: both(
			anEvent(func(e *engine.Event) bool { return dropped(e, engine.MsgProduceResponse) }, "no ProduceResponse was lost"),
			anEvent(func(e *engine.Event) bool { return ruled(e, engine.RuleSeqDuplicate) }, "no retry was recognised as a duplicate"),
		),
	},
	{
		Name: "out-of-order", Level: 1, Kafka: []int{3},
		Title:    "make a leader answer OUT_OF_ORDER_SEQUENCE_NUMBER",
		Goal:     "Get a batch of an idempotent producer refused with OUT_OF_ORDER_SEQUENCE_NUMBER(45): its base sequence does not follow the last one the leader appended.",
		Hint:     "Send twice with an idempotent producer and lose the first Produce before it arrives.",
		Why:      "Within one epoch a batch must start at the last sequence + 1 (ProducerAppendInfo.checkSequence). The producer retries the refused batch while an earlier one of the partition is unresolved (TransactionManager.canRetry), so the order is kept once the lost one is sent again.",
		Solution: "03-out-of-order.scn", NearMiss: "drop Produce                     # a (sequence 1) is lost on the way",
		Judge: anEvent(func(e *engine.Event) bool {
			return e.Kind == engine.EvSeqCheck && e.Code == engine.OutOfOrderSequenceNumber
		}, "no batch was refused with OUT_OF_ORDER_SEQUENCE_NUMBER"),
	},
	{
		Name: "idempotent-duplicate", Level: 3, Kafka: []int{3},
		Title:    "write a record twice with idempotence on",
		Goal:     "With an idempotent producer, get a record into the log twice through an epoch bump.",
		Hint:     "Send two batches; lose the first request and the second one's answer. The retry of the first meets a gap.",
		Why:      "After a real sequence gap an idempotent producer bumps its epoch and renumbers its unanswered batches from 0 (TransactionManager.bumpIdempotentProducerEpoch); a batch already in the log is then new to the leader: KAFKA-14034.",
		Solution: "04-idempotent-duplicate.scn", NearMiss: "drop ProduceResponse to=I",
		Judge: anEvent(func(e *engine.Event) bool {
			return e.Kind == engine.EvHazard && ruled(e, engine.RuleHazardSequenceRewrite)
		}, "no record was appended again after an epoch bump"),
	},
	{
		Name: "stall-and-unstall", Level: 1, Kafka: []int{3},
		Title:    "stall a read_committed consumer, then unstall it",
		Goal:     "Make a read_committed consumer wait at the LSO while the high watermark is past it, then let it move on.",
		Hint:     "An open transaction pins the last stable offset. Poll while it is open, then end it and poll again.",
		Why:      "A read_committed fetch stops at the last stable offset, the first offset of the oldest open transaction (UnifiedLog.read with FetchIsolation.TXN_COMMITTED); only its marker moves it.",
		Solution: "05-stall-and-unstall.scn", NearMiss: "p commitTransaction",
		Judge: stallJudge,
	},
	{
		Name: "output-twice", Level: 2, Kafka: []int{3},
		Title:    "commit the input offsets twice",
		Goal:     "Make a consume-transform-produce app process one input record twice: two instances each commit its output and its input offsets, so a read_committed reader sees the output twice.",
		Hint:     "A processor with offsets=after commits its input offsets with a plain OffsetCommit after its transaction; hold that request up and crash the processor before it lands.",
		Why:      "Only offsets sent in the transaction (KafkaProducer.sendOffsetsToTransaction, KIP-98, with the group metadata of KIP-447) commit atomically with the output; a separate OffsetCommit can land after a new instance has read the old offset and done the work again.",
		Solution: "06-output-twice.scn", NearMiss: "delay OffsetCommit 1000          # ... and held up",
		Judge: twiceJudge,
	},
	{
		Name: "zombie-3-and-4", Level: 2, Kafka: []int{3, 4},
		Title:    "fence a zombie under Kafka 3 and Kafka 4",
		Goal:     "Fence a paused instance by starting a new one with the same transactional.id; the file is played under both versions and the refusals compared.",
		Hint:     "pause the first instance mid-transaction, initTransactions the second, then resume the first and let it write and commit.",
		Why:      "InitProducerId bumps the epoch and aborts the open transaction (TransactionMetadata.prepareFenceProducerEpoch). The zombie's produce gets INVALID_PRODUCER_EPOCH(47) from the leader either way, decided differently: under Kafka 3 the leader asks the coordinator to verify the partition (KIP-890 part 1), which answers PRODUCER_FENCED(90), and the leader turns it into 47 (AddPartitionsToTxnManager.verifyTransaction); under Kafka 4 the leader refuses the old epoch itself, before any coordinator call (KAFKA-18042). Its EndTxn gets PRODUCER_FENCED(90), fatal (KIP-588).",
		Solution: "07-zombie-3-and-4.scn", NearMiss: "b initTransactions               # a new instance fences a",
		Judge: newZombieJudge, Compare: compareZombies,
	},
	{
		Name: "marker-from-dead-coordinator", Level: 3, Kafka: []int{3},
		Title:    "land a marker from a dead coordinator",
		Goal:     "Get a partition to append a transaction marker whose WriteTxnMarkers came from a broker that is down.",
		Hint:     "Hold the marker request back with delay, crash the coordinator's broker, then deliver the old request.",
		Why:      "A leader takes a marker whose coordinatorEpoch is at least the one it stored (ProducerAppendInfo.checkCoordinatorEpoch); only once the new coordinator's marker lands is the old one refused with TRANSACTION_COORDINATOR_FENCED(52).",
		Solution: "08-marker-from-dead-coordinator.scn", NearMiss: "deliver WriteTxnMarkers from=broker-1   # ... and the old request lands first",
		Judge: deadCoordinatorJudge,
	},
	{
		Name: "late-offset-hazard", Level: 3, Kafka: []int{3},
		Title:    "show the late-offset hazard that KIP-890 closes",
		Goal:     "Under Kafka 3, get a TxnOffsetCommit of an ended transaction taken into the next one.",
		Hint:     "duplicate and delay the TxnOffsetCommit, commit, start the next transaction with offsets of its own, and let the copy arrive.",
		Why:      "Under transaction.version 1 consecutive transactions keep the epoch, so the group coordinator cannot tell the late copy from the open transaction's; KIP-890 part 2 bumps the epoch at every EndTxn and the copy gets INVALID_PRODUCER_EPOCH(47) (TxnOffsetCommitRequestTest.testDelayedTxnOffsetCommitWithBumpedEpochIsRejected).",
		Solution: "09-late-offset-hazard.scn", NearMiss: "delay TxnOffsetCommit 5000       # the copy is held up on the network",
		Judge: anEvent(func(e *engine.Event) bool {
			return e.Kind == engine.EvHazard && ruled(e, engine.RuleHazardLateTxnOffset)
		}, "no late TxnOffsetCommit joined a later transaction"),
	},
	{
		Name: "late-offset-refused", Level: 3, Kafka: []int{4},
		Title:    "see KIP-890 refuse the late TxnOffsetCommit",
		Goal:     "Under Kafka 4, hold up a TxnOffsetCommit past the end of its transaction and have the group coordinator refuse it when it arrives in the next one.",
		Hint:     "The schedule of goal 9, without AddOffsetsToTxn: under Kafka 4 the group coordinator adds the offsets partition itself.",
		Why:      "Under KIP-890 part 2 every EndTxn bumps the epoch; the offsets partition stores the newer one and the late copy gets INVALID_PRODUCER_EPOCH(47) before any coordinator call (KAFKA-18042; TxnOffsetCommitRequestTest.testDelayedTxnOffsetCommitWithBumpedEpochIsRejected).",
		Solution: "10-late-offset-refused.scn", NearMiss: "delay TxnOffsetCommit 5000       # the copy is held up on the network",
		Judge: anEvent(func(e *engine.Event) bool {
			return e.Code == engine.InvalidProducerEpoch && ruled(e, engine.RuleTV2TxnOffsetStaleEpoch)
		}, "no late TxnOffsetCommit was refused for its old epoch"),
	},
	{
		Name: "timeout-abort", Level: 2, Kafka: []int{3},
		Title:    "let the coordinator abort a transaction that timed out",
		Goal:     "Leave a transaction open past transaction.timeout.ms, then try to commit it.",
		Hint:     "advance the clock past the timeout (60 s by default) between send and commitTransaction.",
		Why:      "TransactionCoordinator.abortTimedOutTransactions fences the producer at epoch + 1 and aborts; the producer's later EndTxn at the old epoch gets PRODUCER_FENCED(90).",
		Solution: "11-timeout-abort.scn", NearMiss: "advance 70000                    # the coordinator aborts it at epoch + 1",
		Judge: both(
			anEvent(func(e *engine.Event) bool { return ruled(e, engine.RuleTxnTimeout) }, "no transaction timed out"),
			anEvent(func(e *engine.Event) bool {
				return e.Kind == engine.EvClientError && e.Code == engine.ProducerFenced
			}, "the producer was not told it is fenced"),
		),
	},
	{
		Name: "late-produce-refused", Level: 2, Kafka: []int{4},
		Title:    "under Kafka 4, refuse a Produce that arrives after its commit",
		Goal:     "Under Kafka 4, have a leader refuse a copy of a transaction's Produce that arrives after the commit, with INVALID_PRODUCER_EPOCH(47).",
		Hint:     "duplicate the Produce, delay the copy, commit.",
		Why:      "Under KIP-890 part 2 every EndTxn bumps the epoch, so the late copy's epoch is below the one the leader stored, and it is refused before any coordinator call (KAFKA-18042, UnifiedLog.maybeStartTransactionVerification).",
		Solution: "12-late-produce-refused.scn", NearMiss: "A commitTransaction",
		Judge: anEvent(func(e *engine.Event) bool {
			return e.Code == engine.InvalidProducerEpoch && ruled(e, engine.RuleTV2EpochBeforeAdd)
		}, "no late Produce was refused for its old epoch"),
	},
	{
		Name: "zombie-member", Level: 2, Kafka: []int{3},
		Title:    "refuse offsets from an old group generation",
		Goal:     "Send transactional offsets with the group metadata of a generation the group has left behind.",
		Hint:     "A consumer joins (generation 1); rebalance the group; sendOffsetsToTransaction with generation=1.",
		Why:      "KIP-447 has TxnOffsetCommit carry the member and generation, and the group coordinator refuses a stale one with ILLEGAL_GENERATION(22) (OffsetMetadataManager.validateTransactionalOffsetCommit).",
		Solution: "13-zombie-member.scn", NearMiss: "rebalance payment-group",
		Judge: anEvent(func(e *engine.Event) bool {
			return e.Code == engine.IllegalGeneration && ruled(e, engine.RuleTxnOffsetMember)
		}, "no TxnOffsetCommit was refused for its generation"),
	},
	{
		Name: "fencing-off", Level: 1, Kafka: []int{3}, AllowSwitches: true,
		Title:    "switch epoch fencing off and let a zombie write",
		Goal:     "With the teaching switch eoslab.epoch.fencing=false, get a write from a fenced producer accepted.",
		Hint:     "Fence a paused instance with a second one, then resume the first and send.",
		Why:      "This is what the epoch check of ProducerAppendInfo.checkProducerEpoch prevents; the switch is not a Kafka setting, it shows the guarantee break.",
		Solution: "14-fencing-off.scn", NearMiss: "config eoslab.epoch.fencing=false",
		Judge: aViolation(engine.InvFencedWrite, "no write from a fenced producer was accepted"),
	},
	{
		Name: "late-marker-hazard", Level: 3, Kafka: []int{3},
		Title:    "close a transaction with a late marker",
		Goal:     "Under Kafka 3, get a delayed marker of a completed transaction to close the next transaction of the same producer epoch.",
		Hint:     "Delay the coordinator's WriteTxnMarkers past its request timeout so it is sent again; let the next transaction open, then let the first request arrive.",
		Why:      "Under transaction.version 1 a leader takes a marker whose epoch is at least the stored one (ProducerAppendInfo.checkProducerEpoch); KIP-1228 refuses such a marker under transaction.version 2 (KAFKA-19999).",
		Solution: "15-late-marker-hazard.scn", NearMiss: "delay WriteTxnMarkers 40000      # the coordinator's first request is held up",
		Judge: anEvent(func(e *engine.Event) bool {
			return e.Kind == engine.EvHazard && ruled(e, engine.RuleHazardLateMarker)
		}, "no late marker closed a later transaction"),
	},
}

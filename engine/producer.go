package engine

import (
	"math"
)

// ProducerConfig is the part of the Java producer's configuration the
// simulation uses (ref 0.1, 1.1).
type ProducerConfig struct {
	TransactionalID   string
	Idempotence       bool
	Acks              int8 // 0, 1 or -1 (all)
	Retries           int64
	MaxInFlight       int
	TxnTimeoutMs      int64
	RequestTimeoutMs  int64
	RetryBackoffMs    int64
	DeliveryTimeoutMs int64
}

// DefaultProducerConfig is Kafka's producer defaults.
func DefaultProducerConfig() ProducerConfig {
	return ProducerConfig{Idempotence: true, Acks: -1, Retries: 2147483647, MaxInFlight: 5, TxnTimeoutMs: 60000,
		RequestTimeoutMs: 30000, RetryBackoffMs: 100, DeliveryTimeoutMs: 120000}
}

// PartitionSeq is the client's per-partition sequence bookkeeping
// (TxnPartitionEntry).
type PartitionSeq struct {
	TP              TP
	NextSeq         int32
	LastAckedSeq    int32
	LastAckedOffset int64
	// Stale is TransactionManager.hasStaleProducerIdAndEpoch: an
	// idempotent producer bumped its epoch because of another partition,
	// so this one's sequences still belong to the epoch before. Its
	// unacknowledged batches keep that epoch and their sequences; a new
	// batch waits until they are answered, and then the partition starts
	// again at sequence 0 under the new epoch (maybeUpdateProducerIdAndEpoch).
	Stale bool
}

// ProducerBatch is a batch in the client's accumulator, from send() until it
// is acknowledged or fails.
type ProducerBatch struct {
	ID            int64
	TP            TP
	Records       Records
	BaseSeq       int32 // NoSequence until first drained
	Epoch         int16
	ProducerID    int64
	Attempts      int
	CreatedAt     int64
	InFlight      bool
	Corr          int64
	Transactional bool
	Txn           int64
	// SeqReset is ProducerBatch.sequenceHasBeenReset: an epoch bump gave
	// the batch a new epoch and sequence after it had been sent.
	SeqReset bool
}

// InFlightRequest is a request the client waits on.
type InFlightRequest struct {
	Corr    int64
	Kind    MsgKind
	Broker  int
	BatchID int64
	TPs     []TP
}

// AckedSend records an acknowledged send for expectations and views.
type AckedSend struct {
	TP         TP
	BaseOffset int64
	Records    Records // the send's own records, shared (not a copy)
	Duplicate  bool
}

// OffsetsJob is a sendOffsetsToTransaction in progress (TV1: AddOffsetsToTxn
// then TxnOffsetCommit, ref 5.1). The requests that carry it wait in the
// producer's Pending queue like every other transactional request.
type OffsetsJob struct {
	Group      string
	Offsets    []TPOffset
	Generation int32
	Member     string
	Instance   string
}

// TxnRequest is one of TransactionManager's TxnRequestHandlers waiting in
// its pendingRequests queue: FindCoordinator, InitProducerId,
// AddPartitionsToTxn, AddOffsetsToTxn, TxnOffsetCommit or EndTxn. Its
// request body is built when it is sent, from the producer's state then.
type TxnRequest struct {
	Kind   MsgKind
	Group  bool   // FindCoordinator: the group coordinator (else the transaction coordinator)
	Key    string // FindCoordinator: the group id or transactional.id looked up
	Bump   bool   // InitProducerId with the current pid and epoch (KIP-360)
	Commit bool   // EndTxn: commit (else abort)
	// V2 is the transaction version the request was built for: EndTxn v5
	// and TxnOffsetCommit v5 under transaction.version=2 (ref 6).
	V2 bool
}

// priority is TransactionManager.Priority: FIND_COORDINATOR(0),
// INIT_PRODUCER_ID(1), ADD_PARTITIONS_OR_OFFSETS(2) for AddPartitionsToTxn,
// AddOffsetsToTxn and TxnOffsetCommit, END_TXN(3), EPOCH_BUMP(4).
func (r TxnRequest) priority() int {
	switch r.Kind {
	case MsgFindCoordinator:
		return 0
	case MsgInitProducerID:
		if r.Bump {
			return 4
		}
		return 1
	case MsgEndTxn:
		return 3
	}
	return 2
}

// Producer is a KafkaProducer instance: the accumulator, the Sender and the
// TransactionManager, all driven by events.
type Producer struct {
	Name         string
	Config       ProducerConfig
	ConfigError  *note // the ConfigException construction failed with, if any
	Incarnation  int
	Closed       bool
	Crashed      bool
	Paused       bool
	Deferred     []item
	State        ClientState
	ProducerID   int64
	Epoch        int16
	CoordBroker  int
	Parts        []PartitionSeq
	Queue        []ProducerBatch
	InFlight     []InFlightRequest
	TxnParts     []TP
	NewParts     []TP // newPartitionsInTransaction: no AddPartitionsToTxn queued yet
	AddingParts  []TP // pendingPartitionsInTransaction: in a queued or sent AddPartitionsToTxn
	Offsets      *OffsetsJob
	EndRequested int8 // the commitTransaction (1) or abortTransaction (2) call waiting for its result
	TxnStarted   bool
	BumpEpoch    bool // epochBumpRequired (KIP-360): InitProducerId(pid, epoch) after the abort
	NeedInit     bool
	Pending      []TxnRequest // TransactionManager.pendingRequests, a binary heap by priority
	TxnCorr      int64        // the one transactional request in flight (0: none)
	TxnSent      TxnRequest   // and what it was, to queue it again on a retry
	GroupCoord   int          // the group coordinator TxnOffsetCommit goes to (-1: unknown)
	Txn          int64
	BackoffUntil int64
	LastError    ErrorCode
	// LastAcked is the newest acknowledged send, Acks how many sends
	// were acknowledged (the history of them is the event log's).
	LastAcked AckedSend
	Acks      int
	Sends     int
	// TV2 is TransactionManager.isTransactionV2Enabled: the transaction
	// version this producer speaks, learned at initTransactions and when
	// a transaction ends (tv2_client.go).
	TV2 bool
	// TVUpgrade: the epoch bump queued behind the EndTxn is the one an
	// upgrade to TV2 requires (clientSideEpochBumpRequired), not KIP-360's.
	TVUpgrade bool
}

func (p *Producer) transactional() bool { return p.Config.TransactionalID != "" }
func (p *Producer) idempotent() bool    { return p.Config.Idempotence }

func (p *Producer) part(tp TP) *PartitionSeq {
	for i := range p.Parts {
		if p.Parts[i].TP == tp {
			return &p.Parts[i]
		}
	}
	p.Parts = append(p.Parts, PartitionSeq{TP: tp, LastAckedSeq: NoSequence, LastAckedOffset: -1})
	sortPartSeqs(p.Parts)
	return p.part(tp)
}

func sortPartSeqs(ps []PartitionSeq) {
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0 && tpLess(ps[j].TP, ps[j-1].TP); j-- {
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
}

func tpLess(a, b TP) bool {
	if a.Topic != b.Topic {
		return a.Topic < b.Topic
	}
	return a.Partition < b.Partition
}

func hasTP(tps []TP, tp TP) bool {
	for _, x := range tps {
		if x == tp {
			return true
		}
	}
	return false
}

// Producer finds a producer by name (not processors' inner producers).
func (w *World) Producer(name string) *Producer {
	p, _ := w.namedProducer(name)
	return p
}

func (w *World) setClientState(p *Producer, to ClientState) {
	if p.State == to {
		return
	}
	if !ValidClientTransition(p.State, to) && !upgradeTransition(p, to) {
		w.violate(InvIllegalTransition, p.Name, sub(saysClientIsNotALegal, p.State, to))
	}
	e := w.event(EvClientState, p.Name)
	e.TxnID, e.Change = p.Config.TransactionalID, ClientTransition(p.State, to)
	p.State = to
}

// clientError records an error the application sees.
func (w *World) clientError(p *Producer, code ErrorCode, text arg, rule Rule) {
	p.LastError = code
	w.emitRule(EvClientError, p.Name, rule, saysGets, code, text).code(code)
}

func (w *World) fatal(p *Producer, code ErrorCode, text arg) {
	w.clientError(p, code, sub(saysFatalTheProducerMustBe, text), because(RuleErrorFatal, saysFatal))
	w.setClientState(p, FatalError)
	p.Queue = nil
}

func (w *World) abortable(p *Producer, code ErrorCode, text arg) {
	w.clientError(p, code, sub(saysAbortableCallAborttransaction, text), because(RuleErrorAbortable, saysAbortable))
	if p.State != AbortableError && p.State != FatalError && p.State != AbortingTransaction {
		w.setClientState(p, AbortableError)
	}
}

func (w *World) anyBroker() int {
	for _, b := range w.brokers {
		if b.Alive {
			return b.ID
		}
	}
	return -1
}

func (w *World) clientSend(p *Producer, kind MsgKind, broker int, body Body, batchID int64, tps []TP) int64 {
	corr := w.newCorr()
	p.InFlight = append(p.InFlight, InFlightRequest{Corr: corr, Kind: kind, Broker: broker, BatchID: batchID, TPs: tps})
	w.send(kind, p.Name, brokerAddr(broker), corr, body)
	w.setTimer(p.Config.RequestTimeoutMs, Timer{Kind: TimerRequestTimeout, Owner: p.Name, ID: corr})
	return corr
}

func (p *Producer) inFlightOf(kind MsgKind) bool {
	for _, r := range p.InFlight {
		if r.Kind == kind {
			return true
		}
	}
	return false
}

func (p *Producer) inFlightTo(broker int) int {
	n := 0
	for _, r := range p.InFlight {
		if r.Kind == MsgProduce && r.Broker == broker {
			n++
		}
	}
	return n
}

// runProducer is one turn of the Sender loop (Sender.runOnce): it does
// whatever the client can do now. An idempotent or transactional producer
// first serves its TransactionManager: while one transactional request is in
// flight, or one was just sent, no produce data is sent in that turn
// (Sender.maybeSendAndPollTransactionalRequest returns true and runOnce
// returns before sendProducerData).
func (w *World) runProducer(p *Producer) {
	if p.Crashed || p.Paused || p.Closed || p.ConfigError != nil || p.State == FatalError {
		return
	}
	if w.now < p.BackoffUntil {
		return
	}
	if p.idempotent() && w.maybeSendTxnRequest(p) {
		return
	}
	w.drain(p)
}

// maybeSendTxnRequest is Sender.maybeSendAndPollTransactionalRequest: the
// producer keeps at most ONE transactional request in flight, and picks the
// next one from its pendingRequests queue by TransactionManager.Priority
// (FindCoordinator, InitProducerId, AddPartitionsToTxn / AddOffsetsToTxn /
// TxnOffsetCommit, EndTxn, the epoch bump). So AddOffsetsToTxn never races
// an AddPartitionsToTxn of the same transaction, and the coordinator never
// answers CONCURRENT_TRANSACTIONS because of the client's own requests. It
// reports whether the Sender's turn is used up.
func (w *World) maybeSendTxnRequest(p *Producer) bool {
	if p.TxnCorr != 0 {
		return true
	}
	if !p.transactional() && p.NeedInit && !p.txnRequestQueued(MsgInitProducerID) && !p.inFlightOf(MsgInitProducerID) {
		// Sender.runOnce: bumpIdempotentEpochAndResetIdIfNeeded queues an
		// InitProducerId(transactionalId=null) for a producer without a pid.
		p.enqueue(TxnRequest{Kind: MsgInitProducerID})
	}
	if p.State == AbortableError || p.State == AbortingTransaction {
		// RecordAccumulator.abortUndrainedBatches: batches not yet sent fail
		// with the transaction; batches in flight still complete.
		p.dropUndrained()
	}
	for {
		r, ok := w.nextTxnRequest(p)
		if !ok {
			return false
		}
		broker := -1
		switch {
		case r.Kind == MsgFindCoordinator || !p.transactional():
			// No coordinator needed: any broker (leastLoadedNode).
			if broker = w.anyBroker(); broker < 0 {
				p.reenqueue(r)
				return true
			}
		case r.Kind == MsgTxnOffsetCommit:
			if p.GroupCoord < 0 {
				// maybeFindCoordinatorAndRetry: look the coordinator up
				// first; the request waits in the queue behind it.
				w.lookupCoordinator(p, true, p.Offsets.Group)
				p.reenqueue(r)
				continue
			}
			broker = p.GroupCoord
		default:
			if p.CoordBroker < 0 {
				w.lookupCoordinator(p, false, p.Config.TransactionalID)
				p.reenqueue(r)
				continue
			}
			broker = p.CoordBroker
		}
		w.sendTxnRequest(p, r, broker)
		return true
	}
}

// nextTxnRequest is TransactionManager.nextRequest. New partitions are put
// into an AddPartitionsToTxn only now, at the Sender's turn, so requests the
// application queued before (AddOffsetsToTxn) go first among equals. EndTxn
// waits until every batch has completed. In ABORTABLE_ERROR a request taken
// from the queue fails instead of being sent (maybeTerminateRequestWithError),
// except FindCoordinator.
func (w *World) nextTxnRequest(p *Producer) (TxnRequest, bool) {
	if len(p.NewParts) > 0 {
		p.AddingParts = append(p.AddingParts, p.NewParts...)
		p.NewParts = nil
		if !p.txnRequestQueued(MsgAddPartitionsToTxn) {
			p.enqueue(TxnRequest{Kind: MsgAddPartitionsToTxn})
		}
	}
	for {
		if len(p.Pending) == 0 {
			return TxnRequest{}, false
		}
		if p.Pending[0].Kind == MsgEndTxn && len(p.Queue) > 0 {
			return TxnRequest{}, false
		}
		r := p.poll()
		if (r.Kind == MsgAddOffsetsToTxn || r.Kind == MsgTxnOffsetCommit) && p.Offsets == nil {
			continue
		}
		if p.State == AbortableError && r.Kind != MsgFindCoordinator {
			w.terminateTxnRequest(p, r)
			continue
		}
		if r.Kind == MsgEndTxn && !p.TxnStarted {
			text, rule := noEndTxnText(p)
			w.emitRule(EvInfo, p.Name, rule, text)
			w.endCallReturns(p)
			w.completeTransaction(p)
			continue
		}
		return r, true
	}
}

// terminateTxnRequest fails a queued request because the transaction is in
// ABORTABLE_ERROR (TransactionManager.maybeTerminateRequestWithError).
func (w *World) terminateTxnRequest(p *Producer, r TxnRequest) {
	switch r.Kind {
	case MsgEndTxn:
		if r.Commit && p.EndRequested == 1 {
			// A queued EndTxn(commit) is never sent once the transaction has
			// an abortable error; commitTransaction fails and the
			// application must abort.
			p.EndRequested = 0
			w.emitRule(EvClientError, p.Name, because(RuleErrorAbortable, saysAbortable), saysCommittransactionFailsTheTransactionHit, p.LastError).code(p.LastError)
		}
	case MsgAddOffsetsToTxn, MsgTxnOffsetCommit:
		p.Offsets = nil
	}
}

// terminateQueued fails every queued request but FindCoordinator, as the
// Sender does turn after turn in ABORTABLE_ERROR.
func (w *World) terminateQueued(p *Producer) {
	var keep []TxnRequest
	for len(p.Pending) > 0 {
		if r := p.poll(); r.Kind == MsgFindCoordinator {
			keep = append(keep, r)
		} else {
			w.terminateTxnRequest(p, r)
		}
	}
	for _, r := range keep {
		p.enqueue(r)
	}
}

// sendTxnRequest builds the request for r from the producer's state now and
// sends it as the one transactional request in flight.
func (w *World) sendTxnRequest(p *Producer, r TxnRequest, broker int) {
	var body Body
	var tps []TP
	txnID := p.Config.TransactionalID
	switch r.Kind {
	case MsgFindCoordinator:
		body = &FindCoordinatorRequest{Key: r.Key, Group: r.Group}
	case MsgInitProducerID:
		req := &InitProducerIDRequest{TransactionalID: txnID, TimeoutMs: p.Config.TxnTimeoutMs, ProducerID: NoProducerID, ProducerEpoch: NoProducerEpoch}
		if !p.transactional() {
			req = &InitProducerIDRequest{Idempotent: true, TimeoutMs: 2147483647, ProducerID: NoProducerID, ProducerEpoch: NoProducerEpoch}
		} else if r.Bump {
			req.ProducerID, req.ProducerEpoch = p.ProducerID, p.Epoch
		}
		body = req
	case MsgAddPartitionsToTxn:
		tps = append([]TP(nil), p.AddingParts...)
		body = &AddPartitionsToTxnRequest{TransactionalID: txnID, ProducerID: p.ProducerID, ProducerEpoch: p.Epoch, Partitions: tps, Txn: p.Txn}
	case MsgAddOffsetsToTxn:
		body = &AddOffsetsToTxnRequest{TransactionalID: txnID, ProducerID: p.ProducerID, ProducerEpoch: p.Epoch, GroupID: p.Offsets.Group, Txn: p.Txn}
	case MsgTxnOffsetCommit:
		j := p.Offsets
		body = &TxnOffsetCommitRequest{TransactionalID: txnID, GroupID: j.Group, ProducerID: p.ProducerID, ProducerEpoch: p.Epoch,
			GenerationID: j.Generation, MemberID: j.Member, GroupInstanceID: j.Instance, Offsets: j.Offsets, Txn: p.Txn, TV2: r.V2}
	case MsgEndTxn:
		body = &EndTxnRequest{TransactionalID: txnID, ProducerID: p.ProducerID, ProducerEpoch: p.Epoch, Commit: r.Commit, TV2: r.V2}
	}
	corr := w.clientSend(p, r.Kind, broker, body, 0, tps)
	p.TxnCorr, p.TxnSent = corr, r
}

// lookupCoordinator is TransactionManager.lookupCoordinator: forget the
// coordinator and queue a FindCoordinator for it.
func (w *World) lookupCoordinator(p *Producer, group bool, key string) {
	if group {
		p.GroupCoord = -1
	} else {
		p.CoordBroker = -1
	}
	p.enqueue(TxnRequest{Kind: MsgFindCoordinator, Group: group, Key: key})
}

// enqueue is PriorityQueue.offer on TransactionManager.pendingRequests. The
// queue is java.util.PriorityQueue's binary heap with the comparator on
// priority only, and requests of equal priority come out in the order that
// heap gives (siftUp and siftDown below are the JDK's), so the simulation
// sends what Java would.
func (p *Producer) enqueue(r TxnRequest) {
	q := append(p.Pending, r)
	k := len(q) - 1
	for k > 0 {
		parent := (k - 1) / 2
		if r.priority() >= q[parent].priority() {
			break
		}
		q[k] = q[parent]
		k = parent
	}
	q[k] = r
	p.Pending = q
}

// poll is PriorityQueue.poll: take the head, move the last element to the
// root and sift it down.
func (p *Producer) poll() TxnRequest {
	q := p.Pending
	head := q[0]
	n := len(q) - 1
	x := q[n]
	q = q[:n]
	if n > 0 {
		k := 0
		for k < n/2 {
			child := 2*k + 1
			if right := child + 1; right < n && q[child].priority() > q[right].priority() {
				child = right
			}
			if x.priority() <= q[child].priority() {
				break
			}
			q[k] = q[child]
			k = child
		}
		q[k] = x
	}
	p.Pending = q
	return head
}

// reenqueue is TxnRequestHandler.reenqueue: the request goes back into the
// queue to be sent again.
func (p *Producer) reenqueue(r TxnRequest) { p.enqueue(r) }

// txnRequestQueued reports whether a request of this kind waits in the
// queue (not one in flight). Java may queue a second AddPartitionsToTxn
// holding all pending partitions again; here the queued one is built at
// send time from all pending partitions, which comes to the same.
func (p *Producer) txnRequestQueued(kind MsgKind) bool {
	for _, r := range p.Pending {
		if r.Kind == kind {
			return true
		}
	}
	return false
}

// dropUndrained removes the batches not yet sent.
func (p *Producer) dropUndrained() {
	undrained := false
	for i := range p.Queue {
		undrained = undrained || !p.Queue[i].InFlight
	}
	if !undrained {
		return
	}
	kept := p.Queue[:0:0]
	for _, b := range p.Queue {
		if b.InFlight {
			kept = append(kept, b)
		}
	}
	p.Queue = kept
}

// drain sends ready batches: in order per partition, within
// max.in.flight.requests.per.connection, and for transactions only to
// partitions already added (isSendToPartitionAllowed).
func (w *World) drain(p *Producer) {
	if p.State == AbortableError || p.State == AbortingTransaction || p.State == Initializing {
		return
	}
	if (p.idempotent() && p.ProducerID == NoProducerID) || len(p.Queue) == 0 {
		return
	}
	var blocked []TP // partitions that cannot send now: keep their order
	// An index loop, not range: an acks=0 batch leaves the queue as it is
	// sent, and the batch after it moves into its slot.
	for i := 0; i < len(p.Queue); i++ {
		b := &p.Queue[i]
		if b.InFlight {
			continue
		}
		if hasTP(blocked, b.TP) {
			continue
		}
		if b.Transactional && !hasTP(p.TxnParts, b.TP) {
			blocked = append(blocked, b.TP)
			continue
		}
		pl := w.partitions[b.TP]
		if pl == nil || pl.Leader < 0 {
			blocked = append(blocked, b.TP)
			continue
		}
		if p.inFlightTo(pl.Leader) >= p.Config.MaxInFlight {
			blocked = append(blocked, b.TP)
			continue
		}
		if p.idempotent() && b.BaseSeq != NoSequence && !p.firstUnacked(b) {
			// RecordAccumulator.shouldStopDrainBatchesForPartition: a
			// batch that already has a sequence is a retry, and leaves
			// only when it is the partition's earliest unacknowledged one
			// (TransactionManager.firstInFlightSequence). A retry refused
			// with OUT_OF_ORDER_SEQUENCE_NUMBER while an earlier batch is
			// unanswered waits for that answer instead of being refused
			// again every retry.backoff.ms, and the batches behind it
			// wait with it: retries go one request at a time.
			blocked = append(blocked, b.TP)
			continue
		}
		if p.idempotent() && b.BaseSeq == NoSequence {
			ps := p.part(b.TP)
			if ps.Stale {
				if p.hasUnacked(b.TP) {
					// shouldStopDrainBatchesForPartition: no new batch
					// while the partition has unanswered batches of the
					// epoch before, or a batch with the new epoch and
					// sequence 0 could land before them.
					blocked = append(blocked, b.TP)
					continue
				}
				// maybeUpdateProducerIdAndEpoch: the partition's batches
				// are all answered; it starts again at sequence 0.
				ps.NextSeq, ps.LastAckedSeq, ps.Stale = 0, NoSequence, false
			}
			b.BaseSeq = ps.NextSeq
			ps.NextSeq = addSeq(ps.NextSeq, int32(b.Records.Len()))
			b.ProducerID = p.ProducerID
			b.Epoch = p.Epoch
		}
		b.InFlight = true
		b.Attempts++
		batch := Batch{ProducerID: NoProducerID, ProducerEpoch: NoProducerEpoch, BaseSequence: NoSequence, Count: int32(b.Records.Len()), Records: b.Records, Transactional: b.Transactional, Txn: b.Txn}
		if p.idempotent() {
			batch.ProducerID, batch.ProducerEpoch, batch.BaseSequence = b.ProducerID, b.Epoch, b.BaseSeq
		}
		corr := w.newCorr()
		b.Corr = corr
		p.InFlight = append(p.InFlight, InFlightRequest{Corr: corr, Kind: MsgProduce, Broker: pl.Leader, BatchID: b.ID, TPs: []TP{b.TP}})
		w.send(MsgProduce, p.Name, brokerAddr(pl.Leader), corr, &ProduceRequest{TP: b.TP, TransactionalID: p.Config.TransactionalID, Acks: p.Config.Acks, Batches: []Batch{batch},
			TV2: p.TV2})
		if p.Config.Acks == 0 {
			// Fire and forget: the client counts the batch as sent.
			p.removeInFlight(corr)
			w.emitRule(EvInfo, p.Name, because(RuleAcksZero, saysAcks0CanLoseData), saysAcks0CountsValuesAs, b.TP, recordValues(batch.Values())).on(b.TP)
			p.removeBatch(b.ID)
			i--
			continue
		}
		w.setTimer(p.Config.RequestTimeoutMs, Timer{Kind: TimerRequestTimeout, Owner: p.Name, ID: corr})
	}
}

// hasUnacked reports whether tp has a batch with a sequence and no answer.
func (p *Producer) hasUnacked(tp TP) bool {
	for i := range p.Queue {
		if o := &p.Queue[i]; o.TP == tp && o.BaseSeq != NoSequence {
			return true
		}
	}
	return false
}

// firstUnacked reports whether b is the earliest batch of its partition
// that has a sequence and no answer yet (in flight or waiting for its
// retry): TxnPartitionEntry.inflightBatchesBySequence's first. The queue
// holds a partition's batches in the order their sequences were given.
func (p *Producer) firstUnacked(b *ProducerBatch) bool {
	for i := range p.Queue {
		if o := &p.Queue[i]; o.TP == b.TP && o.BaseSeq != NoSequence {
			return o.ID == b.ID
		}
	}
	return false
}

func (p *Producer) removeInFlight(corr int64) (InFlightRequest, bool) {
	for i, r := range p.InFlight {
		if r.Corr == corr {
			p.InFlight = append(p.InFlight[:i:i], p.InFlight[i+1:]...)
			return r, true
		}
	}
	return InFlightRequest{}, false
}

func (p *Producer) batch(id int64) *ProducerBatch {
	for i := range p.Queue {
		if p.Queue[i].ID == id {
			return &p.Queue[i]
		}
	}
	return nil
}

func (p *Producer) removeBatch(id int64) {
	for i := range p.Queue {
		if p.Queue[i].ID == id {
			p.Queue = append(p.Queue[:i:i], p.Queue[i+1:]...)
			return
		}
	}
}

// completeTransaction is TransactionManager.completeTransaction: the
// transaction's bookkeeping is cleared and the producer is READY again, or
// INITIALIZING when the epoch must be bumped first (KIP-360, ref 1.3).
func (w *World) completeTransaction(p *Producer) {
	p.TxnParts, p.NewParts, p.AddingParts = nil, nil, nil
	p.Offsets = nil
	p.TxnStarted = false
	if p.BumpEpoch {
		w.setClientState(p, Initializing)
		return
	}
	w.setClientState(p, Ready)
}

// endCallReturns completes the waiting commitTransaction or abortTransaction.
func (w *World) endCallReturns(p *Producer) {
	switch p.EndRequested {
	case 1:
		w.emit(EvInfo, p.Name, saysCommitReturns)
	case 2:
		w.emit(EvInfo, p.Name, saysAborttransactionReturns)
	}
	p.EndRequested = 0
}

// onProducerMessage handles a response that reached the client.
func (w *World) onProducerMessage(p *Producer, m *Message) {
	req, ok := p.removeInFlight(m.Corr)
	if !ok {
		w.emit(EvInfo, p.Name, saysIgnoresNoRequestWaitsFor, msgName(m.ID), m.Kind)
		return
	}
	w.cancelTimer(TimerRequestTimeout, p.Name, m.Corr)
	var h TxnRequest
	if m.Corr == p.TxnCorr {
		h = p.TxnSent
		p.TxnCorr, p.TxnSent = 0, TxnRequest{}
	}
	switch r := m.Body.(type) {
	case *FindCoordinatorResponse:
		w.onFindCoordinatorResp(p, h, r)
	case *InitProducerIDResponse:
		w.onInitPidResp(p, h, r)
	case *AddPartitionsToTxnResponse:
		w.onAddPartitionsResp(p, h, req.TPs, r)
	case *AddOffsetsToTxnResponse:
		w.onTxnCoordResp(p, h, r.Code, MsgAddOffsetsToTxn, func() {
			// AddOffsetsToTxnHandler queues the TxnOffsetCommit; the
			// sendOffsetsToTransaction result completes only with its answer.
			p.enqueue(TxnRequest{Kind: MsgTxnOffsetCommit, V2: p.TV2})
			// It also sets transactionStarted: an offsets-only transaction
			// still needs its EndTxn (ref 1.3).
			p.TxnStarted = true
		})
	case *TxnOffsetCommitResponse:
		w.onTxnOffsetCommitResp(p, h, r)
	case *EndTxnResponse:
		if r.V5 {
			w.onEndTxnRespV2(p, h, r)
			return
		}
		w.onTxnCoordResp(p, h, r.Code, MsgEndTxn, func() { w.endTxnDone(p) })
	case *ProduceResponse:
		w.onProduceResp(p, req, r)
	}
}

func (w *World) retryLater(p *Producer, backoff int64) {
	if backoff <= 0 {
		backoff = p.Config.RetryBackoffMs
	}
	p.BackoffUntil = w.now + backoff
	w.setTimer(backoff, Timer{Kind: TimerRetryBackoff, Owner: p.Name})
}

func (w *World) onFindCoordinatorResp(p *Producer, h TxnRequest, r *FindCoordinatorResponse) {
	if r.Code != None {
		p.reenqueue(h)
		w.retryLater(p, 0)
		return
	}
	if r.Group {
		p.GroupCoord = r.Broker
		return
	}
	p.CoordBroker = r.Broker
	e := w.emitTyped(EvInfo, p.Name, sayLearns)
	e.x, e.y = int32(r.Broker), w.TxnPartitionFor(p.Config.TransactionalID)
}

// coordinatorRetry handles the retriable coordinator errors shared by every
// transactional request (ref 1.4): the request goes back into the queue,
// behind a FindCoordinator when the coordinator moved.
func (w *World) coordinatorRetry(p *Producer, h TxnRequest, code ErrorCode) bool {
	switch code {
	case NotCoordinator, CoordinatorNotAvailable:
		w.emitTyped(EvClientError, p.Name, sayRefinds).code(code).Rule = because(RuleErrorFindCoordinator, saysRetried)
		w.lookupCoordinator(p, false, p.Config.TransactionalID)
		p.reenqueue(h)
		return true
	case CoordinatorLoadInProgress, ConcurrentTransactions, RequestTimedOut:
		w.emitTyped(EvClientError, p.Name, sayRetries).code(code).Rule = because(RuleErrorRetriable, saysRetriable)
		p.reenqueue(h)
		w.retryLater(p, 0)
		return true
	}
	return false
}

func (w *World) onInitPidResp(p *Producer, h TxnRequest, r *InitProducerIDResponse) {
	if r.Code == None {
		old := p.Epoch
		oldPid := p.ProducerID
		p.ProducerID, p.Epoch = r.ProducerID, r.ProducerEpoch
		p.NeedInit = false
		p.BumpEpoch, p.TVUpgrade = false, false
		for i := range p.Parts {
			p.Parts[i].NextSeq = 0
			p.Parts[i].LastAckedSeq = NoSequence
			p.Parts[i].Stale = false
		}
		e := w.emitTyped(EvEpoch, p.Name, sayHasPID)
		e.arg, e.epoch = p.ProducerID, p.Epoch
		if oldPid == p.ProducerID && oldPid >= 0 {
			e.x, e.y = int32(old), 1
		}
		if p.State == Initializing {
			w.setClientState(p, Ready)
		}
		if h.Bump {
			// InitProducerIdHandler completes the transactionalResult that
			// abortTransaction waits on when the abort needed a bump.
			w.endCallReturns(p)
		}
		return
	}
	if w.coordinatorRetry(p, h, r.Code) {
		return
	}
	if r.Code == InvalidTransactionTimeout {
		w.fatal(p, r.Code, sub(saysUnexpectedErrorInInitproduceridresponse))
	} else {
		w.fatal(p, ProducerFencedIfEpoch(r.Code), sub(saysInitproduceridFailed))
	}
	if h.Bump {
		w.endCallFails(p)
	}
}

// endCallFails: the waiting commitTransaction or abortTransaction throws
// the producer's last error (TransactionalRequestResult.fail).
func (w *World) endCallFails(p *Producer) {
	if p.EndRequested == 0 {
		return
	}
	call := txnCall(p.EndRequested != 2)
	p.EndRequested = 0
	w.emitRule(EvClientError, p.Name, cite(RuleClientThrows), saysThrows, call, exceptionOf(p.LastError))
}

// exceptionName is the Java exception a client error surfaces as.
func exceptionName(c ErrorCode) string {
	switch c {
	case ProducerFenced:
		return "ProducerFencedException"
	case InvalidTransactionTimeout:
		return "KafkaException"
	}
	return c.Name()
}

// ProducerFencedIfEpoch maps INVALID_PRODUCER_EPOCH from a coordinator API to
// the ProducerFencedException the client raises (ref 1.4).
func ProducerFencedIfEpoch(c ErrorCode) ErrorCode {
	if c == InvalidProducerEpoch {
		return ProducerFenced
	}
	return c
}

func (w *World) onAddPartitionsResp(p *Producer, h TxnRequest, sent []TP, r *AddPartitionsToTxnResponse) {
	code := None
	for _, x := range r.Results {
		if x.Code != None {
			code = x.Code
			break
		}
	}
	if code == None {
		// AddPartitionsToTxnHandler: the partitions of this request are in
		// the transaction and no longer pending.
		for _, tp := range sent {
			if !hasTP(p.TxnParts, tp) {
				p.TxnParts = append(p.TxnParts, tp)
			}
		}
		sortTPs(p.TxnParts)
		kept := p.AddingParts[:0:0]
		for _, tp := range p.AddingParts {
			if !hasTP(sent, tp) {
				kept = append(kept, tp)
			}
		}
		p.AddingParts = kept
		p.TxnStarted = true
		return
	}
	// The partitions stay pending; the same request is sent again on retry.
	if code == ConcurrentTransactions && len(p.TxnParts) == 0 {
		w.emitRule(EvClientError, p.Name, cite(RuleAddPartitionsBackoff), saysGetsOnItsFirstAddpartitionstotxn, ConcurrentTransactions).code(ConcurrentTransactions)
		p.reenqueue(h)
		w.retryLater(p, AddPartitionsRetryBackoffMs)
		return
	}
	if w.coordinatorRetry(p, h, code) {
		return
	}
	w.txnRequestFailed(p, code, MsgAddPartitionsToTxn)
}

func (w *World) txnRequestFailed(p *Producer, code ErrorCode, what MsgKind) {
	switch code {
	case ProducerFenced, InvalidProducerEpoch:
		w.fatal(p, ProducerFenced, sub(saysRequestFenced, what))
	case InvalidTxnState:
		w.fatal(p, code, what)
	case InvalidProducerIDMapping:
		p.BumpEpoch = true
		w.abortable(p, code, what)
	default:
		w.abortable(p, code, what)
	}
}

func (w *World) onTxnCoordResp(p *Producer, h TxnRequest, code ErrorCode, what MsgKind, ok func()) {
	if code == None {
		ok()
		return
	}
	if w.coordinatorRetry(p, h, code) {
		return
	}
	if what != MsgEndTxn {
		if what == MsgAddOffsetsToTxn {
			p.Offsets = nil
		}
		w.txnRequestFailed(p, code, what)
		return
	}
	// A failed EndTxn is not re-sent: the call fails with the error
	// (TxnRequestHandler.abortableError / fatalError, ref 1.4).
	aborting := p.EndRequested == 2
	p.EndRequested = 0
	w.txnRequestFailed(p, code, what)
	if aborting && p.BumpEpoch && p.State == AbortingTransaction {
		// INVALID_PRODUCER_ID_MAPPING on EndTxn(abort): the abort goes on
		// with InitProducerId(pid, epoch), as abortTransaction does when the
		// last error was 49 (ref 1.3), and returns after it.
		p.EndRequested = 2
		w.completeTransaction(p)
		p.enqueue(TxnRequest{Kind: MsgInitProducerID, Bump: true})
	}
}

// endTxnDone is EndTxnHandler's success: completeTransaction, then the
// call returns, unless it waits for the epoch bump queued behind the
// EndTxn.
func (w *World) endTxnDone(p *Producer) {
	if !p.BumpEpoch {
		w.endCallReturns(p)
	} else if p.EndRequested != 0 {
		text, rule := bumpWaitText(p)
		w.emitRule(EvInfo, p.Name, rule, saysArg, text)
	}
	w.completeTransaction(p)
}

func (w *World) onTxnOffsetCommitResp(p *Producer, h TxnRequest, r *TxnOffsetCommitResponse) {
	code := None
	for _, x := range r.Results {
		if x.Code != None {
			code = x.Code
			break
		}
	}
	if code == None {
		p.Offsets = nil
		return
	}
	if p.Offsets == nil {
		return
	}
	switch code {
	case NotCoordinator, CoordinatorNotAvailable, RequestTimedOut:
		// TxnOffsetCommitHandler: find the group coordinator again and retry.
		w.lookupCoordinator(p, true, p.Offsets.Group)
		p.reenqueue(h)
	case CoordinatorLoadInProgress, UnstableOffsetCommit:
		// Any other RetriableException: retry with the same coordinator.
		p.reenqueue(h)
		w.retryLater(p, 0)
	case ConcurrentTransactions:
		// Verification found the transaction completing (ref 5.2):
		// retriable, sent again to the same coordinator.
		w.emitRule(EvClientError, p.Name, because(RuleTxnOffsetRetriable, saysRetriable), saysGetsOnTxnoffsetcommitRetriesAfter, code).code(code)
		p.reenqueue(h)
		w.retryLater(p, 0)
	case InvalidProducerEpoch, ProducerFenced:
		w.fatal(p, ProducerFenced, sub(saysTxnoffsetcommitProducerfencedexception))
	case InvalidTxnState, InvalidProducerIDMapping:
		// TxnOffsetCommitHandler: "Unexpected error in
		// TxnOffsetCommitResponse" (ref 5.5).
		p.Offsets = nil
		w.fatal(p, code, sub(saysTxnoffsetcommitKafkaexception))
	default:
		p.Offsets = nil
		// TxnOffsetCommitHandler: 22 and 25 surface as CommitFailedException,
		// the rest (82 FencedInstanceIdException, 120, ...) as themselves.
		what := saysTxnOffsetCommitName
		if code == IllegalGeneration || code == UnknownMemberID {
			what = saysTxnOffsetCommitFailed
		}
		w.abortable(p, code, sub(what))
	}
}

func (w *World) onProduceResp(p *Producer, req InFlightRequest, r *ProduceResponse) {
	b := p.batch(req.BatchID)
	if b == nil {
		return
	}
	b.InFlight = false
	if r.Code == None {
		ps := p.part(b.TP)
		if last := addSeq(b.BaseSeq, int32(b.Records.Len())-1); b.BaseSeq != NoSequence && (ps.LastAckedSeq == NoSequence || last > ps.LastAckedSeq) {
			// maybeUpdateLastAckedSequence: answers can come out of
			// order; the last acknowledged sequence only grows.
			ps.LastAckedSeq = last
		}
		ps.LastAckedOffset = r.BaseOffset
		p.LastAcked, p.Acks = AckedSend{TP: b.TP, BaseOffset: r.BaseOffset, Records: b.Records, Duplicate: r.Duplicate}, p.Acks+1
		e := w.emitTyped(EvInfo, p.Name, sayAcked).on(b.TP)
		e.arg = r.BaseOffset
		if r.Duplicate {
			e.x = 1
		}
		p.removeBatch(b.ID)
		return
	}
	w.produceFailed(p, b, r.Code)
}

// produceFailed decides between retry, epoch bump and error (ref 1.4, 1.5;
// Sender.completeBatch, TransactionManager.canRetry).
func (w *World) produceFailed(p *Producer, b *ProducerBatch, code ErrorCode) {
	expired := w.now-b.CreatedAt >= p.Config.DeliveryTimeoutMs
	retriesLeft := int64(b.Attempts) <= p.Config.Retries
	switch {
	case code.Retriable() || code == RequestTimedOut:
		if expired || !retriesLeft {
			w.failBatch(p, b, errTimeout, sub(saysDeliveryTimeoutMsOrRetries, codeName(code)))
			return
		}
		w.emitRule(EvClientError, p.Name, because(RuleBatchRetriable, saysRetriable), saysGetsForSeqRetriesThe, code, b.TP, seqsOf(b)).on(b.TP).code(code)
		w.retryLater(p, 0)
	case code == OutOfOrderSequenceNumber && p.idempotent():
		// TransactionManager.canRetry: a batch that is not the next
		// after the last acknowledged one, or whose sequence an epoch
		// bump has already rewritten, is retried as it is; the next one
		// refused means a real gap.
		ps := p.part(b.TP)
		if b.SeqReset || b.BaseSeq != nextSeq(ps.LastAckedSeq) {
			w.emitRule(EvClientError, p.Name, cite(RuleSeqUnresolvedRetry), saysGetsForSeqWhileAn, OutOfOrderSequenceNumber, seqsOf(b)).on(b.TP).code(OutOfOrderSequenceNumber)
			w.retryLater(p, 0)
			return
		}
		if p.transactional() {
			w.failBatch(p, b, code, sub(saysTheBrokerLostThisProducer))
			return
		}
		w.bumpIdempotentEpoch(p, b.TP)
		// canRetry answers true: Sender.reenqueueBatch puts the batch,
		// renumbered, back for a retry after retry.backoff.ms.
		w.retryLater(p, 0)
	default:
		w.failBatch(p, b, code, sub(saysSendToFailed, b.TP))
	}
}

// bumpIdempotentEpoch is bumpIdempotentProducerEpoch (KIP-360, ref 1.5): the
// client moves to epoch+1 locally, same pid, and renumbers from 0 the
// unacknowledged batches of the partition that hit the gap, and of that
// partition only (partitionsToRewriteSequences,
// TxnPartitionEntry.startSequencesAtBeginning). Every other partition is
// stale: a batch there that already has a sequence keeps its epoch and
// sequence, since its earlier attempt may have been appended and a new
// number would append it again (RecordAccumulator.drain).
func (w *World) bumpIdempotentEpoch(p *Producer, tp TP) {
	if p.Epoch == math.MaxInt16 {
		// bumpIdempotentProducerEpoch: the client side runs out at 32767
		// (the coordinator's bound is 32766, ref 0.1).
		w.emitRule(EvEpoch, p.Name, cite(RuleIdempotentNewPid), saysEpochExhaustedAsksForA)
		p.NeedInit = true
		p.ProducerID = NoProducerID
		for i := range p.Queue {
			p.Queue[i].BaseSeq = NoSequence
		}
		return
	}
	p.Epoch++
	w.emitRule(EvEpoch, p.Name, because(RuleIdempotentBump, saysIdempotentProducerHitAReal), saysBumpsItsEpochLocallyTo, num(int64(p.Epoch)), num(p.ProducerID), tp).on(tp)
	seq := int32(0)
	for i := range p.Queue {
		if b := &p.Queue[i]; b.TP == tp && b.BaseSeq != NoSequence {
			b.BaseSeq, b.Epoch, b.ProducerID, b.SeqReset = seq, p.Epoch, p.ProducerID, true
			seq = addSeq(seq, int32(b.Records.Len()))
		}
	}
	for i := range p.Parts {
		ps := &p.Parts[i]
		if ps.TP == tp {
			ps.NextSeq, ps.LastAckedSeq, ps.Stale = seq, NoSequence, false
		} else {
			ps.Stale = true
		}
	}
}

func (w *World) failBatch(p *Producer, b *ProducerBatch, code ErrorCode, text arg) {
	p.removeBatch(b.ID)
	if p.transactional() {
		if code == InvalidProducerEpoch {
			w.abortable(p, code, sub(saysProduceToInvalidproducerepochexception, b.TP))
			return
		}
		w.abortable(p, code, text)
		return
	}
	w.clientError(p, code, sub(saysTheRecordIsNotDelivered, text), cite(RuleBatchFailed))
}

// onRequestTimeout: no answer within request.timeout.ms. The request is
// treated as failed with a retriable error and retried (ref 1.4).
func (w *World) onProducerTimeout(p *Producer, corr int64) {
	req, ok := p.removeInFlight(corr)
	if !ok {
		return
	}
	w.emitRule(EvTimer, p.Name, w.because(RuleRequestTimeout, saysTheRequestOrItsAnswer), saysNoAnswerToItsWithin, req.Kind, num(p.Config.RequestTimeoutMs))
	switch req.Kind {
	case MsgProduce:
		if b := p.batch(req.BatchID); b != nil {
			b.InFlight = false
			w.produceFailed(p, b, RequestTimedOut)
		}
	default:
		if corr != p.TxnCorr {
			return
		}
		// TxnRequestHandler.onComplete for a disconnected request: find
		// the request's coordinator again (if it needs one) and send the
		// request again.
		h := p.TxnSent
		p.TxnCorr, p.TxnSent = 0, TxnRequest{}
		switch {
		case h.Kind == MsgFindCoordinator || !p.transactional():
		case h.Kind == MsgTxnOffsetCommit:
			if p.Offsets != nil {
				w.lookupCoordinator(p, true, p.Offsets.Group)
			}
		default:
			w.lookupCoordinator(p, false, p.Config.TransactionalID)
		}
		p.reenqueue(h)
	}
}

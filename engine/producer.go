package engine

import (
	"math"
	"strings"
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

// PartitionSeq is the client's per-partition sequence bookkeeping (ref 1.2).
type PartitionSeq struct {
	TP              TP
	NextSeq         int32
	LastAckedSeq    int32
	LastAckedOffset int64
}

// ProducerBatch is a batch in the client's accumulator, from send() until it
// is acknowledged or fails.
type ProducerBatch struct {
	ID            int64
	TP            TP
	Records       []Record
	BaseSeq       int32 // NoSequence until first drained
	Epoch         int16
	ProducerID    int64
	Attempts      int
	CreatedAt     int64
	InFlight      bool
	Corr          int64
	Transactional bool
	Txn           int64
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
	Values     []string
	Duplicate  bool
}

type offsetsStage uint8

const (
	offNone offsetsStage = iota
	offNeedAdd
	offAdding
	offNeedCoordinator
	offFinding
	offNeedCommit
	offCommitting
)

// OffsetsJob is a sendOffsetsToTransaction in progress (TV1: AddOffsetsToTxn
// then TxnOffsetCommit, ref 5.1).
type OffsetsJob struct {
	Group      string
	Offsets    []TPOffset
	Generation int32
	Member     string
	Instance   string
	Stage      offsetsStage
	Broker     int
}

// Producer is a KafkaProducer instance: the accumulator, the Sender and the
// TransactionManager, all driven by events.
type Producer struct {
	Name         string
	Config       ProducerConfig
	ConfigError  string
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
	NewParts     []TP
	AddingParts  []TP
	Offsets      *OffsetsJob
	EndRequested int8 // 0 none, 1 commit, 2 abort
	EndSent      bool
	TxnStarted   bool
	BumpEpoch    bool // KIP-360: InitProducerId(pid, epoch) after the abort
	NeedInit     bool
	Txn          int64
	BackoffUntil int64
	LastError    ErrorCode
	ErrorText    string
	Acked        []AckedSend
	Sends        int
	FindingCoord bool
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
	for _, p := range w.Producers {
		if p.Name == name {
			return p
		}
	}
	for _, pr := range w.Processors {
		if pr.Name == name {
			return pr.Producer
		}
	}
	return nil
}

func (w *World) setClientState(p *Producer, to ClientState) {
	if p.State == to {
		return
	}
	if !ValidClientTransition(p.State, to) {
		w.violate("illegal-transition", p.Name, "client "+p.State.String()+" -> "+to.String()+" is not a legal transition (ref 1.3)")
	}
	w.emit(EvClientState, p.Name, p.State.String()+" -> "+to.String())
	p.State = to
}

// clientError records an error the application sees.
func (w *World) clientError(p *Producer, code ErrorCode, text, rule string) {
	p.LastError = code
	p.ErrorText = text
	w.emitRule(EvClientError, p.Name, "gets "+code.String()+": "+text, rule)
}

func (w *World) fatal(p *Producer, code ErrorCode, text string) {
	w.clientError(p, code, text+" (fatal: the producer must be closed)", "ref 1.4: fatal")
	w.setClientState(p, FatalError)
	p.Queue = nil
}

func (w *World) abortable(p *Producer, code ErrorCode, text string) {
	w.clientError(p, code, text+" (abortable: call abortTransaction)", "ref 1.4: abortable")
	if p.State != AbortableError && p.State != FatalError && p.State != AbortingTransaction {
		w.setClientState(p, AbortableError)
	}
}

func (w *World) anyBroker() int {
	for _, b := range w.Brokers {
		if b.Alive {
			return b.ID
		}
	}
	return -1
}

func (w *World) clientSend(p *Producer, kind MsgKind, broker int, body Body, batchID int64, tps []TP) {
	corr := w.newCorr()
	p.InFlight = append(p.InFlight, InFlightRequest{Corr: corr, Kind: kind, Broker: broker, BatchID: batchID, TPs: tps})
	w.send(kind, p.Name, brokerAddr(broker), corr, body)
	w.setTimer(p.Config.RequestTimeoutMs, Timer{Kind: TimerRequestTimeout, Owner: p.Name, ID: corr})
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

// runProducer is the Sender loop: it does whatever the client can do now.
func (w *World) runProducer(p *Producer) {
	if p.Crashed || p.Paused || p.Closed || p.ConfigError != "" || p.State == FatalError {
		return
	}
	if w.Now < p.BackoffUntil {
		return
	}
	if p.transactional() && p.CoordBroker < 0 && (p.State == Initializing || p.State == InTransaction || p.State == CommittingTransaction || p.State == AbortingTransaction || p.State == AbortableError) {
		if !p.FindingCoord {
			b := w.anyBroker()
			if b < 0 {
				return
			}
			p.FindingCoord = true
			w.clientSend(p, MsgFindCoordinator, b, &FindCoordinatorRequest{Key: p.Config.TransactionalID}, 0, nil)
		}
		return
	}
	if p.State == Initializing || (p.NeedInit && !p.transactional()) {
		if !p.inFlightOf(MsgInitProducerID) {
			if p.transactional() {
				req := &InitProducerIDRequest{TransactionalID: p.Config.TransactionalID, TimeoutMs: p.Config.TxnTimeoutMs, ProducerID: NoProducerID, ProducerEpoch: NoProducerEpoch}
				if p.BumpEpoch {
					req.ProducerID, req.ProducerEpoch = p.ProducerID, p.Epoch
				}
				w.clientSend(p, MsgInitProducerID, p.CoordBroker, req, 0, nil)
			} else if b := w.anyBroker(); b >= 0 {
				w.clientSend(p, MsgInitProducerID, b, &InitProducerIDRequest{Idempotent: true, TimeoutMs: 2147483647, ProducerID: NoProducerID, ProducerEpoch: NoProducerEpoch}, 0, nil)
			}
		}
		return
	}
	if p.transactional() && (p.State == InTransaction || p.State == CommittingTransaction) {
		if len(p.NewParts) > 0 && !p.inFlightOf(MsgAddPartitionsToTxn) {
			p.AddingParts = p.NewParts
			p.NewParts = nil
			w.clientSend(p, MsgAddPartitionsToTxn, p.CoordBroker, &AddPartitionsToTxnRequest{TransactionalID: p.Config.TransactionalID,
				ProducerID: p.ProducerID, ProducerEpoch: p.Epoch, Partitions: p.AddingParts, Txn: p.Txn}, 0, p.AddingParts)
		}
		w.runOffsetsJob(p)
	}
	w.drain(p)
	w.maybeEndTxn(p)
	if p.State == Initializing && !p.inFlightOf(MsgInitProducerID) {
		// The abort just finished and needs an epoch bump (KIP-360, ref
		// 1.3): send InitProducerId now rather than on the next wake-up,
		// which may never come when nothing else is in flight.
		w.runProducer(p)
	}
}

func (w *World) runOffsetsJob(p *Producer) {
	j := p.Offsets
	if j == nil {
		return
	}
	switch j.Stage {
	case offNeedAdd:
		j.Stage = offAdding
		w.clientSend(p, MsgAddOffsetsToTxn, p.CoordBroker, &AddOffsetsToTxnRequest{TransactionalID: p.Config.TransactionalID,
			ProducerID: p.ProducerID, ProducerEpoch: p.Epoch, GroupID: j.Group, Txn: p.Txn}, 0, nil)
	case offNeedCoordinator:
		if b := w.anyBroker(); b >= 0 {
			j.Stage = offFinding
			w.clientSend(p, MsgFindCoordinator, b, &FindCoordinatorRequest{Key: j.Group, Group: true}, 0, nil)
		}
	case offNeedCommit:
		j.Stage = offCommitting
		w.clientSend(p, MsgTxnOffsetCommit, j.Broker, &TxnOffsetCommitRequest{TransactionalID: p.Config.TransactionalID, GroupID: j.Group,
			ProducerID: p.ProducerID, ProducerEpoch: p.Epoch, GenerationID: j.Generation, MemberID: j.Member, GroupInstanceID: j.Instance,
			Offsets: j.Offsets, Txn: p.Txn}, 0, nil)
	}
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
	for i := range p.Queue {
		b := &p.Queue[i]
		if b.InFlight {
			if p.idempotent() {
				continue
			}
			continue
		}
		if hasTP(blocked, b.TP) {
			continue
		}
		if b.Transactional && !hasTP(p.TxnParts, b.TP) {
			blocked = append(blocked, b.TP)
			continue
		}
		pl := w.Partitions[b.TP]
		if pl == nil || pl.Leader < 0 {
			blocked = append(blocked, b.TP)
			continue
		}
		if p.inFlightTo(pl.Leader) >= p.Config.MaxInFlight {
			blocked = append(blocked, b.TP)
			continue
		}
		if p.idempotent() && b.BaseSeq == NoSequence {
			ps := p.part(b.TP)
			b.BaseSeq = ps.NextSeq
			ps.NextSeq = addSeq(ps.NextSeq, int32(len(b.Records)))
			b.ProducerID = p.ProducerID
			b.Epoch = p.Epoch
		}
		b.InFlight = true
		b.Attempts++
		batch := Batch{ProducerID: NoProducerID, ProducerEpoch: NoProducerEpoch, BaseSequence: NoSequence, Count: int32(len(b.Records)), Records: b.Records, Transactional: b.Transactional, Txn: b.Txn}
		if p.idempotent() {
			batch.ProducerID, batch.ProducerEpoch, batch.BaseSequence = b.ProducerID, b.Epoch, b.BaseSeq
		}
		corr := w.newCorr()
		b.Corr = corr
		p.InFlight = append(p.InFlight, InFlightRequest{Corr: corr, Kind: MsgProduce, Broker: pl.Leader, BatchID: b.ID, TPs: []TP{b.TP}})
		w.send(MsgProduce, p.Name, brokerAddr(pl.Leader), corr, &ProduceRequest{TP: b.TP, TransactionalID: p.Config.TransactionalID, Acks: p.Config.Acks, Batches: []Batch{batch}})
		if p.Config.Acks == 0 {
			// Fire and forget: the client counts the batch as sent.
			p.removeInFlight(corr)
			w.emitRule(EvInfo, p.Name, "acks=0: counts "+b.TP.String()+" values="+strings.Join(batch.Values(), ",")+" as sent without any answer", "acks=0 can lose data")
			p.removeBatch(b.ID)
			i--
			continue
		}
		w.setTimer(p.Config.RequestTimeoutMs, Timer{Kind: TimerRequestTimeout, Owner: p.Name, ID: corr})
	}
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

// maybeEndTxn sends EndTxn once every batch has finished (ref 1.3).
func (w *World) maybeEndTxn(p *Producer) {
	if p.EndRequested == 0 || p.EndSent {
		return
	}
	if p.EndRequested == 1 && p.State == AbortableError {
		// TransactionManager.maybeTerminateRequestWithError: a queued
		// EndTxn(commit) is never sent once the transaction has an abortable
		// error; commitTransaction fails and the application must abort.
		p.EndRequested = 0
		w.emitRule(EvClientError, p.Name, "commitTransaction fails: the transaction hit "+p.LastError.String()+"; no EndTxn(commit) is sent, the application must call abortTransaction", "ref 1.4: abortable")
		return
	}
	if len(p.Queue) > 0 || p.inFlightOf(MsgAddPartitionsToTxn) || p.inFlightOf(MsgProduce) {
		return
	}
	if p.Offsets != nil && p.EndRequested == 1 {
		return
	}
	commit := p.EndRequested == 1
	if !p.TxnStarted {
		w.emitRule(EvInfo, p.Name, "nothing was added to the transaction: no EndTxn is sent", "ref 1.3: transactionStarted is false")
		w.finishTxn(p)
		return
	}
	if !commit && p.LastError == InvalidProducerIDMapping {
		w.finishTxn(p)
		return
	}
	p.EndSent = true
	w.clientSend(p, MsgEndTxn, p.CoordBroker, &EndTxnRequest{TransactionalID: p.Config.TransactionalID, ProducerID: p.ProducerID, ProducerEpoch: p.Epoch, Commit: commit}, 0, nil)
}

func (w *World) finishTxn(p *Producer) {
	p.EndRequested = 0
	p.EndSent = false
	p.TxnParts, p.NewParts, p.AddingParts = nil, nil, nil
	p.Offsets = nil
	p.TxnStarted = false
	if p.BumpEpoch {
		w.setClientState(p, Initializing)
		return
	}
	w.setClientState(p, Ready)
}

// onProducerMessage handles a response that reached the client.
func (w *World) onProducerMessage(p *Producer, m *Message) {
	req, ok := p.removeInFlight(m.Corr)
	if !ok {
		w.emit(EvInfo, p.Name, "ignores "+m.Name()+" "+m.Kind.String()+": no request waits for it")
		return
	}
	w.cancelTimer(TimerRequestTimeout, p.Name, m.Corr)
	switch r := m.Body.(type) {
	case *FindCoordinatorResponse:
		w.onFindCoordinatorResp(p, r)
	case *InitProducerIDResponse:
		w.onInitPidResp(p, r)
	case *AddPartitionsToTxnResponse:
		w.onAddPartitionsResp(p, r)
	case *AddOffsetsToTxnResponse:
		w.onTxnCoordResp(p, r.Code, "AddOffsetsToTxn", func() {
			if p.Offsets != nil {
				p.Offsets.Stage = offNeedCoordinator
			}
			// AddOffsetsToTxnHandler sets transactionStarted: an offsets-only
			// transaction still needs its EndTxn (ref 1.3).
			p.TxnStarted = true
		})
	case *TxnOffsetCommitResponse:
		w.onTxnOffsetCommitResp(p, r)
	case *EndTxnResponse:
		w.onTxnCoordResp(p, r.Code, "EndTxn", func() {
			if p.EndRequested == 1 {
				w.emit(EvInfo, p.Name, "commitTransaction returns: PrepareCommit is durable (markers may still be in flight)")
			} else {
				w.emit(EvInfo, p.Name, "abortTransaction returns")
			}
			w.finishTxn(p)
		})
	case *ProduceResponse:
		w.onProduceResp(p, req, r)
	}
}

func (w *World) retryLater(p *Producer, backoff int64) {
	if backoff <= 0 {
		backoff = p.Config.RetryBackoffMs
	}
	p.BackoffUntil = w.Now + backoff
	w.setTimer(backoff, Timer{Kind: TimerRetryBackoff, Owner: p.Name})
}

func (w *World) onFindCoordinatorResp(p *Producer, r *FindCoordinatorResponse) {
	if r.Group {
		if p.Offsets == nil {
			return
		}
		if r.Code != None {
			p.Offsets.Stage = offNeedCoordinator
			w.retryLater(p, 0)
			return
		}
		p.Offsets.Broker = r.Broker
		p.Offsets.Stage = offNeedCommit
		return
	}
	p.FindingCoord = false
	if r.Code != None {
		w.retryLater(p, 0)
		return
	}
	p.CoordBroker = r.Broker
	w.emit(EvInfo, p.Name, "learns its transaction coordinator is broker-"+itoa(int64(r.Broker))+" ("+TxnStateTopic+"-"+itoa(int64(w.TxnPartitionFor(p.Config.TransactionalID)))+")")
}

// coordinatorRetry handles the retriable coordinator errors shared by every
// transactional request (ref 1.4).
func (w *World) coordinatorRetry(p *Producer, code ErrorCode) bool {
	switch code {
	case NotCoordinator, CoordinatorNotAvailable:
		p.CoordBroker = -1
		w.emitRule(EvClientError, p.Name, "gets "+code.String()+": finds the coordinator again and retries", "ref 1.4: retried")
		return true
	case CoordinatorLoadInProgress, ConcurrentTransactions, RequestTimedOut:
		w.emitRule(EvClientError, p.Name, "gets "+code.String()+": retries after backoff", "ref 1.4: retriable")
		w.retryLater(p, 0)
		return true
	}
	return false
}

func (w *World) onInitPidResp(p *Producer, r *InitProducerIDResponse) {
	if r.Code == None {
		old := p.Epoch
		oldPid := p.ProducerID
		p.ProducerID, p.Epoch = r.ProducerID, r.ProducerEpoch
		p.NeedInit = false
		p.BumpEpoch = false
		for i := range p.Parts {
			p.Parts[i].NextSeq = 0
			p.Parts[i].LastAckedSeq = NoSequence
		}
		text := "has pid=" + itoa(p.ProducerID) + " epoch=" + itoa(int64(p.Epoch))
		if oldPid == p.ProducerID && oldPid >= 0 {
			text += " (was epoch " + itoa(int64(old)) + "); sequences restart at 0"
		}
		w.emit(EvEpoch, p.Name, text)
		if p.State == Initializing {
			w.setClientState(p, Ready)
		}
		return
	}
	if w.coordinatorRetry(p, r.Code) {
		return
	}
	if r.Code == InvalidTransactionTimeout {
		w.fatal(p, r.Code, "Unexpected error in InitProducerIdResponse")
		return
	}
	w.fatal(p, ProducerFencedIfEpoch(r.Code), "InitProducerId failed")
}

// ProducerFencedIfEpoch maps INVALID_PRODUCER_EPOCH from a coordinator API to
// the ProducerFencedException the client raises (ref 1.4).
func ProducerFencedIfEpoch(c ErrorCode) ErrorCode {
	if c == InvalidProducerEpoch {
		return ProducerFenced
	}
	return c
}

func (w *World) onAddPartitionsResp(p *Producer, r *AddPartitionsToTxnResponse) {
	code := None
	for _, x := range r.Results {
		if x.Code != None {
			code = x.Code
			break
		}
	}
	if code == None {
		p.TxnParts = append(p.TxnParts, p.AddingParts...)
		sortTPs(p.TxnParts)
		p.AddingParts = nil
		p.TxnStarted = true
		return
	}
	// Put the partitions back so they are added again on retry.
	p.NewParts = append(p.AddingParts, p.NewParts...)
	p.AddingParts = nil
	if code == ConcurrentTransactions && len(p.TxnParts) == 0 {
		w.emitRule(EvClientError, p.Name, "gets CONCURRENT_TRANSACTIONS(51) on its first AddPartitionsToTxn: retries after 20 ms", "ref 1.4")
		w.retryLater(p, AddPartitionsRetryBackoffMs)
		return
	}
	if w.coordinatorRetry(p, code) {
		return
	}
	w.txnRequestFailed(p, code, "AddPartitionsToTxn")
}

func (w *World) txnRequestFailed(p *Producer, code ErrorCode, what string) {
	switch code {
	case ProducerFenced, InvalidProducerEpoch:
		w.fatal(p, ProducerFenced, what+": ProducerFencedException, another instance with the same transactional.id took over")
	case InvalidTxnState:
		w.fatal(p, code, what)
	case InvalidProducerIDMapping:
		p.BumpEpoch = true
		w.abortable(p, code, what)
	default:
		w.abortable(p, code, what)
	}
}

func (w *World) onTxnCoordResp(p *Producer, code ErrorCode, what string, ok func()) {
	if code == None {
		ok()
		return
	}
	if what == "EndTxn" {
		p.EndSent = false
	}
	if what == "AddOffsetsToTxn" && p.Offsets != nil {
		p.Offsets.Stage = offNeedAdd
	}
	if w.coordinatorRetry(p, code) {
		return
	}
	if what != "EndTxn" {
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
		// last error was 49 (ref 1.3).
		w.finishTxn(p)
	}
}

func (w *World) onTxnOffsetCommitResp(p *Producer, r *TxnOffsetCommitResponse) {
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
	case NotCoordinator, CoordinatorNotAvailable, CoordinatorLoadInProgress:
		p.Offsets.Stage = offNeedCoordinator
		w.retryLater(p, 0)
	case ConcurrentTransactions:
		// Verification found the transaction completing (ref 5.2):
		// retriable, sent again to the same coordinator.
		p.Offsets.Stage = offNeedCommit
		w.emitRule(EvClientError, p.Name, "gets "+code.String()+" on TxnOffsetCommit: retries after backoff", "ref 5.5: retriable")
		w.retryLater(p, 0)
	case InvalidProducerEpoch, ProducerFenced:
		w.fatal(p, ProducerFenced, "TxnOffsetCommit: ProducerFencedException")
	case InvalidTxnState, InvalidProducerIDMapping:
		// TxnOffsetCommitHandler: "Unexpected error in
		// TxnOffsetCommitResponse" (ref 5.5).
		p.Offsets = nil
		w.fatal(p, code, "TxnOffsetCommit: KafkaException")
	default:
		p.Offsets = nil
		// TxnOffsetCommitHandler: 22 and 25 surface as CommitFailedException,
		// the rest (82 FencedInstanceIdException, 120, ...) as themselves.
		what := "TxnOffsetCommit"
		if code == IllegalGeneration || code == UnknownMemberID {
			what += " (CommitFailedException)"
		}
		w.abortable(p, code, what)
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
		if b.BaseSeq != NoSequence {
			ps.LastAckedSeq = addSeq(b.BaseSeq, int32(len(b.Records))-1)
		}
		ps.LastAckedOffset = r.BaseOffset
		vals := make([]string, len(b.Records))
		for i, rec := range b.Records {
			vals[i] = rec.Value
		}
		p.Acked = append(p.Acked, AckedSend{TP: b.TP, BaseOffset: r.BaseOffset, Values: vals, Duplicate: r.Duplicate})
		text := "send to " + b.TP.String() + " acknowledged at offset " + itoa(r.BaseOffset)
		if r.Duplicate {
			text += " (the broker recognised a retry; nothing new was written)"
		}
		w.emit(EvInfo, p.Name, text)
		p.removeBatch(b.ID)
		return
	}
	w.produceFailed(p, b, r.Code)
}

// produceFailed decides between retry, epoch bump and error (ref 1.4, 1.5;
// Sender.completeBatch, TransactionManager.canRetry).
func (w *World) produceFailed(p *Producer, b *ProducerBatch, code ErrorCode) {
	expired := w.Now-b.CreatedAt >= p.Config.DeliveryTimeoutMs
	retriesLeft := int64(b.Attempts) <= p.Config.Retries
	switch {
	case code.Retriable() || code == RequestTimedOut:
		if expired || !retriesLeft {
			w.failBatch(p, b, errTimeout, "delivery.timeout.ms or retries exhausted after "+code.Name())
			return
		}
		w.emitRule(EvClientError, p.Name, "gets "+code.String()+" for "+b.TP.String()+" seq="+seqText(b)+": retries the same batch", "ref 1.4: retriable")
		w.retryLater(p, 0)
	case code == OutOfOrderSequenceNumber && p.idempotent():
		ps := p.part(b.TP)
		if b.BaseSeq != nextSeq(ps.LastAckedSeq) && ps.LastAckedSeq != NoSequence || p.hasEarlierInFlight(b) {
			w.emitRule(EvClientError, p.Name, "gets OUT_OF_ORDER_SEQUENCE_NUMBER(45) for seq="+seqText(b)+" while an earlier batch is unresolved: retries", "TransactionManager.canRetry")
			w.retryLater(p, 0)
			return
		}
		if p.transactional() {
			w.failBatch(p, b, code, "the broker lost this producer's sequence")
			return
		}
		w.bumpIdempotentEpoch(p, b.TP)
	default:
		w.failBatch(p, b, code, "send to "+b.TP.String()+" failed")
	}
}

func seqText(b *ProducerBatch) string {
	if b.BaseSeq == NoSequence {
		return "-1"
	}
	return seqRange(b.BaseSeq, addSeq(b.BaseSeq, int32(len(b.Records))-1))
}

func (p *Producer) hasEarlierInFlight(b *ProducerBatch) bool {
	for i := range p.Queue {
		o := &p.Queue[i]
		if o.ID == b.ID {
			return false
		}
		if o.TP == b.TP && o.InFlight {
			return true
		}
	}
	return false
}

// bumpIdempotentEpoch is bumpIdempotentProducerEpoch (KIP-360, ref 1.5): the
// client moves to epoch+1 locally, same pid, and renumbers the partition's
// unacknowledged batches from 0.
func (w *World) bumpIdempotentEpoch(p *Producer, tp TP) {
	if p.Epoch >= math.MaxInt16 {
		// bumpIdempotentProducerEpoch: the client side runs out at 32767
		// (the coordinator's bound is 32766, ref 0.1).
		w.emitRule(EvEpoch, p.Name, "epoch exhausted: asks for a brand-new pid with InitProducerId(null)", "ref 1.5")
		p.NeedInit = true
		p.ProducerID = NoProducerID
		for i := range p.Queue {
			p.Queue[i].BaseSeq = NoSequence
		}
		return
	}
	p.Epoch++
	w.emitRule(EvEpoch, p.Name, "bumps its epoch locally to "+itoa(int64(p.Epoch))+" (same pid "+itoa(p.ProducerID)+", no request) and renumbers "+tp.String()+" from 0", "ref 1.5: idempotent producer hit a real sequence gap")
	for i := range p.Parts {
		p.Parts[i].NextSeq = 0
		p.Parts[i].LastAckedSeq = NoSequence
	}
	for i := range p.Queue {
		if !p.Queue[i].InFlight {
			p.Queue[i].BaseSeq = NoSequence
		}
	}
}

func (w *World) failBatch(p *Producer, b *ProducerBatch, code ErrorCode, text string) {
	p.removeBatch(b.ID)
	if p.transactional() {
		if code == InvalidProducerEpoch {
			w.abortable(p, code, "produce to "+b.TP.String()+": InvalidProducerEpochException")
			return
		}
		w.abortable(p, code, text)
		return
	}
	w.clientError(p, code, text+"; the record is not delivered", "ref 1.4")
}

// onRequestTimeout: no answer within request.timeout.ms. The request is
// treated as failed with a retriable error and retried (ref 1.4).
func (w *World) onProducerTimeout(p *Producer, corr int64) {
	req, ok := p.removeInFlight(corr)
	if !ok {
		return
	}
	w.emitRule(EvTimer, p.Name, "no answer to its "+req.Kind.String()+" within request.timeout.ms ("+itoa(p.Config.RequestTimeoutMs)+" ms)", "the request or its answer was lost")
	switch req.Kind {
	case MsgProduce:
		if b := p.batch(req.BatchID); b != nil {
			b.InFlight = false
			w.produceFailed(p, b, RequestTimedOut)
		}
	case MsgFindCoordinator:
		p.FindingCoord = false
		if p.Offsets != nil && p.Offsets.Stage == offFinding {
			p.Offsets.Stage = offNeedCoordinator
		}
	case MsgAddPartitionsToTxn:
		p.NewParts = append(p.AddingParts, p.NewParts...)
		p.AddingParts = nil
		p.CoordBroker = -1
	case MsgAddOffsetsToTxn:
		if p.Offsets != nil {
			p.Offsets.Stage = offNeedAdd
		}
		p.CoordBroker = -1
	case MsgTxnOffsetCommit:
		if p.Offsets != nil {
			p.Offsets.Stage = offNeedCoordinator
		}
	case MsgEndTxn:
		p.EndSent = false
		p.CoordBroker = -1
	case MsgInitProducerID:
		if p.transactional() {
			p.CoordBroker = -1
		}
	}
}

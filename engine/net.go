package engine

import (
	"strconv"
	"strings"
)

// MsgKind is a Kafka request or response name.
type MsgKind uint8

// Message kinds, named after the Kafka APIs.
const (
	MsgProduce MsgKind = iota
	MsgProduceResponse
	MsgFindCoordinator
	MsgFindCoordinatorResponse
	MsgInitProducerID
	MsgInitProducerIDResponse
	MsgAddPartitionsToTxn
	MsgAddPartitionsToTxnResponse
	MsgAddOffsetsToTxn
	MsgAddOffsetsToTxnResponse
	MsgEndTxn
	MsgEndTxnResponse
	MsgWriteTxnMarkers
	MsgWriteTxnMarkersResponse
	MsgTxnOffsetCommit
	MsgTxnOffsetCommitResponse
	MsgOffsetCommit
	MsgOffsetCommitResponse
	MsgOffsetFetch
	MsgOffsetFetchResponse
	MsgFetch
	MsgFetchResponse
	MsgListOffsets
	MsgListOffsetsResponse
	msgKindCount
)

var msgKindNames = [...]string{"Produce", "ProduceResponse", "FindCoordinator", "FindCoordinatorResponse",
	"InitProducerId", "InitProducerIdResponse", "AddPartitionsToTxn", "AddPartitionsToTxnResponse",
	"AddOffsetsToTxn", "AddOffsetsToTxnResponse", "EndTxn", "EndTxnResponse", "WriteTxnMarkers",
	"WriteTxnMarkersResponse", "TxnOffsetCommit", "TxnOffsetCommitResponse", "OffsetCommit",
	"OffsetCommitResponse", "OffsetFetch", "OffsetFetchResponse", "Fetch", "FetchResponse",
	"ListOffsets", "ListOffsetsResponse"}

func (k MsgKind) String() string { return msgKindNames[k] }

// IsResponse reports whether the kind is a response.
func (k MsgKind) IsResponse() bool { return k%2 == 1 }

// MsgKindByName finds a kind by its Kafka name.
func MsgKindByName(s string) (MsgKind, bool) {
	for i, n := range msgKindNames {
		if n == s {
			return MsgKind(i), true
		}
	}
	return 0, false
}

// Message is one request or response on the simulated network. It is never
// modified after it is sent, so queued copies and snapshots can share it.
type Message struct {
	ID     int64
	Kind   MsgKind
	From   string
	To     string
	Corr   int64 // correlation id: a response carries its request's
	SentAt int64
	Body   Body
}

// Name renders the message id as the scenario language writes it: m12.
func (m *Message) Name() string { return "m" + strconv.FormatInt(m.ID, 10) }

// Summary is the one-line description of a message: id, route, kind and body.
func (m *Message) Summary() string {
	return m.Name() + " " + m.From + " -> " + m.To + " " + m.Kind.String() + " " + m.Body.describe()
}

// Detail is the body of the message in words, as Summary shows it after the
// kind: "t-0 pid=1000 epoch=0 seq=0..2 values=a,b,c".
func (m *Message) Detail() string { return m.Body.describe() }

// Brief is the body as a sequence diagram labels the message: Detail
// without the fields that rarely matter to a lesson (timeouts, coordinator
// epochs, offset counts, and the transactional id, which the sender's column
// already names). Bodies without such fields are their Detail.
func (m *Message) Brief() string {
	if b, ok := m.Body.(briefer); ok {
		return b.brief()
	}
	return m.Body.describe()
}

// briefer is a body with a shorter form for Brief. Each renders both forms
// with one function, so that the two cannot drift apart.
type briefer interface{ brief() string }

// Code is the error a response carries: the first non-NONE code of any of
// its partitions, NONE when all went well, and NONE for requests.
func (m *Message) Code() ErrorCode {
	first := func(rs []TPCode) ErrorCode {
		for _, r := range rs {
			if r.Code != None {
				return r.Code
			}
		}
		return None
	}
	switch b := m.Body.(type) {
	case *ProduceResponse:
		return b.Code
	case *FindCoordinatorResponse:
		return b.Code
	case *InitProducerIDResponse:
		return b.Code
	case *AddPartitionsToTxnResponse:
		return first(b.Results)
	case *AddOffsetsToTxnResponse:
		return b.Code
	case *EndTxnResponse:
		return b.Code
	case *WriteTxnMarkersResponse:
		return first(b.Results)
	case *TxnOffsetCommitResponse:
		return first(b.Results)
	case *OffsetCommitResponse:
		return first(b.Results)
	case *OffsetFetchResponse:
		return b.Code
	case *FetchResponse:
		return b.Code
	case *ListOffsetsResponse:
		return b.Code
	}
	return None
}

// Body is a message payload. Payloads are immutable values.
type Body interface {
	describe() string
	// About lists the partitions the message is about, read from its
	// fields: what a selector's partition= filter matches.
	About() []TP
}

// AboutPartition reports whether the message is about partition tp.
func (m *Message) AboutPartition(tp TP) bool {
	for _, p := range m.Body.About() {
		if p == tp {
			return true
		}
	}
	return false
}

func codeTPs(rs []TPCode) []TP {
	out := make([]TP, len(rs))
	for i, r := range rs {
		out[i] = r.TP
	}
	return out
}

func offsetTPs(os []TPOffset) []TP {
	out := make([]TP, len(os))
	for i, o := range os {
		out[i] = o.TP
	}
	return out
}

// The partitions of each body. FindCoordinator, InitProducerId, EndTxn and
// AddOffsetsToTxn name none: AddOffsetsToTxn names a group, and the offsets
// partition it adds is the coordinator's decision, not a field.
func (r *ProduceRequest) About() []TP             { return []TP{r.TP} }
func (r *ProduceResponse) About() []TP            { return []TP{r.TP} }
func (r *ListOffsetsRequest) About() []TP         { return []TP{r.TP} }
func (r *ListOffsetsResponse) About() []TP        { return []TP{r.TP} }
func (r *FindCoordinatorRequest) About() []TP     { return nil }
func (r *FindCoordinatorResponse) About() []TP    { return nil }
func (r *InitProducerIDRequest) About() []TP      { return nil }
func (r *InitProducerIDResponse) About() []TP     { return nil }
func (r *AddPartitionsToTxnRequest) About() []TP  { return r.Partitions }
func (r *AddPartitionsToTxnResponse) About() []TP { return codeTPs(r.Results) }
func (r *AddOffsetsToTxnRequest) About() []TP     { return nil }
func (r *AddOffsetsToTxnResponse) About() []TP    { return nil }
func (r *EndTxnRequest) About() []TP              { return nil }
func (r *EndTxnResponse) About() []TP             { return nil }
func (r *WriteTxnMarkersRequest) About() []TP     { return r.Partitions }
func (r *WriteTxnMarkersResponse) About() []TP    { return codeTPs(r.Results) }
func (r *TxnOffsetCommitRequest) About() []TP     { return offsetTPs(r.Offsets) }
func (r *TxnOffsetCommitResponse) About() []TP    { return codeTPs(r.Results) }
func (r *OffsetCommitRequest) About() []TP        { return offsetTPs(r.Offsets) }
func (r *OffsetCommitResponse) About() []TP       { return codeTPs(r.Results) }
func (r *OffsetFetchRequest) About() []TP         { return r.Partitions }
func (r *OffsetFetchResponse) About() []TP        { return offsetTPs(r.Offsets) }
func (r *FetchRequest) About() []TP               { return []TP{r.TP} }
func (r *FetchResponse) About() []TP              { return []TP{r.TP} }

// TPCode is a per-partition result.
type TPCode struct {
	TP   TP
	Code ErrorCode
}

// TPOffset is a partition and an offset.
type TPOffset struct {
	TP     TP    `json:"partition"`
	Offset int64 `json:"offset"`
}

// ProduceRequest carries one or more batches for one partition (Java groups
// per broker; the simulation sends one request per partition batch, which
// keeps every decision visible on its own).
type ProduceRequest struct {
	TP              TP
	TransactionalID string
	Acks            int8
	Batches         []Batch
	// TV2 says the request is Produce v12: the client uses
	// transaction.version=2, so the leader adds the partition to the
	// transaction itself (ref 6).
	TV2 bool
}

// ProduceResponse answers a ProduceRequest.
type ProduceResponse struct {
	TP         TP
	Code       ErrorCode
	BaseOffset int64
	Duplicate  bool // the broker found the batch in its 5-batch cache
}

// FindCoordinatorRequest asks any broker who coordinates a key.
type FindCoordinatorRequest struct {
	Key   string
	Group bool
}

// FindCoordinatorResponse answers with the coordinator's broker.
type FindCoordinatorResponse struct {
	Key    string
	Group  bool
	Code   ErrorCode
	Broker int
}

// InitProducerIDRequest asks for a producer id and epoch (ref 3.4).
type InitProducerIDRequest struct {
	TransactionalID string // "" with Idempotent set means null
	Idempotent      bool
	TimeoutMs       int64
	ProducerID      int64
	ProducerEpoch   int16
}

// InitProducerIDResponse answers with the id and epoch.
type InitProducerIDResponse struct {
	Code          ErrorCode
	ProducerID    int64
	ProducerEpoch int16
}

// AddPartitionsToTxnRequest adds partitions to a transaction. VerifyOnly is
// the KIP-890 part 1 check a partition leader makes for a produce.
type AddPartitionsToTxnRequest struct {
	TransactionalID string
	ProducerID      int64
	ProducerEpoch   int16
	Partitions      []TP
	VerifyOnly      bool
	VerifyCorr      int64 // the leader's parked request, for VerifyOnly and TV2
	Txn             int64 // simulation bookkeeping (not on Kafka's wire): the client's transaction instance
	// TV2 marks a partition leader's (or group coordinator's) add for a
	// Produce v12 or TxnOffsetCommit v5: AddPartitionsToTxn v5 with
	// VerifyOnly=false, which the coordinator handles as a TV2 add (ref 6).
	TV2 bool
}

// AddPartitionsToTxnResponse answers per partition.
type AddPartitionsToTxnResponse struct {
	Results    []TPCode
	VerifyOnly bool
	VerifyCorr int64
}

// AddOffsetsToTxnRequest adds the group's offsets partition (ref 3.5).
type AddOffsetsToTxnRequest struct {
	TransactionalID string
	ProducerID      int64
	ProducerEpoch   int16
	GroupID         string
	Txn             int64 // simulation bookkeeping (not on Kafka's wire): the client's transaction instance
}

// AddOffsetsToTxnResponse answers AddOffsetsToTxn.
type AddOffsetsToTxnResponse struct{ Code ErrorCode }

// EndTxnRequest commits or aborts (ref 3.6).
type EndTxnRequest struct {
	TransactionalID string
	ProducerID      int64
	ProducerEpoch   int16
	Commit          bool
	TV2             bool // EndTxn v5: the coordinator follows the TV2 table (ref 6)
}

// EndTxnResponse answers EndTxn. A v5 answer (V5) carries the producer id
// and epoch the client goes on with: the bumped epoch, or a new producer id
// after an epoch overflow (ref 6); -1 with an error.
type EndTxnResponse struct {
	Code          ErrorCode
	V5            bool
	ProducerID    int64
	ProducerEpoch int16
}

// WriteTxnMarkersRequest asks a partition leader to append markers (ref 3.7).
type WriteTxnMarkersRequest struct {
	TransactionalID  string // simulation bookkeeping: which coordinator entry this serves
	ProducerID       int64
	ProducerEpoch    int16
	CoordinatorEpoch int32
	Result           MarkerType
	Partitions       []TP
	// Txn is simulation bookkeeping (not on Kafka's wire): the client
	// transaction the coordinator's transaction served (TxnMetadata.Txn),
	// 0 when unknown (an injected marker).
	Txn            int64
	CoordPartition int32
	// TransactionVersion is WriteTxnMarkers v2's field (KIP-1228): 2 for a
	// TV2 transaction, which makes the leader require a strictly greater
	// epoch; 0 for a v1 request, which has no such field (ref 6).
	TransactionVersion int8
	// TV2Txn is simulation bookkeeping (not on Kafka's wire): the marker
	// ends a TV2 transaction, whose data carry the epoch below the
	// marker's. Only the invariants read it.
	TV2Txn bool
}

// WriteTxnMarkersResponse answers per partition.
type WriteTxnMarkersResponse struct {
	TransactionalID  string
	ProducerID       int64
	Results          []TPCode
	CoordPartition   int32
	CoordinatorEpoch int32
}

// TxnOffsetCommitRequest commits offsets inside a transaction (ref 5).
type TxnOffsetCommitRequest struct {
	TransactionalID string
	GroupID         string
	ProducerID      int64
	ProducerEpoch   int16
	GenerationID    int32
	MemberID        string
	GroupInstanceID string
	Offsets         []TPOffset
	Txn             int64
	TV2             bool // TxnOffsetCommit v5: the group coordinator adds the offsets partition (ref 5, 6)
}

// TxnOffsetCommitResponse answers per partition.
type TxnOffsetCommitResponse struct{ Results []TPCode }

// OffsetCommitRequest is a plain, non-transactional offset commit.
type OffsetCommitRequest struct {
	GroupID string
	Offsets []TPOffset
}

// OffsetCommitResponse answers OffsetCommit.
type OffsetCommitResponse struct{ Results []TPCode }

// OffsetFetchRequest reads committed offsets; the Java consumer always sets
// RequireStable (ref 5.4).
type OffsetFetchRequest struct {
	GroupID       string
	Partitions    []TP
	RequireStable bool
}

// OffsetFetchResponse answers with offsets (-1 when none).
type OffsetFetchResponse struct {
	Code    ErrorCode
	Offsets []TPOffset
}

// FetchRequest reads a partition from an offset.
type FetchRequest struct {
	TP            TP
	Offset        int64
	ReadCommitted bool
}

// FetchResponse carries batches below the LSO (read_committed) or the high
// watermark, and the aborted transactions that overlap them (ref 4.4).
type FetchResponse struct {
	TP            TP
	Code          ErrorCode
	Batches       []Batch
	Aborted       []AbortedTxn
	HighWatermark int64
	LSO           int64
}

// ListOffsetsRequest asks a partition's leader for an offset by timestamp;
// the consumer sends it to reset a position by auto.offset.reset
// (OffsetFetcher.resetPositionsIfNeeded): EARLIEST_TIMESTAMP (-2) or
// LATEST_TIMESTAMP (-1), with its isolation level.
type ListOffsetsRequest struct {
	TP            TP
	Latest        bool // LATEST_TIMESTAMP, else EARLIEST_TIMESTAMP
	ReadCommitted bool
}

// ListOffsetsResponse carries the offset found.
type ListOffsetsResponse struct {
	TP     TP
	Code   ErrorCode
	Offset int64
}

func tpList(tps []TP) string {
	s := make([]string, len(tps))
	for i, tp := range tps {
		s[i] = tp.String()
	}
	return "[" + strings.Join(s, ",") + "]"
}

func codesList(rs []TPCode) string {
	s := make([]string, len(rs))
	for i, r := range rs {
		s[i] = r.TP.String() + "=" + r.Code.Name()
	}
	return "[" + strings.Join(s, ",") + "]"
}

func offsetsList(os []TPOffset) string {
	s := make([]string, len(os))
	for i, o := range os {
		s[i] = o.TP.String() + "=" + itoa(o.Offset)
	}
	return "{" + strings.Join(s, ",") + "}"
}

func (r *ProduceRequest) describe() string {
	var b strings.Builder
	if r.TV2 {
		b.WriteString("v12 ")
	}
	b.WriteString(r.TP.String())
	for i := range r.Batches {
		bt := &r.Batches[i]
		b.WriteString(" pid=" + itoa(bt.ProducerID) + " epoch=" + itoa(int64(bt.ProducerEpoch)) + " seq=" + bt.Seqs())
		if bt.Transactional {
			b.WriteString(" txn")
		}
		if bt.Control {
			b.WriteString(" control")
		}
		b.WriteString(" values=" + strings.Join(bt.Values(), ","))
	}
	return b.String()
}
func (r *ProduceResponse) describe() string {
	s := r.TP.String() + " " + r.Code.String()
	if r.Code == None {
		s += " baseOffset=" + itoa(r.BaseOffset)
	}
	return s
}
func (r *FindCoordinatorRequest) describe() string {
	if r.Group {
		return "group " + r.Key
	}
	return "transaction " + r.Key
}
func (r *FindCoordinatorResponse) describe() string {
	if r.Code != None {
		return r.Key + " " + r.Code.String()
	}
	return r.Key + " broker-" + strconv.Itoa(r.Broker)
}
func (r *InitProducerIDRequest) describe() string { return r.text(true) }
func (r *InitProducerIDRequest) brief() string    { return r.text(false) }
func (r *InitProducerIDRequest) text(full bool) string {
	switch {
	case r.Idempotent && full:
		return "transactionalId=null"
	case r.Idempotent:
		return ""
	case full:
		return "transactionalId=" + r.TransactionalID + " timeout=" + itoa(r.TimeoutMs) + " pid=" + itoa(r.ProducerID) + " epoch=" + itoa(int64(r.ProducerEpoch))
	}
	return r.TransactionalID + " pid=" + itoa(r.ProducerID) + " epoch=" + itoa(int64(r.ProducerEpoch))
}
func (r *InitProducerIDResponse) describe() string {
	if r.Code != None {
		return r.Code.String()
	}
	return "NONE pid=" + itoa(r.ProducerID) + " epoch=" + itoa(int64(r.ProducerEpoch))
}
func (r *AddPartitionsToTxnRequest) describe() string { return r.text(true) }
func (r *AddPartitionsToTxnRequest) brief() string    { return r.text(false) }
func (r *AddPartitionsToTxnRequest) text(full bool) string {
	s := "pid=" + itoa(r.ProducerID) + " epoch=" + itoa(int64(r.ProducerEpoch)) + " " + tpList(r.Partitions)
	if r.VerifyOnly {
		s += " verifyOnly"
	}
	if full {
		s = r.TransactionalID + " " + s
	}
	if r.TV2 {
		s = "v5 " + s + " verifyOnly=false"
	}
	return s
}
func (r *AddPartitionsToTxnResponse) describe() string { return codesList(r.Results) }
func (r *AddOffsetsToTxnRequest) describe() string     { return r.TransactionalID + " " + r.brief() }
func (r *AddOffsetsToTxnRequest) brief() string {
	return "pid=" + itoa(r.ProducerID) + " epoch=" + itoa(int64(r.ProducerEpoch)) + " group=" + r.GroupID
}
func (r *AddOffsetsToTxnResponse) describe() string { return r.Code.String() }
func (r *EndTxnRequest) describe() string           { return r.text(true) }
func (r *EndTxnRequest) brief() string              { return r.text(false) }
func (r *EndTxnRequest) text(full bool) string {
	s := "abort"
	if r.Commit {
		s = "commit"
	}
	s += " pid=" + itoa(r.ProducerID) + " epoch=" + itoa(int64(r.ProducerEpoch))
	if full {
		s = r.TransactionalID + " " + s
	}
	if r.TV2 {
		s = "v5 " + s
	}
	return s
}
func (r *EndTxnResponse) describe() string {
	if r.V5 && r.ProducerID != NoProducerID {
		return r.Code.String() + " pid=" + itoa(r.ProducerID) + " epoch=" + itoa(int64(r.ProducerEpoch))
	}
	return r.Code.String()
}
func (r *WriteTxnMarkersRequest) describe() string { return r.text(true) }
func (r *WriteTxnMarkersRequest) brief() string    { return r.text(false) }
func (r *WriteTxnMarkersRequest) text(full bool) string {
	s := r.Result.String() + " pid=" + itoa(r.ProducerID) + " epoch=" + itoa(int64(r.ProducerEpoch))
	if full {
		s += " coordinatorEpoch=" + itoa(int64(r.CoordinatorEpoch))
	}
	s += " " + tpList(r.Partitions)
	// The version stays in the brief form too: under TV2 it is what makes
	// the leader require a strictly greater epoch (KIP-1228, ref 6).
	if r.TransactionVersion >= 2 {
		s += " transactionVersion=" + itoa(int64(r.TransactionVersion))
	}
	return s
}
func (r *WriteTxnMarkersResponse) describe() string {
	return "pid=" + itoa(r.ProducerID) + " " + codesList(r.Results)
}
func (r *TxnOffsetCommitRequest) describe() string {
	s := r.GroupID + " pid=" + itoa(r.ProducerID) + " epoch=" + itoa(int64(r.ProducerEpoch)) + " generation=" + itoa(int64(r.GenerationID)) + " member=" + r.MemberID + " " + offsetsList(r.Offsets)
	if r.TV2 {
		s = "v5 " + s
	}
	return s
}
func (r *TxnOffsetCommitResponse) describe() string { return codesList(r.Results) }
func (r *OffsetCommitRequest) describe() string     { return r.GroupID + " " + offsetsList(r.Offsets) }
func (r *OffsetCommitResponse) describe() string    { return codesList(r.Results) }
func (r *OffsetFetchRequest) describe() string {
	s := r.GroupID + " " + tpList(r.Partitions)
	if r.RequireStable {
		s += " requireStable"
	}
	return s
}
func (r *OffsetFetchResponse) describe() string {
	if r.Code != None {
		return r.Code.String()
	}
	return offsetsList(r.Offsets)
}
func (r *FetchRequest) describe() string {
	iso := "read_uncommitted"
	if r.ReadCommitted {
		iso = "read_committed"
	}
	return r.TP.String() + " offset=" + itoa(r.Offset) + " " + iso
}
func (r *FetchResponse) describe() string { return r.text(true) }
func (r *FetchResponse) brief() string    { return r.text(false) }
func (r *FetchResponse) text(full bool) string {
	if r.Code != None {
		return r.TP.String() + " " + r.Code.String()
	}
	s := r.TP.String() + " " + strconv.Itoa(len(r.Batches)) + " batches"
	if full {
		n := 0
		for i := range r.Batches {
			n += int(r.Batches[i].Count)
		}
		s += " (" + strconv.Itoa(n) + " offsets)"
	}
	return s + " hw=" + itoa(r.HighWatermark) + " lso=" + itoa(r.LSO) + " aborted=" + strconv.Itoa(len(r.Aborted))
}

func (r *ListOffsetsRequest) describe() string {
	ts, iso := "earliest", "read_uncommitted"
	if r.Latest {
		ts = "latest"
	}
	if r.ReadCommitted {
		iso = "read_committed"
	}
	return r.TP.String() + " " + ts + " " + iso
}
func (r *ListOffsetsResponse) describe() string {
	if r.Code != None {
		return r.TP.String() + " " + r.Code.String()
	}
	return r.TP.String() + " offset=" + itoa(r.Offset)
}

// send puts a message on the network; it is delivered after the configured
// latency unless a fault intervenes.
func (w *World) send(kind MsgKind, from, to string, corr int64, body Body) *Message {
	w.nextMsg++
	m := &Message{ID: w.nextMsg, Kind: kind, From: from, To: to, Corr: corr, SentAt: w.now, Body: body}
	w.seq++
	p := w.queue.add(w.now+w.config.LatencyMs, w.seq)
	p.Kind, p.Msg, p.Timer = itemDeliver, m, Timer{}
	e := w.emitTyped(EvSend, from, saySends)
	e.Message = m
	w.changes.message(m.ID)
	if !w.events.quiet {
		// A search's world counts no request: the tallies are history,
		// which no rule reads and the state hash leaves out.
		w.cost.countSend(m)
	}
	return m
}

func brokerAddr(id int) string {
	if id >= 0 && id < len(brokerAddrs) {
		return brokerAddrs[id]
	}
	return "broker-" + strconv.Itoa(id)
}

// brokerAddrs are the names of the first brokers, made once: a broker's
// name is asked for on most steps, and building it each time was a
// noticeable part of one.
var brokerAddrs = func() [16]string {
	var a [16]string
	for i := range a {
		a[i] = "broker-" + strconv.Itoa(i)
	}
	return a
}()

// BrokerAddr is a broker's name as actors and messages use it: broker-N.
func BrokerAddr(id int) string { return brokerAddr(id) }

func parseBrokerAddr(s string) (int, bool) {
	if !strings.HasPrefix(s, "broker-") {
		return 0, false
	}
	n, err := strconv.Atoi(s[len("broker-"):])
	return n, err == nil
}

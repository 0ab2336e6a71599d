package script

import (
	"github.com/eoslab/eoslab/engine"

	"strconv"
	"strings"
)

// Expectations as values. Parsing turns every `expect` line into one of the
// types below, once; check.go evaluates them against a world. Each type is
// one subject, its fields are typed, and String gives the line back in
// canonical form (fixed word order, options in the order of the usage).

// Expectation is one parsed `expect` line.
type Expectation interface {
	String() string
	expectation()
}

// Partition names a partition: t-0, __consumer_offsets-3.
type Partition struct {
	Topic string
	N     int32
}

func (p Partition) String() string { return p.Topic + "-" + strconv.Itoa(int(p.N)) }

// partitionOf reads a partition word the parser has already accepted.
func partitionOf(s string) Partition {
	topic, n, _ := splitTP(s)
	return Partition{Topic: topic, N: int32(n)}
}

// Opt is an optional value: Set says the line gave it.
type Opt[T any] struct {
	V   T
	Set bool
}

func some[T any](v T) Opt[T] { return Opt[T]{V: v, Set: true} }

// PartitionField is a number a partition has.
type PartitionField uint8

// Partition numbers (ref 4.2).
const (
	PartitionLEO PartitionField = iota
	PartitionHW
	PartitionLSO
	PartitionLogStart
	PartitionRecords
)

var partitionFieldWords = [...]string{"leo", "hw", "lso", "logstart", "records"}

func (f PartitionField) String() string { return partitionFieldWords[f] }

// PartitionCheck is "expect partition TP leo|hw|lso|logstart|records N".
type PartitionCheck struct {
	TP    Partition
	Field PartitionField
	N     int64
}

// SeqRange is a batch's sequences as the transcript shows them: "5", or
// "5..7" (Range set), or "-1" for a batch without a producer id.
type SeqRange struct {
	First, Last int32
	Range       bool
}

func (s SeqRange) String() string {
	if !s.Range {
		return strconv.Itoa(int(s.First))
	}
	return strconv.Itoa(int(s.First)) + ".." + strconv.Itoa(int(s.Last))
}

// MarkerResult is what a transaction marker says (ref 2.7).
type MarkerResult uint8

// Marker results.
const (
	MarkerCommit MarkerResult = iota
	MarkerAbort
)

func (m MarkerResult) String() string {
	if m == MarkerAbort {
		return "abort"
	}
	return "commit"
}

// BatchCheck is "expect partition TP batch OFFSET [...]" and, with Marker
// set, "expect partition TP marker OFFSET commit|abort [...]".
type BatchCheck struct {
	TP               Partition
	Offset           int64
	Marker           Opt[MarkerResult]
	PID              Opt[int64]
	Epoch            Opt[int64]
	Seq              Opt[SeqRange]
	Count            Opt[int64]
	Txn              Opt[bool]
	Status           Opt[string]
	Values           []string // nil: not checked
	CoordinatorEpoch Opt[int64]
}

// AbortedCheck is "expect partition TP aborted pid=N first=N last=N [lso=N]".
type AbortedCheck struct {
	TP               Partition
	PID, First, Last int64
	LSO              Opt[int64]
}

// ProducerStateCheck is "expect partition TP producer PID [...]": the
// partition leader's entry for a producer id (ref 2.1).
type ProducerStateCheck struct {
	TP               Partition
	PID              int64
	Epoch            Opt[int64]
	LastSeq          Opt[int64]
	Cached           Opt[int64]
	TxnFirst         Opt[int64]
	CoordinatorEpoch Opt[int64]
}

// ClientField is what a producer or consumer check reads.
type ClientField uint8

// Client fields, as the words of the language name them.
const (
	ClientState ClientField = iota
	ClientError
	ClientPID
	ClientEpoch
	ClientIdempotent
	ClientNextSeq
	ClientOffset
	ClientValues
	ClientOffsets
	ClientPosition
)

var clientFieldWords = [...]string{"state", "error", "pid", "epoch", "idempotent", "nextseq", "offset", "values", "offsets", "position"}

func (f ClientField) String() string { return clientFieldWords[f] }

// ProducerCheck is "expect producer NAME state|error|pid|epoch|idempotent|nextseq|offset ...".
type ProducerCheck struct {
	Name  string
	Field ClientField
	State string    // state
	Error string    // error: a Kafka name without its code, or "none"
	N     int64     // pid, epoch, nextseq, offset
	Bool  bool      // idempotent
	TP    Partition // nextseq
}

// ConsumerCheck is "expect consumer NAME values|offsets|position|error ...".
type ConsumerCheck struct {
	Name    string
	Field   ClientField
	Values  []string // values; empty for none
	Offsets []int64  // offsets; empty for none
	TP      Partition
	N       int64  // position
	Error   string // error: a Kafka name without its code, or "none"
}

// TxnField is what a coordinator check reads.
type TxnField uint8

// Coordinator metadata fields (ref 3.2).
const (
	TxnStateField TxnField = iota
	TxnEpoch
	TxnPID
	TxnPartitions
	TxnCoordinator
	TxnLastProducerEpoch
)

var txnFieldWords = [...]string{"state", "epoch", "pid", "partitions", "coordinator", "lastProducerEpoch"}

func (f TxnField) String() string { return txnFieldWords[f] }

// TxnCheck is "expect txn ID state|epoch|pid|partitions|coordinator|lastProducerEpoch VALUE".
type TxnCheck struct {
	ID          string
	Field       TxnField
	State       string
	N           int64
	Partitions  []Partition // partitions; empty for none
	Coordinator Partition
}

// GroupField is what a group check reads.
type GroupField uint8

// Group fields.
const (
	GroupOffset GroupField = iota
	GroupPending
	GroupGeneration
)

var groupFieldWords = [...]string{"offset", "pending", "generation"}

func (f GroupField) String() string { return groupFieldWords[f] }

// GroupCheck is "expect group GROUP offset|pending TP N|none" and
// "expect group GROUP generation N".
type GroupCheck struct {
	Group string
	Field GroupField
	TP    Partition
	N     Opt[int64] // unset: none
}

// ViolationCheck is "expect violation NAME", or "expect violations none"
// when Name is empty.
type ViolationCheck struct{ Name string }

// Window is a span of virtual time, both ends included: t=A..B, or t=A..
// (Open) for everything from A on.
type Window struct {
	From, To int64
	Open     bool
}

func (w Window) String() string {
	if w.Open {
		return strconv.FormatInt(w.From, 10) + ".."
	}
	return strconv.FormatInt(w.From, 10) + ".." + strconv.FormatInt(w.To, 10)
}

// MessageRef names a message: by id (ID > 0) or by kind.
type MessageRef struct {
	ID   int64
	Kind string
}

func (m MessageRef) String() string {
	if m.ID > 0 {
		return "m" + strconv.FormatInt(m.ID, 10)
	}
	return m.Kind
}

func messageRefOf(s string) MessageRef {
	if isMessageID(s) {
		n, _ := parseInt(s[1:])
		return MessageRef{ID: n}
	}
	return MessageRef{Kind: s}
}

// EventCheck is "expect event ..." and "expect no event ...": some events
// (or, with Count, exactly Count events; with No, none) match every filter
// given. Text matches an event whose text or rule contains it.
type EventCheck struct {
	No     bool
	Text   string
	Kind   string // an engine event kind: fence, txnlog, ...
	Actor  string
	Msg    Opt[MessageRef] // the message the event is about
	Error  string          // the error code the event carries
	TP     Opt[Partition]  // the partition the event is about
	TxnID  string          // the transactional id the event is about
	PID    Opt[int64]      // the producer id the event is about
	Epoch  Opt[int64]      // the producer epoch the event is about
	Reason engine.Reason   // one of the event's rule's reasons
	Rule   string          // contained in the event's rule
	Count  Opt[int64]
	// Scope: InLast keeps the events of the last command before this line;
	// Window keeps those whose time falls in it.
	InLast bool
	Window Opt[Window]
}

// ResponseCheck is "expect response MSG [...]": the newest delivered
// response that MSG selects (by id, or by kind and the filters to=, from=,
// partition=) carries these fields.
type ResponseCheck struct {
	Msg        MessageRef
	To, From   string
	Partition  Opt[Partition]
	Error      Opt[string] // a Kafka name without its code; NONE for no error
	BaseOffset Opt[int64]
	PID        Opt[int64]
	Epoch      Opt[int64]
}

// TxnLogField is what a transaction log check reads.
type TxnLogField uint8

// Transaction log checks.
const (
	TxnLogStates TxnLogField = iota
	TxnLogRecord
)

// TxnLogCheck is "expect txnlog ID states S,S|none" and
// "expect txnlog ID record OFFSET|last [...]": the records the coordinator
// wrote to __transaction_state for ID (ref 3.2).
type TxnLogCheck struct {
	ID     string
	Field  TxnLogField
	States []string // states: oldest first, "tombstone" for a tombstone; empty for none
	// record: at Offset of ID's __transaction_state partition, or the
	// newest record of ID when Offset is not set ("last").
	Offset           Opt[int64]
	State            Opt[string]
	PID              Opt[int64]
	PrevPID          Opt[int64]
	Epoch            Opt[int64]
	Partitions       Opt[[]Partition] // set and empty: none
	Timeout          Opt[int64]
	CoordinatorEpoch Opt[int64]
}

// RequestsCheck is "expect requests N [kind=KIND] [from=NAME] [txn=ID]":
// how many requests were put on the network so far (a retry counts again;
// each request is one round trip), narrowed to a kind, a sender, or the
// requests that serve one transactional id (the client's and the brokers'
// own, such as WriteTxnMarkers).
type RequestsCheck struct {
	N     int64
	Kind  string // "" for every kind
	From  string
	TxnID string
}

// MarkersCheck is "expect markers N [txn=ID]": how many transaction
// markers were appended to partition logs so far, for one transactional
// id or for all.
type MarkersCheck struct {
	N     int64
	TxnID string
}

func (PartitionCheck) expectation()     {}
func (RequestsCheck) expectation()      {}
func (MarkersCheck) expectation()       {}
func (BatchCheck) expectation()         {}
func (AbortedCheck) expectation()       {}
func (ProducerStateCheck) expectation() {}
func (ProducerCheck) expectation()      {}
func (ConsumerCheck) expectation()      {}
func (TxnCheck) expectation()           {}
func (GroupCheck) expectation()         {}
func (ViolationCheck) expectation()     {}
func (EventCheck) expectation()         {}
func (ResponseCheck) expectation()      {}
func (TxnLogCheck) expectation()        {}

// line builds a canonical line word by word.
type line []string

func (l *line) add(words ...string) { *l = append(*l, words...) }

func (l *line) int(key string, o Opt[int64]) {
	if o.Set {
		*l = append(*l, key+"="+strconv.FormatInt(o.V, 10))
	}
}

func (l *line) str(key string, o Opt[string]) {
	if o.Set {
		*l = append(*l, showOpt(key, o.V))
	}
}

func (l *line) text(key, v string) {
	if v != "" {
		*l = append(*l, showOpt(key, v))
	}
}

func (l line) String() string { return strings.Join(l, " ") }

func i64(n int64) string { return strconv.FormatInt(n, 10) }

func joinInts(ns []int64) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = i64(n)
	}
	return strings.Join(s, ",")
}

func joinPartitions(ps []Partition) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	return strings.Join(s, ",")
}

// listOrNone renders a list as the language writes it: a,b or none.
func listOrNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func (x PartitionCheck) String() string {
	return "expect partition " + x.TP.String() + " " + x.Field.String() + " " + i64(x.N)
}

func (x BatchCheck) String() string {
	l := line{"expect", "partition", x.TP.String()}
	if x.Marker.Set {
		l.add("marker", i64(x.Offset), x.Marker.V.String())
	} else {
		l.add("batch", i64(x.Offset))
	}
	l.int("pid", x.PID)
	l.int("epoch", x.Epoch)
	if x.Seq.Set {
		l.add("seq=" + x.Seq.V.String())
	}
	l.int("count", x.Count)
	if x.Txn.Set {
		l.add("txn=" + yesNo(x.Txn.V))
	}
	l.str("status", x.Status)
	if x.Values != nil {
		l.add(showOpt("values", strings.Join(x.Values, ",")))
	}
	l.int("coordinatorEpoch", x.CoordinatorEpoch)
	return l.String()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func (x AbortedCheck) String() string {
	l := line{"expect", "partition", x.TP.String(), "aborted", "pid=" + i64(x.PID), "first=" + i64(x.First), "last=" + i64(x.Last)}
	l.int("lso", x.LSO)
	return l.String()
}

func (x ProducerStateCheck) String() string {
	l := line{"expect", "partition", x.TP.String(), "producer", i64(x.PID)}
	l.int("epoch", x.Epoch)
	l.int("lastseq", x.LastSeq)
	l.int("cached", x.Cached)
	l.int("txnfirst", x.TxnFirst)
	l.int("coordinatorEpoch", x.CoordinatorEpoch)
	return l.String()
}

func (x ProducerCheck) String() string {
	l := line{"expect", "producer", x.Name, x.Field.String()}
	switch x.Field {
	case ClientState:
		l.add(x.State)
	case ClientError:
		l.add(x.Error)
	case ClientIdempotent:
		l.add(strconv.FormatBool(x.Bool))
	case ClientNextSeq:
		l.add(x.TP.String(), i64(x.N))
	default:
		l.add(i64(x.N))
	}
	return l.String()
}

func (x ConsumerCheck) String() string {
	l := line{"expect", "consumer", x.Name, x.Field.String()}
	switch x.Field {
	case ClientValues:
		l.add(show(listOrNone(strings.Join(x.Values, ","))))
	case ClientOffsets:
		l.add(listOrNone(joinInts(x.Offsets)))
	case ClientPosition:
		l.add(x.TP.String(), i64(x.N))
	case ClientError:
		l.add(x.Error)
	}
	return l.String()
}

func (x TxnCheck) String() string {
	l := line{"expect", "txn", show(x.ID), x.Field.String()}
	switch x.Field {
	case TxnStateField:
		l.add(x.State)
	case TxnPartitions:
		l.add(listOrNone(joinPartitions(x.Partitions)))
	case TxnCoordinator:
		l.add(x.Coordinator.String())
	default:
		l.add(i64(x.N))
	}
	return l.String()
}

func (x GroupCheck) String() string {
	l := line{"expect", "group", show(x.Group), x.Field.String()}
	if x.Field != GroupGeneration {
		l.add(x.TP.String())
	}
	if x.N.Set {
		l.add(i64(x.N.V))
	} else {
		l.add("none")
	}
	return l.String()
}

func (x ViolationCheck) String() string {
	if x.Name == "" {
		return "expect violations none"
	}
	return "expect violation " + x.Name
}

func (x EventCheck) String() string {
	l := line{"expect"}
	if x.No {
		l.add("no")
	}
	l.add("event")
	if x.Text != "" {
		l.add(show(x.Text))
	}
	l.text("kind", x.Kind)
	l.text("actor", x.Actor)
	if x.Msg.Set {
		l.add("msg=" + x.Msg.V.String())
	}
	l.text("error", x.Error)
	if x.TP.Set {
		l.add("tp=" + x.TP.V.String())
	}
	l.text("txn", x.TxnID)
	l.int("pid", x.PID)
	l.int("epoch", x.Epoch)
	if x.Reason != engine.RuleNone {
		l.add("reason=" + x.Reason.String())
	}
	l.text("rule", x.Rule)
	l.int("count", x.Count)
	if x.InLast {
		l.add("in=last")
	}
	if x.Window.Set {
		l.add("t=" + x.Window.V.String())
	}
	return l.String()
}

func (x ResponseCheck) String() string {
	l := line{"expect", "response", x.Msg.String()}
	l.text("to", x.To)
	l.text("from", x.From)
	if x.Partition.Set {
		l.add("partition=" + x.Partition.V.String())
	}
	l.str("error", x.Error)
	l.int("baseOffset", x.BaseOffset)
	l.int("pid", x.PID)
	l.int("epoch", x.Epoch)
	return l.String()
}

func (x TxnLogCheck) String() string {
	l := line{"expect", "txnlog", show(x.ID)}
	if x.Field == TxnLogStates {
		l.add("states", listOrNone(strings.Join(x.States, ",")))
		return l.String()
	}
	if x.Offset.Set {
		l.add("record", i64(x.Offset.V))
	} else {
		l.add("record", "last")
	}
	l.str("state", x.State)
	l.int("pid", x.PID)
	l.int("prevPid", x.PrevPID)
	l.int("epoch", x.Epoch)
	if x.Partitions.Set {
		l.add("partitions=" + listOrNone(joinPartitions(x.Partitions.V)))
	}
	l.int("timeout", x.Timeout)
	l.int("coordinatorEpoch", x.CoordinatorEpoch)
	return l.String()
}

func (x RequestsCheck) String() string {
	l := line{"expect", "requests", i64(x.N)}
	l.text("kind", x.Kind)
	l.text("from", x.From)
	l.text("txn", x.TxnID)
	return l.String()
}

func (x MarkersCheck) String() string {
	l := line{"expect", "markers", i64(x.N)}
	l.text("txn", x.TxnID)
	return l.String()
}

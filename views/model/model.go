// Package model is the views' view-model: the plain values a session,
// a drill, a sandbox session and the learner's progress hand the views
// (LessonInfo, Frame and the structs it holds, Op, DrillQuestion, Place),
// and the small interfaces they implement. views/adapt fills them from the
// engine and the lessons; every view component reads them.
//
// It imports nothing of eoslab's: neither the engine, nor the lessons, nor
// any view. That is what lets a component and the adapter share it without
// importing each other.
package model

import "strconv"

// LessonInfo describes one entry of the home list.
type LessonInfo struct {
	Name    string // the id passed to open, e.g. "transactions"
	Title   string
	Summary string
	Level   string // the part of the learning path: "basics", "transactions", ...
	Steps   int
	// Minutes is how long the lesson takes; 0 when unknown.
	Minutes int
	// Finished marks a lesson the learner has played to the end.
	Finished bool
	// At is the step the learner left the lesson at (0 when not started).
	At int
}

// Session is a lesson being played. The lessons package implements it on top
// of the engine; tests and previews use views/demo.
//
// A Session is used from Bubble Tea's Update only, so it needs no locking.
type Session interface {
	Title() string
	// Len is the number of steps.
	Len() int
	// Pos is the current step index, 0..Len(); 0 is before the first step.
	Pos() int
	// Next runs the next step. It returns false at the end, or when the
	// current frame holds a checkpoint that is not answered yet.
	Next() bool
	// Back goes back one step by restoring a snapshot. It returns false at 0.
	Back() bool
	// Restart goes back to step 0.
	Restart()
	// Answer answers the current checkpoint with choice 1..len(Choices).
	// ok is false when there is no unanswered checkpoint or the choice is
	// out of range.
	Answer(choice int) (correct bool, ok bool)
	// Frame is everything to draw now.
	Frame() Frame
}

// KafkaSwitcher is a Session that plays its lesson under either Kafka
// major version's transaction protocol: 3 (the classic one,
// transaction.version=1) or 4 (KIP-890, transaction.version=2). The
// player's version key calls SwitchKafka; a session that does not
// implement it plays one version only.
type KafkaSwitcher interface {
	// SwitchKafka restarts the lesson under Kafka k and replays it to the
	// current step, keeping the answers given so far where the same
	// question is asked under k.
	SwitchKafka(k int) Switched
}

// Switched is what a version switch did, for the status line.
type Switched struct {
	// Kafka is the version now on, 3 or 4.
	Kafka int
	// From and Pos are the step the learner was at and the step the
	// replay reached: Pos < From when a question on the way is asked
	// afresh under the new version (Asked).
	From, Pos int
	// Kept counts the answers carried over; Asked is the step of the first
	// question asked afresh (its choices differ under the new version),
	// or 0.
	Kept, Asked int
	// Flipped lists the steps whose kept answer is right under one version
	// and wrong under the other; NowRight says whether the first of them
	// is right under the new version.
	Flipped  []int
	NowRight bool
}

// Frame is everything the player draws for one step.
type Frame struct {
	// Key identifies the frame's content apart from Checkpoint: a session
	// gives two frames the same non-zero Key only when every other field
	// is the same. The views keep what they drew for a Key and reuse it
	// when the learner comes back to it, which makes stepping back and
	// forth through a long history cheap. 0 means unknown: everything is
	// drawn afresh.
	Key uint64

	Step, Steps int
	// Kafka is the Kafka major version whose transaction protocol the
	// lesson plays under: 3 (classic, transaction.version=1) or 4
	// (KIP-890, transaction.version=2); 0 when the session does not say.
	Kafka int
	// Protocol is the cluster's transaction.version at this step: 1, the
	// classic protocol, or 2, KIP-890's. It is the Kafka version's own
	// unless the lesson changes it (an upgrade mid-lesson); the header
	// names the protocol in force. 0 when the session does not say.
	Protocol int
	// Title is the step's title, drawn in bold above Narration, the
	// step's paragraphs. A frame before the first step, or of a session
	// whose steps have no titles, has none.
	Title     string
	Narration string
	// Note is a "Kafka vs the article" note: where a seed article simplifies
	// and the simulation follows Kafka. It may be empty.
	Note string
	// More and Source are the step's other details: the deeper why, and
	// the Kafka class and method that decide what the step shows. Like
	// Note, they are drawn in the detail view, not in the main text.
	More, Source string
	// Versions says how the step differs between Kafka 3 and Kafka 4; it
	// is drawn in the detail view. It may be empty.
	Versions   string
	Checkpoint *Checkpoint
	Producers  []ProducerView
	// Cost is the cost table drawn first in the Producers panel: the
	// requests each producer client sent and the markers written for it.
	// nil when the session does not count costs.
	Cost       *CostView
	Partitions []PartitionView
	// Coordinators lists one entry per transactional id the lesson shows.
	Coordinators []CoordinatorView
	Consumers    []ConsumerView
	// Groups are the consumer groups at their group coordinator: the
	// committed offsets, and the transactional offsets still pending.
	Groups []GroupView
	// Timeline is the message sequence diagram; Actors are its columns in
	// order. Arrows marked Changed are the ones the last step sent,
	// delivered, lost or delayed.
	Timeline []Arrow
	Actors   []Actor
	// Events are recent events, each once, in parts, from which the
	// detail view makes the engine's canonical line, with rule citations
	// and message numbers (EventLine.Line), and the event log the
	// learner's line (EventLine.Learner).
	// The last NewEvents of them came from the last step.
	Events    []EventLine
	NewEvents int
	// Violations are invariant violations found after the last step.
	Violations []Violation
	// Show is what the step talks about, which the player keeps on screen
	// while it follows the lesson; empty when the lesson does not say.
	Show []Subject
}

// SubjectKind says where a Subject's rows are.
type SubjectKind uint8

// Subject kinds.
const (
	SubjectPartition SubjectKind = iota // a partition's log
	SubjectProducer                     // a producer client
	SubjectConsumer                     // a consumer and what it returned
	SubjectTxnLog                       // a transactional id's __transaction_state records
)

// Subject is one thing a step talks about, by name: a partition
// ("payments-0"), a client, or a transactional id.
type Subject struct {
	Kind SubjectKind
	Name string
}

// Violation is one broken invariant: its name (one of the engine's
// invariant names, or "lesson" for a line of the lesson that failed, such
// as an expectation that does not hold) and what broke it.
type Violation struct{ Name, Text string }

// String is the violation as the lesson text shows it: "name: text".
func (v Violation) String() string { return v.Name + ": " + v.Text }

// EventLine is one event of the log, held once, in parts: the views make
// from them the engine's canonical line (Line: "t=T Actor: text
// [rule]", with the message number), which the detail view shows as it
// is, and the learner's line (Learner, with Actor and Why), when they
// draw. A line made without parts (a demo, a test: Parts false) is all
// in Text, and Line is Text.
type EventLine struct {
	Time  int64  // logical milliseconds
	Actor string // "t-0", "coordinator(broker-1)", "A"
	// Text is what happened, as the engine describes it but without the
	// number of the message it is about ("sends A -> broker-1 Produce
	// ...", not "sends m12 A -> ..."): the learner follows messages by
	// what they are, on the Timeline; the canonical line puts the number
	// back at NumAt. Without Parts, the whole line.
	Text string
	// Msg is the number of the message the canonical line names at byte
	// NumAt of Text ("m12 "); NumAt < 0 when Text is the canonical text.
	Msg   int64
	NumAt int32
	// BodyAt is where the message's body starts in Text, for the
	// learner's line of a send (see Sends).
	BodyAt int32
	// Rule is the rule that decided as the canonical line cites it, with
	// its Kafka source ("ProducerAppendInfo.checkSequence: ..."); Why is
	// the same rule in words, for the learner. Empty when no rule decided
	// (Why also when the rule is only a citation).
	Rule, Why string
	// SendKind and SendTo are set for a message the actor sends: the
	// learner's line tells it from them, the sender left out because the
	// line starts with it ("sends Produce to broker-3: t-0 ...", not
	// "sends A -> broker-3 Produce t-0 ...").
	SendKind, SendTo string
	// Action marks the echo of a scenario command ("A send t-0 hello"):
	// how the lesson drives the simulation, not something Kafka did.
	Action bool
	// Violation marks an invariant violation, drawn as an alarm.
	Violation bool
	// Parts says the fields above are set; without it the event is only
	// Text, and the event log shows it as it is.
	Parts bool
}

// Line is the engine's canonical line for the event (engine.Event.Line):
// time, actor, text with the message number, and the rule cited.
func (e *EventLine) Line() string {
	if !e.Parts {
		return e.Text
	}
	var buf [20]byte
	b := make([]byte, 0, len(e.Actor)+len(e.Text)+len(e.Rule)+32)
	b = append(b, "t="...)
	b = strconv.AppendInt(b, e.Time, 10)
	b = append(b, ' ')
	b = append(b, e.Actor...)
	b = append(b, ": "...)
	if e.NumAt >= 0 && int(e.NumAt) <= len(e.Text) {
		b = append(b, e.Text[:e.NumAt]...)
		b = append(b, 'm')
		b = append(b, strconv.AppendInt(buf[:0], e.Msg, 10)...)
		b = append(b, ' ')
		b = append(b, e.Text[e.NumAt:]...)
	} else {
		b = append(b, e.Text...)
	}
	if e.Rule != "" {
		b = append(b, " ["...)
		b = append(b, e.Rule...)
		b = append(b, ']')
	}
	return string(b)
}

// Learner is what happened, for the learner's log: Text, or for a
// message the actor sends, "sends KIND to TO: body".
func (e *EventLine) Learner() string {
	if e.SendKind == "" || e.BodyAt < 0 || int(e.BodyAt) > len(e.Text) {
		return e.Text
	}
	return "sends " + e.SendKind + " to " + e.SendTo + ": " + e.Text[e.BodyAt:]
}

// Tone is what a state or an error means to a reader, which the views draw
// with a colour and a word or glyph. The session decides it from its typed
// states and error codes; the views never work it out from names.
type Tone uint8

// Tones.
const (
	TonePlain     Tone = iota // nothing to point out
	ToneIdle                  // nothing there any more, or not yet (Dead, UNINITIALIZED)
	ToneOpen                  // a transaction is open
	ToneEnding                // a commit is being completed
	ToneCommitted             // a transaction committed
	ToneAborted               // aborted, aborting or failed
	ToneFenced                // fenced by a newer epoch or coordinator
)

// Checkpoint is a "what happens next?" question that blocks Next until it is
// answered.
type Checkpoint struct {
	// Prompt leads the question; empty means "What happens next?", a
	// lesson's checkpoint. A drill's written questions name their kind.
	Prompt   string
	Question string
	Choices  []string
	Answered bool
	Chosen   int // 1-based, set once answered
	// Correct is the 1-based right choice. It is revealed only after
	// answering: the session fills it then, and the views never read it
	// before Answered is true.
	Correct     int
	Explanation string
	// Locked is the 1-based choice a classroom seat sent and cannot change,
	// while the verdict waits for the presenter's reveal; 0 otherwise.
	Locked int
}

// open reports whether the question still takes an answer from this
// screen: not answered, not locked, with choices to press.
func (cp *Checkpoint) Open() bool {
	return cp != nil && !cp.Answered && cp.Locked == 0 && len(cp.Choices) > 0
}

// PartitionSeq is a producer's next sequence number for one partition.
type PartitionSeq struct {
	Partition string
	Seq       int32
}

// ProducerView is one producer client.
type ProducerView struct {
	Name            string
	TransactionalID string // empty for a plain idempotent producer
	ProducerID      int64  // -1 before InitProducerId
	Epoch           int16
	// State is the client's TransactionManager state, such as
	// "IN_TRANSACTION" or "FATAL_ERROR", and StateTone what it means.
	State     string
	StateTone Tone
	NextSeq   []PartitionSeq
	InFlight  int
	LastError string // such as "PRODUCER_FENCED(90)"; empty when none
	// ErrorTone is what LastError means: ToneFenced for a fencing error.
	ErrorTone Tone
	Paused    bool // a GC pause: the zombie of the lessons
	Crashed   bool
	Fenced    bool
	// NotIdempotent marks a producer with enable.idempotence=false: it has
	// no producer id, no epoch and no sequence numbers, ever.
	NotIdempotent bool
	Changed       bool
}

// CostView is what exactly-once cost so far, counted by the engine as the
// requests were sent and the markers appended: one row per producer client.
type CostView struct {
	Rows []CostRow
}

// CostRow is one producer client's bill. Each request is one round trip.
type CostRow struct {
	Client string
	// Transactional is set for a client with a transactional.id: only
	// its transactions get WriteTxnMarkers and markers.
	Transactional bool
	// The requests the client sent, by kind: Produce; InitProducerId;
	// FindCoordinator; AddPartitionsToTxn and AddOffsetsToTxn; EndTxn;
	// TxnOffsetCommit.
	Produce, Init, Find, Add, End, TxnOffsets int
	// Total is every request the client sent: its round trips.
	Total int
	// MarkerRequests is the WriteTxnMarkers requests the coordinator sent
	// for the client's transactional id, and Markers the markers the
	// partition leaders appended for it.
	MarkerRequests, Markers int
	Changed                 bool
}

// RowKind says what a log row holds.
type RowKind uint8

// Log row kinds: a data batch or a control batch (a transaction marker).
const (
	RowData RowKind = iota
	RowCommit
	RowAbort
)

func (k RowKind) String() string {
	switch k {
	case RowCommit:
		return "COMMIT"
	case RowAbort:
		return "ABORT"
	default:
		return "data"
	}
}

// RowStatus is what a reader may make of a data row.
type RowStatus uint8

// Row statuses. Plain rows are not transactional.
const (
	StatusPlain RowStatus = iota
	StatusOpen
	StatusCommitted
	StatusAborted
)

func (s RowStatus) String() string {
	switch s {
	case StatusOpen:
		return "open"
	case StatusCommitted:
		return "committed"
	case StatusAborted:
		return "aborted"
	default:
		return "plain"
	}
}

// LogRow is one record batch of a partition log.
//
// A frame holds hundreds of rows per partition and is built at every
// first visit of a step, so the small fields come last and the kinds are
// bytes: 72 bytes a row, not 96.
type LogRow struct {
	First, Last int64 // first and last offset of the batch
	PID         int64
	Seqs        string // "0..2", or "-1" for a marker
	Values      []string
	Epoch       int16
	Kind        RowKind
	Status      RowStatus
	Changed     bool
	// Named: the step's text names one of the row's values ("a1 and
	// b1"), so the row is one the step is about.
	Named bool
}

// Offsets renders "3" or "0..2".
func (r LogRow) Offsets() string {
	if r.Last <= r.First {
		return strconv.FormatInt(r.First, 10)
	}
	return strconv.FormatInt(r.First, 10) + ".." + strconv.FormatInt(r.Last, 10)
}

// CachedBatch is one of the last five batches a partition leader keeps per
// producer to answer retries (ProducerStateEntry, NUM_BATCHES_TO_RETAIN).
type CachedBatch struct {
	PID               int64
	Epoch             int16
	FirstSeq, LastSeq int32
	Offset            int64 // the batch's base offset
}

// PartitionView is one topic partition at its leader.
type PartitionView struct {
	Name   string // "t-0"
	Leader string // "broker-1"
	Rows   []LogRow
	// HW is the high watermark, LSO the last stable offset and LEO the log
	// end offset; LSO <= HW <= LEO.
	HW, LSO, LEO int64
	Cached       []CachedBatch
	// Entries are the producers the leader keeps state for, with the
	// epoch it holds: an entry outlives its cached batches, which a
	// marker with a newer epoch clears (ProducerStateEntry).
	Entries []ProducerEntry
	Changed bool
}

// ProducerEntry is one producer's entry in a partition leader's producer
// state: its id and the epoch the leader holds for it.
type ProducerEntry struct {
	PID   int64
	Epoch int16
}

// CoordinatorView is the transaction coordinator's view of one
// transactional id.
type CoordinatorView struct {
	TxnID     string
	Partition string // "__transaction_state-3"
	Broker    string
	// States are the names of the eight coordinator states in the order
	// of their ids in TransactionState.java (Empty, Ongoing,
	// PrepareCommit, PrepareAbort, CompleteCommit, CompleteAbort, Dead,
	// PrepareEpochFence), which the state diagram lays out. Current is
	// the index of the current state, or -1 when the coordinator has no
	// entry; Tone is what the current state means.
	States  []string
	Current int
	Tone    Tone
	// Partitions are the topic partitions in the transaction.
	Partitions []string
	// Writes is the log of this id's records in __transaction_state, oldest
	// first, each as "@offset State pid=... epoch=..." and the partitions
	// when there are any; the id itself is left out, as TxnID names it.
	Writes []string
	// Appending are the records the coordinator is appending to
	// __transaction_state and which take effect once replicated, in the
	// same form without an offset.
	Appending  []string
	ProducerID int64
	Epoch      int16
	// Loading says a new coordinator is still reading the partition's log
	// after a failover (it answers COORDINATOR_LOAD_IN_PROGRESS): it holds
	// no state for the id yet, which is not the same as having none.
	Loading bool
	Changed bool
}

// State is the name of the current state, or "" when there is none.
func (c *CoordinatorView) State() string {
	if c.Current < 0 || c.Current >= len(c.States) {
		return ""
	}
	return c.States[c.Current]
}

// PartitionOffset is an offset in one partition.
type PartitionOffset struct {
	Partition string
	Offset    int64
}

// GroupView is one consumer group as its group coordinator holds it: the
// generation (KIP-447 fences a member of an older one), the committed
// offsets and the pending transactional offsets, which a COMMIT marker on
// the group's __consumer_offsets partition makes committed and an ABORT
// marker discards.
type GroupView struct {
	ID         string
	Generation int32
	Committed  []PartitionOffset // sorted by partition
	Pending    []PendingOffset   // by producer id, then partition
	Changed    bool              // the last step changed the group
}

// PendingOffset is a transactional offset waiting for its transaction's
// marker, and the producer whose transaction holds it.
type PendingOffset struct {
	Partition  string
	Offset     int64
	ProducerID int64
}

// ConsumedRecord is one record a consumer has returned to the application.
type ConsumedRecord struct {
	Partition string
	Offset    int64
	Value     string
	Changed   bool // returned by the last step
}

// ConsumerView is one consumer.
type ConsumerView struct {
	Name      string
	Isolation string // "read_committed" or "read_uncommitted", to show
	// ReadCommitted is the isolation level as a flag, to decide by.
	ReadCommitted bool
	Group         string
	Records       []ConsumedRecord
	Positions     []PartitionOffset // next offset to fetch, per partition
	Changed       bool
}

// Arrow is one message of the sequence diagram, as it stands at the
// frame's step: a message sent at step 3 and delivered at step 4 is in
// flight in the frame of step 3 and delivered in that of step 4.
type Arrow struct {
	From, To string // actor names, as in Frame.Actors
	Label    string // "Produce t-0 seq=0..2"
	// Code is the error code of an Error answer as its Label writes it
	// ("OUT_OF_ORDER_SEQUENCE_NUMBER(45)", or "PRODUCER_FENCED" in a list
	// of partitions): the one part of the label the diagram never cuts.
	// CodeTail is where: the number of bytes of Label after the code
	// (counted from the end, so that a mark put before the label keeps
	// it right).
	Code     string
	CodeTail int
	Step     int // the step that sent it
	// ID is the message's number (the engine's mN), for
	// MessageSource.Message.
	ID int64
	// Name is the message's name as Label writes it
	// ("InitProducerIdResponse"), NameTail the number of bytes of Label
	// after it (from the end, as CodeTail); Short and Shortest are
	// shorter forms of the name ("InitPidResponse", "InitPidResp"; ""
	// when it has none), which the Timeline draws in a lane too narrow
	// for it.
	Name, Short, Shortest string
	NameTail              int
	// The flags come last, together, so that they pack (a frame holds
	// hundreds of arrows).
	State ArrowState
	Reply bool // a response rather than a request
	Error bool // a response carrying an error code
	// Duplicate marks the second copy of a message that the network
	// made (the duplicate fault); the original has its own arrow.
	Duplicate bool
	// Delayed marks a message the network held back (the delay fault),
	// at or before the frame's step. It stays set once it arrives.
	Delayed bool
	// Changed marks an arrow the last step sent, delivered, lost or
	// delayed.
	Changed bool
	// Picked marks the row the learner's cursor is on.
	Picked bool
}

// ArrowState is where a message is at the frame's step. The zero value is
// in flight: nothing is drawn as delivered without a delivery.
type ArrowState uint8

// The states of a message.
const (
	// ArrowInFlight: sent, and not delivered or lost yet.
	ArrowInFlight ArrowState = iota
	// ArrowDelivered: it reached its destination.
	ArrowDelivered
	// ArrowDropped: the network lost it on the way (the drop fault).
	ArrowDropped
	// ArrowLost: it reached a host that is down, which lost it.
	ArrowLost
)

var arrowStateNames = [...]string{"in flight", "delivered", "dropped", "lost"}

func (s ArrowState) String() string {
	if int(s) < len(arrowStateNames) {
		return arrowStateNames[s]
	}
	return "state" + strconv.Itoa(int(s))
}

// Actor is one column of the sequence diagram.
type Actor struct {
	Name string // "broker-1", "A"
	// Short is the name in at most three cells, unique among the frame's
	// actors ("b1" for broker-1; a short name is itself). The diagram
	// draws it, with a key, when the full names would leave the labels
	// too little room. Empty means Name.
	Short string
	// Broker marks a broker's column (a client's otherwise).
	Broker bool
}

package engine

import (
	"strconv"
	"strings"
)

// EventKind classifies an event. The canonical text carries the detail; the
// kind lets a view colour and filter without parsing text.
type EventKind uint8

// Event kinds.
const (
	EvAction      EventKind = iota // an action was applied (the scenario line)
	EvSend                         // a message was put on the network
	EvDeliver                      // a message reached its destination
	EvSeqCheck                     // a partition leader decided on a produce batch
	EvAppend                       // a batch was appended to a log
	EvMarker                       // a transaction marker was appended or refused
	EvWatermark                    // high watermark or LSO moved
	EvTxnState                     // coordinator state transition
	EvTxnLog                       // a record written to __transaction_state
	EvEpoch                        // a producer epoch or id changed
	EvFence                        // a producer was fenced
	EvClientState                  // client transaction state change
	EvClientError                  // a client got an error
	EvConsume                      // a consumer handed records to the application
	EvOffsets                      // group coordinator offset decisions
	EvFault                        // a fault was applied
	EvTimer                        // a timer fired
	EvViolation                    // an invariant was violated
	EvInfo                         // anything else worth narrating
	EvHazard                       // Kafka's own behaviour that breaks what an invariant promises (named, not a violation)
	EvSwitch                       // a teaching switch (eoslab.*, not a Kafka setting) was turned on or off
)

var eventKindNames = [...]string{"action", "send", "deliver", "seqcheck", "append", "marker", "watermark",
	"txnstate", "txnlog", "epoch", "fence", "clientstate", "clienterror", "consume", "offsets", "fault",
	"timer", "violation", "info", "hazard", "switch"}

func (k EventKind) String() string {
	if int(k) < len(eventKindNames) {
		return eventKindNames[k]
	}
	return "kind" + strconv.Itoa(int(k))
}

// FaultKind says what a fault did. For the faults on one message (dropped,
// duplicated, delayed, reordered, lost at a host that is down) the event's
// Message is that message, so a view can draw the loss without reading Text.
type FaultKind uint8

// Fault kinds.
const (
	FaultNone       FaultKind = iota
	FaultDropped              // the network lost the message (drop)
	FaultDuplicated           // the network delivers a second copy: Message is the copy
	FaultDelayed              // the network holds the message back
	FaultReordered            // two messages swap their delivery slots: Message is the first
	FaultLost                 // the message reached a host that is down and is lost there
	FaultCrash                // a broker or client crashes
	FaultRestart              // a broker or client restarts
	FaultPause                // a client stops in a long GC pause
	FaultResume               // a paused client goes on
	FaultRebalance            // a consumer group gets a new generation
	FaultOffline              // a partition or coordinator has no live replica
	FaultLeaderMove           // partition leadership or a coordinator moves to another broker
	FaultTruncate             // a new leader cuts the unreplicated tail of a log
)

var faultKindNames = [...]string{"none", "dropped", "duplicated", "delayed", "reordered", "lost", "crash",
	"restart", "pause", "resume", "rebalance", "offline", "leader-move", "truncate"}

func (k FaultKind) String() string {
	if int(k) < len(faultKindNames) {
		return faultKindNames[k]
	}
	return "fault" + strconv.Itoa(int(k))
}

// LosesMessage reports whether the fault loses the event's Message: the
// network dropped it, or it reached a host that is down.
func (k FaultKind) LosesMessage() bool { return k == FaultDropped || k == FaultLost }

// StateMachine names the state machine a Transition belongs to.
type StateMachine uint8

// State machines an event can report a transition of.
const (
	NoStateMachine    StateMachine = iota
	CoordinatorStates              // TransactionMetadata.state (TxnState, ref 3.3)
	ClientStates                   // TransactionManager.State (ClientState, ref 1.3)
)

// Transition is a state change an event reports: of a coordinator entry
// (Of is CoordinatorStates, the event's TxnID names it; read it with Txn)
// or of a producer client (ClientStates, the event's Actor; read it with
// Client). It is three bytes, as every event carries one.
type Transition struct {
	Of       StateMachine
	from, to uint8
}

// TxnTransition is a coordinator entry's change from one state to another.
func TxnTransition(from, to TxnState) Transition {
	return Transition{Of: CoordinatorStates, from: uint8(from), to: uint8(to)}
}

// ClientTransition is a producer client's change from one state to another.
func ClientTransition(from, to ClientState) Transition {
	return Transition{Of: ClientStates, from: uint8(from), to: uint8(to)}
}

// Txn is a coordinator transition's states; ok is false for any other.
func (t Transition) Txn() (from, to TxnState, ok bool) {
	return TxnState(t.from), TxnState(t.to), t.Of == CoordinatorStates
}

// Client is a client transition's states; ok is false for any other.
func (t Transition) Client() (from, to ClientState, ok bool) {
	return ClientState(t.from), ClientState(t.to), t.Of == ClientStates
}

// Event is one decision or happening, as typed fields: its kind, the actor
// that decided or suffered it, the message, partition and transactional id
// it is about, the error code it reports, the rule that decided it, any
// state transition and, for a fault, what the fault did. Text is the
// canonical one-line form of those fields, made by describe when something
// shows it (transcripts, the TUI log, tests and --json output); code that
// needs to know what happened reads the fields, never Text. Rule, when
// set, is the typed rule that decided (a Reason and its arguments, with
// the Kafka source in the rule table), so a player can explain why and not
// only what.
type Event struct {
	Time  int64  `json:"time"`
	Seq   int32  `json:"seq"`
	Step  int32  `json:"step"`
	Actor string `json:"actor"`
	// note is the event's words that no phrase below says: a says code
	// and its typed arguments (describe renders them; read them with
	// Text), by reference: most events have none.
	note *note
	// Rule is what decided, if anything (the zero Rule if nothing).
	Rule Rule `json:"-"`
	// TxnID is the transactional id the event is about, if any.
	TxnID string `json:"-"`
	// TP is the partition the event is about, if any (the zero TP if none).
	TP TP `json:"-"`
	// Message is the message the event is about (sent, delivered, dropped,
	// duplicated), so a view can draw it without reading Text.
	Message *Message   `json:"-"`
	Kind    EventKind  `json:"-"`
	Fault   FaultKind  `json:"-"`
	Code    ErrorCode  `json:"-"`
	Change  Transition `json:"-"`
	// say is how describe words the event (sayDetail: note holds its
	// words); arg, x, y and z are the numbers it uses, their meaning set
	// by say (see the phrases).
	say phrase
	// pid and epoch are the producer the event is about when no message
	// says it (a leader's decision on a batch, a marker); hasPID says
	// they are set. Read them with Producer.
	epoch  int16
	hasPID bool
	x      int32
	pid    int64
	arg    int64
	y, z   int32
}

// MsgID is the id of the message the event is about, or 0 if none.
func (e *Event) MsgID() int64 {
	if e.Message == nil {
		return 0
	}
	return e.Message.ID
}

// HasTP reports whether the event is about a partition.
func (e *Event) HasTP() bool { return e.TP.Topic != "" }

// about sets the message the event is about.
func (e *Event) about(m *Message) *Event {
	e.Message = m
	return e
}

// saying sets the message the event is about and the phrase describe
// renders it with.
func (e *Event) saying(m *Message, p phrase) *Event {
	e.about(m)
	e.say = p
	return e
}

// phrase is how describe words an event about one message whose text is
// all in typed fields: the message's name, kind, sender or body, and arg.
type phrase uint8

// Phrases. The zero phrase is an event whose words are its note.
const (
	sayDetail       phrase = iota // the event's note
	saySends                      // sends m12 A -> broker-1 Produce ... (EvSend)
	sayDrops                      // drops m12 A -> broker-1 Produce ... (FaultDropped)
	sayReceives                   // receives m12 ProduceResponse
	sayReceivesFrom               // receives m12 Produce from A
	sayReceivesBody               // receives m12 ProduceResponse t-0=NONE
	sayLost                       // is down: m12 Produce is lost
	sayLostFrom                   // is down: m12 Produce from A is lost
	sayPaused                     // is paused: m12 Produce waits in its socket buffer
	sayDelayed                    // delays m12 Produce by arg ms

	// The phrases from here on are events about no message, rendered from
	// their typed fields by describeTyped.
	sayAccepts    // accepts pid= epoch= seq=x(count y) at offsets arg[ (expected seq z)], z < 0 for none
	sayAcked      // send to TP acknowledged at offset arg[, a retry when x == 1]
	sayWatermark  // TP high watermark x -> arg, LSO y -> z (or "stays z")
	sayNothingNew // (isolation, read_committed when x == 1) gets nothing new from TP at arg
	sayInitFails  // answers InitProducerId TxnID with Code
	sayRetries    // gets Code: retries after backoff
	sayRefinds    // gets Code: finds the coordinator again and retries
	sayDurable    // TxnID From -> To (durable at __transaction_state-x offset arg, epoch epoch)
	sayVerified   // verification passed: TP is in the transaction
	sayVerifies   // verifies TP for TxnID pid=arg epoch=epoch: Code
	sayAdvanced   // advanced to t=arg
	sayMarker     // appends MarkerType(x) marker pid= epoch= coordinatorEpoch=y at offset arg
	sayHasPID     // has pid=arg epoch=epoch[ (was epoch x); sequences restart at 0, when y == 1]
	sayLearns     // learns its transaction coordinator is broker-x (__transaction_state-y)
)

// phraseHeads are the words a phrase starts with, before the message.
var phraseHeads = [...]string{saySends: "sends ", sayDrops: "drops ", sayReceives: "receives ", sayReceivesFrom: "receives ",
	sayReceivesBody: "receives ", sayLost: "is down: ", sayLostFrom: "is down: ", sayPaused: "is paused: ", sayDelayed: "delays "}

// Text is the event's canonical one-line text, made by describe from the
// typed fields when something shows it.
func (e *Event) Text() string { return describe(e, true) }

// Unnumbered is Text without the number of the message the event is about
// ("m12 "), for a reader who follows messages by what they are rather than
// by their numbers: "sends A -> broker-1 Produce ...". An event whose text
// names two messages (a duplicate, a reorder) needs both numbers to make
// sense and keeps them, like every event about no message.
func (e *Event) Unnumbered() string { return describe(e, false) }

// Described is Unnumbered with where its parts sit, for a view that keeps
// one text and makes both forms from it: Text is text with "m<MsgID> "
// put in at byte numAt (numAt < 0: Text is text), and when the text ends
// with the body of its message (a send, a drop, a reply received with its
// body) the body, Message.Detail, is text[bodyAt:] (bodyAt < 0: it does
// not).
func (e *Event) Described() (text string, numAt, bodyAt int) { return describeAt(e, false) }

// producer sets the producer id and epoch the event is about.
func (e *Event) producer(pid int64, epoch int16) *Event {
	e.pid, e.epoch, e.hasPID = pid, epoch, true
	return e
}

// Producer is the producer id and epoch the event is about: set where it
// was decided, or the ones its message carries (a batch's, a marker's,
// a request's or an answer's). ok is false when neither says one.
func (e *Event) Producer() (pid int64, epoch int16, ok bool) {
	if e.hasPID {
		return e.pid, e.epoch, true
	}
	if e.Message == nil {
		return 0, 0, false
	}
	switch b := e.Message.Body.(type) {
	case *ProduceRequest:
		if len(b.Batches) > 0 && b.Batches[0].ProducerID >= 0 {
			return b.Batches[0].ProducerID, b.Batches[0].ProducerEpoch, true
		}
	case *InitProducerIDRequest:
		return b.ProducerID, b.ProducerEpoch, b.ProducerID >= 0
	case *InitProducerIDResponse:
		return b.ProducerID, b.ProducerEpoch, b.ProducerID >= 0
	case *AddPartitionsToTxnRequest:
		return b.ProducerID, b.ProducerEpoch, true
	case *AddOffsetsToTxnRequest:
		return b.ProducerID, b.ProducerEpoch, true
	case *EndTxnRequest:
		return b.ProducerID, b.ProducerEpoch, true
	case *EndTxnResponse:
		return b.ProducerID, b.ProducerEpoch, b.ProducerID >= 0
	case *WriteTxnMarkersRequest:
		return b.ProducerID, b.ProducerEpoch, true
	case *TxnOffsetCommitRequest:
		return b.ProducerID, b.ProducerEpoch, b.ProducerID >= 0
	}
	return 0, 0, false
}

// code sets the error code the event reports.
func (e *Event) code(c ErrorCode) *Event {
	e.Code = c
	return e
}

// on sets the partition the event is about.
func (e *Event) on(tp TP) *Event {
	e.TP = tp
	return e
}

// txn sets the transactional id the event is about.
func (e *Event) txn(id string) *Event {
	e.TxnID = id
	return e
}

// fault sets what a fault did.
func (e *Event) fault(k FaultKind) *Event {
	e.Fault = k
	return e
}

// describe is the one function that makes an event's canonical text. The
// events whose content is all in typed fields are rendered from them: a
// message sent, dropped, received, lost, held or delayed (by its phrase),
// a client's state transition, and the head "id From -> To" of a
// coordinator's, which the note completes. The other events' text is
// their note: a says code from the table in says.go and its typed
// arguments, worded here and not where the event happened. numbered says
// whether the text names the event's message by its number.
func describe(e *Event, numbered bool) string {
	s, _, _ := describeAt(e, numbered)
	return s
}

// describeAt is describe, and where two parts sit in the text it makes,
// measured as it writes them: numAt is where the message's number ("m12 ")
// starts, or would start in the unnumbered text (-1 when the text has no
// number of its own), and bodyAt where the message's body starts when the
// text ends with it (a send, a drop, a reply received with its body; -1
// otherwise).
func describeAt(e *Event, numbered bool) (s string, numAt, bodyAt int) {
	numAt, bodyAt = -1, -1
	if e.say >= sayAccepts {
		return describeTyped(e), numAt, bodyAt
	}
	m := e.Message
	if e.say == sayDetail || m == nil {
		if from, to, ok := e.Change.Client(); ok {
			return from.String() + " -> " + to.String() + e.detail(), numAt, bodyAt
		}
		if from, to, ok := e.Change.Txn(); ok {
			return e.TxnID + " " + from.String() + " -> " + to.String() + e.detail(), numAt, bodyAt
		}
		return e.detail(), numAt, bodyAt
	}
	var b strings.Builder
	b.Grow(96)
	b.WriteString(phraseHeads[e.say])
	numAt = b.Len()
	if numbered {
		b.WriteString("m")
		b.WriteString(strconv.FormatInt(m.ID, 10))
		b.WriteString(" ")
	}
	switch e.say {
	case saySends, sayDrops:
		b.WriteString(m.From)
		b.WriteString(" -> ")
		b.WriteString(m.To)
		b.WriteString(" ")
	}
	b.WriteString(m.Kind.String())
	switch e.say {
	case saySends, sayDrops, sayReceivesBody:
		b.WriteString(" ")
		bodyAt = b.Len()
		b.WriteString(m.Body.describe())
	case sayReceivesFrom, sayLostFrom:
		b.WriteString(" from ")
		b.WriteString(m.From)
	}
	switch e.say {
	case sayLost, sayLostFrom:
		b.WriteString(" is lost")
	case sayPaused:
		b.WriteString(" waits in its socket buffer")
	case sayDelayed:
		b.WriteString(" by ")
		b.WriteString(strconv.FormatInt(e.arg, 10))
		b.WriteString(" ms")
	}
	return b.String(), numAt, bodyAt
}

// detail is the event's note in words, if it has one.
func (e *Event) detail() string { return e.note.String() }

// describeTyped renders the events whose words are all in typed fields and
// about no message (the phrases from sayAccepts on): the common decisions
// of a produce, a fetch and a retry, which used to build their words where
// they were decided.
func describeTyped(e *Event) string {
	var b line
	b.Grow(80)
	switch e.say {
	case sayAccepts:
		nb := Batch{BaseSequence: e.x, Count: e.y, BaseOffset: e.arg}
		b.num("accepts pid=", e.pid)
		b.num(" epoch=", int64(e.epoch))
		b.str(" seq=", nb.Seqs(), " at offsets ", nb.Offsets())
		if e.z >= 0 {
			b.num(" (expected seq ", int64(e.z))
			b.WriteString(")")
		}
	case sayAcked:
		b.str("send to ", e.TP.String())
		b.num(" acknowledged at offset ", e.arg)
		if e.x == 1 {
			b.WriteString(" (the broker recognised a retry; nothing new was written)")
		}
	case sayWatermark:
		b.str(e.TP.String())
		b.num(" high watermark ", int64(e.x))
		b.num(" -> ", e.arg)
		if e.y != e.z {
			b.num(", LSO ", int64(e.y))
			b.num(" -> ", int64(e.z))
		} else {
			b.num(", LSO stays ", int64(e.z))
		}
	case sayNothingNew:
		iso := "(read_uncommitted)"
		if e.x == 1 {
			iso = "(read_committed)"
		}
		b.str(iso, " gets nothing new from ", e.TP.String())
		b.num(" at ", e.arg)
	case sayInitFails:
		b.str("answers InitProducerId ", e.TxnID, " with ", e.Code.String())
	case sayRetries:
		b.str("gets ", e.Code.String(), ": retries after backoff")
	case sayRefinds:
		b.str("gets ", e.Code.String(), ": finds the coordinator again and retries")
	case sayDurable:
		from, to, _ := e.Change.Txn()
		b.str(e.TxnID, " ", from.String(), " -> ", to.String(), " (durable at ", TxnStateTopic)
		b.num("-", int64(e.x))
		b.num(" offset ", e.arg)
		b.num(", epoch ", int64(e.epoch))
		b.WriteString(")")
	case sayVerified:
		b.str("verification passed: ", e.TP.String(), " is in the transaction")
	case sayVerifies:
		b.str("verifies ", e.TP.String(), " for ", e.TxnID)
		b.num(" pid=", e.arg)
		b.num(" epoch=", int64(e.epoch))
		b.str(": ", e.Code.String())
	case sayAdvanced:
		b.num("advanced to t=", e.arg)
	case sayMarker:
		b.str("appends ", MarkerType(e.x).String())
		b.num(" marker pid=", e.pid)
		b.num(" epoch=", int64(e.epoch))
		b.num(" coordinatorEpoch=", int64(e.y))
		b.num(" at offset ", e.arg)
	case sayHasPID:
		b.num("has pid=", e.arg)
		b.num(" epoch=", int64(e.epoch))
		if e.y == 1 {
			b.num(" (was epoch ", int64(e.x))
			b.WriteString("); sequences restart at 0")
		}
	case sayLearns:
		b.num("learns its transaction coordinator is broker-", int64(e.x))
		b.str(" (", TxnStateTopic)
		b.num("-", int64(e.y))
		b.WriteString(")")
	}
	return b.String()
}

// line is a builder for describe's words: strings, and labelled numbers
// written without a string for the number.
type line struct{ strings.Builder }

func (l *line) str(parts ...string) {
	for _, s := range parts {
		l.WriteString(s)
	}
}

func (l *line) num(label string, n int64) {
	var buf [20]byte
	l.WriteString(label)
	l.Write(strconv.AppendInt(buf[:0], n, 10))
}

// Line is the transcript form: time, actor, text and rule.
func (e Event) Line() string {
	var b strings.Builder
	b.WriteString("t=")
	b.WriteString(strconv.FormatInt(e.Time, 10))
	b.WriteString(" ")
	b.WriteString(e.Actor)
	b.WriteString(": ")
	b.WriteString(describe(&e, true))
	if !e.Rule.IsZero() {
		b.WriteString(" [")
		e.Rule.write(&b)
		b.WriteString("]")
	}
	return b.String()
}

// record appends an event whose typed fields are set in e: it stamps the
// sequence number, step and time, sets its note (says and args) and notes
// the actor and message in the step's change set. Every event goes
// through here or through emit, which does the same for an event that has
// nothing to render.
func (w *World) record(e Event, s says, args ...arg) *Event {
	p := w.events.push(e)
	p.Seq, p.Step, p.Time = int32(w.events.len()-1), int32(w.stepCount), w.now
	if !w.events.quiet {
		p.note = copiedNote(s, args)
	}
	if p.Message != nil {
		w.changes.message(p.Message.ID)
	}
	w.changes.actor(p.Actor)
	return p
}

// event records an event of the given kind with no note: the call site
// sets the typed fields and the phrase describe words it with.
func (w *World) event(kind EventKind, actor string) *Event {
	// record's work for an event with nothing to render, made in place:
	// this is the path of most events, on every step.
	p := w.events.next()
	p.Seq, p.Step, p.Time, p.Kind, p.Actor = int32(w.events.len()-1), int32(w.stepCount), w.now, kind, actor
	w.changes.actor(actor)
	return p
}

// emit records an event of the given kind whose words are the note s
// with args, rendered by describe when something shows the event; the
// call site adds the typed fields it knows with the setters above (about,
// code, on, txn, fault).
func (w *World) emit(kind EventKind, actor string, s says, args ...arg) *Event {
	p := w.event(kind, actor)
	if !w.events.quiet {
		p.note = copiedNote(s, args)
	}
	return p
}

// emitTyped records an event that describe words from its typed fields
// with phrase say; the call site sets the fields the phrase reads.
func (w *World) emitTyped(kind EventKind, actor string, say phrase) *Event {
	p := w.events.next()
	p.Seq, p.Step, p.Time, p.Kind, p.Actor, p.say = int32(w.events.len()-1), int32(w.stepCount), w.now, kind, actor, say
	w.changes.actor(actor)
	return p
}

// emitRule is emit of an event that rule decided.
func (w *World) emitRule(kind EventKind, actor string, rule Rule, s says, args ...arg) *Event {
	e := w.emit(kind, actor, s, args...)
	e.Rule = rule
	return e
}

// emitFault records a fault on a message. describe renders the text of the
// kinds it can from the message; the note (s, args) is the words of the
// others.
func (w *World) emitFault(kind FaultKind, actor string, m *Message, s says, args ...arg) *Event {
	e := Event{Kind: EvFault, Actor: actor, Fault: kind, Message: m}
	if kind == FaultDropped {
		e.say = sayDrops
	}
	return w.record(e, s, args...)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// emitTxnState records a coordinator state transition of a transactional
// id; describe renders "id From -> To" and the note (s, args) completes it.
func (w *World) emitTxnState(actor, id string, from, to TxnState, s says, args ...arg) *Event {
	return w.record(Event{Kind: EvTxnState, Actor: actor, TxnID: id, Change: TxnTransition(from, to)}, s, args...)
}

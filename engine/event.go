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
)

var eventKindNames = [...]string{"action", "send", "deliver", "seqcheck", "append", "marker", "watermark",
	"txnstate", "txnlog", "epoch", "fence", "clientstate", "clienterror", "consume", "offsets", "fault",
	"timer", "violation", "info", "hazard"}

func (k EventKind) String() string {
	if int(k) < len(eventKindNames) {
		return eventKindNames[k]
	}
	return "kind" + strconv.Itoa(int(k))
}

// Event is one decision or happening. Text is the canonical one-line form
// used by transcripts, the TUI log, tests and --json output. Rule, when set,
// names the rule that decided (for example a row of the reference's decision
// table), so a player can explain why and not only what.
type Event struct {
	Seq   int       `json:"seq"`
	Step  int       `json:"step"`
	Time  int64     `json:"time"`
	Kind  EventKind `json:"-"`
	Actor string    `json:"actor"`
	Text  string    `json:"text"`
	Rule  string    `json:"rule,omitempty"`
	Code  ErrorCode `json:"-"`
	Msg   int64     `json:"msg,omitempty"`
	// Message is the message the event is about (sent, delivered, dropped,
	// duplicated), so a view can draw it without reading Text.
	Message *Message `json:"-"`
}

func (e *Event) about(m *Message) {
	e.Msg = m.ID
	e.Message = m
}

// Line is the transcript form: time, actor, text and rule.
func (e Event) Line() string {
	var b strings.Builder
	b.WriteString("t=")
	b.WriteString(strconv.FormatInt(e.Time, 10))
	b.WriteString(" ")
	b.WriteString(e.Actor)
	b.WriteString(": ")
	b.WriteString(e.Text)
	if e.Rule != "" {
		b.WriteString(" [")
		b.WriteString(e.Rule)
		b.WriteString("]")
	}
	return b.String()
}

func (w *World) emit(kind EventKind, actor, text string) *Event {
	w.Events = append(w.Events, Event{Seq: len(w.Events), Step: w.StepCount, Time: w.Now, Kind: kind, Actor: actor, Text: text})
	return &w.Events[len(w.Events)-1]
}

func (w *World) emitRule(kind EventKind, actor, text, rule string) {
	e := w.emit(kind, actor, text)
	e.Rule = rule
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

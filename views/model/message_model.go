package model

// MessageFields is one message of the Timeline, field by field: what the
// box of a picked row shows. A field the message does not carry is empty.
type MessageFields struct {
	// Name is the message's number as the event log and the scenario
	// language write it ("m12").
	Name string
	// Kind is the Kafka request or response ("Produce", "EndTxnResponse").
	Kind     string
	From, To string
	// State is where the message is at the frame's step.
	State ArrowState
	// Partitions are the partitions it is about ("t-0").
	Partitions []string
	// TransactionalID, ProducerID, Epoch and Sequence are the producer's
	// fields it carries ("1000", "0", "0..2").
	TransactionalID   string
	ProducerID, Epoch string
	Sequence          string
	// Code is the error code of an answer ("PRODUCER_FENCED(90)", or
	// "NONE(0)"); empty for a request. Error says it is not NONE.
	Code  string
	Error bool
	// Rule is what decided, as the event log cites it (a Kafka class and
	// method, a KIP): for an answer, what made it; for a request, what
	// its receiver did with it. Then is, for an answer, what its receiver
	// did with it. Empty when nothing has decided yet (still in flight).
	Rule, Then string
	// Body is the whole body as the event log writes it.
	Body string
}

// MessageSource is a session that can say what a message of its Timeline
// carries, by Arrow.ID, as of its current step.
type MessageSource interface {
	Message(id int64) (MessageFields, bool)
}

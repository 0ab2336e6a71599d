package adapt

import (
	"strconv"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/views/model"
)

// Message says what message id of the Timeline carries, field by field,
// and what decided about it, as of the session's step
// (model.MessageSource). It reads the engine's events, not their text:
// the send event holds the message, and the rules are the typed Rule of
// the events around its send and its delivery.
func (s *Session) Message(id int64) (model.MessageFields, bool) {
	w := s.p.World()
	n := w.EventCount()
	send, deliver := -1, -1
	var m *engine.Message
	for i := 0; i < n; i++ {
		e := w.EventAt(i)
		if e.MsgID() != id {
			continue
		}
		switch {
		case send < 0 && (e.Kind == engine.EvSend || e.Fault == engine.FaultDuplicated):
			send, m = i, e.Message
		case send >= 0 && e.Kind == engine.EvDeliver:
			deliver = i
		}
		if deliver >= 0 {
			break
		}
	}
	if m == nil {
		return model.MessageFields{}, false
	}
	f := messageFields(m)
	f.State = model.ArrowInFlight
	if i, ok := s.arrowOf(id); ok {
		f.State = s.hist.arrows[i].at(s.p.Pos()).State
	}
	// What the receiver did with it: the first rule after its delivery,
	// before the next delivery or action.
	var after string
	if deliver >= 0 {
		for i := deliver + 1; i < n; i++ {
			e := w.EventAt(i)
			if e.Kind == engine.EvDeliver || e.Kind == engine.EvAction {
				break
			}
			if !e.Rule.IsZero() {
				after = e.Rule.String()
				break
			}
		}
	}
	if !m.Kind.IsResponse() {
		f.Rule = after
		return f, true
	}
	// What made an answer: the last rule before it was sent, back to the
	// delivery or action that started the sender's work.
	for i := send - 1; i >= 0; i-- {
		e := w.EventAt(i)
		if !e.Rule.IsZero() {
			f.Rule = e.Rule.String()
			break
		}
		if e.Kind == engine.EvDeliver || e.Kind == engine.EvAction {
			break
		}
	}
	f.Then = after
	return f, true
}

// arrowOf is the index in the history of the arrow of message id.
func (s *Session) arrowOf(id int64) (int, bool) {
	for i := len(s.hist.arrows) - 1; i >= 0; i-- {
		if s.hist.arrows[i].id == id {
			return i, true
		}
	}
	return 0, false
}

// Message is the fields of message id on the branch shown.
func (x *Sandbox) Message(id int64) (model.MessageFields, bool) { return x.branch().s.Message(id) }

// messageFields reads a message's fields from its typed body.
func messageFields(m *engine.Message) model.MessageFields {
	f := model.MessageFields{Name: m.Name(), Kind: m.Kind.String(), From: m.From, To: m.To, Body: m.Detail()}
	for _, tp := range m.Body.About() {
		f.Partitions = append(f.Partitions, tp.String())
	}
	if m.Kind.IsResponse() {
		f.Code, f.Error = m.Code().String(), m.Code() != engine.None
	}
	producer := func(txn string, pid int64, epoch int16) {
		// -1 is on Kafka's wire too: no producer id yet.
		f.TransactionalID = txn
		f.ProducerID = strconv.FormatInt(pid, 10)
		f.Epoch = strconv.Itoa(int(epoch))
	}
	switch b := m.Body.(type) {
	case *engine.ProduceRequest:
		f.TransactionalID = b.TransactionalID
		if len(b.Batches) > 0 {
			bt := &b.Batches[0]
			producer(b.TransactionalID, bt.ProducerID, bt.ProducerEpoch)
			f.Sequence = bt.Seqs()
		}
	case *engine.InitProducerIDRequest:
		producer(b.TransactionalID, b.ProducerID, b.ProducerEpoch)
	case *engine.InitProducerIDResponse:
		producer("", b.ProducerID, b.ProducerEpoch)
	case *engine.AddPartitionsToTxnRequest:
		producer(b.TransactionalID, b.ProducerID, b.ProducerEpoch)
	case *engine.AddOffsetsToTxnRequest:
		producer(b.TransactionalID, b.ProducerID, b.ProducerEpoch)
	case *engine.EndTxnRequest:
		producer(b.TransactionalID, b.ProducerID, b.ProducerEpoch)
	case *engine.EndTxnResponse:
		if b.V5 {
			producer("", b.ProducerID, b.ProducerEpoch)
		}
	case *engine.WriteTxnMarkersRequest:
		producer(b.TransactionalID, b.ProducerID, b.ProducerEpoch)
	case *engine.WriteTxnMarkersResponse:
		f.TransactionalID = b.TransactionalID
		f.ProducerID = strconv.FormatInt(b.ProducerID, 10)
	case *engine.TxnOffsetCommitRequest:
		producer(b.TransactionalID, b.ProducerID, b.ProducerEpoch)
	}
	return f
}

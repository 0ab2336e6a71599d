package verify

import (
	"github.com/eoslab/eoslab/engine"
)

// A transaction coordinator's decision that it answers without a state
// change of its own (TransactionCoordinator: an AddPartitionsToTxn or
// AddOffsetsToTxn for what the transaction already holds, an EndTxn
// retried after the transaction completed with the same result; and a
// new transactional id's producer id, answered once its Empty record is
// written, handleInitProducerId) reaches the client as the answer to its
// request. The simulation's narration of the decision stands for that
// answer, with the code (and for InitProducerId the producer id and
// epoch) the simulation's coordinator gave.

// replyKinds is the answer each such decision is given in.
var replyKinds = map[engine.Reason]engine.MsgKind{
	engine.RuleAddPartitions:    engine.MsgAddPartitionsToTxnResponse,
	engine.RuleTV2AddPartitions: engine.MsgAddPartitionsToTxnResponse,
	engine.RuleAddOffsets:       engine.MsgAddOffsetsToTxnResponse,
	engine.RuleEndTxn:           engine.MsgEndTxnResponse,
	engine.RuleInitNewID:        engine.MsgInitProducerIDResponse,
}

// replyClaim is the answer coordinator decision i stands for.
func (d *driver) replyClaim(w *engine.World, i int) (claim, bool) {
	e := w.EventAt(i)
	kind, ok := replyKinds[e.Rule.Reason]
	if e.Kind != engine.EvInfo || !ok || e.TxnID == "" || e.Message != nil {
		return claim{}, false
	}
	// The producer of the id; with two (or none), only an answer to the
	// file's expert requests (expert.go) is known to be this one.
	to, owners := "expert", 0
	for n, decl := range d.decls {
		if decl.Config.TransactionalID == e.TxnID {
			to, owners = n, owners+1
		}
	}
	if owners > 1 {
		to = "expert"
	}
	look := 2 // answered at once
	if e.Rule.Reason == engine.RuleInitNewID {
		look = epochLook // answered once the Empty record is written
	}
	for j := i + 1; j < w.EventCount() && j <= i+look; j++ {
		n := w.EventAt(j)
		if n.Kind == engine.EvInfo && n.Rule.Reason == e.Rule.Reason && n.TxnID == e.TxnID {
			return claim{}, false
		}
		if n.Kind != engine.EvSend || n.Message == nil || n.Message.Kind != kind || (n.Message.To != to && n.Message.To != "expert") {
			continue
		}
		return d.answerClaimOf(w, &n, "the coordinator's answer: ")
	}
	return claim{}, false
}

// offsetsReplyClaim: the group coordinator holding transactional offsets
// as pending (TxnOffsetCommit, KIP-447: GroupMetadata.
// prepareTxnOffsetCommit) or committing offsets outside a transaction
// (OffsetCommit) answers the client NONE once the offsets record is
// written; the event stands for that answer.
func (d *driver) offsetsReplyClaim(w *engine.World, i int) (claim, bool) {
	e := w.EventAt(i)
	if e.Kind != engine.EvOffsets || e.Code != engine.None || e.Message != nil {
		return claim{}, false
	}
	kind, look, adjacent := engine.MsgOffsetCommitResponse, 16, true
	if e.Rule.Reason == engine.RuleTxnOffsetMember {
		// Answered once the record is replicated (the write is held).
		kind, look, adjacent = engine.MsgTxnOffsetCommitResponse, epochLook, false
	} else if e.Rule.Reason != engine.RuleNone || e.TxnID != "" {
		return claim{}, false
	}
	for j := i + 1; j < w.EventCount() && j <= i+look; j++ {
		n := w.EventAt(j)
		if n.Kind == engine.EvSend && n.Message != nil && n.Message.Kind == kind {
			return d.answerClaimOf(w, &n, "the group coordinator's answer: ")
		}
		// Committed outside a transaction: the answer follows the
		// request's offsets events at once (a marker's commit of
		// pending offsets has no answer to a client).
		if adjacent && n.Kind != engine.EvViolation && (n.Kind != engine.EvOffsets || n.Actor != e.Actor) {
			return claim{}, false
		}
	}
	return claim{}, false
}

// answerClaimOf is the claim of answer event n, its words prefixed with
// what it stands for; false when the answer has no broker counterpart.
func (d *driver) answerClaimOf(w *engine.World, n *engine.Event, what string) (claim, bool) {
	c, so, ny := d.messageClaim(w, n)
	if so != "" || ny != "" {
		return claim{}, false
	}
	c.what = what + c.what
	return c, true
}

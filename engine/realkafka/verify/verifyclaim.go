package verify

import (
	"strings"

	"github.com/eoslab/eoslab/engine"
)

// A partition leader's verification (KIP-890 part 1: the leader asks the
// coordinator, with a verifyOnly AddPartitionsToTxn, whether the
// partition is in the producer's transaction before it appends;
// ReplicaManager.appendRecords, TransactionCoordinator.
// handleVerifyPartitionsInTransaction) is traffic between brokers, which
// the wire wrapper does not carry; its outcome reaches the client as the
// leader's answer to the request it held: the Produce answer for the
// partition, or for __consumer_offsets the TxnOffsetCommit answer. The
// simulation's verification event stands for that answer, with the code
// the simulation's leader gave the client.

// verifyLook bounds how far after a verification its answer is looked
// for, in events.
const verifyLook = 64

// verifyClaim is the answer to the client verification event i stands
// for.
func (d *driver) verifyClaim(w *engine.World, i int) (claim, bool) {
	e := w.EventAt(i)
	if e.Kind != engine.EvInfo || e.Rule.Reason != engine.RuleVerifyPartitions || !e.HasTP() || e.TxnID == "" {
		return claim{}, false
	}
	offsets := strings.HasPrefix(e.TP.Topic, engine.OffsetsTopic)
	for j := i + 1; j < w.EventCount() && j <= i+verifyLook; j++ {
		n := w.EventAt(j)
		if n.Kind == engine.EvInfo && n.Rule.Reason == engine.RuleVerifyPartitions && n.TP == e.TP {
			return claim{}, false // verified again before answering
		}
		if n.Kind != engine.EvSend || n.Message == nil {
			continue
		}
		switch b := n.Message.Body.(type) {
		case *engine.ProduceResponse:
			if offsets || b.TP != e.TP {
				continue
			}
		case *engine.TxnOffsetCommitResponse:
			if !offsets {
				continue
			}
		default:
			continue
		}
		if _, ok := d.decls[n.Message.To]; !ok && n.Message.To != "expert" {
			return claim{}, false
		}
		return d.answerClaimOf(w, &n, "the leader's verification, as its answer: ")
	}
	return claim{}, false
}

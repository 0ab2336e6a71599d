package verify

import (
	"github.com/eoslab/eoslab/engine"
)

// An epoch event (kind epoch) is a producer id or epoch changing in a
// client's or a coordinator's memory. Where the change is the
// coordinator's decision on an InitProducerId (a new producer id, an
// epoch bump, an exhausted epoch's new id: TransactionCoordinator.
// handleInitProducerId, ProducerIdManager for an idempotent producer), or
// a client taking the id and epoch such an answer carried, the broker run
// shows the decision as the InitProducerId answer with that producer id
// and epoch: the event stands for that answer. A client's local bump
// (the idempotent producer's, with no request) has no such answer and
// stays simulation-only.

// epochLook bounds how far from an epoch event its InitProducerId answer
// is looked for, in events.
const epochLook = 64

// epochClaim is the InitProducerId answer epoch event i stands for. The
// fact is that some answer carried the id and epoch: a decision's id and
// epoch are its own (epochs only grow, a new id starts again), while the
// answers carrying them are as many as the client's retries (franz-go
// retries CONCURRENT_TRANSACTIONS, a lost answer is asked again and
// answered alike), and the coordinator's decision and the client taking
// it are two events for one answer. So the claim is the first such
// answer, and its count is 0 or 1.
func (d *driver) epochClaim(w *engine.World, i int) (claim, bool) {
	c, ok := d.epochAnswer(w, i)
	if !ok {
		return c, false
	}
	c.nth = 1
	count := c.check
	c.check = func(scope int) (int, string, string) {
		n, shown, why := count(scope)
		return min(n, 1), shown, why
	}
	return c, true
}

// epochAnswer finds the answer epochClaim stands for.
func (d *driver) epochAnswer(w *engine.World, i int) (claim, bool) {
	e := w.EventAt(i)
	isAnswer := func(m *engine.Message) bool {
		return m != nil && m.Kind == engine.MsgInitProducerIDResponse && m.Code() == engine.None
	}
	if _, client := d.decls[e.Actor]; client {
		// The client took the id and epoch of the answer it was just
		// handed (TransactionManager.InitProducerIdHandler).
		for j := i - 1; j >= 0 && j >= i-epochLook; j-- {
			p := w.EventAt(j)
			if p.Kind == engine.EvEpoch && p.Actor == e.Actor {
				return claim{}, false
			}
			if p.Kind == engine.EvDeliver && isAnswer(p.Message) && p.Message.To == e.Actor {
				c, so, ny := d.messageClaim(w, &p)
				return c, so == "" && ny == ""
			}
		}
		return claim{}, false
	}
	// A coordinator's decision: the next InitProducerId answer it sends
	// to the producer of that transactional id or to the file's expert
	// requests (expert.go), or for an idempotent producer its next
	// answer at all.
	var to string
	if e.TxnID != "" {
		for n, decl := range d.decls {
			if decl.Config.TransactionalID == e.TxnID {
				if to != "" {
					return claim{}, false // two producers share the id: which one is not known
				}
				to = n
			}
		}
		if to == "" {
			return claim{}, false
		}
	}
	for j := i + 1; j < w.EventCount() && j <= i+epochLook; j++ {
		n := w.EventAt(j)
		if n.Kind == engine.EvEpoch && n.Actor == e.Actor {
			return claim{}, false
		}
		if n.Kind == engine.EvSend && isAnswer(n.Message) && (to == "" || n.Message.To == to || n.Message.To == "expert") {
			c, so, ny := d.messageClaim(w, &n)
			return c, so == "" && ny == ""
		}
	}
	return claim{}, false
}

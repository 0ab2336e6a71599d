package verify

import (
	"fmt"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// Refused injects. An expert transaction request (inject EndTxn,
// AddPartitionsToTxn, AddOffsetsToTxn) written while the simulation has
// other messages in flight lands inside a client's call, where the broker
// run, which sends each call whole, cannot place it. When the
// simulation's coordinator refuses it with an error, the request changed
// nothing: TransactionCoordinator.handleEndTransaction and
// handleAddPartitionsToTransaction answer every error (unknown producer id
// mapping, fenced epoch, invalid state, a pending transition's
// CONCURRENT_TRANSACTIONS) before they prepare a transition. The broker run
// then leaves that one request out and plays the rest of the file; the
// rows about the refused request itself (its answer, the events of its
// messages) are not played. An inject the coordinator accepted moves the
// transaction, and its file still stops there.

// refusal is an inject line's request that the simulation's coordinator
// answered with an error.
type refusal struct {
	corr int64
	code engine.ErrorCode
}

// planRefusals runs the simulation over cmds and finds the expert
// transaction requests its coordinator answered with an error, by line.
func planRefusals(cmds []script.Command, simTV int) map[int]refusal {
	r := script.NewRunner()
	r.PinTransactionVersion(simTV)
	sent := map[int64]int{} // an inject's correlation id: its line
	out := map[int]refusal{}
	for _, c := range cmds {
		evs, _, err := r.Exec(c)
		if err != nil {
			break
		}
		switch c.Action.(type) {
		case engine.InjectEndTxn, engine.InjectAddPartitions, engine.InjectAddOffsets:
			for _, e := range evs {
				if m := e.Message; e.Kind == engine.EvSend && m != nil && m.From == engine.ExpertAddr && !m.Kind.IsResponse() {
					sent[m.Corr] = c.Line
				}
			}
		}
		for _, e := range evs {
			m := e.Message
			if e.Kind != engine.EvSend || m == nil || m.To != engine.ExpertAddr || !m.Kind.IsResponse() {
				continue
			}
			if line, ok := sent[m.Corr]; ok {
				delete(sent, m.Corr)
				if m.Code() != engine.None {
					out[line] = refusal{m.Corr, m.Code()}
				}
			}
		}
	}
	return out
}

// skipRefused leaves out the inject of line c when the simulation's
// coordinator refuses it (planRefusals); false when it does not.
func (d *driver) skipRefused(c script.Command) bool {
	rf, ok := d.refusals[c.Line]
	if !ok {
		return false
	}
	if d.skipped == nil {
		d.skipped = map[int64]skippedInject{}
	}
	d.skipped[rf.corr] = skippedInject{c.Line, rf.code}
	return true
}

// skippedInject is an inject the broker run left out.
type skippedInject struct {
	line int
	code engine.ErrorCode
}

// skippedWhy is why a message of the simulation has no counterpart on the
// broker run: it is a left-out inject or the answer to one ("" if not).
func (d *driver) skippedWhy(m *engine.Message) string {
	if m == nil || (m.From != engine.ExpertAddr && m.To != engine.ExpertAddr) {
		return ""
	}
	s, ok := d.skipped[m.Corr]
	if !ok {
		return ""
	}
	return fmt.Sprintf("the broker run left out the inject of line %d: the simulation's coordinator refused it (%s) inside a client's call, where the broker run, which sends each call whole, cannot place it; a refusal changes nothing, so the rest of the file is played", s.line, s.code)
}

// noteDelivered keeps the newest answer the simulation delivered to each
// client, by kind: `expect response` reads that one.
func (d *driver) noteDelivered(evs []engine.Event) {
	for _, e := range evs {
		if m := e.Message; e.Kind == engine.EvDeliver && m != nil && m.Kind.IsResponse() {
			if d.delivered == nil {
				d.delivered = map[string]*engine.Message{}
			}
			d.delivered[m.To+" "+m.Kind.String()] = m
		}
	}
}

// skippedAnswer is why `expect response KIND to=CLIENT` is not played: the
// simulation's newest such answer is to an inject the broker run left
// out ("" if it is not).
func (d *driver) skippedAnswer(client, kind string) string {
	return d.skippedWhy(d.delivered[client+" "+kind])
}

// hasExpertTxn reports whether cmds inject an expert transaction request.
func hasExpertTxn(cmds []script.Command) bool {
	for _, c := range cmds {
		switch c.Action.(type) {
		case engine.InjectEndTxn, engine.InjectAddPartitions, engine.InjectAddOffsets:
			return true
		}
	}
	return false
}

package verify

import (
	"github.com/eoslab/eoslab/engine/realkafka/wire"
	"github.com/eoslab/eoslab/engine/script"
)

// A delay line holds one request of a client on the simulated network while
// the file goes on; when another client's call follows before the next quiet
// point, the simulation delivers that call's requests first (its logical
// clock moves in steps far shorter than the delay). The broker run hands
// each call to its client whole and in the file's order, so the delayed
// request lands before the other client's: the real run plays another
// interleaving (ref5.2-zombie-txn-offset-commit: the zombie's
// TxnOffsetCommit reaches the group coordinator before the new instance's
// InitProducerId fences it). When the client did send the delayed request
// (franz-go does not always send what the Java client would), the file is
// not played from that quiet point on.

const overlapWhy = "another client's call followed a delayed request before the next quiet point: the simulation delivers it first, the broker run sent each call whole in the file's order"

// overlapState is what a delay line leaves until the next quiet point.
type overlapState struct {
	delayed *worker        // the worker holding a delay rule
	before  int            // its applied delays when the rule went in
	at      script.Command // the other client's call that followed, if any
	seen    bool
}

// noteDelay remembers the worker whose connection holds a delay rule.
func (d *driver) noteDelay(w *worker) {
	d.ov.delayed, d.ov.before = w, delays(w)
}

// noteCall is called for every call queued on a worker: a call of another
// worker after a delay is the overlap (its line is set by noteLine).
func (d *driver) noteCall(w *worker) {
	if d.ov.delayed != nil && w != d.ov.delayed && !d.ov.seen {
		d.ov.seen = true
		d.overlap = true
	}
}

// noteLine records the line whose call overlapped.
func (d *driver) noteLine(c script.Command) {
	if d.overlap {
		d.ov.at, d.overlap = c, false
	}
}

// overlapped is checked at a quiet point, once every call ran: it stops the
// file when the delayed request was sent while another client's call
// followed it.
func (d *driver) overlapped() {
	ov := d.ov
	d.ov = overlapState{}
	if ov.delayed != nil && ov.seen && delays(ov.delayed) > ov.before {
		d.stop(ov.at, overlapWhy, false)
	}
}

func delays(w *worker) int {
	n := 0
	for _, e := range w.faults().Events() {
		if e.Action == wire.Delay {
			n++
		}
	}
	return n
}

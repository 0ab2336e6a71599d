package verify

// A delay line holds one request of a client on the simulated network while
// the file goes on; when another client's call follows before the next quiet
// point, the simulation delivers that call's requests first (its logical
// clock moves in steps far shorter than the delay). The broker run hands
// each call to its client whole and in the file's order, so the delayed
// request would land before the other client's: the real run would play a
// different interleaving (ref5.2-zombie-txn-offset-commit: the zombie's
// TxnOffsetCommit reaches the group coordinator before the new instance's
// InitProducerId fences it). Such a file is not played from that call on.

const overlapWhy = "another client's call follows a delayed request before the next quiet point: the simulation delivers it first, the broker run sends each call whole in the file's order"

// noteDelay remembers the worker whose connection holds a delay rule until
// the next quiet point.
func (d *driver) noteDelay(w *worker) { d.delayed = w }

// noteCall is called for every call queued on a worker: a call of another
// worker after a delay marks the overlap.
func (d *driver) noteCall(w *worker) {
	if d.delayed != nil && w != d.delayed {
		d.overlap = true
	}
}

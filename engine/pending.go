package engine

// PendingItem is one thing the world will do next, as a reader sees it: a
// message on the network (Msg set) or a timer (Msg nil, Timer set), with
// the logical time it is due. The sandbox lists these so the learner can
// pick which happens next.
type PendingItem struct {
	At    int64
	Msg   *Message // nil for a timer
	Timer Timer
}

// Pending lists the scheduled deliveries and timers in the order Step would
// take them, without the request timeouts that were cancelled. The periodic
// coordinator checks (the timed-out transaction check, the expiration
// check) are left out unless all is set: they are always due, and a list of
// what is waiting reads better without them.
func (w *World) Pending(all bool) []PendingItem {
	var out []PendingItem
	for _, it := range w.queue.sorted() {
		if w.isCancelled(&it) {
			continue
		}
		if it.Kind == itemDeliver {
			out = append(out, PendingItem{At: it.At, Msg: it.Msg})
			continue
		}
		if !all && (it.Timer.Kind == TimerAbortCheck || it.Timer.Kind == TimerExpiryCheck) {
			continue
		}
		out = append(out, PendingItem{At: it.At, Timer: it.Timer})
	}
	return out
}

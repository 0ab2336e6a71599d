package engine

// The scheduler: every network delivery and every timer is an item ordered by
// (virtual time, sequence number). A step takes the next item. The queue is a
// binary heap of plain values so a snapshot copies it with one slice copy.

type itemKind uint8

const (
	itemDeliver itemKind = iota
	itemTimer
)

// TimerKind names a scheduled timer.
type TimerKind uint8

// Timer kinds.
const (
	TimerRequestTimeout     TimerKind = iota // a client or broker request got no answer in request.timeout.ms
	TimerRetryBackoff                        // retry.backoff.ms elapsed; the client may send again
	TimerTxnLogAppend                        // a __transaction_state append became durable
	TimerReplicate                           // followers fetched; the high watermark may advance
	TimerAbortCheck                          // the coordinator's timed-out transaction check (10 s)
	TimerExpiryCheck                         // transactional.id and producer-id expiration checks (1 h)
	TimerLoadDone                            // a new coordinator finished loading its partition
	TimerAddPartitionsRetry                  // a TV2 leader retries its add after CONCURRENT_TRANSACTIONS
)

var timerNames = [...]string{"request.timeout.ms", "retry.backoff.ms", "__transaction_state append",
	"replica fetch", "timed-out transaction check", "expiration check", "coordinator load",
	"add.partitions.to.txn.retry.backoff.ms"}

func (k TimerKind) String() string { return timerNames[k] }

// Timer is a scheduled wake-up for an actor.
type Timer struct {
	Kind  TimerKind
	Owner string // actor address
	ID    int64  // correlation id, write id, or broker id
	TP    TP
}

type item struct {
	At    int64
	Seq   int64
	Kind  itemKind
	Msg   *Message // immutable once sent
	Timer Timer
}

func (a *item) less(b *item) bool {
	if a.At != b.At {
		return a.At < b.At
	}
	return a.Seq < b.Seq
}

type queue []item

func (q *queue) push(it item) {
	*q = append(*q, it)
	s := *q
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !s[i].less(&s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (q *queue) down(i int) {
	s := *q
	n := len(s)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && s[r].less(&s[l]) {
			m = r
		}
		if !s[m].less(&s[i]) {
			return
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
}

func (q *queue) up(i int) {
	s := *q
	for i > 0 {
		p := (i - 1) / 2
		if !s[i].less(&s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (q *queue) pop() item {
	return q.removeAt(0)
}

func (q *queue) removeAt(i int) item {
	s := *q
	it := s[i]
	last := len(s) - 1
	s[i] = s[last]
	s[last] = item{}
	*q = s[:last]
	if i < last {
		q.down(i)
		q.up(i)
	}
	return it
}

// sorted returns the items in delivery order (a copy).
func (q queue) sorted() []item {
	c := append(queue(nil), q...)
	out := make([]item, 0, len(c))
	for len(c) > 0 {
		out = append(out, c.pop())
	}
	return out
}

func (w *World) schedule(at int64, it item) {
	w.seq++
	it.At = at
	it.Seq = w.seq
	w.queue.push(it)
	if it.Kind == itemTimer && it.Timer.Kind == TimerRequestTimeout {
		w.indexTimeout(it)
	}
}

func (w *World) setTimer(after int64, t Timer) {
	w.schedule(w.now+after, item{Kind: itemTimer, Timer: t})
}

// cancelTimer removes pending timers of a kind for an owner and id.
//
// Every request queues its timeout and nearly every answer cancels it, so
// with many requests in flight a scan of the queue per answer made the
// run quadratic. A request timeout is found through an index instead and
// cancelled in place: it stays in the heap, marked, and is dropped when it
// comes to the top (dropCancelled), so nothing ever sees it; when the
// marked ones are half the queue, the queue is rebuilt without them.
// Anything the index does not know is found by a scan, as before.
func (w *World) cancelTimer(kind TimerKind, owner string, id int64) {
	k := timerKey{Kind: kind, Owner: owner, ID: id}
	if seq, ok := w.timeouts[k]; ok && kind == TimerRequestTimeout {
		delete(w.timeouts, k)
		if w.cancelled == nil {
			w.cancelled = map[int64]bool{}
		}
		w.cancelled[seq] = true
		w.dropCancelled()
		// Rebuild when the cancelled ones are half the queue, or the
		// index holds more than the queue (items removed by other code).
		if n := len(w.cancelled); n > 32 && 2*n > len(w.queue) || n+len(w.timeouts) > len(w.queue)+64 {
			w.compactQueue()
		}
		return
	}
	for i := 0; i < len(w.queue); i++ {
		it := &w.queue[i]
		if it.Timer.ID == id && it.Kind == itemTimer && it.Timer.Kind == kind && it.Timer.Owner == owner {
			w.queue.removeAt(i)
			i = -1
		}
	}
	w.dropCancelled()
}

// timerKey names the timers cancelTimer removes together.
type timerKey struct {
	Kind  TimerKind
	Owner string
	ID    int64
}

// indexTimeout records where a queued request timeout is. A key queued
// twice (which fresh correlation ids rule out) is left to the scan.
func (w *World) indexTimeout(it item) {
	k := timerKey{Kind: it.Timer.Kind, Owner: it.Timer.Owner, ID: it.Timer.ID}
	if w.timeouts == nil {
		w.timeouts = map[timerKey]int64{}
	}
	if _, twice := w.timeouts[k]; twice {
		delete(w.timeouts, k)
		return
	}
	w.timeouts[k] = it.Seq
}

// isCancelled reports whether a queued item is a cancelled timeout.
func (w *World) isCancelled(it *item) bool { return len(w.cancelled) > 0 && w.cancelled[it.Seq] }

// dropCancelled pops cancelled timeouts off the top of the queue, so that
// the next item is always a live one.
func (w *World) dropCancelled() {
	for len(w.queue) > 0 && w.isCancelled(&w.queue[0]) {
		delete(w.cancelled, w.queue.pop().Seq)
	}
}

// popItem takes the next item, which dropCancelled made a live one.
func (w *World) popItem() item {
	it := w.queue.pop()
	if it.Kind == itemTimer && it.Timer.Kind == TimerRequestTimeout {
		k := timerKey{Kind: it.Timer.Kind, Owner: it.Timer.Owner, ID: it.Timer.ID}
		if seq, ok := w.timeouts[k]; ok && seq == it.Seq {
			delete(w.timeouts, k)
		}
	}
	w.dropCancelled()
	return it
}

// compactQueue rebuilds the queue without its cancelled timeouts, and the
// index from what is left (items other code removed leave stale entries).
// The heap's layout changes, not its order: items are taken by (time, seq).
func (w *World) compactQueue() {
	kept := w.queue[:0]
	for _, it := range w.queue {
		if !w.cancelled[it.Seq] {
			kept = append(kept, it)
		}
	}
	clear(w.queue[len(kept):])
	w.queue = kept
	for i := len(kept)/2 - 1; i >= 0; i-- {
		w.queue.down(i)
	}
	w.cancelled = nil
	w.timeouts = nil
	for _, it := range w.queue {
		if it.Kind == itemTimer && it.Timer.Kind == TimerRequestTimeout {
			w.indexTimeout(it)
		}
	}
}

func (w *World) hasTimer(kind TimerKind, owner string, tp TP) bool {
	for i := range w.queue {
		it := &w.queue[i]
		if it.Kind == itemTimer && it.Timer.Kind == kind && it.Timer.Owner == owner && it.Timer.TP == tp {
			return true
		}
	}
	return false
}

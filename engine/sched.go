package engine

import "slices"

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
	At   int64
	Seq  int64
	Kind itemKind
	// cancelled marks a request timeout cancelled in place (cancelTimer):
	// queued, but never taken nor seen.
	cancelled bool
	Msg       *Message // immutable once sent
	Timer     Timer
}

func (a *item) less(b *item) bool {
	if a.At != b.At {
		return a.At < b.At
	}
	return a.Seq < b.Seq
}

// queue is a binary heap of small keys (time, seq and the slot of the
// item), the items themselves in a slab beside it: a sift moves 24-byte
// keys without pointers, not 88-byte items with three, so it neither
// copies much nor pays the garbage collector's write barriers. A freed
// slot is reused. The heap's index i (0 is the next item) is what at and
// removeAt take.
type queue struct {
	keys []qkey
	slab []item
	free []int32
}

type qkey struct {
	At, Seq int64
	slot    int32
}

func (a *qkey) less(b *qkey) bool {
	if a.At != b.At {
		return a.At < b.At
	}
	return a.Seq < b.Seq
}

func (q *queue) len() int { return len(q.keys) }

// at is the item at heap index i.
func (q *queue) at(i int) *item { return &q.slab[q.keys[i].slot] }

// add queues an item at (at, seq) and returns its slot, for the caller to
// fill: the timers and deliveries of every step are written in place
// rather than copied in whole. The slot may hold a taken item's fields:
// the caller writes Kind, Msg and Timer.
func (q *queue) add(at, seq int64) *item {
	p := &q.slab[q.addSlot(at, seq)]
	p.At, p.Seq, p.cancelled = at, seq, false
	return p
}

// addSlot queues a key at (at, seq) and returns the slot it names, which
// the caller fills.
func (q *queue) addSlot(at, seq int64) int32 {
	var slot int32
	if n := len(q.free); n > 0 {
		slot = q.free[n-1]
		q.free = q.free[:n-1]
	} else {
		slot = int32(len(q.slab))
		q.slab = append(q.slab, item{})
	}
	q.keys = append(q.keys, qkey{At: at, Seq: seq, slot: slot})
	q.up(len(q.keys) - 1)
	return slot
}

func (q *queue) down(i int) {
	s := q.keys
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
	s := q.keys
	for i > 0 {
		p := (i - 1) / 2
		if !s[i].less(&s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (q *queue) removeAt(i int) item {
	it := q.slab[q.keys[i].slot]
	q.removeSlot(i)
	return it
}

// removeSlot takes heap index i out of the queue and frees its slot. The
// slot is not cleared: add's caller writes every field of it.
func (q *queue) removeSlot(i int) {
	s := q.keys
	slot := s[i].slot
	q.free = append(q.free, slot)
	last := len(s) - 1
	s[i] = s[last]
	q.keys = s[:last]
	if i < last {
		q.down(i)
		q.up(i)
	}
}

// clone copies the queue (keys, slab and free slots).
func (q *queue) clone() queue {
	return queue{keys: append([]qkey(nil), q.keys...), slab: append([]item(nil), q.slab...), free: append([]int32(nil), q.free...)}
}

// sorted returns the items in delivery order (a copy).
func (q *queue) sorted() []item {
	keys := append([]qkey(nil), q.keys...)
	sortKeys(keys)
	out := make([]item, len(keys))
	for i, k := range keys {
		out[i] = q.slab[k.slot]
	}
	return out
}

// sortKeys sorts keys in delivery order.
func sortKeys(keys []qkey) {
	slices.SortFunc(keys, func(a, b qkey) int {
		if a.less(&b) {
			return -1
		}
		return 1
	})
}

func (w *World) schedule(at int64, it item) {
	w.seq++
	it.At, it.Seq, it.cancelled = at, w.seq, false
	slot := w.queue.addSlot(at, w.seq)
	w.queue.slab[slot] = it
	if it.Kind == itemTimer && it.Timer.Kind == TimerRequestTimeout {
		w.indexTimeout(&it, slot)
	}
}

func (w *World) setTimer(after int64, t Timer) {
	if t.Kind == TimerRequestTimeout {
		w.schedule(w.now+after, item{Kind: itemTimer, Timer: t})
		return
	}
	w.seq++
	p := w.queue.add(w.now+after, w.seq)
	p.Kind = itemTimer
	// The slot is a taken item's, most times a timer like this one: a
	// pointer that is already right is not written again, as every
	// pointer written while the collector marks costs a write barrier.
	if p.Msg != nil {
		p.Msg = nil
	}
	p.Timer.Kind, p.Timer.ID, p.Timer.TP.Partition = t.Kind, t.ID, t.TP.Partition
	if p.Timer.Owner != t.Owner {
		p.Timer.Owner = t.Owner
	}
	if p.Timer.TP.Topic != t.TP.Topic {
		p.Timer.TP.Topic = t.TP.Topic
	}
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
	if k, ok := w.timeoutKeyOf(kind, owner, id); ok {
		if at, ok := w.timeouts.get(k); ok {
			w.timeouts.del(k)
			if it := &w.queue.slab[at.slot]; it.Seq == at.seq {
				it.cancelled = true
			}
			w.cancelled++
			w.dropCancelled()
			// Rebuild when the cancelled ones are half the queue, or the
			// index holds more than the queue (items removed by other code).
			if n := w.cancelled; n > 32 && 2*n > w.queue.len() || n+w.timeouts.len() > w.queue.len()+64 {
				w.compactQueue()
			}
			return
		}
	}
	for i := 0; i < w.queue.len(); i++ {
		it := w.queue.at(i)
		if it.Timer.ID == id && it.Kind == itemTimer && it.Timer.Kind == kind && it.Timer.Owner == owner {
			w.queue.removeAt(i)
			i = -1
		}
	}
	w.dropCancelled()
}

// timerKey names the timers cancelTimer removes together, as the state
// hash reads the index's keys.
type timerKey struct {
	Kind  TimerKind
	Owner string
	ID    int64
}

// timeoutKey is the index's key for a request timeout: its correlation
// id and its owner, a client by its place in the client lists (clientRef)
// or a broker by its id (a clientRef of Kind 0). Both are the world's own
// state, copied by Clone and cloneInto and kept by CloneForTrial, and mean
// the same name in every copy: clients are only ever added. (A name's id
// in the event log's name table is none of these: CloneForTrial starts an
// empty log, and a search's pooled worlds share one table.) The key has no
// pointer, so neither the map's hash nor the collector reads a string,
// and no padding: two words, hashed as 16 bytes of memory rather than
// field by field.
type timeoutKey struct {
	ID    int64
	owner int64 // ownerRef of the clientRef
}

// ownerRef packs a clientRef into one word.
func ownerRef(r clientRef) int64 { return int64(r.Kind)<<32 | int64(uint32(r.I)) }

// ownerOf is the clientRef ownerRef packed.
func ownerOf(o int64) clientRef { return clientRef{Kind: clientKind(o >> 32), I: int32(uint32(o))} }

// timeoutKeyOf is the index's key for a timer, if it is a request timeout
// whose owner is a client or a broker; nothing else is indexed.
func (w *World) timeoutKeyOf(kind TimerKind, owner string, id int64) (timeoutKey, bool) {
	if kind != TimerRequestTimeout {
		return timeoutKey{}, false
	}
	if b, ok := canonicalBrokerAddr(owner); ok {
		return timeoutKey{ID: id, owner: ownerRef(clientRef{I: b})}, true
	}
	if r, ok := w.client(owner); ok {
		return timeoutKey{ID: id, owner: ownerRef(r)}, true
	}
	return timeoutKey{}, false
}

// canonicalBrokerAddr is the broker id of an address brokerAddr makes
// (broker-N, N without sign or leading zero), which brokerAddr turns back
// into the same string.
func canonicalBrokerAddr(s string) (int32, bool) {
	const prefix = "broker-"
	if len(s) <= len(prefix) || len(s) > len(prefix)+9 || s[:len(prefix)] != prefix {
		return 0, false
	}
	d := s[len(prefix):]
	if d[0] == '0' && len(d) > 1 {
		return 0, false
	}
	n := int32(0)
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return 0, false
		}
		n = n*10 + int32(d[i]-'0')
	}
	return n, true
}

// named is the timer k indexes, by its owner's name.
func (w *World) named(k timeoutKey) timerKey {
	owner := ""
	if r := ownerOf(k.owner); r.Kind == 0 {
		owner = brokerAddr(int(r.I))
	} else {
		owner = w.clientName(r)
	}
	return timerKey{Kind: TimerRequestTimeout, Owner: owner, ID: k.ID}
}

// indexTimeout records where a queued request timeout is. A key queued
// twice (which fresh correlation ids rule out) is left to the scan.
func (w *World) indexTimeout(it *item, slot int32) {
	k, ok := w.timeoutKeyOf(it.Timer.Kind, it.Timer.Owner, it.Timer.ID)
	if !ok {
		return
	}
	if _, twice := w.timeouts.get(k); twice {
		w.timeouts.del(k)
		return
	}
	w.timeouts.put(k, queuedAt{seq: it.Seq, slot: slot})
}

// queuedAt is where the index finds a queued request timeout: its seq,
// and its slot in the queue's slab, which holds it while it is queued
// (a slot freed and reused holds another seq).
type queuedAt struct {
	seq  int64
	slot int32
}

// isCancelled reports whether a queued item is a cancelled timeout.
func (w *World) isCancelled(it *item) bool { return it.cancelled }

// dropCancelled pops cancelled timeouts off the top of the queue, so that
// the next item is always a live one.
func (w *World) dropCancelled() {
	for w.cancelled > 0 && w.queue.len() > 0 && w.queue.at(0).cancelled {
		w.cancelled--
		w.queue.removeSlot(0)
	}
}

// popItem takes the next item, which dropCancelled made a live one.
func (w *World) popItem() item {
	var it item
	w.takeItem(&it)
	return it
}

// takeItem is popItem into it: a step's item is copied out of the queue
// once, into the step's own variable.
func (w *World) takeItem(it *item) {
	q := &w.queue
	slot := q.keys[0].slot
	*it = q.slab[slot]
	q.removeSlot(0)
	if it.Kind == itemTimer && it.Timer.Kind == TimerRequestTimeout && w.timeouts.len() > 0 {
		if k, ok := w.timeoutKeyOf(it.Timer.Kind, it.Timer.Owner, it.Timer.ID); ok {
			if at, ok := w.timeouts.get(k); ok && at.seq == it.Seq {
				w.timeouts.del(k)
			}
		}
	}
	w.dropCancelled()
}

// compactQueue rebuilds the queue without its cancelled timeouts, and the
// index from what is left (items other code removed leave stale entries).
// The heap's layout changes, not its order: items are taken by (time, seq).
func (w *World) compactQueue() {
	q := &w.queue
	kept := q.keys[:0]
	for _, k := range q.keys {
		if q.slab[k.slot].cancelled {
			q.slab[k.slot] = item{}
			q.free = append(q.free, k.slot)
		} else {
			kept = append(kept, k)
		}
	}
	q.keys = kept
	for i := len(kept)/2 - 1; i >= 0; i-- {
		q.down(i)
	}
	w.cancelled = 0
	w.timeouts.clear()
	for _, k := range q.keys {
		if it := &q.slab[k.slot]; it.Kind == itemTimer && it.Timer.Kind == TimerRequestTimeout {
			w.indexTimeout(it, k.slot)
		}
	}
}

func (w *World) hasTimer(kind TimerKind, owner string, tp TP) bool {
	for i := range w.queue.len() {
		it := w.queue.at(i)
		if it.Kind == itemTimer && it.Timer.Kind == kind && it.Timer.Owner == owner && it.Timer.TP == tp {
			return true
		}
	}
	return false
}

// PendingTimers lists the timers scheduled now (cancelled ones left out),
// in no particular order: what, besides the messages in flight, the world
// still has to do.
func (w *World) PendingTimers() []Timer {
	var out []Timer
	for i := range w.queue.len() {
		it := w.queue.at(i)
		if it.Kind == itemTimer && !w.isCancelled(it) {
			out = append(out, it.Timer)
		}
	}
	return out
}

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
	w.Queue.push(it)
}

func (w *World) setTimer(after int64, t Timer) {
	w.schedule(w.Now+after, item{Kind: itemTimer, Timer: t})
}

// cancelTimer removes pending timers of a kind for an owner and id.
func (w *World) cancelTimer(kind TimerKind, owner string, id int64) {
	for i := 0; i < len(w.Queue); i++ {
		it := &w.Queue[i]
		if it.Kind == itemTimer && it.Timer.Kind == kind && it.Timer.Owner == owner && it.Timer.ID == id {
			w.Queue.removeAt(i)
			i = -1
		}
	}
}

func (w *World) hasTimer(kind TimerKind, owner string, tp TP) bool {
	for i := range w.Queue {
		it := &w.Queue[i]
		if it.Kind == itemTimer && it.Timer.Kind == kind && it.Timer.Owner == owner && it.Timer.TP == tp {
			return true
		}
	}
	return false
}

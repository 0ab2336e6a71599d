package engine

// eventLog is the event history in fixed-size chunks: an append never
// copies the history (a doubling slice copied all of it, about once per
// doubling, and left up to half an array unused), and a snapshot shares
// every chunk. Only the world that owns the last chunk writes into it;
// a clone that appends first copies the partial chunk it shares (the
// live world may have written past the clone's end there, which the
// clone never reads).
type eventLog struct {
	chunks []*[eventChunk]Event
	n      int
	own    bool // the last chunk is this world's to write into
}

// eventChunk is the events per chunk: a chunk is some 90 KB, and a
// 100,000-event history's snapshot copies 200 chunk pointers.
const eventChunk = 512

func (l *eventLog) len() int { return l.n }

// at is the i-th event, the log's own: events are not changed once the
// step that recorded them is over.
func (l *eventLog) at(i int) *Event { return &l.chunks[i/eventChunk][i%eventChunk] }

// next appends a zero event and returns it in place, for the caller to
// fill: filling the slot writes only the fields an event has, where
// copying a whole Event in would move every field and pay the write
// barriers of its pointers. Every slot past n of a chunk the log owns is
// zero: a new chunk is, and a copied one is cleared past n.
func (l *eventLog) next() *Event {
	k, off := l.n/eventChunk, l.n%eventChunk
	switch {
	case off == 0:
		l.chunks = append(l.chunks, new([eventChunk]Event))
		l.own = true
	case !l.own:
		c := new([eventChunk]Event)
		copy(c[:off], l.chunks[k][:off])
		l.chunks = append(l.chunks[:k:k], c)
		l.own = true
	}
	l.n++
	return &l.chunks[k][off]
}

// push appends e and returns it in place.
func (l *eventLog) push(e Event) *Event {
	p := l.next()
	*p = e
	return p
}

// clone shares every chunk; the clone copies the partial last one before
// it writes.
func (l *eventLog) clone() eventLog {
	return eventLog{chunks: l.chunks[:len(l.chunks):len(l.chunks)], n: l.n}
}

// slice copies events [from, to).
func (l *eventLog) slice(from, to int) []Event {
	out := make([]Event, 0, to-from)
	for i := from; i < to; i++ {
		out = append(out, *l.at(i))
	}
	return out
}

// shareWith points l at later's chunks when later's history extends l's
// (its event at l's end is l's last): l then holds no chunk of its own.
func (l *eventLog) shareWith(later *eventLog) {
	n := l.n
	if n == 0 || later.n < n {
		return
	}
	a, b := l.at(n-1), later.at(n-1)
	if a == b || *a != *b {
		return
	}
	k := (n + eventChunk - 1) / eventChunk
	l.chunks, l.own = later.chunks[:k:k], false
}

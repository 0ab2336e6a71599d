package engine

// What exactly-once costs, counted from the world's typed history: the
// requests put on the network and the transaction markers appended. Each
// request gets exactly one answer, so a request is a round trip; responses
// are not counted again.

// RequestFilter selects the requests RequestCount counts. The zero filter
// counts every request.
type RequestFilter struct {
	// Kind, when KindSet, keeps one request kind (never a response kind).
	Kind    MsgKind
	KindSet bool
	// From keeps the requests one sender put on the network: a client, a
	// broker ("broker-2") or "expert".
	From string
	// TxnID keeps the requests that serve one transactional id: those its
	// body names (InitProducerId, AddPartitionsToTxn, AddOffsetsToTxn,
	// EndTxn, TxnOffsetCommit, a transactional Produce, the coordinator's
	// WriteTxnMarkers, a FindCoordinator for the id), whoever sent them, so
	// that the brokers' work for a transaction counts with the client's.
	TxnID string
}

// RequestCount counts the requests sent so far that pass the filter: one
// per send event, so a retry counts again and a copy the network made does
// not. It reads the world's cost counters, kept as the requests are sent,
// so it costs the number of (sender, kind, transactional id) triples seen,
// not the length of the history.
func (w *World) RequestCount(f RequestFilter) int {
	n := 0
	for i := range w.cost.requests {
		c := &w.cost.requests[i]
		if f.KindSet && c.Kind != f.Kind {
			continue
		}
		if f.From != "" && c.From != f.From {
			continue
		}
		if f.TxnID != "" && c.TxnID != f.TxnID {
			continue
		}
		n += c.N
	}
	return n
}

// RequestTally is the number of requests of one kind one sender sent for
// one transactional id ("" for requests that serve none).
type RequestTally struct {
	From  string
	Kind  MsgKind
	TxnID string
	N     int
}

// MarkerTally is the number of markers appended for one transactional id.
type MarkerTally struct {
	TxnID string
	N     int
}

// RequestTallies lists the request counters in the order their triples
// were first seen: a copy, a few dozen entries at most in a lesson.
func (w *World) RequestTallies() []RequestTally {
	return append([]RequestTally(nil), w.cost.requests...)
}

// MarkerTallies lists the marker counters in the order their
// transactional ids first got a marker.
func (w *World) MarkerTallies() []MarkerTally {
	return append([]MarkerTally(nil), w.cost.markers...)
}

// costCounters are what RequestCount and MarkerCount read, kept as the
// events are recorded: the requests per sender, kind and transactional id,
// and the markers appended per transactional id, in the order first seen.
// A lesson has a few dozen tallies, but a world of 800 transactional
// producers has thousands, and every request and marker finds its own:
// the indexes make that O(1) instead of a scan. Clone copies the slices
// only; a clone builds its indexes again from them the first time it
// counts (buildIndexes), so a snapshot that is never stepped pays nothing.
type costCounters struct {
	requests []RequestTally
	markers  []MarkerTally
	// requestAt and markerAt give a tally's position in requests and
	// markers; nil until built.
	// They are by the keys' hash (hashIndex): maps of strings were
	// scanned by every collection.
	requestAt hashIndex[requestKey]
	markerAt  hashIndex[string]
	indexed   bool
	// recentAt holds the positions of the tallies counted lately: most
	// requests come from a few clients, and comparing a key (the same
	// strings most times, which compare by their pointers) costs less
	// than hashing two strings for the map. A slot is empty when its
	// position is 0.
	recentAt [nameCache]recentTally
}

type recentTally struct {
	key requestKey
	at1 int // the position in requests, plus one
}

// requestKey is what a RequestTally counts for.
type requestKey struct {
	from  string
	kind  MsgKind
	txnID string
}

func (c costCounters) clone() costCounters {
	return costCounters{
		requests: append([]RequestTally(nil), c.requests...),
		markers:  append([]MarkerTally(nil), c.markers...),
	}
}

// buildIndexes makes requestAt and markerAt from the tallies.
func (c *costCounters) buildIndexes() {
	c.requestAt, c.markerAt, c.indexed = hashIndex[requestKey]{}, hashIndex[string]{}, true
	for i, r := range c.requests {
		k := requestKey{r.From, r.Kind, r.TxnID}
		c.requestAt.put(k.hash(), k, int32(i), c.requestKeyAt)
	}
	for i, m := range c.markers {
		c.markerAt.put(nameHash(m.TxnID), m.TxnID, int32(i), c.markerKeyAt)
	}
}

func (c *costCounters) requestKeyAt(i int32) requestKey {
	r := &c.requests[i]
	return requestKey{r.From, r.Kind, r.TxnID}
}

func (c *costCounters) markerKeyAt(i int32) string { return c.markers[i].TxnID }

func (k requestKey) hash() uint64 {
	return hashFrom(nameHash(k.from)^uint64(k.kind)*0x9E3779B97F4A7C15, k.txnID)
}

// countSend counts a request put on the network (a response is not
// counted: its request was the round trip).
func (c *costCounters) countSend(m *Message) {
	if m.Kind.IsResponse() {
		return
	}
	if !c.indexed {
		c.buildIndexes()
	}
	k := requestKey{m.From, m.Kind, requestTxnID(m)}
	r := &c.recentAt[(nameSlot(k.from, int(k.kind))+int(lastByte(k.txnID)))%nameCache]
	if r.at1 > 0 && r.key == k {
		c.requests[r.at1-1].N++
		return
	}
	h := k.hash()
	if i, ok := c.requestAt.get(h, k, c.requestKeyAt); ok {
		c.requests[i].N++
		*r = recentTally{key: k, at1: int(i) + 1}
		return
	}
	c.requestAt.put(h, k, int32(len(c.requests)), c.requestKeyAt)
	*r = recentTally{key: k, at1: len(c.requests) + 1}
	c.requests = append(c.requests, RequestTally{From: k.from, Kind: k.kind, TxnID: k.txnID, N: 1})
}

// lastByte is s's last byte, 0 for "".
func lastByte(s string) byte {
	if s == "" {
		return 0
	}
	return s[len(s)-1]
}

// countMarker counts a marker a leader appended for txnID (the marker
// event about a partition with no error; a refusal carries its error, and
// the coordinator's own marker events, waiting for a leader or re-sending,
// name no partition and are not counted).
func (c *costCounters) countMarker(txnID string) {
	if !c.indexed {
		c.buildIndexes()
	}
	h := nameHash(txnID)
	if i, ok := c.markerAt.get(h, txnID, c.markerKeyAt); ok {
		c.markers[i].N++
		return
	}
	c.markerAt.put(h, txnID, int32(len(c.markers)), c.markerKeyAt)
	c.markers = append(c.markers, MarkerTally{TxnID: txnID, N: 1})
}

// requestTxnID is the transactional id a request serves, as its body
// names it; "" for a request that serves none.
func requestTxnID(m *Message) string {
	switch b := m.Body.(type) {
	case *ProduceRequest:
		return b.TransactionalID
	case *FindCoordinatorRequest:
		if !b.Group {
			return b.Key
		}
	case *InitProducerIDRequest:
		return b.TransactionalID
	case *AddPartitionsToTxnRequest:
		return b.TransactionalID
	case *AddOffsetsToTxnRequest:
		return b.TransactionalID
	case *EndTxnRequest:
		return b.TransactionalID
	case *WriteTxnMarkersRequest:
		return b.TransactionalID
	case *TxnOffsetCommitRequest:
		return b.TransactionalID
	}
	return ""
}

// MarkerCount counts the transaction markers appended to partition logs so
// far (one control batch per partition a transaction touched, data
// partitions and __consumer_offsets alike), for one transactional id or,
// with "", for all. A marker a leader refused is not counted. Like
// RequestCount, it reads the counters.
func (w *World) MarkerCount(txnID string) int {
	n := 0
	for _, m := range w.cost.markers {
		if txnID == "" || m.TxnID == txnID {
			n += m.N
		}
	}
	return n
}

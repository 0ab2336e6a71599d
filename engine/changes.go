package engine

// ChangeSet is what one Apply or one Step touched, noted by the engine at
// the moment it touched it: a view marks what changed from it instead of
// comparing two worlds. Each list holds an entry once, in the order first
// touched. The lists are bounded by the number of actors, partitions,
// transactional ids and groups, except Messages, which grows with the
// length of a run. Lookups scan a short list; Messages and the name lists
// get an index once they are long (one run of hundreds of producers names
// each of them, and a scan per event made that run quadratic).
type ChangeSet struct {
	// FirstEvent and FirstViolation are the lengths of World.Events and
	// World.Violations before the step: the step added the rest.
	FirstEvent, FirstViolation int
	// Actors are the names of everyone who acted: the client an action
	// addressed, and every actor that emitted an event (clients, brokers,
	// partitions such as "t-0", coordinators, groups, "network"). A client
	// acts only on its own state (a call, a request sent or answered, a
	// state transition, an error, a crash or pause), so a client that
	// appears here is one whose state the step changed.
	Actors []string
	// Partitions are the partitions whose log, watermarks or producer
	// state changed, with the log end offset each had before.
	Partitions []PartitionChange
	// Received are the consumers that handed records to the application,
	// with how many they had handed before.
	Received []ReceivedChange
	// Messages are the ids of the messages sent, delivered (or lost on
	// delivery), dropped, duplicated, delayed or reordered.
	Messages []int64
	// TxnIDs are the transactional ids whose coordinator entry or
	// __transaction_state records changed.
	TxnIDs []string
	// Groups are the consumer groups whose members, generation or
	// offsets (committed or pending) changed.
	Groups []string
	// msgIndex holds Messages once they are more than a scan should
	// cover (a long run, a lesson step of thousands of actions).
	msgIndex *msgSet
	// actorIndex, txnIDIndex and groupIndex hold Actors, TxnIDs and
	// Groups once they are long.
	actorIndex, txnIDIndex, groupIndex nameIndex
	// off is set in a search's worlds (CloneForSearch), which no view
	// reads: nothing is noted, and the lists stay empty.
	off bool
}

// nameIndex holds a list of names once it is more than a scan should
// cover; nil until then. It maps a name's hash (nameHash) to the position
// of the first name in the list with that hash: a map without a pointer,
// which the collector never scans (a map of the names was, with 800
// producers, one of the costs that grew per producer). A name whose hash
// another name of the list has (rare) is found by a scan.
type nameIndex map[uint64]int32

// scanMax is how many entries a lookup scans before it uses an index.
const scanMax = 32

// PartitionChange is a partition a step changed and its log end offset
// before the step: the batches at or past FromLEO are the step's.
type PartitionChange struct {
	TP      TP
	FromLEO int64
}

// ReceivedChange is a consumer that handed records to the application and
// how many it had handed before: Consumer.Received[From:] are the step's.
type ReceivedChange struct {
	Client string
	From   int
}

// Changes is what the last Apply or Step touched. It is valid until the
// next one starts; Clone copies it.
func (w *World) Changes() ChangeSet { return w.changes }

// Actor reports whether the named actor acted.
func (c *ChangeSet) Actor(name string) bool { return c.actorIndex.has(c.Actors, name) }

// TxnID reports whether the coordinator entry of a transactional id changed.
func (c *ChangeSet) TxnID(id string) bool { return c.txnIDIndex.has(c.TxnIDs, id) }

// Group reports whether a consumer group changed.
func (c *ChangeSet) Group(id string) bool { return c.groupIndex.has(c.Groups, id) }

// Message reports whether a message was sent, delivered or hit by a fault.
func (c *ChangeSet) Message(id int64) bool {
	if len(c.Messages) > scanMax {
		if c.msgIndex == nil {
			c.msgIndex = newMsgSet(c.Messages)
		}
		return c.msgIndex.has(id)
	}
	for _, m := range c.Messages {
		if m == id {
			return true
		}
	}
	return false
}

// Partition reports whether a partition changed and, if so, its log end
// offset before the change.
func (c *ChangeSet) Partition(tp TP) (fromLEO int64, ok bool) {
	for _, p := range c.Partitions {
		if p.TP == tp {
			return p.FromLEO, true
		}
	}
	return 0, false
}

// ReceivedFrom reports whether a consumer handed records to the
// application and, if so, how many it had handed before.
func (c *ChangeSet) ReceivedFrom(client string) (from int, ok bool) {
	for _, r := range c.Received {
		if r.Client == client {
			return r.From, true
		}
	}
	return 0, false
}

// Merge adds what o, a later step, touched, as if it had been part of c's:
// c keeps its own starting points (event and violation counts, log end
// offsets, record counts) where both touched the same thing. A lesson step
// runs several actions; its change set starts as
// ChangeSet{FirstEvent: len(w.Events), FirstViolation: len(w.Violations)}
// and merges theirs in order.
func (c *ChangeSet) Merge(o ChangeSet) {
	c.FirstEvent = min(c.FirstEvent, o.FirstEvent)
	c.FirstViolation = min(c.FirstViolation, o.FirstViolation)
	for _, a := range o.Actors {
		c.actor(a)
	}
	for _, p := range o.Partitions {
		if _, ok := c.Partition(p.TP); !ok {
			c.Partitions = append(c.Partitions, p)
		}
	}
	for _, r := range o.Received {
		if _, ok := c.ReceivedFrom(r.Client); !ok {
			c.Received = append(c.Received, r)
		}
	}
	for _, m := range o.Messages {
		c.message(m)
	}
	for _, id := range o.TxnIDs {
		c.txnID(id)
	}
	for _, g := range o.Groups {
		c.group(g)
	}
}

// clone copies the lists, which reset reuses in the world they came from.
func (c ChangeSet) clone() ChangeSet {
	c.Actors = append([]string(nil), c.Actors...)
	c.Partitions = append([]PartitionChange(nil), c.Partitions...)
	c.Received = append([]ReceivedChange(nil), c.Received...)
	c.Messages = append([]int64(nil), c.Messages...)
	c.TxnIDs = append([]string(nil), c.TxnIDs...)
	c.Groups = append([]string(nil), c.Groups...)
	c.msgIndex, c.actorIndex, c.txnIDIndex, c.groupIndex = nil, nil, nil, nil
	return c
}

// reset starts the change set of a new step, keeping the lists' memory.
func (c *ChangeSet) reset(events, violations int) {
	c.FirstEvent, c.FirstViolation = events, violations
	c.Actors = c.Actors[:0]
	c.Partitions = c.Partitions[:0]
	c.Received = c.Received[:0]
	c.Messages = c.Messages[:0]
	c.TxnIDs = c.TxnIDs[:0]
	c.Groups = c.Groups[:0]
	// Most steps built no index; one not built is not written again (a
	// pointer written while the collector marks costs a write barrier).
	if c.msgIndex != nil {
		c.msgIndex = nil
	}
	if c.actorIndex != nil || c.txnIDIndex != nil || c.groupIndex != nil {
		c.actorIndex, c.txnIDIndex, c.groupIndex = nil, nil, nil
	}
}

// beginChanges starts the change set of an Apply or of a Step called from
// outside; a Step that an Apply runs adds to the Apply's.
func (w *World) beginChanges() {
	if w.applying == 0 {
		w.changes.reset(w.events.len(), len(w.violations))
	}
}

func (c *ChangeSet) actor(name string) {
	if !c.off {
		c.Actors = c.actorIndex.add(c.Actors, name)
	}
}

func (c *ChangeSet) txnID(id string) {
	if !c.off {
		c.TxnIDs = c.txnIDIndex.add(c.TxnIDs, id)
	}
}

func (c *ChangeSet) group(id string) {
	if !c.off {
		c.Groups = c.groupIndex.add(c.Groups, id)
	}
}

func (c *ChangeSet) message(id int64) {
	if c.off || c.Message(id) {
		return
	}
	c.Messages = append(c.Messages, id)
	if c.msgIndex != nil {
		c.msgIndex.add(id)
	}
}

// msgSet is a set of message ids. Ids are numbered in sending order, and
// the messages one Apply touches are mostly the ones it sent: a run of 800
// producers touches tens of thousands, nearly consecutive. A bit per id
// from base on holds them in a few kilobytes; a map of them outgrew the
// processor's caches, and its lookups were the cost per message that grew
// most with the number of producers (BenchmarkTxnProducers). Ids below
// base (a message sent long before, delivered now) are in older.
type msgSet struct {
	base  int64 // a multiple of 64
	bits  []uint64
	older map[int64]struct{}
}

// msgSpan bounds the bits per id a set spends: when the ids span more
// than msgSpan times their number, the older ones go to the map.
const msgSpan = 64

func newMsgSet(ids []int64) *msgSet {
	lo, hi := ids[0], ids[0]
	for _, id := range ids {
		lo, hi = min(lo, id), max(hi, id)
	}
	if hi-lo > msgSpan*int64(len(ids)) {
		lo = hi - msgSpan*int64(len(ids))
	}
	s := &msgSet{base: lo &^ 63}
	for _, id := range ids {
		s.add(id)
	}
	return s
}

func (s *msgSet) has(id int64) bool {
	if id < s.base {
		_, ok := s.older[id]
		return ok
	}
	i := id - s.base
	return i>>6 < int64(len(s.bits)) && s.bits[i>>6]&(1<<(i&63)) != 0
}

func (s *msgSet) add(id int64) {
	if id < s.base {
		if s.older == nil {
			s.older = map[int64]struct{}{}
		}
		s.older[id] = struct{}{}
		return
	}
	i := id - s.base
	for i>>6 >= int64(len(s.bits)) {
		s.bits = append(s.bits, 0)
	}
	s.bits[i>>6] |= 1 << (i & 63)
}

// partition notes a partition about to change, with its log end offset
// now, unless the step already changed it.
func (c *ChangeSet) partition(p *PartitionLog) {
	if c.off {
		return
	}
	if _, ok := c.Partition(p.TP); !ok {
		c.Partitions = append(c.Partitions, PartitionChange{TP: p.TP, FromLEO: p.LEO})
	}
}

// received notes a consumer about to hand records to the application.
func (c *ChangeSet) received(x *Consumer) {
	if c.off {
		return
	}
	if _, ok := c.ReceivedFrom(x.Name); !ok {
		c.Received = append(c.Received, ReceivedChange{Client: x.Name, From: len(x.Received)})
	}
}

func hasName(s []string, n string) bool {
	// Newest first: consecutive events of a step mostly share an actor.
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == n {
			return true
		}
	}
	return false
}

// has reports whether the list s, which x indexes, holds n: by a scan
// while s is short, through the index (built on first need) once it is
// long.
func (x *nameIndex) has(s []string, n string) bool {
	if len(s) <= scanMax {
		return hasName(s, n)
	}
	return x.holds(s, n, nameHash(n))
}

// holds is has for a list past scanMax, with h n's hash.
func (x *nameIndex) holds(s []string, n string, h uint64) bool {
	if *x == nil {
		*x = make(nameIndex, 2*len(s))
		for i, m := range s {
			x.put(nameHash(m), i)
		}
	}
	i, ok := (*x)[h]
	if !ok {
		return false
	}
	return s[i] == n || hasName(s, n)
}

// put indexes the name at position i, unless an earlier one has its hash.
func (x nameIndex) put(h uint64, i int) {
	if _, clash := x[h]; !clash {
		x[h] = int32(i)
	}
}

// add is s with n appended unless s holds it; x, s's index, follows.
func (x *nameIndex) add(s []string, n string) []string {
	if len(s) <= scanMax {
		if hasName(s, n) {
			return s
		}
		return append(s, n)
	}
	h := nameHash(n)
	if x.holds(s, n, h) {
		return s
	}
	x.put(h, len(s))
	return append(s, n)
}

// txnIDsOf notes every transactional id of a coordinator's cache, in
// order: the coordinator lost or reloaded them all.
func (c *ChangeSet) txnIDsOf(meta map[string]TxnMetadata) {
	if c.off {
		return
	}
	for _, id := range sortedKeys(meta) {
		c.txnID(id)
	}
}

package engine

import "encoding/binary"

// eventLog is the event history. The events are stored compact and
// without a pointer (storedEvent): the names an event carries (actor,
// transactional id, topic) are ids into a table of names, and its
// message, words and rule details are indexes into lists of their own.
// The garbage collector then never scans the history, which is most of a
// long run's heap, and an event costs 32 bytes, or 96 with the fields
// few events have, instead of 144. An event is put back together (load)
// when something reads it.
//
// The last event is held in full (pend) until the next one is recorded:
// its recorder sets its typed fields in place after emit returns it.
//
// Every list is in fixed-size chunks: an append never copies the history,
// and a snapshot shares every chunk (see clist).
type eventLog struct {
	evs   clist[storedEvent]
	wides blist
	msgs  clist[*Message]
	notes clist[*note]
	exts  clist[*ruleExt]
	// acts and sends are the actions of EvAction events (a note that
	// says only the action): a send as its names and records
	// (storedSend: the values are the records'), any other action as it
	// is. pendSend is the records of the send the pending event is,
	// when applySend has made them.
	// recentMsgs are where messages stored lately are in msgs, by
	// their ids: a delivery finds its send's entry there.
	recentMsgs [msgCache]msgAt
	acts       clist[arg]
	// lastAct is the last action event stored and its words, which
	// Apply reads back at once: they are not made again for it.
	lastAct struct {
		i    int
		note *note
	}
	sends    clist[storedSend]
	pendSend Records
	// late holds the times that do not fit a storedEvent's 32 bits
	// (past 49 days of simulated time), by event, in event order.
	late    clist[lateTime]
	names   nameTab
	pend    Event
	hasPend bool
	// quiet is set in a search's worlds (CloneForSearch): an event is
	// counted (quietN), not stored, and its words are not made (emit,
	// record). A search reads the monitors and the state, never the
	// events; the count is kept, since the budget and a violation's
	// Event read it.
	quiet  bool
	quietN int
}

// storedEvent is an Event as the log keeps it, 16 bytes: what every
// event has, and one reference (ref): its message (msgs), its words
// (notes), or its wide part (wides), which holds the fields most events
// leave zero (a decision's numbers, partition, transactional id, rule,
// fault) and then the event's message and words too. A send or a
// delivery, most of the history, is a stored event and a message index.
// time is the event's time when it fits 32 bits (lateMark when not: see
// late); actor is the actor's name id when it fits 16 bits (actorWide
// when not: the wide part holds it).
type storedEvent struct {
	time  uint32
	step  int32
	ref   uint32 // what it refers to (refMsg, refNote, refWide) | where
	actor uint16
	kind  EventKind
	say   phrase
}

// storedSend is a send action as acts keeps it.
type storedSend struct {
	client, topic uint32
	part          int32
	recs          Records
}

// A reference has 30 bits for where (28 for words): a billion messages
// or bytes of wide parts, 268 million words or actions. DefaultLimits
// hold a world to four million events, whose wide parts take at most
// some 300 MB.
const (
	refMsg    = 1 << 30
	refNote   = 2 << 30
	refWide   = 3 << 30
	refWhere  = 1<<30 - 1
	lateMark  = ^uint32(0)
	actorWide = ^uint16(0)
	// A reference to words (refNote) says which list holds them.
	refAct    = 1 << 28 // an action (acts)
	refSend   = 2 << 28 // a send action (sends)
	refWhich  = 3 << 28
	refInList = 1<<28 - 1
)

// lateTime is the time of event i, past what a storedEvent holds.
type lateTime struct {
	i    int64
	time int64
}

// The wide part of an event (the fields most events leave zero) is
// stored in wides as a mask of the fields it has, then each of those as
// a varint, in the mask's order: a partition's watermark or an
// acknowledgement takes 5 to 10 bytes, a leader's decision on a batch
// some 20, where a struct of every field took 64 for each.
const (
	wTopic = 1 << iota
	wPart
	wArg
	wX
	wY
	wZ
	wPID
	wHasPID
	wReason
	wRuleSay
	wRuleArg
	wCode
	wEpoch
	wTxn
	wChange
	wExt
	wNote
	wMsg
	wFault
	wActor
)

// maxWide is the most bytes a wide part takes: the mask and 16 varints.
const maxWide = 3 + 19*binary.MaxVarintLen64

// eventChunk is the entries per chunk: an event chunk is 16 KB, and a
// 100,000-event history's snapshot copies 200 chunk pointers.
const eventChunk = 512

func (l *eventLog) len() int {
	if l.hasPend {
		return l.evs.n + l.quietN + 1
	}
	return l.evs.n + l.quietN
}

// at is the i-th event.
func (l *eventLog) at(i int) Event {
	if l.hasPend && i == l.evs.n {
		return l.pend
	}
	return l.load(l.evs.at(i), i)
}

// next appends a zero event and returns it in place, for the caller to
// fill; it stays the caller's to change until the next event is recorded.
func (l *eventLog) next() *Event {
	if l.hasPend {
		l.flush()
	}
	l.pend, l.hasPend = Event{}, true
	return &l.pend
}

// push appends e and returns it in place.
func (l *eventLog) push(e Event) *Event {
	if l.hasPend {
		l.flush()
	}
	l.pend, l.hasPend = e, true
	return &l.pend
}

// flush stores the event held in full.
func (l *eventLog) flush() {
	if !l.hasPend {
		return
	}
	e := &l.pend
	l.hasPend = false // pend is cleared when the next event takes it
	recs := l.pendSend
	l.pendSend = Records{}
	if l.quiet {
		l.quietN++
		return
	}
	s := l.evs.next()
	*s = storedEvent{step: e.Step, kind: e.Kind, say: e.say}
	if e.Time >= 0 && e.Time < int64(lateMark) {
		s.time = uint32(e.Time)
	} else {
		s.time = lateMark
		*l.late.next() = lateTime{i: int64(l.evs.n - 1), time: e.Time}
	}
	actor := l.names.id(e.Actor)
	s.actor = uint16(min(actor, uint32(actorWide)))
	var note, msg uint32
	if e.note != nil && !l.isAction(e) {
		note = uint32(l.notes.add(e.note)) + 1
	}
	if e.Message != nil {
		msg = l.msgID(e.Message) + 1
	}
	var txn, topic, ext uint32
	if e.TxnID != "" {
		txn = l.names.id(e.TxnID)
	}
	if e.TP.Topic != "" {
		topic = l.names.id(e.TP.Topic)
	}
	if e.Rule.ext != nil {
		ext = uint32(l.exts.add(e.Rule.ext)) + 1
	}
	var mask uint64
	set := func(bit uint64, nonzero bool) {
		if nonzero {
			mask |= bit
		}
	}
	set(wTopic, topic != 0)
	set(wPart, e.TP.Partition != 0)
	set(wArg, e.arg != 0)
	set(wX, e.x != 0)
	set(wY, e.y != 0)
	set(wZ, e.z != 0)
	set(wPID, e.pid != 0)
	set(wHasPID, e.hasPID)
	set(wReason, e.Rule.Reason != 0)
	set(wRuleSay, e.Rule.say != 0)
	set(wRuleArg, e.Rule.arg != 0)
	set(wCode, e.Code != 0)
	set(wEpoch, e.epoch != 0)
	set(wTxn, txn != 0)
	set(wChange, e.Change != (Transition{}))
	set(wExt, ext != 0)
	set(wFault, e.Fault != 0)
	set(wActor, s.actor == actorWide)
	switch {
	case mask == 0 && msg == 0 && l.isAction(e):
		s.ref = l.action(e.note.args[0], recs)
		l.lastAct.i, l.lastAct.note = l.evs.n-1, e.note
		return
	case l.isAction(e):
		note = uint32(l.notes.add(e.note)) + 1
	}
	switch {
	case mask == 0 && note == 0:
		if msg != 0 {
			s.ref = refMsg | (msg - 1)
		}
		return
	case mask == 0 && msg == 0:
		s.ref = refNote | (note - 1)
		return
	}
	set(wNote, note != 0)
	set(wMsg, msg != 0)
	var buf [maxWide]byte
	b := binary.AppendUvarint(buf[:0], mask)
	put := func(bit uint64, v int64) {
		if mask&bit != 0 {
			b = binary.AppendVarint(b, v)
		}
	}
	// The numbers (offsets, sequences, counts, the producer id) are near
	// each other: each is written as its difference from the one before.
	var prev int64
	num := func(bit uint64, v int64) {
		if mask&bit != 0 {
			b = binary.AppendVarint(b, v-prev)
			prev = v
		}
	}
	put(wTopic, int64(topic))
	put(wPart, int64(e.TP.Partition))
	num(wArg, e.arg)
	num(wX, int64(e.x))
	num(wY, int64(e.y))
	num(wZ, int64(e.z))
	num(wPID, e.pid)
	put(wReason, int64(e.Rule.Reason))
	put(wRuleSay, int64(e.Rule.say))
	num(wRuleArg, int64(e.Rule.arg))
	put(wCode, int64(e.Code))
	put(wEpoch, int64(e.epoch))
	put(wTxn, int64(txn))
	put(wChange, int64(e.Change.Of)<<16|int64(e.Change.from)<<8|int64(e.Change.to))
	put(wExt, int64(ext))
	put(wNote, int64(note))
	put(wMsg, int64(msg))
	put(wFault, int64(e.Fault))
	put(wActor, int64(actor))
	s.ref = refWide | uint32(l.wides.add(b))
}

// load puts the i-th event, stored as s, back together.
func (l *eventLog) load(s *storedEvent, i int) Event {
	e := Event{Time: int64(s.time), Seq: int32(i), Step: s.step, Kind: s.kind, say: s.say}
	if s.actor != actorWide {
		e.Actor = l.names.at(uint32(s.actor))
	}
	if s.time == lateMark {
		e.Time = l.lateTime(i)
	}
	where := int(s.ref & refWhere)
	switch s.ref &^ refWhere {
	case 0:
		return e
	case refMsg:
		e.Message = *l.msgs.at(where)
		return e
	case refNote:
		if where&refWhich != 0 && i == l.lastAct.i && l.lastAct.note != nil {
			e.note = l.lastAct.note
		} else {
			e.note = l.words(where)
		}
		return e
	}
	b := l.wides.at(where)
	mask, n := binary.Uvarint(b)
	b = b[n:]
	get := func(bit uint64) int64 {
		if mask&bit == 0 {
			return 0
		}
		v, n := binary.Varint(b)
		b = b[n:]
		return v
	}
	var prev int64
	num := func(bit uint64) int64 {
		if mask&bit == 0 {
			return 0
		}
		prev += get(bit)
		return prev
	}
	topic, part := uint32(get(wTopic)), int32(get(wPart))
	e.arg, e.x, e.y, e.z, e.pid = num(wArg), int32(num(wX)), int32(num(wY)), int32(num(wZ)), num(wPID)
	e.hasPID = mask&wHasPID != 0
	e.Rule = Rule{Reason: Reason(get(wReason)), say: ruleSay(get(wRuleSay)), arg: int32(num(wRuleArg))}
	e.Code, e.epoch, e.TxnID = ErrorCode(get(wCode)), int16(get(wEpoch)), l.names.at(uint32(get(wTxn)))
	if c := get(wChange); c != 0 {
		e.Change = Transition{Of: StateMachine(c >> 16), from: uint8(c >> 8), to: uint8(c)}
	}
	if ext := get(wExt); ext != 0 {
		e.Rule.ext = *l.exts.at(int(ext - 1))
	}
	if note := get(wNote); note != 0 {
		e.note = *l.notes.at(int(note - 1))
	}
	if msg := get(wMsg); msg != 0 {
		e.Message = *l.msgs.at(int(msg - 1))
	}
	e.Fault = FaultKind(get(wFault))
	if mask&wActor != 0 {
		e.Actor = l.names.at(uint32(get(wActor)))
	}
	if topic != 0 {
		e.TP = TP{Topic: l.names.at(topic), Partition: part}
	}
	return e
}

type msgAt struct {
	m *Message
	i uint32
}

const msgCache = 32

// msgID is where m is in msgs, stored there when not yet.
func (l *eventLog) msgID(m *Message) uint32 {
	r := &l.recentMsgs[uint64(m.ID)%msgCache]
	if r.m == m && int(r.i) < l.msgs.n && *l.msgs.at(int(r.i)) == m {
		return r.i
	}
	i := uint32(l.msgs.add(m))
	*r = msgAt{m, i}
	return i
}

// isAction reports whether e's words are only an action (EvAction).
func (l *eventLog) isAction(e *Event) bool {
	return e.Kind == EvAction && e.note != nil && e.note.says == saysAction && len(e.note.args) == 1
}

// action stores an action event's action and returns its reference: a
// send whose records applySend made (recs: their values are the send's) as
// its names and records, any other as it is.
func (l *eventLog) action(a arg, recs Records) uint32 {
	if sa, ok := a.(Send); ok && recs.d != nil && sameValues(recs, sa.Values) {
		i := l.sends.add(storedSend{client: l.names.id(sa.Client), topic: l.names.id(sa.TP.Topic), part: sa.TP.Partition, recs: recs})
		return refNote | refSend | uint32(i)
	}
	return refNote | refAct | uint32(l.acts.add(a))
}

// sameValues reports whether r's values are vals.
func sameValues(r Records, vals []string) bool {
	if r.Len() != len(vals) {
		return false
	}
	for i, v := range vals {
		if r.Value(i) != v {
			return false
		}
	}
	return true
}

// sendRecords says recs are the records of the send the pending event
// is the action of, if it is one.
func (l *eventLog) sendRecords(recs Records) {
	if l.hasPend && l.pend.Kind == EvAction {
		l.pendSend = recs
	}
}

// words is the note a reference to words (refNote) stands for; an
// action's is made again.
func (l *eventLog) words(where int) *note {
	i := where & refInList
	switch where & refWhich {
	case refAct:
		return &note{says: saysAction, args: []arg{*l.acts.at(i)}}
	case refSend:
		s := l.sends.at(i)
		a := Send{Client: l.names.at(s.client), TP: TP{Topic: l.names.at(s.topic), Partition: s.part}, Values: s.recs.Values()}
		return &note{says: saysAction, args: []arg{a}}
	}
	return *l.notes.at(i)
}

// lateTime is the time of event i, which late holds (a binary search:
// such times are rare).
func (l *eventLog) lateTime(i int) int64 {
	lo, hi := 0, l.late.n
	for lo < hi {
		m := (lo + hi) / 2
		if l.late.at(m).i < int64(i) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return l.late.at(lo).time
}

// clone shares every chunk and the name table; the event held in full is
// stored first, so both logs share it too.
func (l *eventLog) clone() eventLog {
	l.flush()
	l.names.freeze()
	return eventLog{evs: l.evs.clone(), wides: l.wides.clone(), msgs: l.msgs.clone(), notes: l.notes.clone(), exts: l.exts.clone(),
		acts: l.acts.clone(), sends: l.sends.clone(), late: l.late.clone(), names: l.names, quiet: l.quiet, quietN: l.quietN}
}

// slot is where the i-th event is stored, for tests of what is shared.
func (l *eventLog) slot(i int) *storedEvent { return l.evs.at(i) }

// slice copies events [from, to).
func (l *eventLog) slice(from, to int) []Event {
	out := make([]Event, 0, to-from)
	for i := from; i < to; i++ {
		out = append(out, l.at(i))
	}
	return out
}

// shareWith makes l a view of later's lists when later's history extends
// l's (its event at l's end is l's last): l then holds no chunk of its own.
// later is its owner's too (a player's live world): its pending event is
// stored and its name table shared, as a clone of it would.
func (l *eventLog) shareWith(later *eventLog) {
	l.flush()
	later.flush()
	n := l.len()
	if n == 0 || later.len() < n || l.slot(n-1) == later.slot(n-1) || !sameEvent(l.at(n-1), later.at(n-1)) {
		return
	}
	c := later.clone()
	c.evs.n = n
	k := (n + eventChunk - 1) / eventChunk
	c.evs.chunks = c.evs.chunks[:k:k]
	*l = c
}

// sameEvent reports whether a and b are the same event, their words
// compared by content.
func sameEvent(a, b Event) bool {
	if a.detail() != b.detail() {
		return false
	}
	a.note, b.note = nil, nil
	return a == b
}

// nameTab interns the names events carry. A snapshot shares the table;
// the index is then frozen, and the first new name either side meets
// copies it (names are few and new ones rare, unlike events). The index
// is by the name's hash (hashIndex): with 800 producers a map of the
// names was about a third of what each collection scanned.
type nameTab struct {
	list clist[string]
	ids  hashIndex[string] // a name's position in list
	own  bool              // ids is this table's to write
	// recent holds names looked up lately, in their nameSlot: most
	// events name one of a few actors, and comparing one name
	// (the same string most times, which compares by its pointer) costs
	// less than hashing it for the map.
	recent [nameCache]nameID
}

type nameID struct {
	name string
	id   uint32
}

const nameCache = 32

// nameSlot is where a name goes in a cache of nameCache recent names: a
// hash of its length and last four bytes, which tell apart the names a
// scenario numbers (T1 ... T800, tx-1 ... tx-800) without reading all of
// a long one.
func nameSlot(name string, salt int) int {
	h := uint32(len(name))*16777619 ^ uint32(salt)
	for i := max(0, len(name)-4); i < len(name); i++ {
		h = (h ^ uint32(name[i])) * 16777619
	}
	return int(h>>8) % nameCache
}

// id is name's id, made on first sight; "" is 0.
func (t *nameTab) id(name string) uint32 {
	if name == "" {
		return 0
	}
	r := &t.recent[nameSlot(name, 0)]
	if r.name == name && r.id != 0 {
		return r.id
	}
	h := nameHash(name)
	keyAt := func(i int32) string { return *t.list.at(int(i)) }
	if i, ok := t.ids.get(h, name, keyAt); ok {
		r.name, r.id = name, uint32(i)+1
		return r.id
	}
	if !t.own {
		t.ids, t.own = t.ids.clone(), true
	}
	i := int32(t.list.add(name))
	t.ids.put(h, name, i, keyAt)
	r.name, r.id = name, uint32(i)+1
	return r.id
}

// at is the name with this id.
func (t *nameTab) at(id uint32) string {
	if id == 0 {
		return ""
	}
	return *t.list.at(int(id - 1))
}

// freeze stops t writing its map, which a snapshot is about to share, and
// shares its list.
func (t *nameTab) freeze() {
	t.own = false
	t.list = t.list.clone()
}

// clist is an append-only list in fixed-size chunks: an append never
// copies the list (a doubling slice copied all of it, about once per
// doubling, and left up to half an array unused), and a snapshot shares
// every chunk. Only the list that owns the last chunk writes into it; a
// clone that appends first copies the partial chunk it shares (the live
// list may have written past the clone's end there, which the clone never
// reads).
type clist[T any] struct {
	chunks []*[eventChunk]T
	n      int
	own    bool // the last chunk is this list's to write into
}

func (l *clist[T]) at(i int) *T { return &l.chunks[i/eventChunk][i%eventChunk] }

// next appends a zero entry and returns it in place. Every slot past n of
// a chunk the list owns is zero: a new chunk is, and a copied one is
// cleared past n.
func (l *clist[T]) next() *T {
	k, off := l.n/eventChunk, l.n%eventChunk
	if off == 0 || !l.own {
		l.chunks = ownChunk(l.chunks, k, off, func(c, old *[eventChunk]T) { copy(c[:off], old[:off]) })
		l.own = true
	}
	l.n++
	return &l.chunks[k][off]
}

// add appends v and returns its position.
func (l *clist[T]) add(v T) int {
	*l.next() = v
	return l.n - 1
}

// ownChunk is chunks with chunk k a new one of the list's own, written
// from off on: a fresh chunk at a chunk's start, else a copy (keep) of
// the first off entries of the chunk a snapshot shares.
func ownChunk[A any](chunks []*A, k, off int, keep func(c, old *A)) []*A {
	c := new(A)
	if off > 0 {
		keep(c, chunks[k])
	}
	return append(chunks[:k:k], c)
}

// clone shares every chunk; the clone copies the partial last one before
// it writes.
func (l *clist[T]) clone() clist[T] {
	return clist[T]{chunks: l.chunks[:len(l.chunks):len(l.chunks)], n: l.n}
}

// blist is an append-only list of byte strings (the events' wide parts)
// in fixed-size chunks, shared by a snapshot as clist's are. A string
// never straddles two chunks: one that does not fit the rest of a chunk
// starts the next.
type blist struct {
	chunks []*[byteChunk]byte
	n      int // bytes used, with the unused ends of full chunks
	own    bool
}

// byteChunk is the bytes per chunk of a blist.
const byteChunk = 16 << 10

// add appends b (at most maxWide bytes) and returns where it starts.
func (l *blist) add(b []byte) int {
	k, off := l.n/byteChunk, l.n%byteChunk
	if off+len(b) > byteChunk {
		k, off = k+1, 0
		l.n = k * byteChunk
	}
	if off == 0 || !l.own {
		l.chunks = ownChunk(l.chunks, k, off, func(c, old *[byteChunk]byte) { copy(c[:off], old[:off]) })
		l.own = true
	}
	copy(l.chunks[k][off:], b)
	l.n += len(b)
	return k*byteChunk + off
}

// at is the bytes from position i to its chunk's end.
func (l *blist) at(i int) []byte { return l.chunks[i/byteChunk][i%byteChunk:] }

// clone shares every chunk; the clone copies the partial last one before
// it writes.
func (l *blist) clone() blist {
	return blist{chunks: l.chunks[:len(l.chunks):len(l.chunks)], n: l.n}
}

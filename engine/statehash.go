package engine

import (
	"encoding/binary"
	"math/bits"
	"reflect"
	"unsafe"
)

// StateHash is a hash of what the world will do from here: two worlds
// with the same hash behave alike under the same actions, up to the
// numbers of the messages they send. A search over schedules (package
// engine/search) explores a world only once by this hash; it keeps a
// StateHasher, which hashes many worlds faster than StateHash.
//
// What it leaves out is what no rule reads, or reads only to number:
//   - the history: events, violations (the monitors' counts stay), the
//     change set, the action budget, the request and marker tallies, the
//     step count;
//   - message ids and the counter that makes them (a world that sent the
//     same messages in another order numbered them otherwise), and the
//     queue's insertion counter: the queue is hashed in delivery order;
//   - request timeouts cancelled but still queued (cancelTimer), which
//     never fire;
//   - the configuration: the worlds a search compares share one (it
//     makes no config action).
//
// Everything else is hashed by each type's layout, learnt by reflection
// (a struct's numbers and bools as the words of its memory, its padding
// masked out, then its other fields), so a field added to a client, a
// log or a coordinator is part of the state without a change here. Maps
// are hashed as the sum of their entries' hashes, which does not depend
// on the order a map is ranged over.
func (w *World) StateHash() uint64 { return NewStateHasher().Hash(w) }

// StateHasher hashes worlds (StateHash). It learns the layout of each
// type once, by reflection, and then reads the fields where they lie: a
// walk by reflection for every world cost more than cloning the world.
// A StateHasher is not safe for use by two goroutines at once.
type StateHasher struct {
	plans map[reflect.Type]*hashPlan
	// The plans of the world's fields, looked up once.
	brokers, topics, partitions, txnParts, groups, producers, consumers, processors,
	msg, timer, held, parked, timerKey, outcomes, outputs, switches *hashPlan
	key     timerKey
	rangers map[reflect.Type]mapRanger
	// live is the queue's live items in delivery order (Hash's scratch).
	live []*item
	// seed starts every fold (NewSeededStateHasher).
	seed uint64
}

// NewStateHasher makes a StateHasher.
func NewStateHasher() *StateHasher {
	sh := &StateHasher{plans: map[reflect.Type]*hashPlan{}, rangers: mapRangers()}
	var w World
	var it item
	of := func(p any) *hashPlan { return sh.plan(reflect.TypeOf(p).Elem()) }
	sh.brokers, sh.topics, sh.partitions, sh.txnParts = of(&w.brokers), of(&w.topics), of(&w.partitions), of(&w.txnParts)
	sh.groups, sh.producers, sh.consumers, sh.processors = of(&w.groups), of(&w.producers), of(&w.consumers), of(&w.processors)
	sh.msg, sh.timer, sh.held, sh.parked = of(&it.Msg), of(&it.Timer), of(&w.held), of(&w.parked)
	sh.timerKey, sh.outcomes, sh.outputs, sh.switches = of(new(timerKey)), of(&w.txnOutcomes), of(&w.outputs), of(&w.switches)
	return sh
}

// NewSeededStateHasher is a StateHasher whose folds start from seed: its
// hashes are other 64 bits of the same state, so that a test of the
// hash's collisions can count the states each of two hashers tells
// apart, and the pairs of their hashes.
func NewSeededStateHasher(seed uint64) *StateHasher {
	sh := NewStateHasher()
	sh.seed = seed * 0xD6E8FEB86659FD93
	return sh
}

// Hash is w's StateHash.
func (sh *StateHasher) Hash(w *World) uint64 {
	h := stateHasher{h: 0x9E3779B97F4A7C15 ^ sh.seed, sh: sh}
	h.int(w.now)
	h.bool(w.started)
	h.at(sh.brokers, unsafe.Pointer(&w.brokers))
	h.at(sh.topics, unsafe.Pointer(&w.topics))
	h.at(sh.partitions, unsafe.Pointer(&w.partitions))
	h.at(sh.txnParts, unsafe.Pointer(&w.txnParts))
	h.at(sh.groups, unsafe.Pointer(&w.groups))
	h.at(sh.producers, unsafe.Pointer(&w.producers))
	h.at(sh.consumers, unsafe.Pointer(&w.consumers))
	h.at(sh.processors, unsafe.Pointer(&w.processors))
	// The queue in delivery order: each live item with its place in that
	// order (its rank among them: no two items are equal under less, which
	// breaks ties by the insertion counter), found by an insertion sort of
	// the live items (the queue holds a few dozen items at most).
	var queue uint64
	live := sh.live[:0]
	for i, n := 0, w.queue.len(); i < n; i++ {
		it := w.queue.at(i)
		if w.isCancelled(it) {
			continue
		}
		j := len(live)
		live = append(live, it)
		for ; j > 0 && it.less(live[j-1]); j-- {
			live[j] = live[j-1]
		}
		live[j] = it
	}
	sh.live = live
	for rank, it := range live {
		e := stateHasher{h: 5 ^ sh.seed, sh: sh}
		e.int(int64(rank))
		e.int(it.At)
		e.uint(uint64(it.Kind))
		e.at(sh.msg, unsafe.Pointer(&it.Msg))
		e.at(sh.timer, unsafe.Pointer(&it.Timer))
		queue += e.sum()
	}
	h.uint(queue)
	h.int(w.nextTxnDeadline)
	h.at(sh.held, unsafe.Pointer(&w.held))
	h.at(sh.parked, unsafe.Pointer(&w.parked))
	h.int(w.nextCorr)
	h.int(w.nextUID)
	h.int(w.nextTxn)
	h.int(w.nextPIDBlk)
	h.int(w.nextMember)
	var keys uint64
	for _, e := range w.timeouts.list {
		keys += sh.timeoutKey(w, e.k)
	}
	for k := range w.timeouts.m {
		keys += sh.timeoutKey(w, k)
	}
	h.uint(keys)
	h.at(sh.outcomes, unsafe.Pointer(&w.txnOutcomes))
	h.at(sh.outputs, unsafe.Pointer(&w.outputs))
	for _, m := range w.monitors {
		h.int(int64(m.count))
	}
	h.at(sh.switches, unsafe.Pointer(&w.switches))
	return h.sum()
}

// timeoutKey is the hash of the timer k indexes (a request timeout is in
// the index by its owner's place in the client lists, which is hashed as
// its name).
func (sh *StateHasher) timeoutKey(w *World, k timeoutKey) uint64 {
	sh.key = w.named(k) // a field, not a variable, which would escape
	sub := stateHasher{h: 1 ^ sh.seed, sh: sh}
	sub.at(sh.timerKey, unsafe.Pointer(&sh.key))
	return sub.sum()
}

// stateHasher folds 64-bit words into a hash (a multiply-rotate mix, as
// in xxHash's rounds); the standard library's hash/maphash is seeded per
// process, and a search must explore in the same order on every run.
type stateHasher struct {
	h  uint64
	sh *StateHasher
}

func (s *stateHasher) uint(v uint64) {
	s.h ^= v * 0xC2B2AE3D27D4EB4F
	s.h = bits.RotateLeft64(s.h, 31) * 0x9E3779B97F4A7C15
}

func (s *stateHasher) int(v int64) { s.uint(uint64(v)) }

func (s *stateHasher) bool(b bool) {
	if b {
		s.uint(1)
	} else {
		s.uint(0)
	}
}

func (s *stateHasher) string(str string) {
	s.uint(uint64(len(str)))
	s.bytes(unsafe.Pointer(unsafe.StringData(str)), uintptr(len(str)))
}

// bytes folds the n bytes at p, eight at a time (the last word holds
// what is left): a string's, or a slice's or array's of pure elements.
func (s *stateHasher) bytes(p unsafe.Pointer, n uintptr) {
	if n == 0 {
		return
	}
	b := unsafe.Slice((*byte)(p), n)
	for len(b) >= 8 {
		s.uint(binary.LittleEndian.Uint64(b))
		b = b[8:]
	}
	if len(b) > 0 {
		// The tail (its length is known: a string folded its length
		// first, a slice its count).
		s.uint(tail(b))
	}
}

// tail is the word of b, fewer than eight bytes, in the order an
// eight-byte load reads them.
func tail(b []byte) uint64 {
	var w uint64
	shift := uint(0)
	if len(b) >= 4 {
		w, b, shift = uint64(binary.LittleEndian.Uint32(b)), b[4:], 32
	}
	for _, c := range b {
		w |= uint64(c) << shift
		shift += 8
	}
	return w
}

func (s *stateHasher) sum() uint64 {
	h := s.h
	h ^= h >> 33
	h *= 0xFF51AFD7ED558CCD
	h ^= h >> 33
	return h
}

// hashOp is how one piece of a value is hashed.
type hashOp uint8

const (
	opSkip hashOp = iota
	opBool
	opInt8
	opInt16
	opInt32
	opInt64
	opUint8
	opUint16
	opUint32
	opUint64
	opFloat
	opString
	opStruct
	opArray
	opSlice
	opPointer
	opMap
	opInterface
)

// hashPlan is how a value of one type is hashed: by its op, a struct
// by its fields' plans at their offsets.
type hashPlan struct {
	op     hashOp
	typ    reflect.Type
	size   uintptr
	fields []fieldPlan // opStruct: its leaves, nested structs and arrays inlined
	// words and refs are how a struct is hashed: the words of its
	// memory that hold numbers and bools (its pure leaves), each masked
	// to their bytes, then its other leaves (strings, slices, pointers,
	// maps, interfaces), each by its plan. A struct's numbers cost a
	// multiply each eight bytes, not a call each.
	words []scalarWord
	refs  []fieldPlan
	elem  *hashPlan // opArray, opSlice, opPointer; opMap: the value
	key   *hashPlan // opMap
	n     int       // opArray
	// pure is set when the value is hashed as its bytes, all of them:
	// a number, a bool, or a struct or array of those with no padding.
	// A slice or array of pure elements is hashed as one block.
	pure bool
	// k and v are scratch values a map's entries are copied into, busy
	// while they are in use.
	k, v reflect.Value
	busy bool
	// ranger ranges over a map of a type the engine declares without
	// reflection (mapRangers); nil: by reflection.
	ranger mapRanger
	// dyn is, for an interface, what is known of each dynamic type met,
	// by the interface's first word (its type or itab, one per dynamic
	// type): its name and, for a pointer, its element's plan, so that
	// a message body is hashed without reflection after the first.
	dyn map[unsafe.Pointer]*dynType
}

// dynType is a dynamic type an interface held (hashPlan.dyn).
type dynType struct {
	name string
	elem *hashPlan // a pointer type's element; nil: not a pointer
}

type fieldPlan struct {
	off  uintptr
	plan *hashPlan
}

// scalarWord is eight bytes of a struct, at off (a multiple of 8), and
// the mask of those of its pure leaves: padding and the words of other
// leaves are never read into the hash, so two equal values hash alike.
// n is the bytes there are (fewer than 8 at the end of a struct whose
// size is not a multiple of 8).
type scalarWord struct {
	off  uintptr
	mask uint64
	n    uintptr
}

// messageType is Message, whose ID the hash leaves out.
var messageType = reflect.TypeOf(Message{})

func (sh *StateHasher) plan(t reflect.Type) *hashPlan {
	if p, ok := sh.plans[t]; ok {
		return p
	}
	p := &hashPlan{typ: t, size: t.Size()}
	sh.plans[t] = p // before the parts: a type may refer to itself
	switch t.Kind() {
	case reflect.Bool:
		p.op, p.pure = opBool, true
	case reflect.Int8:
		p.op, p.pure = opInt8, true
	case reflect.Int16:
		p.op, p.pure = opInt16, true
	case reflect.Int32:
		p.op, p.pure = opInt32, true
	case reflect.Int, reflect.Int64:
		p.op, p.pure = opInt64, true
	case reflect.Uint8:
		p.op, p.pure = opUint8, true
	case reflect.Uint16:
		p.op, p.pure = opUint16, true
	case reflect.Uint32:
		p.op, p.pure = opUint32, true
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		p.op, p.pure = opUint64, true
	case reflect.Float32:
		p.op, p.pure = opUint32, true
	case reflect.Float64:
		p.op, p.pure = opFloat, true
	case reflect.String:
		p.op = opString
	case reflect.Struct:
		p.op = opStruct
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if t == messageType && f.Name == "ID" {
				continue
			}
			p.fields = appendLeaves(p.fields, f.Offset, sh.plan(f.Type))
		}
		p.words, p.refs = splitLeaves(p.fields, p.size)
		p.pure = len(p.refs) == 0 && p.size > 0
		for _, w := range p.words {
			p.pure = p.pure && w.mask == ^uint64(0)>>(64-8*w.n)
		}
		if len(p.words) != int((p.size+7)/8) {
			p.pure = false
		}
	case reflect.Array:
		p.op, p.elem, p.n = opArray, sh.plan(t.Elem()), t.Len()
		p.pure = p.elem.pure
	case reflect.Slice:
		p.op, p.elem = opSlice, sh.plan(t.Elem())
	case reflect.Pointer:
		p.op, p.elem = opPointer, sh.plan(t.Elem())
	case reflect.Map:
		p.op, p.key, p.elem = opMap, sh.plan(t.Key()), sh.plan(t.Elem())
		p.k, p.v = reflect.New(t.Key()).Elem(), reflect.New(t.Elem()).Elem()
		p.ranger = sh.rangers[t]
	case reflect.Interface:
		p.op = opInterface
	}
	// Funcs, channels, complex numbers and unsafe pointers hold no state
	// of the simulation: opSkip.
	return p
}

// at hashes the value of plan p's type at ptr.
func (s *stateHasher) at(p *hashPlan, ptr unsafe.Pointer) {
	switch p.op {
	case opBool:
		s.bool(*(*bool)(ptr))
	case opInt8:
		s.int(int64(*(*int8)(ptr)))
	case opInt16:
		s.int(int64(*(*int16)(ptr)))
	case opInt32:
		s.int(int64(*(*int32)(ptr)))
	case opInt64:
		s.int(*(*int64)(ptr))
	case opUint8:
		s.uint(uint64(*(*uint8)(ptr)))
	case opUint16:
		s.uint(uint64(*(*uint16)(ptr)))
	case opUint32:
		s.uint(uint64(*(*uint32)(ptr)))
	case opUint64:
		s.uint(*(*uint64)(ptr))
	case opFloat:
		s.uint(*(*uint64)(ptr))
	case opString:
		s.string(*(*string)(ptr))
	case opStruct:
		for _, w := range p.words {
			if w.n == 8 {
				s.uint(binary.LittleEndian.Uint64(unsafe.Slice((*byte)(unsafe.Add(ptr, w.off)), 8)) & w.mask)
			} else {
				s.uint(tail(unsafe.Slice((*byte)(unsafe.Add(ptr, w.off)), w.n)) & w.mask)
			}
		}
		for i := range p.refs {
			f := &p.refs[i]
			q := unsafe.Add(ptr, f.off)
			// The common leaf here, without a call.
			if f.plan.op == opString {
				s.string(*(*string)(q))
			} else {
				s.at(f.plan, q)
			}
		}
	case opArray:
		s.uint(uint64(p.n))
		if p.elem.pure {
			s.bytes(ptr, uintptr(p.n)*p.elem.size)
			return
		}
		for i := 0; i < p.n; i++ {
			s.at(p.elem, unsafe.Add(ptr, uintptr(i)*p.elem.size))
		}
	case opSlice:
		// A slice is its array's address, its length and its capacity.
		n := *(*int)(unsafe.Add(ptr, unsafe.Sizeof(uintptr(0))))
		s.uint(uint64(n))
		if n == 0 {
			return
		}
		data := *(*unsafe.Pointer)(ptr) // a slice starts with its array's address
		if p.elem.pure {
			s.bytes(data, uintptr(n)*p.elem.size)
			return
		}
		for i := 0; i < n; i++ {
			s.at(p.elem, unsafe.Add(data, uintptr(i)*p.elem.size))
		}
	case opPointer:
		q := *(*unsafe.Pointer)(ptr)
		if q == nil {
			s.uint(0)
			return
		}
		s.uint(1)
		s.at(p.elem, q)
	case opMap:
		if p.ranger != nil {
			busy := p.busy
			p.busy = true
			n, sum := p.ranger(s.sh, p, ptr, busy)
			p.busy = busy
			s.uint(uint64(n))
			s.uint(sum)
			return
		}
		m := reflect.NewAt(p.typ, ptr).Elem()
		s.uint(uint64(m.Len()))
		k, v := p.k, p.v
		if p.busy {
			// A map of this type inside one being hashed: scratch of its own.
			k, v = reflect.New(p.typ.Key()).Elem(), reflect.New(p.typ.Elem()).Elem()
		}
		p.busy = true
		var sum uint64
		it := m.MapRange()
		for it.Next() {
			k.SetIterKey(it)
			v.SetIterValue(it)
			e := stateHasher{h: 3 ^ s.sh.seed, sh: s.sh}
			e.at(p.key, k.Addr().UnsafePointer())
			e.at(p.elem, v.Addr().UnsafePointer())
			sum += e.sum()
		}
		p.busy = false
		s.uint(sum)
	case opInterface:
		// An interface is two words: its type (or itab), nil for a nil
		// interface, and its value, which for a pointer is the pointer.
		words := (*[2]unsafe.Pointer)(ptr)
		if words[0] == nil {
			s.uint(0)
			return
		}
		d := p.dyn[words[0]]
		if d == nil {
			t := reflect.NewAt(p.typ, ptr).Elem().Elem().Type()
			d = &dynType{name: t.String()}
			if t.Kind() == reflect.Pointer {
				d.elem = s.sh.plan(t.Elem())
			}
			if p.dyn == nil {
				p.dyn = map[unsafe.Pointer]*dynType{}
			}
			p.dyn[words[0]] = d
		}
		if d.elem != nil {
			s.string(d.name)
			s.uint(1)
			s.at(d.elem, words[1])
			return
		}
		// A value that is not a pointer, hashed from a copy.
		e := reflect.NewAt(p.typ, ptr).Elem().Elem()
		s.string(d.name)
		c := reflect.New(e.Type())
		c.Elem().Set(e)
		s.at(s.sh.plan(e.Type()), c.UnsafePointer())
	}
}

// appendLeaves adds the leaves of a field of plan fp at off to fields: a
// struct's own leaves and an array's elements' at their offsets, so that
// hashing a struct walks one list instead of a tree of calls. A field
// of a type that holds no state (opSkip) adds nothing.
func appendLeaves(fields []fieldPlan, off uintptr, fp *hashPlan) []fieldPlan {
	switch fp.op {
	case opSkip:
		return fields
	case opStruct:
		for _, f := range fp.fields {
			f.off += off
			fields = append(fields, f)
		}
		return fields
	case opArray:
		if fp.n <= 16 {
			for i := 0; i < fp.n; i++ {
				fields = appendLeaves(fields, off+uintptr(i)*fp.elem.size, fp.elem)
			}
			return fields
		}
	}
	return append(fields, fieldPlan{off: off, plan: fp})
}

// splitLeaves parts the leaves of a struct of size bytes into the
// words that hold its pure leaves, with their masks, and its other
// leaves, in their order.
func splitLeaves(fields []fieldPlan, size uintptr) (words []scalarWord, refs []fieldPlan) {
	mask := make([]byte, size)
	for _, f := range fields {
		if !f.plan.pure {
			refs = append(refs, f)
			continue
		}
		for b := f.off; b < f.off+f.plan.size; b++ {
			mask[b] = 0xFF
		}
	}
	for off := uintptr(0); off < size; off += 8 {
		w := scalarWord{off: off, n: min(8, size-off)}
		for b := uintptr(0); b < w.n; b++ {
			w.mask |= uint64(mask[off+b]) << (8 * b)
		}
		if w.mask != 0 {
			words = append(words, w)
		}
	}
	return words, refs
}

// mapRanger hashes the entries of the map at ptr, each with the key and
// value plans of p, and returns their count and the sum of their hashes
// (as the reflective walk does). It is handed the StateHasher, not the
// stateHasher it adds to: a stateHasher passed to a func value escapes,
// and then so did every one made while hashing (five per world). busy says a map of this type is being
// hashed further up (a map in a map's value): it then takes scratch of
// its own.
type mapRanger func(sh *StateHasher, p *hashPlan, ptr unsafe.Pointer, busy bool) (int, uint64)

// rangeMap is the mapRanger of map[K]V: ranging over a map by reflection
// cost more than the rest of the hash. The entries are copied into
// scratch that outlives the call, so that no entry escapes to the heap.
func rangeMap[K comparable, V any]() mapRanger {
	scratch := new(struct {
		k K
		v V
	})
	return func(sh *StateHasher, p *hashPlan, ptr unsafe.Pointer, busy bool) (int, uint64) {
		m := *(*map[K]V)(ptr)
		sc := scratch
		if busy {
			sc = new(struct {
				k K
				v V
			})
		}
		var sum uint64
		for k, v := range m {
			sc.k, sc.v = k, v
			e := stateHasher{h: 3 ^ sh.seed, sh: sh}
			e.at(p.key, unsafe.Pointer(&sc.k))
			e.at(p.elem, unsafe.Pointer(&sc.v))
			sum += e.sum()
		}
		return len(m), sum
	}
}

// mapRangers are rangers of the map types of the world's state, made for
// each StateHasher (each has scratch of its own). A map type not listed
// is hashed by reflection, to the same hash.
func mapRangers() map[reflect.Type]mapRanger {
	return map[reflect.Type]mapRanger{
		reflect.TypeFor[map[TP]*PartitionLog]():             rangeMap[TP, *PartitionLog](),
		reflect.TypeFor[map[int32]*TxnStatePartition]():     rangeMap[int32, *TxnStatePartition](),
		reflect.TypeFor[map[string]*Group]():                rangeMap[string, *Group](),
		reflect.TypeFor[map[int64]ProducerStateEntry]():     rangeMap[int64, ProducerStateEntry](),
		reflect.TypeFor[map[int64]VerificationState]():      rangeMap[int64, VerificationState](),
		reflect.TypeFor[map[int64]seqMark]():                rangeMap[int64, seqMark](),
		reflect.TypeFor[map[string]TxnMetadata]():           rangeMap[string, TxnMetadata](),
		reflect.TypeFor[map[string]*markerJob]():            rangeMap[string, *markerJob](),
		reflect.TypeFor[map[int64][]TP]():                   rangeMap[int64, []TP](),
		reflect.TypeFor[map[TP]CommittedOffset]():           rangeMap[TP, CommittedOffset](),
		reflect.TypeFor[map[int64]map[TP]CommittedOffset](): rangeMap[int64, map[TP]CommittedOffset](),
		reflect.TypeFor[map[outputKey]pvec[int32]]():        rangeMap[outputKey, pvec[int32]](),
	}
}

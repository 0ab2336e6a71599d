package engine

import (
	"math"
	"math/bits"
	"reflect"
)

// StateHash is a hash of what the world will do from here: two worlds
// with the same hash behave alike under the same actions, up to the
// numbers of the messages they send. A search over schedules (package
// engine/search) explores a world only once by this hash.
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
//     makes no config action), and hashing it cost a quarter of the rest.
//
// Everything else is hashed field by field by reflection, so a field
// added to a client, a log or a coordinator is part of the state without
// a change here. Maps are hashed as the sum of their entries' hashes,
// which does not depend on the order a map is ranged over.
func (w *World) StateHash() uint64 {
	h := stateHasher{h: 0x9E3779B97F4A7C15}
	h.int(w.now)
	h.bool(w.started)
	h.value(reflect.ValueOf(w.brokers))
	h.value(reflect.ValueOf(w.topics))
	h.value(reflect.ValueOf(w.partitions))
	h.value(reflect.ValueOf(w.txnParts))
	h.value(reflect.ValueOf(w.groups))
	h.value(reflect.ValueOf(w.producers))
	h.value(reflect.ValueOf(w.consumers))
	h.value(reflect.ValueOf(w.processors))
	for _, it := range w.queue.sorted() {
		if w.cancelled[it.Seq] {
			continue
		}
		h.int(it.At)
		h.uint(uint64(it.Kind))
		h.value(reflect.ValueOf(it.Msg))
		h.value(reflect.ValueOf(&it.Timer).Elem())
	}
	h.int(w.nextTxnDeadline)
	h.value(reflect.ValueOf(w.held))
	h.value(reflect.ValueOf(w.parked))
	h.int(w.nextCorr)
	h.int(w.nextUID)
	h.int(w.nextTxn)
	h.int(w.nextPIDBlk)
	h.int(w.nextMember)
	var keys uint64
	for k := range w.timeouts {
		sub := stateHasher{h: 1}
		sub.value(reflect.ValueOf(k))
		keys += sub.sum()
	}
	h.uint(keys)
	h.value(reflect.ValueOf(w.txnOutcomes))
	h.value(reflect.ValueOf(w.outputs))
	for _, m := range w.monitors {
		h.int(int64(m.count))
	}
	h.value(reflect.ValueOf(w.switches))
	return h.sum()
}

// stateHasher folds 64-bit words into a hash (a multiply-rotate mix, as
// in xxHash's rounds); the standard library's hash/maphash is seeded per
// process, and a search must explore in the same order on every run.
type stateHasher struct{ h uint64 }

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
	var word uint64
	for i := 0; i < len(str); i++ {
		word = word<<8 | uint64(str[i])
		if i%8 == 7 {
			s.uint(word)
			word = 0
		}
	}
	s.uint(word)
}

func (s *stateHasher) sum() uint64 {
	h := s.h
	h ^= h >> 33
	h *= 0xFF51AFD7ED558CCD
	h ^= h >> 33
	return h
}

// messageType is Message, whose ID the hash leaves out.
var messageType = reflect.TypeOf(Message{})

func (s *stateHasher) value(v reflect.Value) {
	switch v.Kind() {
	case reflect.Bool:
		s.bool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		s.int(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		s.uint(v.Uint())
	case reflect.Float32, reflect.Float64:
		s.uint(math.Float64bits(v.Float()))
	case reflect.String:
		s.string(v.String())
	case reflect.Slice, reflect.Array:
		n := v.Len()
		s.uint(uint64(n))
		for i := 0; i < n; i++ {
			s.value(v.Index(i))
		}
	case reflect.Map:
		s.uint(uint64(v.Len()))
		var sum uint64
		it := v.MapRange()
		for it.Next() {
			e := stateHasher{h: 3}
			e.value(it.Key())
			e.value(it.Value())
			sum += e.sum()
		}
		s.uint(sum)
	case reflect.Pointer:
		if v.IsNil() {
			s.uint(0)
			return
		}
		s.uint(1)
		s.value(v.Elem())
	case reflect.Interface:
		if v.IsNil() {
			s.uint(0)
			return
		}
		e := v.Elem()
		s.string(e.Type().String())
		s.value(e)
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < v.NumField(); i++ {
			if t == messageType && t.Field(i).Name == "ID" {
				continue
			}
			s.value(v.Field(i))
		}
	}
	// Funcs, channels and unsafe pointers hold no state of the simulation.
}

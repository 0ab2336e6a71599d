package engine

import "maps"

// hashIndex finds a position (in a list that holds the keys) by a key's
// 64-bit hash. A map keyed by strings is scanned by every garbage
// collection, and with hundreds of clients those maps were most of what
// each collection scanned: the cost per producer grew with the number of
// producers (BenchmarkTxnProducers). A map of integers holds no pointer
// and is never scanned. A key whose hash an earlier key has (rare) is in
// more, by itself. keyAt reads the key at a position from the list, to
// tell a clash from a hit.
type hashIndex[K comparable] struct {
	at   map[uint64]int32 // hash -> position of the first key with that hash
	more map[K]int32      // the keys whose hash at holds for another key
	// shared is set when at and more are another index's too (share):
	// put copies them first, so either index writes its own.
	shared bool
}

func (x *hashIndex[K]) get(h uint64, k K, keyAt func(int32) K) (int32, bool) {
	if i, ok := x.at[h]; ok && keyAt(i) == k {
		return i, true
	}
	i, ok := x.more[k]
	return i, ok
}

// put sets k's position to i.
func (x *hashIndex[K]) put(h uint64, k K, i int32, keyAt func(int32) K) {
	if x.shared {
		x.at, x.more, x.shared = maps.Clone(x.at), maps.Clone(x.more), false
	}
	if x.at == nil {
		x.at = map[uint64]int32{}
	}
	if j, ok := x.at[h]; ok && keyAt(j) != k {
		if x.more == nil {
			x.more = map[K]int32{}
		}
		x.more[k] = i
		return
	}
	x.at[h] = i
}

// share is x for another world to read, copied by the first put of
// either (a search's copy, cloneInto: most copies add no key).
func (x *hashIndex[K]) share() hashIndex[K] {
	x.shared = true
	return *x
}

func (x hashIndex[K]) clone() hashIndex[K] {
	return hashIndex[K]{at: maps.Clone(x.at), more: maps.Clone(x.more)}
}

// nameHash is the 64-bit FNV-1a hash of name (hash/fnv
// without its allocation).
func nameHash(name string) uint64 { return hashFrom(14695981039346656037, name) }

func hashFrom(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return h
}

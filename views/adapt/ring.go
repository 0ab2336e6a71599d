package adapt

// ring caches values by a growing index (an event's, a batch's or a log
// record's position in its history) in a fixed number of slots: slot
// i % size holds the value of the last index put there. A frame shows only
// the newest few hundred entries of each history, and neighbouring
// positions share most of them, so a ring a few times that size serves
// them all while its memory stays fixed however long the history grows.
type ring[T any] struct {
	idx []int // idx[s] is the index slot s holds, or -1
	val []T
}

func newRing[T any](size int) *ring[T] {
	r := &ring[T]{idx: make([]int, size), val: make([]T, size)}
	for i := range r.idx {
		r.idx[i] = -1
	}
	return r
}

// get returns the value put for index i, if it is still there.
func (r *ring[T]) get(i int) (T, bool) {
	s := i % len(r.idx)
	if r.idx[s] != i {
		var zero T
		return zero, false
	}
	return r.val[s], true
}

// put remembers v for index i, in place of whatever shared its slot.
func (r *ring[T]) put(i int, v T) {
	s := i % len(r.idx)
	r.idx[s], r.val[s] = i, v
}

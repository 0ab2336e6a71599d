package engine

// removeOrdered takes s[i] out of s in place, keeping the others' order,
// and moves the shorter side: the lists it serves (parked requests, a
// partition's open transactions, a coordinator's pending log writes) are
// mostly answered in the order they were added, so i is most times near
// the front, where a removal costs no copy. Moving every later entry per
// removal made a run with hundreds of producers waiting quadratic. The
// slot freed is zeroed, so that the collector does not keep what it held.
// s must be the caller's own (Clone and cloneInto copy these lists).
func removeOrdered[T any](s []T, i int) []T {
	var zero T
	if i < len(s)/2 {
		copy(s[1:i+1], s[:i])
		s[0] = zero
		return s[1:]
	}
	copy(s[i:], s[i+1:])
	s[len(s)-1] = zero
	return s[:len(s)-1]
}

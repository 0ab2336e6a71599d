package search

// table is the set of states a bound has seen, by their 64-bit hash, each
// with the shallowest depth it was reached at: an open-addressed table of
// the hashes (linear probing) beside one byte of depth per slot, 9 bytes a
// slot and at most 4 slots for 3 states, half again of that while it
// doubles. A map of the same did the same work with a hash of the hash
// and more memory a state.
//
// Two states with one hash are one state to the search: the second is
// taken for the first and not explored, so a schedule through it could be
// missed. The hashes are 64 bits of a multiply-rotate mix
// (engine.StateHasher), so among n states the chance of any such pair is
// about n*n/2^65: one in 37 million for a million states. Hash 0 marks an
// empty slot; a state hashed to 0 is kept as 1, the same chance again.
type table struct {
	hashes []uint64
	depths []uint8
	n      int
	shift  uint // 64 - log2(len(hashes)): a slot is a hash's top bits
}

func newTable() *table {
	t := &table{}
	t.alloc(1024)
	return t
}

func (t *table) alloc(slots int) {
	t.hashes, t.depths, t.n = make([]uint64, slots), make([]uint8, slots), 0
	t.shift = 64
	for s := slots; s > 1; s >>= 1 {
		t.shift--
	}
}

func (t *table) len() int { return t.n }

func (t *table) reset() {
	clear(t.hashes)
	t.n = 0
}

// slot is where h is, or the empty slot where it would go.
func (t *table) slot(h uint64) int {
	mask := len(t.hashes) - 1
	i := int(h >> t.shift)
	for t.hashes[i] != 0 && t.hashes[i] != h {
		i = (i + 1) & mask
	}
	return i
}

func key(h uint64) uint64 {
	if h == 0 {
		return 1
	}
	return h
}

// get is the depth h was reached at, and whether it was.
func (t *table) get(h uint64) (uint8, bool) {
	i := t.slot(key(h))
	return t.depths[i], t.hashes[i] != 0
}

// put records h at depth d (a shallower depth replaces a deeper one).
func (t *table) put(h uint64, d uint8) {
	h = key(h)
	i := t.slot(h)
	if t.hashes[i] == 0 {
		if 4*(t.n+1) > 3*len(t.hashes) {
			t.grow()
			i = t.slot(h)
		}
		t.hashes[i] = h
		t.n++
	}
	t.depths[i] = d
}

func (t *table) grow() {
	hs, ds := t.hashes, t.depths
	t.alloc(2 * len(hs))
	for i, h := range hs {
		if h != 0 {
			j := t.slot(h)
			t.hashes[j], t.depths[j] = h, ds[i]
			t.n++
		}
	}
}

// each calls f with each hash in the table.
func (t *table) each(f func(uint64)) {
	for _, h := range t.hashes {
		if h != 0 {
			f(h)
		}
	}
}

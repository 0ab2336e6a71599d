package engine

// timeoutIndex is the request-timeout index (World.timeouts, see
// cancelTimer): where each queued request timeout is, by its key. A world
// has a few in flight, and then the index is a list, scanned: a search
// copies a world per move, and copying a map, which hashes every key
// again, was a quarter of the copy (a list is one copy of its memory,
// with no pointer in it). Past timeoutListMax entries it is a map, so
// that many requests in flight cost no scan per answer.
type timeoutIndex struct {
	list []timeoutEntry
	m    map[timeoutKey]queuedAt // nil while the entries are in list
}

type timeoutEntry struct {
	k  timeoutKey
	at queuedAt
}

// timeoutListMax is the most entries the list holds.
const timeoutListMax = 32

func (x *timeoutIndex) len() int {
	if x.m != nil {
		return len(x.m)
	}
	return len(x.list)
}

// get is where k is queued, and whether the index has it.
func (x *timeoutIndex) get(k timeoutKey) (queuedAt, bool) {
	if x.m != nil {
		at, ok := x.m[k]
		return at, ok
	}
	for i := range x.list {
		if x.list[i].k == k {
			return x.list[i].at, true
		}
	}
	return queuedAt{}, false
}

// put records k at at (k must not be in the index).
func (x *timeoutIndex) put(k timeoutKey, at queuedAt) {
	if x.m == nil && len(x.list) < timeoutListMax {
		x.list = append(x.list, timeoutEntry{k, at})
		return
	}
	if x.m == nil {
		x.m = make(map[timeoutKey]queuedAt, 2*timeoutListMax)
		for _, e := range x.list {
			x.m[e.k] = e.at
		}
		x.list = x.list[:0]
	}
	x.m[k] = at
}

// del removes k. The list's order is no one's: its last entry takes k's
// place.
func (x *timeoutIndex) del(k timeoutKey) {
	if x.m != nil {
		delete(x.m, k)
		return
	}
	for i := range x.list {
		if x.list[i].k == k {
			last := len(x.list) - 1
			x.list[i] = x.list[last]
			x.list = x.list[:last]
			return
		}
	}
}

// clear empties the index.
func (x *timeoutIndex) clear() {
	x.list, x.m = x.list[:0], nil
}

// clone is a copy that shares nothing with x.
func (x *timeoutIndex) clone() timeoutIndex {
	var c timeoutIndex
	if len(x.list) > 0 {
		c.list = append([]timeoutEntry(nil), x.list...)
	}
	if x.m != nil {
		c.m = make(map[timeoutKey]queuedAt, len(x.m))
		for k, v := range x.m {
			c.m[k] = v
		}
	}
	return c
}

// copyInto is clone into buf's memory (a search's pooled world's).
func (x *timeoutIndex) copyInto(buf timeoutIndex) timeoutIndex {
	c := timeoutIndex{list: buf.list[:0]}
	if len(x.list) > 0 {
		c.list = reuse(buf.list, x.list)
	}
	if x.m != nil {
		c.m = reuseMap(buf.m, x.m)
	}
	return c
}

// each calls f with each entry, in no order the index promises.
func (x *timeoutIndex) each(f func(timeoutKey, queuedAt)) {
	if x.m != nil {
		for k, at := range x.m {
			f(k, at)
		}
		return
	}
	for _, e := range x.list {
		f(e.k, e.at)
	}
}

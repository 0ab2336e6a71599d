package engine

// SearchScratch lends a search one event chunk that every world it makes
// with CloneForSearch writes its events into, in turn. A search steps
// thousands of copies per second and reads no event of any (it reads the
// monitors and the state): a fresh chunk per copy (some 80 KB) cost more
// than the step itself.
type SearchScratch struct {
	chunk *[eventChunk]Event
	last  *World // the world that wrote into chunk last
}

// CloneForSearch is Clone with an empty event history written into s's
// chunk. The events of a world made this way are only good until the
// next CloneForSearch with the same scratch, which clears the chunk, and
// the history starts with one zero event; a
// search that wants a path's events replays the path on a world of its
// own.
func (w *World) CloneForSearch(s *SearchScratch) *World {
	s.clearChunk()
	c := w.Clone()
	s.ownEvents(c)
	return c
}

// CloneForSearchInto is CloneForSearch into dst, a world made before by
// CloneForSearch or CloneForSearchInto that is no longer in use (nil:
// a new one): its maps, lists and client structs are reused, so that a
// search stepping a copy per move does not allocate one.
func (w *World) CloneForSearchInto(dst *World, s *SearchScratch) *World {
	if dst == nil || dst == w {
		return w.CloneForSearch(s)
	}
	s.clearChunk()
	w.cloneInto(dst)
	s.ownEvents(dst)
	return dst
}

func (s *SearchScratch) clearChunk() {
	if s.chunk == nil {
		s.chunk = new([eventChunk]Event)
	}
	if l := s.last; l != nil && len(l.events.chunks) > 0 && l.events.chunks[0] == s.chunk {
		// Every slot past n of a chunk the log owns is zero (eventLog.next).
		clear(s.chunk[:min(l.events.n, eventChunk)])
	}
}

func (s *SearchScratch) ownEvents(c *World) {
	// The log starts one zero event in, so that its first append writes
	// into the chunk it owns (eventLog.next starts a new chunk at a
	// chunk's first slot).
	c.events = eventLog{chunks: []*[eventChunk]Event{s.chunk}, n: 1, own: true}
	s.last = c
}

// ViolationCount is how many times the invariant has been violated (0
// for a name that is none), read from the monitors' counts.
func (w *World) ViolationCount(invariant string) int {
	if k := invariantIndex(invariant); k >= 0 {
		return int(w.monitors[k].count)
	}
	return 0
}

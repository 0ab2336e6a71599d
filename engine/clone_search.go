package engine

// SearchScratch lends a search one event chunk that every world it makes
// with CloneForSearch writes its events into, in turn. A search steps
// thousands of copies per second and reads no event of any (it reads the
// monitors and the state): a fresh chunk per copy (some 80 KB) cost more
// than the step itself.
type SearchScratch struct {
	evs   *[eventChunk]storedEvent
	wides *[byteChunk]byte
	msgs  *[eventChunk]*Message
	acts  *[eventChunk]arg
	last  *World // the world that wrote into the chunks last
}

// CloneForSearch is Clone with an empty event history written into s's
// chunks. The events of a world made this way are only good until the
// next CloneForSearch with the same scratch, which clears the chunks, and
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

// clearChunk zeroes what the last world written into the scratch chunks
// wrote there (every slot past n of a chunk a list owns is zero:
// clist.next).
func (s *SearchScratch) clearChunk() {
	if s.evs == nil {
		s.evs, s.wides, s.msgs = new([eventChunk]storedEvent), new([byteChunk]byte), new([eventChunk]*Message)
		s.acts = new([eventChunk]arg)
	}
	if l := s.last; l != nil {
		clearScratch(&l.events.evs, s.evs)
		clearScratch(&l.events.msgs, s.msgs)
		clearScratch(&l.events.acts, s.acts)
	}
}

// ownEvents gives c an empty history written into the scratch chunks.
// Each list starts one zero entry in, so that its first append writes
// into the chunk it owns (clist.next starts a new chunk at a chunk's
// first slot); an index 0 means "none" in a stored event anyway.
func (s *SearchScratch) ownEvents(c *World) {
	c.events = eventLog{names: c.events.names,
		evs:   clist[storedEvent]{chunks: []*[eventChunk]storedEvent{s.evs}, n: 1, own: true},
		wides: blist{chunks: []*[byteChunk]byte{s.wides}, n: 1, own: true},
		msgs:  clist[*Message]{chunks: []*[eventChunk]*Message{s.msgs}, n: 1, own: true},
		acts:  clist[arg]{chunks: []*[eventChunk]arg{s.acts}, n: 1, own: true}}
	s.last = c
}

// clearScratch zeroes what l wrote into the scratch chunk c, if l still
// writes into it.
func clearScratch[T any](l *clist[T], c *[eventChunk]T) {
	if len(l.chunks) > 0 && l.chunks[0] == c {
		clear(c[:min(l.n, eventChunk)])
	}
}

// ViolationCount is how many times the invariant has been violated (0
// for a name that is none), read from the monitors' counts.
func (w *World) ViolationCount(invariant string) int {
	if k := invariantIndex(invariant); k >= 0 {
		return int(w.monitors[k].count)
	}
	return 0
}

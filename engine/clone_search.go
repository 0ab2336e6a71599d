package engine

// SearchScratch lends a search one event chunk that every world it makes
// with CloneForSearch writes its events into, in turn. A search steps
// thousands of copies per second and reads no event of any (it reads the
// monitors and the state): a fresh chunk per copy (some 80 KB) cost more
// than the step itself.
type SearchScratch struct {
	// log is the empty history each copy starts with: its lists each
	// hold one chunk, the scratch's, in a list of capacity one (a list
	// that outgrows its chunk appends a new list of its own). Made once,
	// not per copy: six small lists per copy were a tenth of the copy.
	log  eventLog
	last *World // the world that wrote into the chunks last
	keys []qkey // PendingInto's sort
	// pairs are the pairs of each world CloneForSearchInto copied into
	// (see pairs), gen included.
	pairs map[*World]*pairs
}

// scratchList is the list of one chunk, c, one zero entry in: its first
// append writes into c (clist.next starts a new chunk at a chunk's first
// slot); an index 0 means "none" in a stored event anyway.
func scratchList[T any](c *[eventChunk]T) clist[T] {
	return clist[T]{chunks: []*[eventChunk]T{c}[:1:1], n: 1, own: true}
}

// scratchBytes is scratchList for the byte list of wide parts.
func scratchBytes(c *[byteChunk]byte) blist {
	return blist{chunks: []*[byteChunk]byte{c}[:1:1], n: 1, own: true}
}

// CloneForSearch is Clone with an empty event history written into s's
// chunks, and quiet: its events are counted, not kept, nor their words
// made (eventLog.quiet), every decision and monitor the same; it notes
// no change (ChangeSet.off) and keeps no request or marker tally (its
// Changes is empty, its tallies stay the ones it was copied with). The
// history starts with one zero event; a search that wants a path's
// events replays the path on a world of its own.
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
	if s.pairs == nil {
		s.pairs = map[*World]*pairs{}
	}
	p := s.pairs[dst]
	if p == nil {
		p = &pairs{}
		s.pairs[dst] = p
	}
	var srcGen uint64
	if sp := s.pairs[w]; sp != nil {
		srcGen = sp.gen
	}
	p.gen++
	w.cloneInto(dst, p, srcGen)
	s.ownEvents(dst)
	return dst
}

// clearChunk zeroes what the last world written into the scratch chunks
// wrote there (every slot past n of a chunk a list owns is zero:
// clist.next).
func (s *SearchScratch) clearChunk() {
	if s.log.evs.chunks == nil {
		s.log = eventLog{evs: scratchList(new([eventChunk]storedEvent)), wides: scratchBytes(new([byteChunk]byte)),
			msgs: scratchList(new([eventChunk]*Message)), notes: scratchList(new([eventChunk]*note)),
			exts: scratchList(new([eventChunk]*ruleExt)), late: scratchList(new([eventChunk]lateTime)),
			acts: scratchList(new([eventChunk]arg)), sends: scratchList(new([eventChunk]storedSend))}
	}
	// The wide parts' bytes need no clearing: a blist reads only what
	// it wrote. A quiet world (every one ownEvents made) stored nothing
	// (eventLog.flush only counts its events): clearing its lists' one
	// zero entry each was some 4% of the search.
	if l := s.last; l != nil && !l.events.quiet {
		clearScratch(&l.events.evs, &s.log.evs)
		clearScratch(&l.events.msgs, &s.log.msgs)
		clearScratch(&l.events.notes, &s.log.notes)
		clearScratch(&l.events.exts, &s.log.exts)
		clearScratch(&l.events.late, &s.log.late)
		clearScratch(&l.events.acts, &s.log.acts)
		clearScratch(&l.events.sends, &s.log.sends)
	}
}

// ownEvents gives c an empty history written into the scratch chunks.
func (s *SearchScratch) ownEvents(c *World) {
	c.changes = ChangeSet{off: true}
	if l := &c.events; l.quiet {
		// c holds a quiet world's log, which stores nothing (flush):
		// emptying it is taking its count back to the one zero event.
		// Copying the scratch log over it (some 2 KB) was a twentieth
		// of the copy.
		l.quietN, l.hasPend, l.pend, l.pendSend = 0, false, Event{}, Records{}
		s.last = c
		return
	}
	names := c.events.names
	c.events = s.log
	c.events.names = names
	c.events.quiet = true
	s.last = c
}

// clearScratch zeroes what l wrote into the scratch chunk of list c, if
// l still writes into it.
func clearScratch[T any](l, c *clist[T]) {
	if len(l.chunks) > 0 && l.chunks[0] == c.chunks[0] {
		clear(c.chunks[0][:min(l.n, eventChunk)])
	}
}

// ApplyForSearch is Apply without the events it returns: a search steps
// a world per move and reads its monitors and state, never the events,
// and copying them out was the most of what a step allocated.
func (w *World) ApplyForSearch(a Action) error {
	_, err := w.applyAction(a)
	return err
}

// PendingInto is Pending(true) appended to dst, sorted in s: a search
// lists what is waiting in every world it explores, and a fresh list and
// copy of the queue each time were a tenth of what it allocated.
func (w *World) PendingInto(dst []PendingItem, s *SearchScratch) []PendingItem {
	s.keys = append(s.keys[:0], w.queue.keys...)
	sortKeys(s.keys)
	for _, k := range s.keys {
		it := &w.queue.slab[k.slot]
		switch {
		case w.isCancelled(it):
		case it.Kind == itemDeliver:
			dst = append(dst, PendingItem{At: it.At, Msg: it.Msg})
		default:
			dst = append(dst, PendingItem{At: it.At, Timer: it.Timer})
		}
	}
	return dst
}

// SearchClients are the world's own lists of its clients, not copies
// (Producers, Consumers, Processors copy theirs): read them, never change
// them.
func (w *World) SearchClients() ([]*Producer, []*Consumer, []*Processor) {
	return w.producers, w.consumers, w.processors
}

// ViolationCount is how many times the invariant has been violated (0
// for a name that is none), read from the monitors' counts.
func (w *World) ViolationCount(invariant string) int {
	if k := invariantIndex(invariant); k >= 0 {
		return int(w.monitors[k].count)
	}
	return 0
}

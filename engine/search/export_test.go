package search

import "github.com/eoslab/eoslab/engine"

// FindReference is the search without its economies, as a yardstick for
// a test: every move on a fresh engine.World.Clone, every world hashed
// and kept in the table, the bound at its deepest included, the
// iterative deepening otherwise the same. Find must find what it finds.
func FindReference(start *engine.World, o Options) Result {
	s := &reference{o: o, seen: map[uint64]uint8{}, hasher: engine.NewStateHasher(), gen: newMoveGen(start, o)}
	if violations(start, o.Invariant) > 0 {
		return Result{Found: true, States: 1}
	}
	sends := sendCounts(make([]byte, len(start.AllProducers())))
	var res Result
	for bound := 1; bound <= o.Depth; bound++ {
		clear(s.seen)
		s.seen[mix(s.hasher.Hash(start), sends)] = 0
		s.bound, s.path = bound, s.path[:0]
		found := s.dfs(start, sends, 0)
		res.States = max(res.States, len(s.seen))
		if found {
			res.Found, res.Depth = true, len(s.path)
			res.Schedule = append([]engine.Action(nil), s.path...)
			return res
		}
		res.Depth = bound
	}
	return res
}

type reference struct {
	o      Options
	seen   map[uint64]uint8
	bound  int
	path   []engine.Action
	hasher *engine.StateHasher
	gen    *moveGen
}

func (s *reference) dfs(w *engine.World, sends sendCounts, d int) bool {
	if d == s.bound {
		return false
	}
	for _, m := range s.gen.moves(w, sends, nil) {
		c := w.CloneForTrial()
		if _, err := c.Apply(m.Action); err != nil {
			continue
		}
		s.path = append(s.path[:d], m.Action)
		if violations(c, s.o.Invariant) > 0 {
			return true
		}
		next := sends.after(m)
		h := mix(s.hasher.Hash(c), next)
		if at, ok := s.seen[h]; ok && int(at) <= d+1 {
			continue
		}
		s.seen[h] = uint8(d + 1)
		if s.dfs(c, next, d+1) {
			return true
		}
	}
	return false
}

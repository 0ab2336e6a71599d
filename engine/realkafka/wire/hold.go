package wire

import "github.com/twmb/franz-go/pkg/kmsg"

// Holding a message stands for the simulation's network between two
// steps: a request the client wrote that has not reached the broker yet,
// or the broker's answer that has not reached the client. A rule with the
// Hold action stops each message it matches (a request before the broker
// reads it, a response before the client does) until Release lets it go
// on or loses it.

// Held is one message the wrapper holds.
type Held struct {
	Key    kmsg.Key
	Dir    Direction
	CorrID int32
	// Copy: a duplicate's copy held back (latecopy.go), not a message
	// the client wrote.
	Copy bool
}

type held struct {
	Held
	release chan bool // true: lose it
	// dup: a request let go is duplicated then, its copy held as a
	// late copy (CopyOnRelease).
	dup bool
}

// hold blocks the message until it is released; it reports whether the
// message is lost, and whether a request let go is to be duplicated.
func (f *Faults) hold(dir Direction, key kmsg.Key, corr int32) (lose, dup bool) {
	h := &held{Held: Held{Key: key, Dir: dir, CorrID: corr}, release: make(chan bool, 1)}
	f.mu.Lock()
	f.holds = append(f.holds, h)
	f.mu.Unlock()
	lose = <-h.release
	f.mu.Lock()
	defer f.mu.Unlock()
	return lose, h.dup
}

// CopyOnRelease marks the held request with correlation id corr to be
// duplicated when it is let go, as a Duplicate rule with HoldCopy does
// (latecopy.go): the network keeps a copy of a request it was holding
// anyway. It reports whether such a request is held.
func (f *Faults) CopyOnRelease(corr int32) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, h := range f.holds {
		if h.Dir == Request && h.CorrID == corr && !h.Copy {
			h.dup = true
			return true
		}
	}
	return false
}

// Held lists the messages held now, oldest first.
func (f *Faults) Held() []Held {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]Held, 0, len(f.holds))
	for _, h := range f.holds {
		out = append(out, h.Held)
	}
	return out
}

// Release lets the oldest held message of key going dir go on (lose:
// drop it, as the Drop action does); it reports whether one was held.
func (f *Faults) Release(dir Direction, key kmsg.Key, lose bool) bool {
	return f.release(func(h *held) bool { return h.Dir == dir && h.Key == key }, lose)
}

// ReleaseCorr lets the held message with correlation id corr going dir
// go on (or loses it); it reports whether one was held.
func (f *Faults) ReleaseCorr(dir Direction, corr int32, lose bool) bool {
	return f.release(func(h *held) bool { return h.Dir == dir && h.CorrID == corr }, lose)
}

// release lets the oldest held message that match picks go on.
func (f *Faults) release(match func(*held) bool, lose bool) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, h := range f.holds {
		if match(h) {
			f.holds = append(f.holds[:i:i], f.holds[i+1:]...)
			h.release <- lose
			return true
		}
	}
	return false
}

// ReleaseAll lets every held message go on and removes the Hold rules,
// so that nothing is held after it.
func (f *Faults) ReleaseAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	rules := f.rules[:0]
	for _, r := range f.rules {
		if r.Action != Hold {
			rules = append(rules, r)
		}
	}
	f.rules = rules
	for _, h := range f.holds {
		h.release <- false
	}
	f.holds = nil
}

// Unhold removes the Hold rules for key going dir (messages already held
// stay held until released).
func (f *Faults) Unhold(dir Direction, key kmsg.Key) {
	f.mu.Lock()
	defer f.mu.Unlock()
	rules := f.rules[:0]
	for _, r := range f.rules {
		if !(r.Action == Hold && r.Dir == dir && r.Key == key) {
			rules = append(rules, r)
		}
	}
	f.rules = rules
}

// HasRule reports whether a rule with action a for key going dir is
// installed.
func (f *Faults) HasRule(key kmsg.Key, dir Direction, a Action) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.rules {
		if r.Key == key && r.Dir == dir && r.Action == a {
			return true
		}
	}
	return false
}

// Reset removes every rule, lets every held message go on and forgets
// the events, on every connection the set wraps (a proxy's connections
// stay open across it; realkafka's ClearFaults).
func (f *Faults) Reset() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rules, f.events = nil, nil
	for _, h := range f.holds {
		h.release <- false
	}
	f.holds = nil
}

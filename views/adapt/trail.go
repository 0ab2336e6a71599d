package adapt

import (
	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/views/model"
)

// trail is the lesson's recent events as the frames carry them, each made
// once, in parts, as one model.EventLine (eventView). A lesson's history is linear (every position's events
// are a prefix of the next one's, and the engine's change set says where
// each step's events start), so event i is the same event at every
// position that has it, and the events a frame shows, the newest
// maxEvents up to its position, are a window on one array: a frame takes
// a slice of it, not a copy. Stepping forward appends the step's new
// events; when the array is full, the window moves to a new one that
// keeps only the newest, so its memory stays fixed however long the
// history grows. A frame further back than the array reaches (a jump to
// the start of a long lesson) gets its events made afresh.
type trail struct {
	base int               // the index of the event in buf[0]
	buf  []model.EventLine // events base .. base+len(buf)-1
}

// trailCap is the trail's array size: room for a few steps' worth of new
// events past a window before it moves.
const trailCap = 4 * maxEvents

// window returns the views of events from..to-1 of w. The slice is shared
// with other frames, and its capacity ends at to: append to it and it is
// copied.
func (t *trail) window(w *engine.World, from, to int) []model.EventLine {
	end := t.base + len(t.buf)
	switch {
	case from >= t.base && to <= end:
	case from < t.base || from > end:
		if from < t.base {
			// Behind the window: made afresh, leaving the window where
			// the learner will come back to.
			out := make([]model.EventLine, to-from)
			for i := range out {
				out[i] = eventView(w, from+i)
			}
			return out
		}
		t.base, t.buf = from, make([]model.EventLine, 0, max(trailCap, to-from))
		t.fill(w, to)
	default:
		if to-t.base > cap(t.buf) {
			// Full: move the window to a new array from `from` on.
			buf := make([]model.EventLine, 0, max(trailCap, to-from))
			t.base, t.buf = from, append(buf, t.buf[from-t.base:]...)
		}
		t.fill(w, to)
	}
	return t.buf[from-t.base : to-t.base : to-t.base]
}

// fill appends the events up to to.
func (t *trail) fill(w *engine.World, to int) {
	for i := t.base + len(t.buf); i < to; i++ {
		t.buf = append(t.buf, eventView(w, i))
	}
}

package verify

import (
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/realkafka/wire"
	"github.com/eoslab/eoslab/engine/script"
)

// A late copy: `duplicate X` followed at once by `delay X N` is the
// network delivering a request twice and holding one copy up. The broker
// run sends the request once and has the wrapper hold its copy (package
// wire, Rule.HoldCopy); when the simulation has delivered both, the copy
// is let go to the broker, which acts on it, and its answer is read and
// recorded in the observation log but not handed to the client: a TCP
// client reads one answer per request. The facts after it (the logs, the
// markers, the transaction's state, the offsets) are then the broker's.
//
// Both copies at once (a duplicated request other than Produce with no
// delay line after it) is played the same way, the copy let go as soon as
// the simulation has delivered both and the original has been answered.
// A broker answers a connection's requests one at a time, in order
// (SocketServer's Processor keeps a channel muted,
// KafkaChannel.ChannelMuteState, until its response is sent), so the copy
// on the same connection is read only after the original's answer: where
// the simulated client took the copy's answer (its network let the copy
// overtake), the rows say what the broker does with the copy in order, and
// the known-differences file says why they differ.

// lateCopy is one held copy: whose connection, which request, and the
// simulation's messages (the original and its copy) that must have left
// its network before the copy goes.
type lateCopy struct {
	client string
	key    kmsg.Key
	sim    map[int64]bool
}

// lateCopyNext reports whether the line after c delays the message c
// duplicates, so that the copy is held rather than sent at once.
func (d *driver) lateCopyNext(c script.Command) bool {
	dup, ok := c.Action.(engine.Duplicate)
	if !ok || d.at+1 >= len(d.cmds) {
		return false
	}
	del, ok := d.cmds[d.at+1].Action.(engine.Delay)
	return ok && del.Msg == dup.Msg
}

// holdLateCopy notes the copy the wrapper will hold for t's message and,
// when delayed, that the next line's delay is played by it.
func (d *driver) holdLateCopy(t resolved, key kmsg.Key, delayed bool) {
	sim := map[int64]bool{}
	if t.world != nil {
		for _, m := range t.world.InFlight() {
			client := m.From
			if m.Kind.IsResponse() {
				client = m.To
			}
			if m.Kind.String() == t.kind && client == t.client {
				sim[int64(m.ID)] = true
			}
		}
	}
	d.lateCopies = append(d.lateCopies, lateCopy{client: t.client, key: key, sim: sim})
	d.lateDelay = delayed
}

// releaseLateCopies lets go each held copy whose simulation messages have
// all been delivered, and waits (bounded) for the broker's answers to
// them, so that the facts read next are after the copy. A file that
// stopped playing loses its copies.
func (d *driver) releaseLateCopies(w *engine.World) {
	if len(d.lateCopies) == 0 {
		return
	}
	inFlight := map[int64]bool{}
	for _, m := range w.InFlight() {
		inFlight[int64(m.ID)] = true
	}
	var keep []lateCopy
	var waits []*wire.Faults
	for _, lc := range d.lateCopies {
		gone := true
		for id := range lc.sim {
			if inFlight[id] {
				gone = false
			}
		}
		wk := d.workerOf(lc.client)
		if wk == nil {
			continue
		}
		f := wk.faults()
		if !gone && d.stopped == "" {
			keep = append(keep, lc)
			continue
		}
		released := false
		for _, h := range f.Held() {
			if h.Copy && h.Key == lc.key {
				f.ReleaseCorr(h.Dir, h.CorrID, d.stopped != "")
				released = true
				break
			}
		}
		if !released && d.stopped == "" {
			// The original has not been written yet (its call waits for
			// the quiet point this line makes): the copy goes after it.
			keep = append(keep, lc)
			continue
		}
		waits = append(waits, f)
	}
	d.lateCopies = keep
	end := time.Now().Add(10 * time.Second)
	for _, f := range waits {
		for f.CopiesPending() > 0 && time.Now().Before(end) {
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// busy is the simulation's World.Busy, except that a late copy the
// wrapper holds does not count: with nothing else in flight the broker
// run is at the simulation's point, its calls all done.
func (d *driver) busy(w *engine.World) bool {
	if !w.Busy() || d.mirrorQuiet(w) { // mirror.go
		return false
	}
	if len(d.lateCopies) == 0 {
		return true
	}
	copies := map[int64]bool{}
	for _, lc := range d.lateCopies {
		for id := range lc.sim {
			copies[id] = true
		}
	}
	for _, m := range w.InFlight() {
		if !copies[int64(m.ID)] {
			return true
		}
	}
	for _, t := range w.PendingTimers() {
		if t.Kind != engine.TimerAbortCheck && t.Kind != engine.TimerExpiryCheck {
			return true
		}
	}
	return false
}

// copiesInFlight are the simulation's messages in flight that stand for
// the late copies the wrapper holds: of each copy's messages (the
// original and its copy) still in flight, one is the copy; while both
// are, the other is the original, which a hold holds as any request.
func (d *driver) copiesInFlight(w *engine.World) map[int64]bool {
	if len(d.lateCopies) == 0 {
		return nil
	}
	out := map[int64]bool{}
	for _, lc := range d.lateCopies {
		var last int64 = -1
		for _, m := range w.InFlight() {
			if lc.sim[m.ID] && m.ID > last {
				last = m.ID
			}
		}
		if last >= 0 {
			out[last] = true
		}
	}
	return out
}

// loseLateCopies loses every copy the wrapper still holds (a file's end:
// the simulation never delivered them).
func (d *driver) loseLateCopies() {
	for _, lc := range d.lateCopies {
		if wk := d.workerOf(lc.client); wk != nil {
			f := wk.faults()
			for _, h := range f.Held() {
				if h.Copy && h.Key == lc.key {
					f.ReleaseCorr(h.Dir, h.CorrID, true)
				}
			}
		}
	}
	d.lateCopies = nil
}

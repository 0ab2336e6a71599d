package adapt

import (
	"eoslab/engine"
	"eoslab/lessons"
	"eoslab/views"
)

// history is the lesson's message sequence diagram, built from the send and
// fault events of each position once, the first time a frame needs it.
//
// A lesson's history is linear (position k+1 always follows from position
// k), so the arrows of position k are a prefix of those of k+1: one slice
// serves every position, with ends[k] marking where position k stops. A
// drop is recorded on the arrow with the position it happened at, so an
// earlier position still draws the message as it was then.
type history struct {
	arrows []arrow
	// shown is arrows as the newest position draws them, Dropped set for
	// every drop so far. A frame shares a window of it when no arrow in
	// the window was dropped after the frame's position.
	shown []views.Arrow
	ends  []int         // ends[k]: number of arrows up to position k
	byMsg map[int64]int // message id -> index in arrows
}

type arrow struct {
	views.Arrow
	droppedAt int // position at which the network lost it, or -1
}

func newHistory() history { return history{byMsg: map[int64]int{}} }

// upto extends the history to position pos.
func (h *history) upto(p *lessons.Player, pos int) {
	for len(h.ends) <= pos {
		k := len(h.ends)
		w := p.WorldAt(k)
		from := 0
		if k > 0 {
			from = len(p.WorldAt(k - 1).Events)
		}
		for i := from; i < len(w.Events); i++ {
			h.add(&w.Events[i], k)
		}
		h.ends = append(h.ends, len(h.arrows))
	}
}

// add records what one event does to the diagram, from the event's kind,
// fault and message (engine.Event.Message), not from its text.
func (h *history) add(e *engine.Event, k int) {
	m := e.Message
	if m == nil {
		return
	}
	switch {
	case e.Kind == engine.EvSend:
		a := views.Arrow{From: m.From, To: m.To, Label: label(m), Step: k}
		if m.Kind.IsResponse() {
			a.Reply = true
			a.Error = m.Code() != engine.None
		}
		h.byMsg[m.ID] = len(h.arrows)
		h.arrows = append(h.arrows, arrow{Arrow: a, droppedAt: -1})
		h.shown = append(h.shown, a)
	case e.Fault.LosesMessage():
		if i, ok := h.byMsg[m.ID]; ok && h.arrows[i].droppedAt < 0 {
			h.arrows[i].droppedAt = k
			// Frames already built share shown: copy it before the
			// change (drops are rare) so that they keep what they drew.
			h.shown = append([]views.Arrow(nil), h.shown...)
			h.shown[i].Dropped = true
		}
	case e.Fault == engine.FaultDuplicated:
		// The copy (the event's Message) travels the same way as the
		// original.
		a := views.Arrow{From: m.From, To: m.To, Label: label(m) + " (copy)", Step: k, Reply: m.Kind.IsResponse()}
		a.Error = a.Reply && m.Code() != engine.None
		h.byMsg[m.ID] = len(h.arrows)
		h.arrows = append(h.arrows, arrow{Arrow: a, droppedAt: -1})
		h.shown = append(h.shown, a)
	}
}

// label is the message kind and the engine's brief form of its body
// (engine.Message.Brief, which leaves out the fields that rarely matter to
// a lesson), cut to a length a diagram can hold.
func label(m *engine.Message) string {
	s := m.Kind.String()
	if b := m.Brief(); b != "" {
		s += " " + b
	}
	const maxLabel = 56
	if r := []rune(s); len(r) > maxLabel {
		s = string(r[:maxLabel-1]) + "…"
	}
	return s
}

// frame returns the arrows and the actors to draw at position pos. The
// arrows are shared with the history unless one of them was dropped after
// pos, and capped so that no append can reach the history: the views only
// read them.
func (h *history) frame(p *lessons.Player, w *engine.World, pos int) ([]views.Arrow, []string) {
	h.upto(p, pos)
	from, end := max(0, h.ends[pos]-maxArrows), h.ends[pos]
	out := h.shown[from:end:end]
	for i := from; i < end; i++ {
		if d := h.arrows[i].droppedAt; d > pos {
			out = make([]views.Arrow, end-from)
			for j, a := range h.arrows[from:end] {
				out[j] = a.Arrow
				out[j].Dropped = a.droppedAt >= 0 && a.droppedAt <= pos
			}
			break
		}
	}
	return out, actors(w, out)
}

// actors are the diagram's columns: the clients in declaration order, then
// the brokers, then anyone else who sent or received a message (the expert
// tool's injections).
func actors(w *engine.World, arrows []views.Arrow) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, p := range w.Producers {
		add(p.Name)
	}
	for _, c := range w.Consumers {
		add(c.Name)
	}
	for _, pr := range w.Processors {
		add(pr.Name)
	}
	for _, b := range w.Brokers {
		add(engine.BrokerAddr(b.ID))
	}
	for _, a := range arrows {
		add(a.From)
		add(a.To)
	}
	return out
}

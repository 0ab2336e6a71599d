package adapt

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/views/model"
)

// history is the lesson's message sequence diagram, built from the send,
// delivery and fault events of each position once, the first time a frame
// needs it.
//
// A lesson's history is linear (position k+1 always follows from position
// k), so the arrows of position k are a prefix of those of k+1, with ends[k]
// marking where position k stops. What later happens to a message (its
// delivery, its loss, a delay) is recorded on its arrow with the position
// it happened at, so each frame draws the message as it was at the frame's
// position: a message delivered at position 4 is in flight at position 3,
// and going back from 4 to 3 draws it in flight again.
type history struct {
	arrows []arrow
	ends   []int // ends[k]: number of arrows up to position k
	// open maps the id of a message still on the way (as far as the
	// history has read) to its arrow; a message leaves it when it is
	// delivered or lost, so it holds only what the network holds.
	open map[int64]int
	// touched[k] lists the arrows sent before position k that position k
	// delivered, lost or delayed: with those sent at k, the arrows that
	// look different at k than at k-1.
	touched [][]int32
	// last is the last frame's arrows, of position lastPos from arrow
	// lastFrom on, which the next position's frame starts from.
	last              []model.Arrow
	lastPos, lastFrom int
	// names are the actors messages were sent from or to, numbered in
	// the order they first appeared (ids); cols is the last frame's
	// columns (actors).
	names []string
	ids   map[string]int32
	cols  columns
}

// arrow is one message and what happened to it, at the positions it
// happened.
type arrow struct {
	model.Arrow // From, To, Label, Reply, Error, Duplicate and Step
	end         model.ArrowState
	endAt       int   // position of its delivery or loss (end), or -1
	id          int64 // the message's id
	from, to    int32 // the sender's and the receiver's number (history.names)
	delayedAt   int   // position at which the network delayed it, or -1
}

func newHistory() history { return history{open: map[int64]int{}, ids: map[string]int32{}} }

// upto extends the history to position pos.
func (h *history) upto(p *lessons.Player, pos int) {
	for len(h.ends) <= pos {
		k := len(h.ends)
		h.touched = append(h.touched, nil)
		w := p.WorldAt(k)
		from := 0
		if k > 0 {
			from = p.WorldAt(k - 1).EventCount()
		}
		for i := from; i < w.EventCount(); i++ {
			e := w.EventAt(i)
			h.add(&e, k)
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
		h.send(m, k, false)
	case e.Fault == engine.FaultDuplicated:
		// The copy (the event's Message, with an id of its own) travels
		// the same way as the original and is delivered on its own.
		h.send(m, k, true)
	case e.Kind == engine.EvDeliver:
		h.finish(m, model.ArrowDelivered, k)
	case e.Fault == engine.FaultDropped:
		h.finish(m, model.ArrowDropped, k)
	case e.Fault == engine.FaultLost:
		h.finish(m, model.ArrowLost, k)
	case e.Fault == engine.FaultDelayed:
		if i, ok := h.open[m.ID]; ok && h.arrows[i].delayedAt < 0 {
			h.arrows[i].delayedAt = k
			h.touch(i, k)
		}
	}
}

func (h *history) send(m *engine.Message, k int, duplicate bool) {
	a := model.Arrow{From: m.From, To: m.To, Label: label(m), Step: k, Duplicate: duplicate, ID: m.ID}
	if int(m.Kind) < len(shortKinds) {
		// label starts with the kind's name.
		a.Name, a.Short, a.Shortest = m.Kind.String(), shortKinds[m.Kind][0], shortKinds[m.Kind][1]
		a.NameTail = len(a.Label) - len(a.Name)
	}
	if m.Kind.IsResponse() {
		a.Reply = true
		a.Error = m.Code() != engine.None
		if at, code := codeIn(a.Label, m.Code()); at >= 0 {
			a.Code, a.CodeTail = code, len(a.Label)-at-len(code)
		}
	}
	h.open[m.ID] = len(h.arrows)
	h.arrows = append(h.arrows, arrow{Arrow: a, endAt: -1, delayedAt: -1, id: m.ID, from: h.nameID(m.From), to: h.nameID(m.To)})
}

// shortKinds are each message kind's shorter names, for a Timeline lane
// too narrow for the full one (model.Arrow.Short): the request names'
// short forms, which keep the words that tell the requests apart
// (AddPartitionsToTxn -> AddPartitions), and for a response the same with
// "Response" and then "Resp" ("InitPidResponse", "InitPidResp").
var shortKinds = func() (t [engine.MsgListOffsetsResponse + 1][2]string) {
	short := map[engine.MsgKind]string{
		engine.MsgAddPartitionsToTxn: "AddPartitions", engine.MsgAddOffsetsToTxn: "AddOffsets", engine.MsgInitProducerID: "InitPid",
		engine.MsgWriteTxnMarkers: "WriteMarkers", engine.MsgTxnOffsetCommit: "TxnOffsets", engine.MsgFindCoordinator: "FindCoord",
	}
	for k := range t {
		kind := engine.MsgKind(k)
		if !kind.IsResponse() {
			t[k][0] = short[kind]
			continue
		}
		req := kind - 1
		if s := short[req]; s != "" {
			t[k] = [2]string{s + "Response", s + "Resp"}
		} else {
			t[k][1] = req.String() + "Resp"
		}
	}
	return t
}()

// finish records that message m was delivered or lost at position k.
func (h *history) finish(m *engine.Message, end model.ArrowState, k int) {
	i, ok := h.open[m.ID]
	if !ok {
		return
	}
	delete(h.open, m.ID)
	h.arrows[i].end, h.arrows[i].endAt = end, k
	h.touch(i, k)
}

// touch notes that position k changed arrow i, if it was sent before k.
func (h *history) touch(i, k int) {
	if h.arrows[i].Step < k {
		h.touched[k] = append(h.touched[k], int32(i))
	}
}

// at is the arrow as the frame of position pos draws it.
func (a *arrow) at(pos int) model.Arrow {
	v := a.Arrow
	if a.endAt >= 0 && a.endAt <= pos {
		v.State = a.end
	}
	v.Delayed = a.delayedAt >= 0 && a.delayedAt <= pos
	// Position 0 is the setup: like the panels, the diagram marks
	// nothing there.
	v.Changed = pos > 0 && (v.Step == pos || a.endAt == pos || a.delayedAt == pos)
	return v
}

// label is the message kind and the engine's brief form of its body
// (engine.Message.Brief, which leaves out the fields that rarely matter to
// a lesson), cut to a length a diagram can hold, but never inside the
// error code an answer carries: the code is what its row is for.
func label(m *engine.Message) string {
	s := m.Kind.String()
	if b := m.Brief(); b != "" {
		s += " " + b
	}
	const maxLabel = 56
	r := []rune(s)
	if len(r) <= maxLabel {
		return s
	}
	keep := maxLabel - 1
	if at, c := codeIn(s, m.Code()); at >= 0 {
		keep = max(keep, utf8.RuneCountInString(s[:at+len(c)]))
	}
	if keep >= len(r) {
		return s
	}
	return string(r[:keep]) + "…"
}

// codeIn finds where label s writes error code c, with its number
// ("PRODUCER_FENCED(90)") or, in a list of partitions, its name alone: the
// byte offset and the form; -1 for NONE or a label without it. Which code
// an answer carries is engine.Message.Code's; this only finds its
// characters, so that the diagram can keep them whole.
func codeIn(s string, c engine.ErrorCode) (int, string) {
	if c == engine.None {
		return -1, ""
	}
	for _, form := range []string{c.String(), c.Name()} {
		if at := strings.Index(s, form); at >= 0 {
			return at, form
		}
	}
	return -1, ""
}

// frame returns the arrows and the actors to draw at position pos: the
// newest maxArrows arrows, each as it stood at pos. Stepping forward, they
// are the last frame's with the step's arrows added and the ones it
// touched (and the ones the step before marked) drawn again; anything
// else draws every arrow as it stood at pos.
func (h *history) frame(p *lessons.Player, w *engine.World, pos int) ([]model.Arrow, []model.Actor) {
	h.upto(p, pos)
	from, end := max(0, h.ends[pos]-maxArrows), h.ends[pos]
	out := make([]model.Arrow, end-from)
	// A step that touched more arrows than a frame shows (one long step
	// of a long history) is drawn afresh: its list is longer than the
	// window.
	if h.last != nil && pos > 0 && h.lastPos == pos-1 && from >= h.lastFrom && from <= h.lastFrom+len(h.last) &&
		len(h.touched[pos-1])+len(h.touched[pos]) <= len(out) {
		seen := h.lastFrom + len(h.last) // h.ends[pos-1]
		copy(out, h.last[from-h.lastFrom:])
		redo := func(i int) {
			if i >= from && i < seen {
				out[i-from] = h.arrows[i].at(pos)
			}
		}
		sentBefore := 0 // the first arrow sent at pos-1
		if pos >= 2 {
			sentBefore = h.ends[pos-2]
		}
		for i := max(sentBefore, from); i < seen; i++ {
			redo(i)
		}
		for _, i := range h.touched[pos-1] {
			redo(int(i))
		}
		for _, i := range h.touched[pos] {
			redo(int(i))
		}
		for i := seen; i < end; i++ {
			out[i-from] = h.arrows[i].at(pos)
		}
	} else {
		for j := range out {
			out[j] = h.arrows[from+j].at(pos)
		}
	}
	h.last, h.lastPos, h.lastFrom = out, pos, from
	return out, h.actors(w, from, end)
}

// actors are the diagram's columns: the clients in declaration order, then
// the brokers, then anyone else who sent or received one of the arrows
// from..end-1 (the expert tool's injections), each with a short name
// (shortNames). The columns change only when someone new appears, so the
// last frame's are given again while the names are the same; the arrows'
// ends are looked up by number (arrow.from, arrow.to), not by name.
func (h *history) actors(w *engine.World, from, end int) []model.Actor {
	var names []string
	var broker []bool
	var tries [][]string
	seen := make([]bool, len(h.names))
	var others map[string]bool // names that no message has carried yet
	add := func(name string, isBroker bool, short ...string) {
		if id, ok := h.ids[name]; ok && seen[id] || !ok && others[name] {
			for i := range names {
				if isBroker && names[i] == name {
					broker[i] = true
				}
			}
			return
		} else if ok {
			seen[id] = true
		} else {
			if others == nil {
				others = map[string]bool{}
			}
			others[name] = true
		}
		names, broker, tries = append(names, name), append(broker, isBroker), append(tries, short)
	}
	for _, p := range w.Producers() {
		add(p.Name, false)
	}
	for _, c := range w.Consumers() {
		add(c.Name, false)
	}
	for _, pr := range w.Processors() {
		add(pr.Name, false)
	}
	for _, b := range w.Brokers() {
		id := strconv.Itoa(int(b.ID))
		add(engine.BrokerAddr(b.ID), true, "b"+id, "br"+id)
	}
	// Messages are sent between clients and brokers, except the expert
	// tool's injections: only a name that is neither can add a column, so
	// the arrows are read only when the history holds one.
	if slices.Contains(seen, false) {
		for i := from; i < end; i++ {
			a := &h.arrows[i]
			if !seen[a.from] {
				add(h.names[a.from], false)
			}
			if !seen[a.to] {
				add(h.names[a.to], false)
			}
		}
	}
	if c := &h.cols; c.out != nil && slices.Equal(c.names, names) && slices.Equal(c.broker, broker) {
		return c.out
	}
	out := make([]model.Actor, len(names))
	for i := range names {
		out[i] = model.Actor{Name: names[i], Broker: broker[i]}
	}
	shortNames(out, tries)
	h.cols = columns{names: names, broker: broker, out: out}
	return out
}

// columns are the last diagram's actors and the names and broker marks
// they were made from.
type columns struct {
	names  []string
	broker []bool
	out    []model.Actor
}

// nameID numbers an actor's name, the first time a message carries it.
func (h *history) nameID(name string) int32 {
	id, ok := h.ids[name]
	if !ok {
		id = int32(len(h.names))
		h.ids[name] = id
		h.names = append(h.names, name)
	}
	return id
}

// maxShort is the most runes a short name has.
const maxShort = 3

// shortNames gives every actor a short name of at most maxShort runes,
// unique among them, for a diagram too narrow for the full names. A name
// that short is its own, and is kept first, so that a client named "b1"
// keeps it and broker-1 takes another. A longer name takes the first of
// its tries (a broker's "b1", then "br1") that is free, else its first
// three runes, else its first two and a digit, else "#" and its column
// ("#" cannot be in a name: the scenario language reads it as a comment).
func shortNames(as []model.Actor, tries [][]string) {
	taken := map[string]bool{}
	for i := range as {
		if utf8.RuneCountInString(as[i].Name) <= maxShort {
			as[i].Short = as[i].Name
			taken[as[i].Name] = true
		}
	}
	for i := range as {
		a := &as[i]
		if a.Short != "" {
			continue
		}
		r := []rune(a.Name)
		try := append(tries[i], string(r[:maxShort]))
		for n := 2; n < 10; n++ {
			try = append(try, string(r[:maxShort-1])+strconv.Itoa(n))
		}
		a.Short = "#" + strconv.Itoa(i+1)
		for _, s := range try {
			if !taken[s] {
				a.Short = s
				break
			}
		}
		taken[a.Short] = true
	}
}

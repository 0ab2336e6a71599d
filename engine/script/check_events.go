package script

import (
	"fmt"
	"sort"
	"strings"

	"github.com/eoslab/eoslab/engine"
)

// Checks of the event history: expect event, expect no event and expect
// response. A long run has a long history, and a scenario may check it
// after every step, so a check reads only what it must (issue 7): newest
// first, stopping at the first match when one match decides; only the
// events of its scope (the last command, a time window), found by search;
// and, through the index, only the events of the kind it asks for.

// eventIndex lists, for each event kind, the positions of a world's events
// of that kind. It follows the history as it grows: a check first indexes
// the events added since the last check, so over a whole run each event is
// indexed once. The history is append-only; a different world, or one
// whose history is shorter than what was indexed, starts a new index.
type eventIndex struct {
	w      *engine.World
	n      int
	byKind [][]int32
}

func (x *eventIndex) sync(w *engine.World) {
	if x.w != w || w.EventCount() < x.n {
		*x = eventIndex{w: w}
	}
	for n := w.EventCount(); x.n < n; x.n++ {
		k := int(w.EventAt(x.n).Kind)
		for len(x.byKind) <= k {
			x.byKind = append(x.byKind, nil)
		}
		x.byKind[k] = append(x.byKind[k], int32(x.n))
	}
}

// span is a range of event positions, lo included, hi not.
type span struct{ lo, hi int }

// each calls f on the positions of events of kind (any kind when all is
// set) in s, newest first, until f returns false.
func (k *checker) each(s span, kind engine.EventKind, all bool, f func(i int) bool) {
	if all || k.idx == nil {
		for i := s.hi - 1; i >= s.lo; i-- {
			if (all || k.w.EventAt(i).Kind == kind) && !f(i) {
				return
			}
		}
		return
	}
	k.idx.sync(k.w)
	if int(kind) >= len(k.idx.byKind) {
		return
	}
	pos := k.idx.byKind[kind]
	// The positions are ascending: start at the newest one before s.hi.
	j := sort.Search(len(pos), func(j int) bool { return int(pos[j]) >= s.hi }) - 1
	for ; j >= 0 && int(pos[j]) >= s.lo; j-- {
		if !f(int(pos[j])) {
			return
		}
	}
}

// scope is the span of events a check looks at.
func (k *checker) scope(x EventCheck) span {
	s := span{0, k.w.EventCount()}
	if x.InLast {
		// The last command is the newest scenario line: expect lines are
		// not commands and leave no event.
		k.each(s, engine.EvAction, false, func(i int) bool {
			s.lo = i + 1
			return false
		})
	}
	if x.Window.Set {
		s.lo = max(s.lo, k.w.FirstEventAt(x.Window.V.From))
		if !x.Window.V.Open {
			s.hi = min(s.hi, k.w.FirstEventAt(x.Window.V.To+1))
		}
	}
	return s
}

func (x EventCheck) scopeText() string {
	var s string
	if x.InLast {
		s += " in the last command"
	}
	if x.Window.Set {
		s += " at t=" + x.Window.V.String()
	}
	return s
}

// eventKindOf finds the engine's kind by name; the parser accepted it.
func eventKindOf(name string) engine.EventKind {
	for i := range eventKinds {
		if eventKinds[i] == name {
			return engine.EventKind(i + 1)
		}
	}
	return engine.EvAction
}

// eventCode is the error an event carries: its own code, or the code of
// the response it is about. ok is false when it carries none.
func eventCode(e *engine.Event) (engine.ErrorCode, bool) {
	if e.Code != engine.None {
		return e.Code, true
	}
	if e.Message != nil && e.Message.Kind.IsResponse() {
		return e.Message.Code(), true
	}
	return engine.None, false
}

// matches reports whether an event passes every filter of x. The
// scenario's own lines (kind action) never match.
func (x EventCheck) matches(e *engine.Event) bool {
	if e.Kind == engine.EvAction {
		return false
	}
	if x.Text != "" && !strings.Contains(e.Text(), x.Text) && !strings.Contains(e.Rule.String(), x.Text) {
		return false
	}
	if (x.Actor != "" && e.Actor != x.Actor) || (x.Rule != "" && !strings.Contains(e.Rule.String(), x.Rule)) {
		return false
	}
	if x.TP.Set && (e.TP.Topic != x.TP.V.Topic || e.TP.Partition != x.TP.V.N) {
		return false
	}
	if (x.TxnID != "" && e.TxnID != x.TxnID) || (x.Reason != engine.RuleNone && !e.Rule.Has(x.Reason)) {
		return false
	}
	if x.PID.Set || x.Epoch.Set {
		pid, epoch, ok := e.Producer()
		if !ok || (x.PID.Set && pid != x.PID.V) || (x.Epoch.Set && int64(epoch) != x.Epoch.V) {
			return false
		}
	}
	if x.Msg.Set {
		m := x.Msg.V
		if e.Message == nil || (m.ID > 0 && e.Message.ID != m.ID) || (m.ID == 0 && e.Message.Kind.String() != m.Kind) {
			return false
		}
	}
	if x.Error != "" {
		if c, ok := eventCode(e); !ok || c.Name() != x.Error {
			return false
		}
	}
	return true
}

// typed reports whether x filters on more than text.
func (x EventCheck) typed() bool {
	return x.Kind != "" || x.Actor != "" || x.Msg.Set || x.Error != "" || x.Rule != "" || x.TP.Set || x.TxnID != "" || x.PID.Set || x.Epoch.Set || x.Reason != engine.RuleNone
}

func (k *checker) event(x EventCheck) (bool, string, error) {
	s := k.scope(x)
	kind := eventKindOf(x.Kind)
	all := x.Kind == ""
	first, n := -1, 0
	// One match decides unless the check counts: then it reads its scope.
	k.each(s, kind, all, func(i int) bool {
		e := k.w.EventAt(i)
		if !x.matches(&e) {
			return true
		}
		if first < 0 {
			first = i
		}
		n++
		return x.Count.Set
	})
	switch {
	case x.No:
		if first < 0 {
			return true, "", nil
		}
		return false, k.w.EventAt(first).Line(), nil
	case x.Count.Set:
		if int64(n) == x.Count.V {
			return true, "", nil
		}
		if n == 0 {
			return false, "no matching event" + x.scopeText(), nil
		}
		return false, fmt.Sprintf("%d matching events%s, the newest: %s", n, x.scopeText(), k.w.EventAt(first).Line()), nil
	case first >= 0:
		return true, "", nil
	case x.typed():
		return false, "no matching event" + x.scopeText(), nil
	}
	return false, "no event contains it" + x.scopeText(), nil
}

// response finds the response x selects and compares its fields.
func (k *checker) response(x ResponseCheck) (bool, string, error) {
	m, why := k.findResponse(x)
	if m == nil {
		return false, why, nil
	}
	f, _ := m.ResponseFields()
	for _, c := range []struct {
		given, has bool
		field      string
	}{{x.BaseOffset.Set, f.HasBaseOffset, "baseOffset"}, {x.PID.Set, f.HasProducer, "pid"}, {x.Epoch.Set, f.HasProducer, "epoch"}} {
		if c.given && !c.has {
			return false, "", fmt.Errorf("%s is a %s, which has no %s", m.Name(), m.Kind, c.field)
		}
	}
	code := f.Code
	if x.Partition.Set {
		tp := engineTP(x.Partition.V)
		for _, r := range f.Results {
			if r.TP == tp {
				code = r.Code
			}
		}
	}
	if (!x.Error.Set || code.Name() == x.Error.V) && optEq(x.BaseOffset, f.BaseOffset) &&
		optEq(x.PID, f.ProducerID) && optEq(x.Epoch, int64(f.ProducerEpoch)) {
		return true, "", nil
	}
	return false, m.Summary(), nil
}

// ResponseOf is the delivered response a response check selects (nil when
// there is none), for a caller that reads its fields (verify rewrites a
// line with the simulation's values).
func ResponseOf(w *engine.World, x ResponseCheck) *engine.Message {
	k := checker{w: w}
	m, _ := k.findResponse(x)
	return m
}

// findResponse is the delivered response x selects: by id, the response
// with that id or the one that answered the request with that id; by kind,
// the newest delivered response of that kind that passes the filters. When
// there is none it says why.
func (k *checker) findResponse(x ResponseCheck) (*engine.Message, string) {
	all := span{0, k.w.EventCount()}
	var found *engine.Message
	if x.Msg.ID > 0 {
		// The newest event about the message says whether it was
		// delivered: nothing happens to a message after its delivery.
		var last *engine.Event
		k.each(all, 0, true, func(i int) bool {
			if e := k.w.EventAt(i); e.Message != nil && e.Message.ID == x.Msg.ID {
				last = &e
				return false
			}
			return true
		})
		switch {
		case last == nil:
			return nil, x.Msg.String() + " has not been sent"
		case last.Message.Kind.IsResponse() && last.Kind == engine.EvDeliver:
			return last.Message, ""
		case last.Message.Kind.IsResponse():
			return nil, last.Message.Name() + " " + last.Message.Kind.String() + " has not been delivered (last: " + last.Line() + ")"
		}
		req := last.Message
		k.each(all, engine.EvDeliver, false, func(i int) bool {
			m := k.w.EventAt(i).Message
			if m != nil && m.Kind == req.Kind+1 && m.Corr == req.Corr && m.To == req.From {
				found = m
				return false
			}
			return true
		})
		if found == nil {
			return nil, "no response to " + req.Name() + " " + req.Kind.String() + " has been delivered"
		}
		return found, ""
	}
	k.each(all, engine.EvDeliver, false, func(i int) bool {
		m := k.w.EventAt(i).Message
		if m == nil || m.Kind.String() != x.Msg.Kind || (x.To != "" && m.To != x.To) || (x.From != "" && m.From != x.From) {
			return true
		}
		if x.Partition.Set {
			f, _ := m.ResponseFields()
			tp := engineTP(x.Partition.V)
			if !slicesContainsTP(f.Results, tp) {
				return true
			}
		}
		found = m
		return false
	})
	if found == nil {
		sel := line{x.Msg.Kind}
		sel.text("to", x.To)
		sel.text("from", x.From)
		if x.Partition.Set {
			sel.add("partition=" + x.Partition.V.String())
		}
		return nil, "no " + sel.String() + " has been delivered"
	}
	return found, ""
}

func slicesContainsTP(rs []engine.TPCode, tp engine.TP) bool {
	for _, r := range rs {
		if r.TP == tp {
			return true
		}
	}
	return false
}

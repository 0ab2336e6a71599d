package challenges

import (
	"fmt"
	"strings"

	"github.com/eoslab/eoslab/engine"
)

// judgeFunc is a Judge made of two functions; after may be nil.
type judgeFunc struct {
	after   func(w *engine.World, evs []engine.Event)
	reached func(w *engine.World) (bool, string)
}

func (j judgeFunc) After(w *engine.World, evs []engine.Event) {
	if j.after != nil {
		j.after(w, evs)
	}
}

func (j judgeFunc) Reached(w *engine.World) (bool, string) { return j.reached(w) }

// anEvent is reached by the first event that hit accepts; missing says
// what was not found.
func anEvent(hit func(e *engine.Event) bool, missing string) func() Judge {
	return func() Judge {
		var found *engine.Event
		return judgeFunc{
			after: func(_ *engine.World, evs []engine.Event) {
				for i := range evs {
					if found == nil && hit(&evs[i]) {
						e := evs[i]
						found = &e
					}
				}
			},
			reached: func(*engine.World) (bool, string) {
				if found == nil {
					return false, missing
				}
				return true, "found " + found.Line()
			},
		}
	}
}

// aViolation is reached when invariant inv was violated.
func aViolation(inv, missing string) func() Judge {
	return func() Judge {
		return judgeFunc{reached: func(w *engine.World) (bool, string) {
			for _, v := range w.Violations() {
				if v.Name == inv {
					return true, "the engine reports the violation " + inv + ": " + v.Text()
				}
			}
			return false, missing
		}}
	}
}

// both is reached when a, then b, are: b's events count only from the
// command after a's.
func both(a, b func() Judge) func() Judge {
	return func() Judge {
		ja, jb := a(), b()
		var done bool
		return judgeFunc{
			after: func(w *engine.World, evs []engine.Event) {
				if done {
					jb.After(w, evs)
					return
				}
				ja.After(w, evs)
				done, _ = ja.Reached(w)
			},
			reached: func(w *engine.World) (bool, string) {
				ok, sa := ja.Reached(w)
				if !ok {
					return false, sa
				}
				ok, sb := jb.Reached(w)
				return ok, sa + "; then " + sb
			},
		}
	}
}

// ruled reports whether e was decided by reason r.
func ruled(e *engine.Event, r engine.Reason) bool { return e.Rule.Has(r) }

// dropped reports whether e is the network losing a message of kind k.
func dropped(e *engine.Event, k engine.MsgKind) bool {
	return e.Kind == engine.EvFault && e.Fault == engine.FaultDropped && e.Message != nil && e.Message.Kind == k
}

// stallJudge watches read_committed consumers: one stalls when its
// position on a partition is that partition's LSO while the high
// watermark is beyond it (an open transaction hides what follows), and
// unstalls when its position later passes that offset.
func stallJudge() Judge {
	type stall struct {
		consumer string
		tp       engine.TP
		at       int64
	}
	var stalled []stall
	var moved string
	return judgeFunc{
		after: func(w *engine.World, _ []engine.Event) {
			for _, c := range w.Consumers() {
				if !c.ReadCommitted || c.Polls == 0 {
					continue
				}
				for _, pos := range c.Positions {
					p := w.Partition(pos.TP)
					if p == nil || pos.Offset < 0 {
						continue
					}
					for _, s := range stalled {
						if moved == "" && s.consumer == c.Name && s.tp == pos.TP && pos.Offset > s.at {
							moved = fmt.Sprintf("%s moved on to %s offset %d", c.Name, pos.TP, pos.Offset)
						}
					}
					if lso := p.LastStableOffset(); pos.Offset == lso && lso < p.HW {
						stalled = append(stalled, stall{c.Name, pos.TP, lso})
					}
				}
			}
		},
		reached: func(*engine.World) (bool, string) {
			switch {
			case len(stalled) == 0:
				return false, "no read_committed consumer that polled waited at an LSO below the high watermark"
			case moved == "":
				s := stalled[0]
				return false, fmt.Sprintf("%s stalled at %s offset %d (the LSO) but never moved past it", s.consumer, s.tp, s.at)
			}
			s := stalled[0]
			return true, fmt.Sprintf("%s stalled at %s offset %d, the LSO, below the high watermark; then %s", s.consumer, s.tp, s.at, moved)
		},
	}
}

// twiceJudge is reached when a read_committed consumer received two
// records made from the same input record (their Source).
func twiceJudge() Judge {
	return judgeFunc{reached: func(w *engine.World) (bool, string) {
		for _, c := range w.Consumers() {
			if !c.ReadCommitted {
				continue
			}
			seen := map[engine.Source]int64{}
			for _, r := range c.Received {
				if r.Source == nil {
					continue
				}
				if first, ok := seen[*r.Source]; ok && committedPast(w, *r.Source) {
					return true, fmt.Sprintf("read_committed consumer %s received the output of input %s@%d twice, at %s offsets %d and %d, and the input's offset is committed",
						c.Name, r.Source.TP, r.Source.Offset, r.TP, first, r.Offset)
				}
				seen[*r.Source] = r.Offset
			}
		}
		return false, "no read_committed consumer received the output of one input record twice"
	}}
}

// committedPast reports whether some group committed an offset past the
// input record src: the record counts as processed.
func committedPast(w *engine.World, src engine.Source) bool {
	for _, g := range w.Groups() {
		if c, ok := g.Committed[src.TP]; ok && c.Offset > src.Offset {
			return true
		}
	}
	return false
}

// deadCoordinatorJudge is reached when a partition leader appends a
// marker that a WriteTxnMarkers from a broker that is down carried.
func deadCoordinatorJudge() Judge {
	down := map[string]bool{}
	var from, found string
	return judgeFunc{
		after: func(_ *engine.World, evs []engine.Event) {
			for i := range evs {
				e := &evs[i]
				switch {
				case e.Kind == engine.EvFault && e.Fault == engine.FaultCrash:
					down[e.Actor] = true
				case e.Kind == engine.EvFault && e.Fault == engine.FaultRestart:
					down[e.Actor] = false
				case e.Kind == engine.EvDeliver && e.Message != nil:
					from = ""
					if e.Message.Kind == engine.MsgWriteTxnMarkers {
						from = e.Message.From
					}
				case e.Kind == engine.EvMarker && e.Code == engine.None && ruled(e, engine.RuleMarkerAccepted) && from != "" && down[from] && found == "":
					found = fmt.Sprintf("%s appended a marker sent by %s, which is down: %s", e.TP, from, e.Line())
				}
			}
		},
		reached: func(*engine.World) (bool, string) {
			if found == "" {
				return false, "no marker from a coordinator that is down was appended"
			}
			return true, found
		},
	}
}

// zombieJudge is reached when a producer got a fencing code while another
// producer of its transactional id holds a newer epoch. It keeps the
// rules that refused with a fencing code, for Compare.
type zombieJudge struct {
	got      map[string][]string
	refusals []string
}

func newZombieJudge() Judge { return &zombieJudge{got: map[string][]string{}} }

// fencing reports whether c is one of the codes a fenced producer gets.
func fencing(c engine.ErrorCode) bool {
	return c == engine.ProducerFenced || c == engine.InvalidProducerEpoch
}

func (z *zombieJudge) After(_ *engine.World, evs []engine.Event) {
	for i := range evs {
		e := &evs[i]
		switch {
		case !fencing(e.Code):
		case e.Kind == engine.EvClientError:
			z.got[e.Actor] = append(z.got[e.Actor], e.Code.String())
		case !e.Rule.IsZero():
			z.refusals = append(z.refusals, fmt.Sprintf("%s by %s [%s]", e.Code, e.Actor, e.Rule.Parts()[0].Reason))
		}
	}
}

func (z *zombieJudge) Reached(w *engine.World) (bool, string) {
	for _, p := range w.Producers() {
		codes := z.got[p.Name]
		if len(codes) == 0 || p.Config.TransactionalID == "" {
			continue
		}
		for _, q := range w.Producers() {
			if q != p && q.Config.TransactionalID == p.Config.TransactionalID && q.ProducerID == p.ProducerID && q.Epoch > p.Epoch {
				return true, fmt.Sprintf("zombie %s (epoch %d) was fenced by %s (epoch %d); it got %s",
					p.Name, p.Epoch, q.Name, q.Epoch, strings.Join(codes, ", "))
			}
		}
	}
	return false, "no producer was fenced by a newer instance of its transactional id"
}

// compareZombies says which rules refused each version's zombie, and
// holds the goal to its point: they differ between the versions.
func compareZombies(runs []Run) (bool, string) {
	var says []string
	differ := false
	for i, r := range runs {
		z := r.judge.(*zombieJudge)
		says = append(says, fmt.Sprintf("Kafka %d refused it with %s", r.Kafka, strings.Join(z.refusals, ", ")))
		if i > 0 && strings.Join(z.refusals, ",") != strings.Join(runs[0].judge.(*zombieJudge).refusals, ",") {
			differ = true
		}
	}
	if !differ {
		return false, "both versions refused the zombie alike: " + strings.Join(says, "; ")
	}
	return true, strings.Join(says, "; ")
}

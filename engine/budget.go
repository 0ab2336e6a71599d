package engine

import (
	"sort"
	"strconv"
	"strings"
)

// Limits bound the work of one action and the history of one world, so
// that a scenario that never settles (a request retried for as long as a
// partition has no leader, an advance over years of periodic checks) stops
// with an error that names what kept firing, instead of filling memory.
// The defaults are far above what a lesson or a hand-written scenario
// does: a lesson step takes tens of steps, the largest scenario a few
// thousand. A zero field means no limit, for a benchmark that builds a
// world of millions of events on purpose.
type Limits struct {
	// StepsPerAction bounds the scheduled items (deliveries and timers)
	// one action (step N, run, advance) may take.
	StepsPerAction int64
	// EventsPerAction bounds the events one action may add.
	EventsPerAction int
	// Events bounds the events one world holds, over all its actions.
	Events int
}

// DefaultLimits: two million steps is about a second of work. An event
// holds about 200 bytes (more with the garbage collector's headroom), so a
// million events is some 200 MB and four million, the most one scenario
// may hold, under a gigabyte; the consume-transform-produce of 32,000
// records makes about 500,000.
func DefaultLimits() Limits {
	return Limits{StepsPerAction: 2_000_000, EventsPerAction: 1_000_000, Events: 4_000_000}
}

// BudgetError is an action stopped by a limit. Busiest says what the
// scheduler was doing: the kinds of items it took most often.
type BudgetError struct {
	Action  string // the action's canonical text
	Limit   string // which limit: "steps for one action", ...
	Max     int64
	Steps   int64 // items the action took
	Busiest []BusyItem
}

// BusyItem is one kind of scheduled item and how often an action took it.
type BusyItem struct {
	What  string // `timer "request.timeout.ms" of broker-1`, "WriteTxnMarkers broker-1 -> broker-2"
	Count int64
}

func (e *BudgetError) Error() string {
	var b strings.Builder
	b.WriteString(e.Action)
	b.WriteString(": stopped at ")
	b.WriteString(strconv.FormatInt(e.Max, 10))
	b.WriteByte(' ')
	b.WriteString(e.Limit)
	b.WriteString(" (after ")
	b.WriteString(strconv.FormatInt(e.Steps, 10))
	b.WriteString(" steps)")
	if len(e.Busiest) > 0 {
		b.WriteString("; what kept firing: ")
		for i, x := range e.Busiest {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(x.What)
			b.WriteString(" (")
			b.WriteString(strconv.FormatInt(x.Count, 10))
			b.WriteString(" times)")
		}
	}
	b.WriteString("; is something retrying without end, or is the clock advanced too far?")
	return b.String()
}

// loopKinds is one counter per message kind and per timer kind.
const loopKinds = int(msgKindCount) + len(timerNames)

// actionBudget is the work of the action being applied. It lives in the
// World as a plain value (a clone taken between actions copies a few
// counters) and is reset by every Apply; steps taken outside Apply (a test
// stepping a world by hand) are not limited.
type actionBudget struct {
	on     bool
	start  int    // len(Events) when the action began
	action Action // worded only when a limit stops it
	steps  int64
	counts [loopKinds]int64
	err    *BudgetError
}

// beginAction starts counting an action's work.
func (w *World) beginAction(a Action) {
	w.act = actionBudget{on: true, start: w.events.len(), action: a}
}

// endAction stops counting and returns the error of a limit the action
// reached, or nil. An action that takes no steps can still add events (a
// send with many values, an inject with copies), so the event limits are
// checked here once more.
func (w *World) endAction() error {
	w.withinBudget()
	err := w.act.err
	w.act = actionBudget{}
	if err != nil {
		return err
	}
	return nil
}

// withinBudget reports whether the action being applied may take another
// step. It is the one place the limits are checked: World.Step asks it
// before each step, and once it says no it keeps saying no, so step N,
// run and advance all stop there.
func (w *World) withinBudget() bool {
	b := &w.act
	if !b.on {
		return true
	}
	if b.err != nil {
		return false
	}
	l := w.config.Limits
	switch {
	case l.StepsPerAction > 0 && b.steps >= l.StepsPerAction:
		b.err = w.budgetError("steps for one action", l.StepsPerAction)
	case l.EventsPerAction > 0 && w.events.len()-b.start >= l.EventsPerAction:
		b.err = w.budgetError("events for one action", int64(l.EventsPerAction))
	case l.Events > 0 && w.events.len() >= l.Events:
		b.err = w.budgetError("events in one scenario", int64(l.Events))
	}
	return b.err == nil
}

// countStep tallies one executed item by its kind.
func (w *World) countStep(it *item) {
	if !w.act.on {
		return
	}
	w.act.steps++
	w.act.counts[loopKind(it)]++
}

func loopKind(it *item) int {
	if it.Kind == itemDeliver {
		return int(it.Msg.Kind)
	}
	return int(msgKindCount) + int(it.Timer.Kind)
}

// budgetError names the two kinds of item the action took most often. The
// item that keeps coming back is most likely still queued (a timer
// re-armed, a request resent), so the earliest queued item of each kind
// names who owns the timer or sends the message.
func (w *World) budgetError(limit string, max int64) *BudgetError {
	b := &w.act
	e := &BudgetError{Action: b.action.String(), Limit: limit, Max: max, Steps: b.steps}
	kinds := make([]int, 0, loopKinds)
	for k, n := range b.counts {
		if n > 0 {
			kinds = append(kinds, k)
		}
	}
	sort.SliceStable(kinds, func(i, j int) bool { return b.counts[kinds[i]] > b.counts[kinds[j]] })
	if len(kinds) > 2 {
		kinds = kinds[:2]
	}
	for _, k := range kinds {
		e.Busiest = append(e.Busiest, BusyItem{What: w.describeKind(k), Count: b.counts[k]})
	}
	return e
}

func (w *World) describeKind(k int) string {
	var first *item
	for i := range w.queue.len() {
		if it := w.queue.at(i); !w.isCancelled(it) && loopKind(it) == k && (first == nil || it.less(first)) {
			first = it
		}
	}
	if k < int(msgKindCount) {
		s := MsgKind(k).String()
		if first != nil {
			s += " " + first.Msg.From + " -> " + first.Msg.To
		}
		return s
	}
	s := "timer " + strconv.Quote(TimerKind(k-int(msgKindCount)).String())
	if first != nil {
		s += " of " + first.Timer.Owner
	}
	return s
}

package adapt

import (
	"eoslab/engine"
	"eoslab/views"
)

// logEvents returns the last n events of w as values for the learner's
// event log: the same events as the frame's canonical lines, in parts, so
// the views can leave out the scenario's own lines without reading the
// canonical text back. The rule is in words (Event.RuleWords). The text is the engine's
// without message numbers (Event.Unnumbered): the learner follows messages
// on the Timeline, and the detail view has the numbers.
func logEvents(w *engine.World, n int) []views.LogEvent {
	evs := w.Events[max(0, len(w.Events)-n):]
	out := make([]views.LogEvent, len(evs))
	for i := range evs {
		e := &evs[i]
		out[i] = views.LogEvent{Time: e.Time, Actor: e.Actor, Text: e.Unnumbered(), Why: e.RuleWords(),
			Action: e.Kind == engine.EvAction, Violation: e.Kind == engine.EvViolation}
	}
	return out
}

package adapt

import (
	"eoslab/engine"
	"eoslab/views"
)

// logEvent is an event as a value for the learner's event log: the same
// event as the frame's canonical line, in parts, so the views can leave out
// the scenario's own lines without reading the canonical text back. The
// text is the engine's without message numbers (Event.Unnumbered): the
// learner follows messages on the Timeline, and the detail view has the
// numbers. The rule is in words (Event.RuleWords).
func logEvent(e *engine.Event) views.LogEvent {
	return views.LogEvent{Time: e.Time, Actor: e.Actor, Text: e.Unnumbered(), Why: e.RuleWords(),
		Action: e.Kind == engine.EvAction, Violation: e.Kind == engine.EvViolation}
}

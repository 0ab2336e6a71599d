package adapt

import (
	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/views/model"
)

// logEvent is an event as a value for the learner's event log: the same
// event as the frame's canonical line, in parts, so the views can leave out
// the scenario's own lines without reading the canonical text back. The
// text is the engine's without message numbers (Event.Unnumbered): the
// learner follows messages on the Timeline, and the detail view has the
// numbers. The rule is in words (Event.RuleWords).
//
// A message sent is told from its typed fields, with the sender left out
// because the line starts with it: "A sends Produce to broker-3: t-0 ...",
// not the transcript's "A sends A -> broker-3 Produce t-0 ...".
func logEvent(e *engine.Event) model.LogEvent {
	text := e.Unnumbered()
	if m := e.Message; e.Kind == engine.EvSend && m != nil && m.From == e.Actor {
		text = "sends " + m.Kind.String() + " to " + m.To + ": " + m.Detail()
	}
	return model.LogEvent{Time: e.Time, Actor: e.Actor, Text: text, Why: e.RuleWords(),
		Action: e.Kind == engine.EvAction, Violation: e.Kind == engine.EvViolation}
}

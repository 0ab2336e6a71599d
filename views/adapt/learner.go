package adapt

import (
	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/views/model"
)

// eventView is event i of w as a frame carries it: once, in parts, from
// which the views make both the canonical line (EventLine.Line, as
// engine.Event.Line) and the learner's (EventLine.Learner). The text is
// the engine's describe once, without the message number
// (Event.Described), with where the number goes: nothing reads the text
// back. The rule is kept both as cited (Rule.String, for the canonical
// line) and in words (Event.RuleWords, for the learner).
//
// A message the actor sends is told to the learner from its typed fields,
// with the sender left out because the line starts with it: "A sends
// Produce to broker-3: t-0 ...", not the transcript's "A sends A ->
// broker-3 Produce t-0 ..."; the body is the end of the text (bodyAt).
func eventView(w *engine.World, i int) model.EventLine {
	e := w.EventAt(i)
	text, numAt, bodyAt := e.Described()
	v := model.EventLine{Time: e.Time, Actor: e.Actor, Text: text, Msg: e.MsgID(), NumAt: int32(numAt), BodyAt: int32(bodyAt),
		Why: e.RuleWords(), Action: e.Kind == engine.EvAction, Violation: e.Kind == engine.EvViolation, Parts: true}
	if !e.Rule.IsZero() {
		v.Rule = e.Rule.String()
	}
	if m := e.Message; e.Kind == engine.EvSend && m != nil && m.From == e.Actor && bodyAt >= 0 {
		v.SendKind, v.SendTo = m.Kind.String(), m.To
	}
	return v
}

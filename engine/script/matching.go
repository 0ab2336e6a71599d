package script

import "github.com/eoslab/eoslab/engine"

// Matching is the events of w that an event check's filters select in its
// scope, newest first: what "expect event" found, for a caller that judges
// those events elsewhere (verify compares them with a real broker's
// facts). A "no event" check's Matching is what broke it.
func Matching(w *engine.World, x EventCheck) []engine.Event {
	k := checker{w: w}
	var out []engine.Event
	k.each(k.scope(x), eventKindOf(x.Kind), x.Kind == "", func(i int) bool {
		if e := w.EventAt(i); x.matches(&e) {
			out = append(out, e)
		}
		return true
	})
	return out
}

package engine

import (
	"math/rand"
	"testing"
)

// An event's text is made when something shows it, from the typed fields
// and the message it is about; it must read the same on the step it
// happened and at any later step (a message a later step changes would
// change the text of earlier events). The swarm's workloads, safe and
// unsafe, check that for every event.
func TestEventTextIsStable(t *testing.T) {
	t.Parallel()
	for _, setup := range append([]swarmSetup{safeSetup}, unsafeSetups...) {
		for seed := int64(1); seed <= 40; seed++ {
			w := New(DefaultConfig())
			for _, a := range setup.setup {
				w.Apply(a)
			}
			r := rand.New(rand.NewSource(seed))
			var first []string
			for n := 0; n < 300; n++ {
				w.Apply(randomAction(w, r, setup, n))
				for i := len(first); i < w.EventCount(); i++ {
					e := w.EventAt(i)
					first = append(first, e.Text()+"|"+e.Unnumbered())
				}
			}
			for i, s := range first {
				e := w.EventAt(i)
				if now := e.Text() + "|" + e.Unnumbered(); now != s {
					t.Fatalf("seed %d event %d: text was %q, now %q", seed, i, s, now)
				}
			}
		}
	}
}

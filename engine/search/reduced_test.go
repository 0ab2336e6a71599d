package search_test

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine/search"
	"github.com/eoslab/eoslab/views/adapt"
	"github.com/eoslab/eoslab/views/model"
)

// The search's economies (a pooled world per depth, the bound's worlds
// checked but not hashed) find what the plain search finds: the same
// first shortest schedule, or none, from every preset with each
// safeguard off in turn (and with all on), under Kafka 3 and 4. Plain
// go test compares to depth 3; .ci/run sets EOSLAB_REFERENCE_DEPTH=4
// (about 19 s of CPU more).
func TestFindFindsWhatTheReferenceFinds(t *testing.T) {
	depth := 3
	if v := os.Getenv("EOSLAB_REFERENCE_DEPTH"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("EOSLAB_REFERENCE_DEPTH=%q: want a depth of at least 1", v)
		}
		depth = n
	}
	found := 0
	for _, p := range adapt.SandboxPresets() {
		for _, kafka := range []int{3, 4} {
			for g := model.SafeguardID(0); g <= model.NumGuards; g++ {
				x, err := adapt.OpenSandboxKafka(p.Name, kafka)
				if err != nil {
					t.Fatal(err)
				}
				if g < model.NumGuards {
					if _, err := x.Toggle(g); err != nil {
						continue // not a switch of this preset
					}
				}
				o := search.Options{Depth: depth, MaxStates: 10000000, Sends: 2}
				got, want := search.Find(x.World(), o), search.FindReference(x.World(), o)
				if got.Found != want.Found || schedule(got) != schedule(want) || got.Depth != want.Depth {
					t.Errorf("%s, Kafka %d, safeguard %d off: Find %v %q, the plain search %v %q",
						p.Name, kafka, g, got.Found, schedule(got), want.Found, schedule(want))
				}
				if want.Found {
					found++
					// A bound of the schedule's length: the break is at
					// the bound itself, a world the search checks but
					// does not hash.
					o.Depth = len(want.Schedule)
					if got := search.Find(x.World(), o); schedule(got) != schedule(want) {
						t.Errorf("%s, Kafka %d, safeguard %d off, depth %d: Find %q, the plain search %q",
							p.Name, kafka, g, o.Depth, schedule(got), schedule(want))
					}
				}
			}
		}
	}
	if found == 0 {
		t.Fatal("no case breaks: the comparison shows nothing")
	}
	t.Logf("%d cases break within %d actions", found, depth)
}

func schedule(r search.Result) string {
	var b strings.Builder
	for _, a := range r.Schedule {
		b.WriteString(a.String() + "; ")
	}
	return b.String()
}

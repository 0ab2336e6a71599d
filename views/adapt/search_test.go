package adapt

import (
	"os"
	"strconv"
	"testing"

	"github.com/eoslab/eoslab/engine/search"
)

// safeDepth is how deep TestNoScheduleBreaksASafeguardedPreset searches:
// 3 in the default suite, EOSLAB_BREAK_DEPTH (8 for the claim)
// when set; the full depth takes minutes per preset.
func safeDepth(t *testing.T) int {
	s := os.Getenv("EOSLAB_BREAK_DEPTH")
	if s == "" {
		return 3
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		t.Fatalf("EOSLAB_BREAK_DEPTH=%q is not a depth", s)
	}
	return n
}

// With every safeguard on, no schedule of the waiting world's choices
// (deliveries in any order, drops, duplicates, delays, client calls,
// crashes and pauses) breaks any monitor from any preset, under Kafka 3
// and Kafka 4.
func TestNoScheduleBreaksASafeguardedPreset(t *testing.T) {
	depth := safeDepth(t)
	for _, p := range presets {
		for _, kafka := range []int{3, 4} {
			x, err := OpenSandboxKafka(p.name, kafka)
			if err != nil {
				t.Fatal(err)
			}
			r := search.Find(x.World(), search.Options{Depth: depth, MaxStates: 50000000, Sends: 2})
			if r.Found {
				t.Errorf("%s under Kafka %d: a schedule breaks a monitor: %v", p.name, kafka, r.Schedule)
				continue
			}
			if r.Full {
				t.Errorf("%s under Kafka %d: the table filled up at %d states", p.name, kafka, r.States)
			}
			t.Logf("%s, Kafka %d: nothing breaks within %d actions; %d states, %d more checked at the bound, %d moves tried",
				p.name, kafka, depth, r.States, r.Leaves, r.Tried)
		}
	}
}

// The search above can fail: with idempotence off, the same search from
// the same preset finds a record written twice within its default depth.
func TestSearchBreaksThePresetWithASafeguardOff(t *testing.T) {
	x, err := OpenSandbox("idempotent")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.Toggle(0); err != nil { // enable.idempotence
		t.Fatal(err)
	}
	r := search.Find(x.World(), search.Options{Depth: 3, MaxStates: 1000000, Sends: 2})
	got := ""
	for _, a := range r.Schedule {
		got += a.String() + "; "
	}
	if want := "P send t-0 p1; duplicate m1; advance 30000; "; !r.Found || got != want {
		t.Fatalf("schedule %q, want %q (%+v)", got, want, r)
	}
}

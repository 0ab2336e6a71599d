package adapt

import (
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine/script"
	"github.com/eoslab/eoslab/views/model"
)

func execAll(t *testing.T, x *Sandbox, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if _, err := x.Exec(l); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
	}
}

// replays reports the error 'eoslab run' of the scenario would stop at.
func replays(t *testing.T, scn string) {
	t.Helper()
	cmds, err := script.Parse("saved.scn", []byte(scn))
	if err != nil {
		t.Fatalf("the saved file does not parse: %v\n%s", err, scn)
	}
	if err := script.NewRunner().Play(cmds, func(script.Outcome) error { return nil }); err != nil {
		t.Fatalf("the saved file does not replay: %v\n%s", err, scn)
	}
}

// Switching idempotence off replays each action on the message of the same
// role: the Produce of p1 and its lost answer keep their meaning though
// their numbers change (no InitProducerId is sent), and the deliveries of
// InitProducerId and its answer have no counterpart and are said to be
// left out.
func TestToggleReplaysByRole(t *testing.T) {
	x, err := OpenSandbox("idempotent")
	if err != nil {
		t.Fatal(err)
	}
	// m1 InitProducerId, m2 its answer, m3 the Produce of p1, m4 its answer.
	execAll(t, x, "P send t-0 p1", "deliver m1", "deliver m2", "deliver m3", "drop m4")
	msg, err := x.Toggle(model.GuardIdempotence)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(x.branch().lines(), "; ")
	if want := "P send t-0 p1; deliver m1; drop m2"; got != want {
		t.Fatalf("replayed branch: %s, want %s (%s)", got, want, msg)
	}
	for _, w := range []string{"deliver m1 (no counterpart of P's InitProducerId)", "deliver m2 (no counterpart of InitProducerIdResponse to P's InitProducerId)"} {
		if !strings.Contains(msg, w) {
			t.Errorf("the message does not say %q: %s", w, msg)
		}
	}
	// Back on: the lost answer is the ProduceResponse again, never the
	// InitProducerIdResponse that m2 names in that world.
	if _, err := x.Toggle(model.GuardIdempotence); err != nil {
		t.Fatal(err)
	}
	for _, l := range x.branch().lines() {
		if l == "drop m2" {
			t.Fatalf("idempotence back on drops m2, the InitProducerIdResponse: %v", x.branch().lines())
		}
	}
	replays(t, x.Scenario())
}

// A branch that holds a line the engine refuses (a file written by hand)
// saves it as a comment, so the saved file replays.
func TestSavedFileNeverHoldsARefusedLine(t *testing.T) {
	src := "topic t\nproducer P\nP send t-0 a\ndeliver m9\ndeliver m1\n"
	x, err := OpenSandboxFile("hand.scn", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	scn := x.Scenario()
	if !strings.Contains(scn, "# refused here, left out: deliver m9\n") {
		t.Fatalf("the refused line is not left out:\n%s", scn)
	}
	replays(t, scn)
}

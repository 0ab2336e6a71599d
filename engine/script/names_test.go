package script

import (
	"testing"

	"github.com/eoslab/eoslab/engine"
)

// The language takes Kafka's names from the engine (names.go). These checks
// hold the places that turn a name back into the engine's value to that.
func TestNamesRoundTrip(t *testing.T) {
	for i, k := range eventKinds {
		if got := eventKindOf(k); got != engine.EventKind(i+1) || got.String() != k {
			t.Errorf("event kind %s reads back as %v", k, got)
		}
	}
	for _, e := range engine.ErrorCodes() {
		if msg := errorName(nil, e.Name()); msg != "" {
			t.Errorf("error %s is refused: %s", e.Name(), msg)
		}
		if msg := errorName(nil, e.String()); msg != "" {
			t.Errorf("error %s is refused: %s", e, msg)
		}
	}
	if msg := errorName(nil, "45"); msg != "expected an error name, not a code: OUT_OF_ORDER_SEQUENCE_NUMBER" {
		t.Errorf("a bare code: %q", msg)
	}
}

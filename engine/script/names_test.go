package script

import (
	"sort"
	"strings"
	"testing"

	"eoslab/engine"
)

// The parser keeps Kafka's names as data of its own (names.go) so that it
// need not import the engine. This test is the one place that compares the
// two, so a name added to or renamed in the engine cannot be silently
// rejected, or wrongly accepted, by `eoslab check`.
func TestNamesMatchEngine(t *testing.T) {
	for i, k := range messageKinds {
		if got, ok := engine.MsgKindByName(k); !ok || int(got) != i {
			t.Errorf("message kind %s: engine has %v, %v", k, got, ok)
		}
	}
	if _, ok := engine.MsgKindByName("x"); ok {
		t.Error("engine accepts an unknown message kind")
	}
	for i, s := range producerStates {
		if got, ok := engine.ClientStateByName(s); !ok || int(got) != i {
			t.Errorf("producer state %s: engine has %v, %v", s, got, ok)
		}
	}
	if n := len(producerStates); engine.ClientState(n-1).String() != producerStates[n-1] {
		t.Error("producer states differ in number")
	}
	for i, s := range txnStates {
		if got, ok := engine.TxnStateByName(s); !ok || int(got) != i {
			t.Errorf("txn state %s: engine has %v, %v", s, got, ok)
		}
	}
	if _, ok := engine.TxnStateByName(engine.TxnState(len(txnStates)).String()); ok {
		t.Error("the engine has more txn states than names.go")
	}
	mine := map[string]bool{}
	for _, e := range kafkaErrors {
		mine[e.name] = true
		if _, ok := engine.ErrorByName(e.name); !ok {
			t.Errorf("error %s is unknown to the engine", e.name)
		}
	}
	// Every name the engine can report must be one an expectation accepts.
	for code := -1; code < 2000; code++ {
		name := engine.ErrorCode(code).Name()
		if !strings.HasPrefix(name, "ERROR_") && !mine[name] {
			t.Errorf("engine error %s (%d) is missing from names.go", name, code)
		}
	}
	for i, k := range eventKinds {
		if got := engine.EventKind(i + 1).String(); got != k {
			t.Errorf("event kind %d: names.go has %s, the engine %s", i+1, k, got)
		}
	}
	if got := engine.EventKind(len(eventKinds) + 1).String(); !strings.HasPrefix(got, "kind") {
		t.Errorf("the engine has more event kinds than names.go: %s", got)
	}
	inv := append([]string(nil), invariants...)
	eng := append([]string(nil), engine.InvariantNames...)
	sort.Strings(inv)
	sort.Strings(eng)
	if strings.Join(inv, ",") != strings.Join(eng, ",") {
		t.Errorf("invariants: names.go has %v, the engine %v", inv, eng)
	}
}

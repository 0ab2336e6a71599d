package verify

import (
	"testing"

	"github.com/eoslab/eoslab/engine/script"
)

// planMirror mirrors a file whose producer bumps its epoch the Java way
// (KIP-360), and not a file without a bump, one with a consumer, or one
// whose inject names the producer id before the producer has it (the
// broker gives its own ids).
func TestPlanMirror(t *testing.T) {
	bump := `topic t
producer a transactional.id=m-1
a initTransactions
run
a beginTransaction
a send t-0 v0
run
inject batch t-0 pid=1000 epoch=0 seq=1 count=2 transactional
run
a send t-0 v1
run
a abortTransaction
run
`
	for _, tc := range []struct {
		name, src string
		want      bool
	}{
		{"a KIP-360 bump", bump, true},
		{"no bump", "topic t\nproducer a transactional.id=m-1\na initTransactions\nrun\na beginTransaction\na send t-0 v0\na commitTransaction\nrun\n", false},
		{"a consumer", bump + "consumer c\nc poll\nrun\n", false},
		{"an idempotent bump", "topic t\nproducer p\np send t-0 a\nrun\ninject batch t-0 pid=1000 epoch=0 seq=1 count=2\nrun\np send t-0 b\nrun\n", true},
		{"an inject before the id is given", "topic t\nproducer p\ninject batch t-0 pid=1000 epoch=0 seq=5 values=z\np send t-0 a\nrun\n", false},
	} {
		cmds, err := script.Parse("t.scn", []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		if got := planMirror(cmds, 1); got != tc.want {
			t.Errorf("%s: mirrored %v, want %v", tc.name, got, tc.want)
		}
	}
	// A transaction of offsets alone: its EndTxn v5 bumps the epoch under
	// KIP-890 part 2 (mirrored), not under the classic protocol.
	offsets := "topic t\nproducer p transactional.id=m-2\np initTransactions\nrun\np beginTransaction\np sendOffsetsToTransaction g t-0=7\np commitTransaction\nrun\n"
	cmds, err := script.Parse("t.scn", []byte(offsets))
	if err != nil {
		t.Fatal(err)
	}
	if !planMirror(cmds, 2) || planMirror(cmds, 1) {
		t.Errorf("offsets alone: mirrored under tv2 %v, under tv1 %v; want true, false", planMirror(cmds, 2), planMirror(cmds, 1))
	}
}

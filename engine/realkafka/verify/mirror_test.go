package verify

import (
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine/script"
)

// planMirror mirrors a file whose producer bumps its epoch the Java way
// (KIP-360) or retries a batch, and not a file without either, one with
// a processor or a consumer that acts while the producer still sends, or
// one whose inject names the producer id before the producer has it (the
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
		{"a consumer that polls while the producer still sends", "consumer c\n" + strings.Replace(bump, "a abortTransaction", "c poll\na abortTransaction", 1), false},
		{"a consumer that polls after the producer's last request", bump + "consumer c\nc poll\nrun\n", true},
		{"a processor", strings.Replace(bump, "topic t\n", "topic t\ntopic u\nprocessor x input=t output=u group.id=g transactional.id=px\n", 1), false},
		{"a retry of an idempotent batch", "topic t\nproducer p request.timeout.ms=2000\np send t-0 a\nrun\np send t-0 b\ndrop Produce from=p\nrun\n", true},
		{"a reorder of an idempotent producer's requests", "topic t partitions=2\nproducer p\np send t-0 a\np send t-1 b\nrun\np send t-0 c\np send t-1 d\nreorder Produce partition=t-0 Produce partition=t-1\nrun\n", true},
		{"one batch each to two partitions, both at seq 0", "topic t partitions=2\nproducer p\np send t-0 a\np send t-1 b\nrun\n", false},
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

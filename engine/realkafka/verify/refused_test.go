package verify

import (
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// An expert EndTxn that reaches the coordinator while its commit's markers
// are in flight is refused (CONCURRENT_TRANSACTIONS): planRefusals finds
// it by line. An accepted abort at the current epoch is not listed.
func TestPlanRefusals(t *testing.T) {
	src := `topic t
producer a transactional.id=rf-1
a initTransactions
run
a beginTransaction
a send t-0 v0
run
a commitTransaction
deliver EndTxn
step
inject EndTxn rf-1 pid=1000 epoch=0 result=commit
run
a beginTransaction
a send t-0 v1
run
inject EndTxn rf-1 pid=1000 epoch=EPOCH result=abort
run
`
	for _, tv := range []int{1, 2} {
		epoch := "0"
		if tv == 2 {
			epoch = "1" // the commit bumped it (KIP-890 part 2)
		}
		cmds, err := script.Parse("t.scn", []byte(strings.ReplaceAll(src, "EPOCH", epoch)))
		if err != nil {
			t.Fatal(err)
		}
		got := planRefusals(cmds, tv)
		if r, ok := got[11]; !ok || r.code != engine.ConcurrentTransactions {
			t.Errorf("tv %d: line 11: %+v (found %v), want CONCURRENT_TRANSACTIONS", tv, r, ok)
		}
		if r, ok := got[16]; ok {
			t.Errorf("tv %d: the accepted abort of line 16 is listed as refused (%v)", tv, r.code)
		}
	}
}

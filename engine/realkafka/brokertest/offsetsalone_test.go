package brokertest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine/realkafka/verify"
)

// TestVerifyOffsetsAloneKgo: a transaction of offsets and no send by a
// kgo producer (the file's consumer polls before the producer's requests,
// so it is not mirrored). kgo
// sends no EndTxn for it; the driver sends the Java client's raw. Under
// KIP-890 part 2 that EndTxn v5 bumps the epoch behind kgo's back: the
// facts after it are compared (the producer's epoch from the EndTxn
// answer, as the Java client takes it), and the producer's next call
// stops the file, saying why.
func TestVerifyOffsetsAloneKgo(t *testing.T) {
	tv := clusterTV(t)
	epoch := 0
	if tv >= 2 {
		epoch = 1
	}
	scn := fmt.Sprintf(`topic t
producer p transactional.id=oak
consumer c group.id=oak-group
p initTransactions
run
c poll
run
p beginTransaction
p sendOffsetsToTransaction oak-group t-0=7
p commitTransaction
run
expect group oak-group offset t-0 7
expect producer p state READY
expect producer p epoch %d
expect txn oak epoch %d
p beginTransaction
p send t-0 v
run
expect partition t-0 records 1
`, epoch, epoch)
	s, out := verifyScenario(t, "offsets-alone-kgo.scn", scn)
	if tv < 2 {
		if s.Count(verify.Agree) != 5 || len(s.Rows) != 5 {
			t.Errorf("want 5 agree of 5:\n%s", out)
		}
		return
	}
	if s.Count(verify.Agree) != 4 || s.Count(verify.NotPlayed) != 1 || len(s.Rows) != 5 {
		t.Errorf("want 4 agree and 1 not played of 5:\n%s", out)
	}
	if !strings.Contains(out, "bumped the producer's epoch on the broker") {
		t.Errorf("the row after the producer's next call does not say why it is not played:\n%s", out)
	}
}

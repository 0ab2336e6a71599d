package lessons

import (
	"testing"

	"github.com/eoslab/eoslab/engine/script"
)

// What the corrected lesson texts say holds in the engine, under both
// versions, at the step that says it:
//   - zombie step 3: while PrepareAbort is being written, the coordinator
//     already holds the bumped epoch in memory (Kafka's endTransaction sets
//     it before the append), and the fence is not durable yet;
//   - zombie step 5: t-0's leader keeps producer 1000's entry, with the
//     ABORT marker's epoch, and only its batch cache is emptied;
//   - capstone step 5: the deploy's rebalance gives the group a new
//     generation before the new version reads.
func TestCorrectedTextsHoldInTheEngine(t *testing.T) {
	for _, tc := range []struct {
		lesson  string
		step    int
		expects []string
	}{
		{"zombie", 3, []string{"txn payment-processor-1 state PrepareEpochFence", "txn payment-processor-1 epoch 1",
			"producer B state INITIALIZING"}},
		{"zombie", 5, []string{"partition t-0 producer 1000 epoch=1", "partition t-0 producer 1000 cached=0"}},
		{"capstone-payments", 5, []string{"group ledger-svc generation 3"}},
	} {
		b, err := find(tc.lesson)
		if err != nil {
			t.Fatal(err)
		}
		l := b.lesson
		for _, k := range Versions {
			p := NewPlayer(l.ForKafka(k))
			for p.Pos() < tc.step {
				if !p.Next() {
					p.Answer(p.Correct(p.Pos()))
				}
			}
			d := script.NewDecls()
			for _, c := range l.Setup {
				if _, err := script.ParseLine("setup", 1, c.Text, d); err != nil {
					t.Fatal(err)
				}
			}
			for _, e := range tc.expects {
				c, err := script.ParseLine("test", 1, "expect "+e, d)
				if err != nil {
					t.Fatalf("%s: %v", e, err)
				}
				ok, found, err := script.Check(p.World(), *c)
				if err != nil || !ok {
					t.Errorf("%s step %d under Kafka %d: %s does not hold: found %s %v", tc.lesson, tc.step, k, e, found, err)
				}
			}
		}
	}
}

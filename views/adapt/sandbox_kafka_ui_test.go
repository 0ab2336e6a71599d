package adapt

import (
	"strings"
	"testing"

	"github.com/eoslab/eoslab/views/model"
)

// TestSandboxKafkaSwitch: v plays the branch again under the other Kafka
// as a new branch, by role; an action whose message that protocol never
// sends is left out and said so; C then compares the two; v again comes
// back to Kafka 3. Before, v did nothing.
func TestSandboxKafkaSwitch(t *testing.T) {
	b := newSbox(t, "zombie", 80, 24)
	b.press("i", "R", "b", "s")
	// Kafka 3's producer adds the partition with AddPartitionsToTxn;
	// Kafka 4's (transaction.version=2) has no such request.
	b.selectWaiting("AddPartitionsToTxn", func(it model.WaitItem) bool {
		return it.Kind == "AddPartitionsToTxn" && strings.HasPrefix(it.Text, "A -> ")
	})
	b.press("d", "R", "z", "]", "i", "R", "[", "z", "m", "R")
	n := b.sb().Len()
	b.press("v")
	x := b.sb()
	v := b.screen()
	if x.Kafka() != 4 || len(x.Branches()) != 2 || x.Branch() != 1 {
		t.Fatalf("v: Kafka %d, %d branches, on %d", x.Kafka(), len(x.Branches()), x.Branch())
	}
	if !strings.HasSuffix(x.Title(), " (Kafka 4)") {
		t.Errorf("the title does not say Kafka 4: %q", x.Title())
	}
	for _, want := range []string{"branch 2/2", "Kafka 4 (transaction.version=2)"} {
		if !strings.Contains(v, want) {
			t.Errorf("after v the screen lacks %q:\n%s", want, v)
		}
	}
	if !strings.Contains(x.Scenario(), "\nconfig transaction.version=2\n") || x.Len() >= n {
		t.Errorf("the Kafka 4 branch has %d of %d steps:\n%s", x.Len(), n, x.Scenario())
	}
	if !strings.Contains(b.model().Flash(), "no counterpart, left out: deliver m") || !strings.Contains(b.model().Flash(), "AddPartitionsToTxn") {
		t.Errorf("v does not say which action has no counterpart: %q", b.model().Flash())
	}
	if err := playFile([]byte(x.Scenario())); err != nil {
		t.Errorf("the Kafka 4 branch does not replay: %v\n%s", err, x.Scenario())
	}
	// A is fenced in both; the codes differ. C shows where.
	b.press("C", "enter")
	if got := b.model().ScreenName(); got != "sandbox comparing" {
		t.Fatalf("C after v: %s", got)
	}
	c, _ := x.Compare(0, 1)
	if d := c.Decision; d == nil || d.StepA != 1 || !strings.Contains(d.DecisionB, "transaction.version=2") {
		t.Errorf("the first decision that differs is not initTransactions reading the protocol: %+v", d)
	}
	if len(c.Missing) != 1 || !strings.HasPrefix(c.Missing[0], "deliver m") {
		t.Errorf("the delivery of AddPartitionsToTxn is not the one step with no counterpart: %q", c.Missing)
	}
	b.press("esc", "v")
	if x.Kafka() != 3 || strings.Contains(x.Scenario(), "transaction.version") || len(x.Branches()) != 3 {
		t.Errorf("v again: Kafka %d, %d branches\n%s", x.Kafka(), len(x.Branches()), x.Scenario())
	}
	// The file of every branch keeps each branch's Kafka.
	all := x.ScenarioAll()
	y, err := OpenSandboxFile("kafka.scn", []byte(all))
	if err != nil {
		t.Fatalf("reopen: %v\n%s", err, all)
	}
	for i, want := range []int{3, 4, 3} {
		y.Switch(i)
		if y.Kafka() != want {
			t.Errorf("reopened, branch %d plays Kafka %d, not %d", i+1, y.Kafka(), want)
		}
	}
}

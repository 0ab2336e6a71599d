package verify

import (
	"context"
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// TestCoordPrefix: the searched prefix puts every id on the partition the
// simulation gives the bare id, under Java's hash of the whole prefixed
// id; with a bound too small for the ids it says so.
func TestCoordPrefix(t *testing.T) {
	ids := []string{"payment-processor-1", "payment-processor-2", "my-transactional-id", "payment-processor-producer", "polygenelubricants"}
	for n := 1; n <= len(ids); n++ {
		p, ok := coordPrefix(ids[:n], coordPlaceTries)
		if !ok {
			t.Fatalf("%d ids: no prefix", n)
		}
		for _, id := range ids[:n] {
			if got, want := engine.PartitionFor(p+id, simInternalPartitions), engine.PartitionFor(id, simInternalPartitions); got != want {
				t.Errorf("prefix %q: %s on partition %d, the simulation's %d", p, id, got, want)
			}
		}
		for _, r := range p {
			if !strings.ContainsRune(prefixAlphabet+"-", r) {
				t.Errorf("prefix %q has %q, not legal in a topic name", p, r)
			}
		}
	}
	// Eight ids of different lengths, each on partition 0..7: beyond
	// 36 tries.
	many := []string{"a", "bb", "ccc", "dddd", "eeeee", "ffffff", "ggggggg", "hhhhhhhh"}
	if p, ok := coordPrefix(many, 36); ok {
		t.Errorf("%d ids placed within 36 tries by %q", len(many), p)
	}
}

// TestCoordinatorRowOnOneBroker: on a broker verify does not own, a
// coordinator row is judged when the search placed its id and is not
// played (saying why) when it did not; its verdict is the broker's
// partition and coordinator node.
func TestCoordinatorRowOnOneBroker(t *testing.T) {
	e := script.TxnCheck{ID: "payment-processor-1", Field: script.TxnCoordinator, Coordinator: script.Partition{Topic: engine.TxnStateTopic, N: 3}}
	cmds := []script.Command{{Expect: e}}
	d := &driver{ctx: placeCoordinators(context.Background(), cmds)}
	d.prefix = prefixFor(d.ctx)
	if !d.placedCoordinator(e) || d.unplacedCoordinator(e) != "" {
		t.Fatalf("prefix %q: not judged", d.prefix)
	}
	id := d.prefix + e.ID
	leaders := map[int32]int32{3: 1}
	if ok, fact, why := coordinatorHolds(id, e.Coordinator.String(), simInternalPartitions, 1, leaders); !ok || why != "" {
		t.Errorf("placed id: holds=%v %q %q, want agree", ok, fact, why)
	}
	if ok, _, _ := coordinatorHolds(id, engine.TxnStateTopic+"-4", simInternalPartitions, 1, leaders); ok {
		t.Error("another partition agrees")
	}
	if ok, _, _ := coordinatorHolds(id, e.Coordinator.String(), simInternalPartitions, 2, leaders); ok {
		t.Error("a coordinator that does not lead the partition agrees")
	}
	if _, _, why := coordinatorHolds(id, e.Coordinator.String(), 1, 1, leaders); !strings.Contains(why, "1 partitions") {
		t.Errorf("one partition: why %q, want not compared", why)
	}
	d.ctx = context.WithValue(d.ctx, coordKey{}, coordPlacement{ids: 7, placed: false})
	d.prefix = "x-"
	if engine.PartitionFor(d.prefix+e.ID, simInternalPartitions) == 3 {
		t.Fatal("x- keeps the partition; pick another")
	}
	if d.placedCoordinator(e) || !strings.Contains(d.unplacedCoordinator(e), "all 7 transactional ids") {
		t.Errorf("unplaced: placed=%v why %q", d.placedCoordinator(e), d.unplacedCoordinator(e))
	}
}

// TestCoordinatorRowOtherCount: a file that sets its own
// __transaction_state partition count has its coordinator rows not
// played (the broker has the simulation's default).
func TestCoordinatorRowOtherCount(t *testing.T) {
	w, c, fail, cmds := playSim(t, `config transaction.state.log.num.partitions=4
producer p transactional.id=payment-processor-1
expect txn payment-processor-1 coordinator __transaction_state-1
`)
	if fail != nil {
		t.Fatalf("the simulation fails its line: %s", fail.Got)
	}
	d := &driver{ctx: placeCoordinators(context.Background(), cmds)}
	d.prefix = prefixFor(d.ctx)
	row := Row{}
	d.judge(&row, c, fail, w)
	if row.Verdict != NotPlayed || !strings.Contains(row.Why, "num.partitions=4") {
		t.Errorf("%v (%s), want not played for the count", row.Verdict, row.Why)
	}
}

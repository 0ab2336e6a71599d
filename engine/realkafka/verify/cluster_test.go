package verify

import (
	"slices"
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// TestSimReplicas keeps simReplicas in step with the simulation's
// placement (engine's World.replicasFor), which an owned cluster copies.
func TestSimReplicas(t *testing.T) {
	src := "topic t rf=3\ntopic payments partitions=3 rf=3\ntopic one rf=1\nproducer a transactional.id=payment-processor-1\na initTransactions\nrun\n"
	cmds, err := script.Parse("placement.scn", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r := script.NewRunner()
	for _, c := range cmds {
		if _, _, err := r.Exec(c); err != nil {
			t.Fatal(err)
		}
	}
	w := r.World
	n := len(w.Brokers())
	checked := 0
	for tp, p := range w.PartitionLogs() {
		got := simReplicas(tp.Topic, tp.Partition, n, len(p.Replicas))
		if !slices.Equal(toInts(got), p.Replicas) {
			t.Errorf("%v: simReplicas %v, the simulation's %v", tp, got, p.Replicas)
		}
		checked++
	}
	for _, part := range w.TxnStatePartitions() {
		tsp := w.TxnStatePartition(part)
		got := simReplicas(engine.TxnStateTopic, part, n, len(tsp.Replicas))
		if !slices.Equal(toInts(got), tsp.Replicas) {
			t.Errorf("__transaction_state-%d: simReplicas %v, the simulation's %v", part, got, tsp.Replicas)
		}
		checked++
	}
	if checked < 6 {
		t.Fatalf("checked %d partitions, want the file's 5 and a __transaction_state one", checked)
	}
}

func toInts(v []int32) []int {
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(x)
	}
	return out
}

// TestPlacedPrefix: the chosen prefix puts each transactional id and
// group on the partition the simulation gives the bare name.
func TestPlacedPrefix(t *testing.T) {
	names := []placedName{{"payment-processor-1", engine.TxnStateTopic}, {"payment-53", engine.TxnStateTopic}, {"g", engine.OffsetsTopic}}
	p, ok := placedPrefix(names, 3)
	if !ok || !strings.HasPrefix(p, "eoslab-verify-") {
		t.Fatalf("placedPrefix: %q %v", p, ok)
	}
	for _, n := range names {
		if a, b := engine.PartitionFor(n.name, simInternalPartitions), engine.PartitionFor(p+n.name, simInternalPartitions); a != b {
			t.Errorf("%s: partition %d, prefixed %d", n.name, a, b)
		}
	}
}

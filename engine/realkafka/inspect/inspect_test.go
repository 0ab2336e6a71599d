package inspect

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/eoslab/eoslab/engine/realkafka"
)

var update = flag.Bool("update", false, "rewrite the goldens in testdata")

const t0 = int64(1_780_000_000_000) // a fixed clock, ms

// fixture is a cluster with one open, one committed and one hanging
// transaction, as the real-broker test makes it:
//   - open: txid "open", pid 1000, Ongoing on orders-0 since offset 2
//   - committed: txid "done", pid 1001, CompleteCommit; markers written
//   - hanging: pid 1002 wrote a transactional batch at orders-1 offset 1
//     that no coordinator knows (its txid "ghost" is Empty)
func fixture() *Snapshot {
	return &Snapshot{
		Bootstrap: "127.0.0.1:9092",
		TakenMs:   t0,
		Brokers:   []int32{1},
		Txns: []Txn{
			{ID: "done", Coordinator: 1, State: "CompleteCommit", ProducerID: 1001, Epoch: 0, TimeoutMs: 60000, StartMs: -1},
			{ID: "ghost", Coordinator: 1, State: "Empty", ProducerID: 1002, Epoch: 0, TimeoutMs: 60000, StartMs: -1},
			{ID: "open", Coordinator: 1, State: "Ongoing", ProducerID: 1000, Epoch: 0, TimeoutMs: 60000, StartMs: t0 - 4500, Partitions: []TP{{"orders", 0}}},
		},
		Partitions: []Partition{
			{TP: TP{"orders", 0}, Leader: 1, HW: 3, LSO: 2, Producers: []Producer{
				{ProducerID: 1000, Epoch: 0, LastSequence: 0, LastTimestampMs: t0 - 4400, CoordinatorEpoch: 0, TxnStart: 2},
				{ProducerID: 1001, Epoch: 0, LastSequence: 0, LastTimestampMs: t0 - 9000, CoordinatorEpoch: 0, TxnStart: -1},
			}},
			{TP: TP{"orders", 1}, Leader: 1, HW: 2, LSO: 1, Producers: []Producer{
				{ProducerID: 1002, Epoch: 0, LastSequence: 0, LastTimestampMs: t0 - 3000, CoordinatorEpoch: -1, TxnStart: 1},
				{ProducerID: 7, Epoch: 0, LastSequence: 0, LastTimestampMs: t0 - 20000, CoordinatorEpoch: -1, TxnStart: -1},
			}},
		},
		LogOf: TP{"orders", 0},
		Log: &realkafka.Log{HighWatermark: 3, LastStable: 2, Batches: []realkafka.Batch{
			{BaseOffset: 0, LastOffset: 0, ProducerID: 1001, BaseSequence: 0, Records: 1, Transactional: true, Values: []string{"a"}},
			{BaseOffset: 1, LastOffset: 1, ProducerID: 1001, BaseSequence: -1, Records: 1, Transactional: true, Control: true, Marker: "COMMIT"},
			{BaseOffset: 2, LastOffset: 2, ProducerID: 1000, BaseSequence: 0, Records: 1, Transactional: true, Values: []string{"b"}},
		}},
	}
}

func TestHangingRules(t *testing.T) {
	s := fixture()
	h := FindHanging(s)
	if len(h) != 1 || h[0].Rule != RuleNoCoordinatorTxn || h[0].TP != (TP{"orders", 1}) || h[0].ProducerID != 1002 || h[0].TxnID != "ghost" {
		t.Fatalf("FindHanging = %+v, want one: pid 1002 on orders-1 (ghost, Empty at its coordinator)", h)
	}
	want := "kafka-transactions.sh --bootstrap-server 127.0.0.1:9092 abort --topic orders --partition 1 --start-offset 1"
	if len(h[0].Commands) != 1 || h[0].Commands[0] != want {
		t.Errorf("commands = %q, want %q", h[0].Commands, want)
	}
	if !strings.Contains(h[0].Reason, "state Empty") || !strings.Contains(h[0].Reason, "holds the LSO") {
		t.Errorf("reason %q does not say the coordinator's state and the held LSO", h[0].Reason)
	}

	// The same producer with no transactional id at any coordinator.
	s = fixture()
	s.Txns = s.Txns[:1]
	h = FindHanging(s)
	if len(h) != 2 {
		t.Fatalf("without ghost and open at the coordinators: %d hanging, want 2 (pids 1000 and 1002): %+v", len(h), h)
	}
	for _, x := range h {
		if x.TxnID != "" || !strings.Contains(x.Reason, "no coordinator lists") {
			t.Errorf("%+v: want no txid and the reason that no coordinator lists the producer", x)
		}
	}

	// Ongoing at the coordinator, but not with this partition.
	s = fixture()
	s.Txns[2].Partitions = []TP{{"orders", 5}}
	h = FindHanging(s)
	if len(h) != 2 || h[0].ProducerID != 1000 || !strings.Contains(h[0].Reason, "without orders-0 among its partitions") {
		t.Errorf("open txn without the partition: %+v", h)
	}

	// Past its timeout: age 61 s against 60 s.
	s = fixture()
	s.Txns[2].StartMs = t0 - 61000
	h = FindHanging(s)
	if len(h) != 2 || h[1].Rule != RulePastTimeout || h[1].TxnID != "open" ||
		h[1].Commands[0] != "kafka-transactions.sh --bootstrap-server 127.0.0.1:9092 abort --topic orders --partition 0 --start-offset 2" {
		t.Errorf("past timeout: %+v", h)
	}
	if !strings.Contains(h[1].Reason, "Ongoing for 1m01s, longer than its transaction.timeout.ms of 1m00s") {
		t.Errorf("past-timeout reason %q", h[1].Reason)
	}
	// At exactly the timeout it is not past it.
	s.Txns[2].StartMs = t0 - 60000
	if h := FindHanging(s); len(h) != 1 {
		t.Errorf("at exactly the timeout: %d hanging, want 1", len(h))
	}
}

func TestHolder(t *testing.T) {
	s := fixture()
	if h := s.Partitions[0].Holder(); h == nil || h.ProducerID != 1000 {
		t.Errorf("orders-0 LSO holder = %+v, want pid 1000", h)
	}
	p := s.Partitions[0]
	p.LSO = p.HW
	if h := p.Holder(); h != nil {
		t.Errorf("LSO at HW: holder %+v, want none", h)
	}
}

func TestSnapshotTextGolden(t *testing.T) {
	s := fixture()
	s.Hanging = FindHanging(s)
	s.Problems = []string{"DescribeProducers orders-2: TOPIC_AUTHORIZATION_FAILED"}
	// The views' tests draw the screen from the same snapshot.
	js, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	jsPath := filepath.Join("testdata", "snapshot.json")
	if *update {
		if err := os.WriteFile(jsPath, append(js, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if old, err := os.ReadFile(jsPath); err != nil || string(old) != string(js)+"\n" {
		t.Errorf("%s is stale or missing (%v): -update rewrites it", jsPath, err)
	}
	got := Text(s)
	if got != Text(s) {
		t.Fatal("Text is not a function of the snapshot")
	}
	path := filepath.Join("testdata", "snapshot.golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./engine/realkafka/inspect -update writes it)", err)
	}
	if got != string(want) {
		t.Errorf("snapshot text differs from %s (-update rewrites it):\n%s", path, got)
	}
}

func TestAge(t *testing.T) {
	for ms, want := range map[int64]string{-1: "-", 850: "850ms", 12500: "12.5s", 3000: "3s", 200000: "3m20s", 7_500_000: "2h05m"} {
		if got := Age(ms); got != want {
			t.Errorf("Age(%d) = %q, want %q", ms, got, want)
		}
	}
}

// TestDescribeSet: a big cluster describes only the open ids, the asked
// ones and those whose producer holds a partition's transaction.
func TestDescribeSet(t *testing.T) {
	listed := kadm.ListedTransactions{}
	var ids []string
	for i := 0; i <= maxDescribed; i++ {
		id := fmt.Sprintf("t%04d", i)
		listed[id] = kadm.ListedTransaction{TxnID: id, ProducerID: int64(i), State: "CompleteCommit"}
		ids = append(ids, id)
	}
	if got := describeSet(ids[:maxDescribed], listed, nil, nil); len(got) != maxDescribed {
		t.Errorf("%d ids: describes %d, want all", maxDescribed, len(got))
	}
	l := listed["t0003"]
	l.State = "Ongoing"
	listed["t0003"] = l
	parts := []Partition{{Producers: []Producer{{ProducerID: 7, TxnStart: 4}, {ProducerID: 8, TxnStart: -1}}}}
	got := describeSet(ids, listed, parts, []string{"t0010"})
	if strings.Join(got, " ") != "t0003 t0007 t0010" {
		t.Errorf("%d ids: describes %v, want t0003 (open), t0007 (holds a partition), t0010 (asked)", len(ids), got)
	}
}

package engine

import "testing"

// TestExpectIsReadOnly: evaluating expectations never changes the world,
// so a checkpoint can be judged on the live world.
func TestExpectIsReadOnly(t *testing.T) {
	w := New(DefaultConfig())
	w.Apply(CreateTopic{Name: "t"})
	before := len(w.Partitions)
	beforeTxn := len(w.TxnParts)
	for _, e := range [][]string{
		{"txn", "never-seen", "state", "Empty"},
		{"txn", "never-seen", "coordinator", "__transaction_state-1"},
		{"partition", "__consumer_offsets-7", "leo", "0"},
	} {
		if _, _, err := w.Expect(ExpectArgs{Args: e}); err != nil {
			t.Fatalf("%s: %v", e, err)
		}
	}
	if len(w.Partitions) != before || len(w.TxnParts) != beforeTxn {
		t.Fatalf("Expect created state: partitions %d -> %d, txn partitions %d -> %d", before, len(w.Partitions), beforeTxn, len(w.TxnParts))
	}
	if ok, got, _ := w.Expect(ExpectArgs{Args: []string{"partition", "__consumer_offsets-7", "leo", "0"}}); !ok {
		t.Fatalf("an untouched offsets partition should read as empty, got %s", got)
	}
}

package engine

import "testing"

// A rule loses the citations of the reference that lead its parts, and the
// parts that are only a citation; the words stay as written.
func TestRuleWords(t *testing.T) {
	for _, c := range []struct{ rule, want string }{
		{"", ""},
		{"ref 1.4: retriable", "retriable"},
		{"ref 2.4", ""},
		{"invariant", "invariant"},
		{"TransactionManager.canRetry", "TransactionManager.canRetry"},
		{"ref 3.4 step 11: a new instance fences the open transaction; row 4; KIP-890 part 1: verification first",
			"a new instance fences the open transaction; verification first"},
		{"row 4: no state for pid 1000 here: any sequence is accepted; row 10: first transactional batch here: the transaction starts at offset 0",
			"no state for pid 1000 here: any sequence is accepted; first transactional batch here: the transaction starts at offset 0"},
		{"epoch 0 >= stored -1, coordinatorEpoch 0 >= stored -1; transaction 0..1 recorded in the aborted index",
			"epoch 0 >= stored -1, coordinatorEpoch 0 >= stored -1; transaction 0..1 recorded in the aborted index"},
		{"reads stop at the LSO 3", "reads stop at the LSO 3"},
	} {
		e := Event{Rule: c.rule}
		if got := e.RuleWords(); got != c.want {
			t.Errorf("%q: got %q, want %q", c.rule, got, c.want)
		}
	}
}

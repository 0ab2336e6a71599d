package engine

import "testing"

func TestInvariantCount(t *testing.T) {
	if invariantCount != len(InvariantNames) {
		t.Fatalf("invariantCount %d, InvariantNames %d", invariantCount, len(InvariantNames))
	}
	for i, n := range InvariantNames {
		if invariantIndex(n) != i {
			t.Errorf("invariantIndex(%s) = %d", n, invariantIndex(n))
		}
	}
}

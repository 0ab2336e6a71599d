package engine

import (
	"slices"
	"testing"
)

// removeOrdered keeps the order of what is left, wherever the removed
// entry is, and zeroes the slot it frees.
func TestRemoveOrdered(t *testing.T) {
	for n := 1; n <= 7; n++ {
		for i := 0; i < n; i++ {
			buf := make([]*int, n)
			for k := range buf {
				buf[k] = new(k)
			}
			want := slices.Delete(slices.Clone(buf), i, i+1)
			got := removeOrdered(buf, i)
			if !slices.Equal(got, want) {
				t.Fatalf("n %d, i %d: got %v, want %v", n, i, got, want)
			}
			if nils := slices.Index(buf, nil); nils < 0 {
				t.Fatalf("n %d, i %d: the freed slot still holds a pointer", n, i)
			}
		}
	}
}

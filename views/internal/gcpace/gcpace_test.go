package gcpace

import (
	"runtime/debug"
	"testing"
)

// Set sets the TUI's pace and limit and puts the previous ones back; a
// GOGC the user set is left alone.
func TestSet(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	restore := Set()
	if got := debug.SetGCPercent(Percent); got != Percent {
		t.Errorf("pace %d, want %d", got, Percent)
	}
	if got := debug.SetMemoryLimit(-1); got != Limit {
		t.Errorf("limit %d, want %d", got, Limit)
	}
	restore()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("after restore, pace %d, want 100", got)
	}
	t.Setenv("GOGC", "50")
	defer Set()()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set, the pace moved to %d", got)
	}
}

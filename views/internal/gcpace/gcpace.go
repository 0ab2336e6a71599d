// Package gcpace is the garbage collector's pace of the local TUI, and of
// the benchmarks that measure its keystrokes.
//
// A keystroke on a step seen for the first time builds a frame and draws
// every panel: some 300 KB of short-lived garbage. At Go's default pace
// (GOGC=100) the collector marks the whole live heap each time the heap
// has grown by as much as it holds, and with a long lesson's worlds kept
// for stepping back (tens of megabytes) that marking was a third of a
// first visit. At 400 it runs a quarter as often. A memory limit keeps the
// slower pace from growing the heap without bound: near it, the collector
// runs as often as it must.
package gcpace

import (
	"os"
	"runtime/debug"
)

// Percent is the collector's pace (GOGC) of the TUI.
const Percent = 400

// Limit is the soft memory limit (GOMEMLIMIT) that goes with it.
const Limit = 1 << 30

// Set sets the pace and the limit unless the user set GOGC or GOMEMLIMIT,
// and returns what puts the previous ones back.
func Set() (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	pct := debug.SetGCPercent(Percent)
	lim := debug.SetMemoryLimit(Limit)
	return func() {
		debug.SetGCPercent(pct)
		debug.SetMemoryLimit(lim)
	}
}

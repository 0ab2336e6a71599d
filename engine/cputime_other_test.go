//go:build !unix

package engine

import "time"

// cpuTime is not measured here; the benchmarks report only wall time.
func cpuTime() time.Duration { return 0 }

//go:build unix

package adapt

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process has used (user and system, all
// threads, so the garbage collector's work counts). The keystroke and jump benchmarks
// report it per unit of work beside the wall time: on a machine shared with
// other work, the wall time of two sizes measured minutes apart is not
// comparable, the CPU time is.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

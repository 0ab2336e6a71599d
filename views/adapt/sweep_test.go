package adapt

import "flag"

// Sweep runs the exhaustive sweeps of this package's tests at their full
// size: every step of every lesson where plain go test takes the steps
// around the first and last checkpoint, the middle and the ends
// (TestSwitchKafka); every value of the text-input list
// (TestTextInputsSurviveEveryKeyAtEveryPosition); every step of every
// file drawn where plain go test draws each error answer once in each of
// its states (TestTimelineKeepsErrorCodes). .ci/run passes it; plain go
// test keeps each behaviour checked once.
var Sweep = flag.Bool("sweep", false, "run this package's exhaustive sweeps at full size (CI)")

// sweepSteps are the steps TestSwitchKafka switches at in a lesson of n
// steps whose checkpoints are at asks: every step with -sweep; otherwise
// the first two, the middle, the last two, and the first and the last
// checkpoint step and the one after each (where an answer is given, kept
// or flipped: at the last steps every answer of the lesson is replayed).
func sweepSteps(n int, asks []int) []int {
	var out []int
	seen := map[int]bool{}
	add := func(p int) {
		if p >= 0 && p <= n && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for p := 0; p <= n; p++ {
		if *Sweep || p <= 1 || p == n/2 || p >= n-1 {
			add(p)
		}
	}
	if len(asks) > 0 {
		for _, a := range []int{asks[0], asks[len(asks)-1]} {
			add(a)
			add(a + 1)
		}
	}
	return out
}

//go:build race

package script

// raceEnabled shrinks the tests that read 100 MB: the race detector makes
// a byte scan ten times slower, and it has nothing to find there.
const raceEnabled = true

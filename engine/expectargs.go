package engine

import "strconv"

// ExpectArgs is an `expect` line as words, for World.Expect.
//
// TEMPORARY: expectations are the one part of the scenario language still
// handed to the engine as words. They are moving into engine/script as typed
// expectations; this struct, KV and atoi64 go away with engine/expect.go.
type ExpectArgs struct {
	Args []string // the words after "expect": "partition", "t-0", "leo", "3"
	Opts []KV
}

// KV is a key=value word of an expectation.
type KV struct{ Key, Value string }

func atoi64(s, what string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, errf("%s must be a whole number, got %q", what, s)
	}
	return n, nil
}

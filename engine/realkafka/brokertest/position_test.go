package brokertest

import "testing"

// TestVerifyPositionBeforeARecord: a consumer that has taken no record of
// a partition is at the offset its Fetch asks for: where the reset put it
// (latest: the high watermark) or the group's committed offset, as the
// Java consumer's position is before its first record.
func TestVerifyPositionBeforeARecord(t *testing.T) {
	allAgree(t, "position-before.scn", `topic t
producer p
consumer L
consumer C group.id=g1 auto.offset.reset=earliest
p send t-0 a b c
run
L poll
run
expect consumer L values none
expect consumer L position t-0 3
C poll
run
expect consumer C values a,b,c
C commitSync t-0=3
run
crash C
restart C
C poll
run
expect consumer C values a,b,c
expect consumer C position t-0 3
`, 5)
}

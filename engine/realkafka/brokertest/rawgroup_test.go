package brokertest

import "testing"

// TestVerifyRawMembers: consumers that never poll are group members on the
// broker too (raw JoinGroup and SyncGroup, one a static member), so the
// rebalances before any poll move the broker's generation as the
// simulation's: offsets with a generation behind it are refused.
func TestVerifyRawMembers(t *testing.T) {
	scn := `topic in
topic out
producer P transactional.id=rw-1
consumer C group.id=g topics=in
consumer D group.id=g topics=in group.instance.id=d-1
rebalance g
rebalance g
P initTransactions
run
P beginTransaction
P send out-0 x
run
P sendOffsetsToTransaction g in-0=1 consumer=C generation=2
run
expect producer P error ILLEGAL_GENERATION
P abortTransaction
run
P beginTransaction
P send out-0 y
P sendOffsetsToTransaction g in-0=1 consumer=D
P commitTransaction
run
expect group g offset in-0 1
expect partition out-0 batch 0 status=aborted
`
	allAgree(t, "rawmembers.scn", scn, 3)
}

// TestVerifyRebalancePausedMember: a rebalance while the group's one member
// is paused removes it on the broker (as its session timing out would), so
// another consumer joins and its offsets commit.
func TestVerifyRebalancePausedMember(t *testing.T) {
	scn := `topic in
topic out
producer S
consumer C group.id=g topics=in auto.offset.reset=earliest
consumer C2 group.id=g topics=in auto.offset.reset=earliest
producer P transactional.id=ev-1
S send in-0 a
run
C poll
run
pause C
rebalance g
C2 poll
run
P initTransactions
run
P beginTransaction
P send out-0 x
P sendOffsetsToTransaction g in-0=1 consumer=C2
P commitTransaction
run
expect consumer C2 values a
expect group g offset in-0 1
expect partition out-0 batch 0 status=committed
`
	allAgree(t, "pausedmember.scn", scn, 3)
}

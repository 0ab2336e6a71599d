package engine

import (
	"reflect"
	"strconv"
	"testing"
)

// TestApplyCountIsApplyWithoutTheCopy: two worlds given the same actions,
// one through Apply and one through ApplyCount, end with the same history;
// each ApplyCount counts the events Apply returned for that action, and
// they are the last ones of the history.
func TestApplyCountIsApplyWithoutTheCopy(t *testing.T) {
	actions := []Action{CreateTopic{Name: "t", Partitions: 2}}
	for i := range 3 {
		actions = append(actions, txnProducer("T"+strconv.Itoa(i), "tx-"+strconv.Itoa(i)))
	}
	for i := range 3 {
		n := "T" + strconv.Itoa(i)
		actions = append(actions, call(n, CallInitTransactions), Run{}, call(n, CallBeginTransaction), send(n, tp("t", i%2), "v"), call(n, CallCommitTransaction), Step{N: 3})
	}
	actions = append(actions, Run{}, call("nobody", CallPoll))
	a, b := New(DefaultConfig()), New(DefaultConfig())
	for _, act := range actions {
		evs, errA := a.Apply(act)
		from := b.EventCount()
		n, errB := b.ApplyCount(act)
		if (errA == nil) != (errB == nil) {
			t.Fatalf("%s: Apply error %v, ApplyCount error %v", act, errA, errB)
		}
		if n != len(evs) || b.EventCount() != from+n {
			t.Fatalf("%s: ApplyCount = %d (history %d -> %d), Apply returned %d events", act, n, from, b.EventCount(), len(evs))
		}
		if got := b.EventsSince(from); !reflect.DeepEqual(got, evs) {
			t.Fatalf("%s: the counted events differ from Apply's:\n%v\n%v", act, got, evs)
		}
	}
	if n, err := b.ApplyCount(nil); n != 0 || err == nil {
		t.Fatalf("ApplyCount(nil) = %d, %v; want 0 and an error", n, err)
	}
}

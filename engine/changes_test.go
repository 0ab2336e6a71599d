package engine

import (
	"strconv"
	"testing"
)

// TestChangeSetLongNameLists: past scanMax names a list is looked up
// through its index; every name added before and after the index was built
// is found once, a name never added is not, and the list keeps the order
// of first touch.
func TestChangeSetLongNameLists(t *testing.T) {
	var c ChangeSet
	n := 3 * scanMax
	name := func(i int) string { return "p" + strconv.Itoa(i) }
	for i := 0; i < n; i++ {
		c.actor(name(i))
		c.actor(name(i / 2)) // touched again: no second entry
		c.txnID(name(i))
		c.group(name(i))
	}
	if len(c.Actors) != n || len(c.TxnIDs) != n || len(c.Groups) != n {
		t.Fatalf("%d actors, %d ids, %d groups; want %d each", len(c.Actors), len(c.TxnIDs), len(c.Groups), n)
	}
	if c.actorIndex == nil || c.txnIDIndex == nil || c.groupIndex == nil {
		t.Fatal("long lists should be indexed")
	}
	for i := 0; i < n; i++ {
		if c.Actors[i] != name(i) || !c.Actor(name(i)) || !c.TxnID(name(i)) || !c.Group(name(i)) {
			t.Fatalf("name %d: %q, found %v %v %v", i, c.Actors[i], c.Actor(name(i)), c.TxnID(name(i)), c.Group(name(i)))
		}
	}
	if c.Actor("nobody") || c.TxnID("nobody") || c.Group("nobody") {
		t.Fatal("a name never added was found")
	}
	var m ChangeSet
	m.actor("first")
	m.Merge(c)
	m.Merge(c)
	if len(m.Actors) != n+1 || m.Actors[0] != "first" || !m.Actor(name(n-1)) || m.Actor("nobody") {
		t.Fatalf("merged %d actors, want %d", len(m.Actors), n+1)
	}
	c.reset(0, 0)
	if c.Actor(name(0)) || c.actorIndex != nil {
		t.Fatal("reset keeps names")
	}
}

// TestChangeSetNameHashClash: the index holds a name's hash, and a name
// whose hash another name of the list has is still told apart and found.
func TestChangeSetNameHashClash(t *testing.T) {
	var c ChangeSet
	for i := 0; i < 2*scanMax; i++ {
		c.actor("p" + strconv.Itoa(i))
	}
	if !c.Actor("p0") || c.actorIndex == nil {
		t.Fatal("a long list should be indexed")
	}
	c.actorIndex[nameHash("clash")] = 3 // as if "clash" hashed as "p3" does
	if c.Actor("clash") {
		t.Fatal("a name with another's hash was found before it was added")
	}
	c.actor("clash")
	c.actor("clash")
	if n := len(c.Actors); n != 2*scanMax+1 || c.Actors[n-1] != "clash" || !c.Actor("clash") || !c.Actor("p3") {
		t.Fatalf("after adding a clashing name: %d actors, found %v %v", n, c.Actor("clash"), c.Actor("p3"))
	}
}

// TestChangeSetMessages: past scanMax messages a change set holds them in
// a msgSet; ids far older than the rest, ids added in any order, and ids
// never added are told apart as a list would.
func TestChangeSetMessages(t *testing.T) {
	var c ChangeSet
	want := map[int64]bool{}
	note := func(id int64) {
		c.message(id)
		want[id] = true
	}
	for _, id := range []int64{7, 1_000_000, 3} { // sent long before the rest
		note(id)
	}
	for id := int64(2_000_000); id < 2_000_000+10*scanMax; id += 3 {
		note(id)
		note(id - 1) // touched again or out of order
		note(id / 2) // older than the set's first bit
	}
	if c.msgIndex == nil {
		t.Fatal("a long list should be indexed")
	}
	if len(c.Messages) != len(want) {
		t.Fatalf("%d messages listed, %d distinct noted", len(c.Messages), len(want))
	}
	for id := int64(0); id < 2_000_000+12*scanMax; id++ {
		if id > 1100 && id < 999_000 && !want[id] {
			id = 999_000 // skip most of the gap
		}
		if c.Message(id) != want[id] {
			t.Fatalf("Message(%d) = %v, want %v", id, c.Message(id), want[id])
		}
	}
}

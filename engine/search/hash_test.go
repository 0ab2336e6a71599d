package search

import (
	"testing"

	"github.com/eoslab/eoslab/engine"
)

const twoProducers = "topic t partitions=2\nproducer P\nproducer Q\nconsumer C isolation.level=read_committed auto.offset.reset=earliest\n"

// play is world(src) with the actions of more applied after it.
func play(t *testing.T, src, more string) *engine.World {
	t.Helper()
	return world(t, src+more)
}

// The state hash is one of the state, not of the history: worlds that
// reached one state by different schedules (other message ids, other
// events) hash alike, and worlds in different states hash apart.
func TestStateHashIsTheStateNotTheHistory(t *testing.T) {
	h := engine.NewStateHasher()
	// (A history that numbers the producers' batches otherwise, such
	// as two sends in the other order, is another state: the numbers
	// are part of it, which a search could only leave out by renaming;
	// so is one that queued two answers due at one time in the other
	// order, which the network delivers in the order they were queued.)
	same := []struct{ name, a, b string }{
		{"a pause and a resume", "P send t-0 p1\n", "P send t-0 p1\npause P\nresume P\n"},
		{"the original or its duplicate dropped (another message id left)",
			"P send t-0 p1\nduplicate m1\ndrop m2\n", "P send t-0 p1\nduplicate m1\ndrop m1\n"},
		{"a message dropped before or after another was sent",
			"P send t-0 p1\ndrop m1\nQ send t-1 q1\n", "P send t-0 p1\nQ send t-1 q1\ndrop m1\n"},
	}
	for _, c := range same {
		a, b := play(t, twoProducers, c.a), play(t, twoProducers, c.b)
		if h.Hash(a) != h.Hash(b) {
			t.Errorf("%s: the same state hashes apart", c.name)
		}
	}
	differ := []struct{ name, a, b string }{
		{"a send to another partition", "P send t-0 p1\n", "P send t-1 p1\n"},
		{"another value", "P send t-0 p1\n", "P send t-0 p2\n"},
		{"another sender", "P send t-0 p1\n", "Q send t-0 p1\n"},
		{"a delivered and a dropped produce", "P send t-0 p1\ndeliver m1\n", "P send t-0 p1\ndrop m1\n"},
		{"a paused producer", "", "pause P\n"},
		{"a crashed producer", "", "crash P\n"},
	}
	for _, c := range differ {
		a, b := play(t, twoProducers, c.a), play(t, twoProducers, c.b)
		if h.Hash(a) == h.Hash(b) {
			t.Errorf("%s: different states hash alike", c.name)
		}
	}
}

// A world copied into a pooled world (CloneForSearchInto) that held
// another world before is that world's copy: it hashes as a fresh Clone
// does, and stepping it leaves the world it was copied from as it was.
func TestCloneIntoAReusedWorld(t *testing.T) {
	h := engine.NewStateHasher()
	var scratch engine.SearchScratch
	big := play(t, twoProducers, "P send t-0 p1\nQ send t-1 q1\ndeliver m1\ndeliver m2\nP send t-0 p2\ncrash Q\n")
	small := world(t, twoProducers)
	want := h.Hash(small)
	dst := big.CloneForSearchInto(nil, &scratch)
	dst = small.CloneForSearchInto(dst, &scratch)
	if got := h.Hash(dst); got != want {
		t.Fatalf("the reused world hashes %x, a fresh copy %x", got, want)
	}
	bigHash := h.Hash(big)
	dst = big.CloneForSearchInto(dst, &scratch)
	if _, err := dst.Apply(engine.Restart{Target: engine.Target{Client: "Q"}}); err != nil {
		t.Fatal(err)
	}
	for _, a := range []engine.Action{engine.Step{}, engine.Step{}} {
		if _, err := dst.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	if h.Hash(big) != bigHash {
		t.Fatal("stepping the copy changed the world it was copied from")
	}
	if h.Hash(small) != want {
		t.Fatal("a copy made over a reused world changed its source")
	}
}

// transactional is a world with a transactional producer and a
// read_committed consumer: the transaction coordinator's state, markers
// and the group's offsets are in its states.
const transactional = "topic t partitions=2\nproducer P transactional.id=tx-1\nconsumer C isolation.level=read_committed auto.offset.reset=earliest\n"

// The hash tells the states a search reaches apart: among every state
// within a few moves of two worlds (tens of thousands, by a walk over
// every move, breadth first), a second hasher with another seed tells
// apart no more of them than the first does, and no fewer: the pairs of
// the two hashes are as many as either's hashes. A pair of states that
// one hash took for one would be a second hash's pair (about n*n/2^65
// of n states: for the walk's 15,000, some 6 in 10^12).
func TestStateHashCollisions(t *testing.T) {
	for _, c := range []struct {
		name, src string
		depth     int
	}{{"idempotent", presetIdempotent, 5}, {"transactional", transactional, 5}} {
		start := world(t, c.src)
		o := Options{Depth: c.depth, Sends: 2}
		g := newMoveGen(start, o)
		h1, h2 := engine.NewStateHasher(), engine.NewSeededStateHasher(1)
		type node struct {
			w     *engine.World
			sends sendCounts
		}
		one, two, pairs := map[uint64]bool{}, map[uint64]bool{}, map[[2]uint64]bool{}
		level := []node{{start, sendCounts(make([]byte, len(start.AllProducers())))}}
		for d := 0; d < c.depth; d++ {
			var next []node
			for _, n := range level {
				for _, m := range g.moves(n.w, n.sends, nil) {
					w := n.w.CloneForTrial()
					if _, err := w.Apply(m.Action); err != nil {
						continue
					}
					sends := n.sends.after(m)
					a, b := mix(h1.Hash(w), sends), mix(h2.Hash(w), sends)
					if pairs[[2]uint64{a, b}] {
						continue
					}
					pairs[[2]uint64{a, b}] = true
					one[a], two[b] = true, true
					next = append(next, node{w, sends})
				}
			}
			level = next
		}
		if len(pairs) < 5000 {
			t.Errorf("%s: only %d states within %d moves", c.name, len(pairs), c.depth)
		}
		if len(one) != len(pairs) || len(two) != len(pairs) {
			t.Errorf("%s: %d states (pairs of hashes), %d hashes of the first hasher, %d of the second", c.name, len(pairs), len(one), len(two))
		}
		t.Logf("%s: %d states within %d moves", c.name, len(pairs), c.depth)
	}
}

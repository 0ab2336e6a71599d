package engine

import "testing"

// timeoutsWorld has request timeouts queued for producers, a consumer, a
// processor and the transaction coordinator's markers, which some steps
// will cancel and some copies will fire.
func timeoutsWorld(tb testing.TB) *World {
	w := New(DefaultConfig())
	applyAll(tb, w, CreateTopic{Name: "t", Partitions: 2}, CreateTopic{Name: "u", Partitions: 2},
		txnProducer("T", "tx-1"), producerWith("I", nil), DeclareConsumer{Name: "C", Isolation: ReadCommitted},
		DeclareProcessor{Name: "P", Input: "t", Output: "u", GroupID: "g", TransactionalID: "proc-1"},
		call("T", CallInitTransactions), Run{},
		call("T", CallBeginTransaction), send("T", tp("t", 0), "a"), send("I", tp("t", 1), "b"),
		call("T", CallCommitTransaction), call("C", CallPoll), call("P", CallProcess))
	for i := 0; i < 3; i++ {
		applyAll(tb, w, Step{})
	}
	if w.timeouts.len() == 0 {
		tb.Fatal("no request timeout is queued")
	}
	return w
}

// The request-timeout index is part of the state a copy steps on and the
// search hashes, so every copy must be able to read its keys, and read
// them as the original does: a copy with an empty event history
// (CloneForTrial, CloneForSearch) and a search's pooled world reused for
// another state (CloneForSearchInto) must step, and hash at every step,
// as a plain Clone does. (An index keyed by the owner's id in the event
// log's name table failed here: a copy without the table read an id past
// its end, and pooled copies that shared it read another name.)
func TestTimeoutIndexSurvivesCopies(t *testing.T) {
	w := timeoutsWorld(t)
	var s SearchScratch
	// A pooled world that held another state first, with other names.
	other := New(DefaultConfig())
	applyAll(t, other, CreateTopic{Name: "x", Partitions: 1}, txnProducer("Z", "tx-z"), call("Z", CallInitTransactions), Step{})
	pooled := other.CloneForSearch(&s)
	applyAll(t, pooled, Run{})
	copies := map[string]func() *World{
		"CloneForTrial":      w.CloneForTrial,
		"CloneForSearch":     func() *World { return w.CloneForSearch(&s) },
		"CloneForSearchInto": func() *World { return w.CloneForSearchInto(pooled, &s) },
	}
	for _, name := range []string{"CloneForTrial", "CloneForSearch", "CloneForSearchInto"} {
		ref, c := w.Clone(), copies[name]()
		for step := 0; step < 150; step++ {
			if got, want := c.StateHash(), ref.StateHash(); got != want {
				t.Fatalf("%s: step %d: the copy hashes %x, a clone %x", name, step, got, want)
			}
			checkTimeoutIndex(t, name, c)
			a, b := ref.Step(), c.Step()
			if a != b {
				t.Fatalf("%s: step %d: the clone stepped %v, the copy %v", name, step, a, b)
			}
			if step == 40 {
				// Let the timeouts still queued fire.
				applyAll(t, ref, Advance{Ms: 60000})
				applyAll(t, c, Advance{Ms: 60000})
			}
		}
	}
	// A copy of a copy, from a pooled world, into the world it was made
	// from: each keeps reading its own keys.
	a := w.CloneForSearch(&s)
	b := a.CloneForSearchInto(w.Clone(), &s)
	if a.StateHash() != b.StateHash() {
		t.Fatal("a copy of a search copy hashes otherwise")
	}
	checkTimeoutIndex(t, "copy of a copy", b)
}

// checkTimeoutIndex fails unless every request timeout queued and not
// cancelled is in the index (so that its answer cancels it in place,
// not by a scan of the queue) and every key names a queued one.
func checkTimeoutIndex(t *testing.T, name string, w *World) {
	t.Helper()
	queued := map[timerKey]int64{}
	for i := range w.queue.len() {
		if it := w.queue.at(i); it.Kind == itemTimer && it.Timer.Kind == TimerRequestTimeout && !w.isCancelled(it) {
			queued[timerKey{Kind: it.Timer.Kind, Owner: it.Timer.Owner, ID: it.Timer.ID}] = it.Seq
		}
	}
	for k, seq := range queued {
		ik, ok := w.timeoutKeyOf(k.Kind, k.Owner, k.ID)
		at, in := w.timeouts.get(ik)
		if !ok || !in || at.seq != seq {
			t.Fatalf("%s: the queued timeout %+v (seq %d) is not in the index", name, k, seq)
		}
	}
	w.timeouts.each(func(k timeoutKey, at queuedAt) {
		if queued[w.named(k)] != at.seq {
			t.Fatalf("%s: the index holds %+v (seq %d), which is not queued", name, w.named(k), at.seq)
		}
	})
}

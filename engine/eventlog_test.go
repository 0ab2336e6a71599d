package engine

import "testing"

// A clone shares the log's chunks; the live log and the clone then append
// on their own, across chunk boundaries, and neither sees the other's
// events, while both keep the shared ones.
func TestEventLogCloneAppends(t *testing.T) {
	var live eventLog
	add := func(l *eventLog, actor string, n int) {
		for i := 0; i < n; i++ {
			l.next().Actor = actor
		}
	}
	check := func(l *eventLog, want []string) {
		t.Helper()
		if l.len() != len(want) {
			t.Fatalf("len %d, want %d", l.len(), len(want))
		}
		for i, a := range want {
			if got := l.at(i).Actor; got != a {
				t.Fatalf("event %d by %q, want %q", i, got, a)
			}
		}
	}
	repeat := func(s string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = s
		}
		return out
	}
	add(&live, "shared", eventChunk+10)
	snap := live.clone()
	add(&live, "live", eventChunk)
	add(&snap, "snap", 20)
	check(&live, append(repeat("shared", eventChunk+10), repeat("live", eventChunk)...))
	check(&snap, append(repeat("shared", eventChunk+10), repeat("snap", 20)...))
	if live.at(0) != snap.at(0) {
		t.Error("the full chunk should stay shared")
	}
	again := snap.clone()
	add(&again, "again", 3)
	add(&snap, "snap", 3)
	check(&again, append(append(repeat("shared", eventChunk+10), repeat("snap", 20)...), repeat("again", 3)...))
	check(&snap, append(repeat("shared", eventChunk+10), repeat("snap", 23)...))
}

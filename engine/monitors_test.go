package engine

import "testing"

func TestInvariantCount(t *testing.T) {
	if invariantCount != len(invariantNames) {
		t.Fatalf("invariantCount %d, invariantNames %d", invariantCount, len(invariantNames))
	}
	for i, n := range invariantNames {
		if invariantIndex(n) != i {
			t.Errorf("invariantIndex(%s) = %d", n, invariantIndex(n))
		}
	}
}

// duplicateAfterHistory is bigWorld with a long history, then the lost
// acknowledgement of story-lost-ack-idempotence-on with the teaching switch
// eoslab.broker.dedup off: the retry is appended twice.
func duplicateAfterHistory(tb testing.TB, records int) *World {
	w := bigWorld(tb, records)
	for _, a := range []Action{
		SetTeaching(ConfigTeachDedup, false),
		Send{Client: "I", TP: tp("t", 0), Values: []string{"late"}},
		Deliver{Msg: Selector{Kind: MsgProduce}},
		Drop{Msg: Selector{Kind: MsgProduceResponse}},
		Advance{Ms: 40000},
		Run{},
	} {
		if _, err := w.Apply(a); err != nil {
			tb.Fatal(err)
		}
	}
	if len(w.violations) == 0 {
		tb.Fatal("no violation")
	}
	return w
}

// BenchmarkMonitorStatus100k is what the sandbox pays per frame for the
// monitors of a world with 100,000 records of history and a violation.
func BenchmarkMonitorStatus100k(b *testing.B) {
	w := duplicateAfterHistory(b, 100000)
	buf := make([]MonitorState, 0, len(monitors))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = w.MonitorStatusInto(buf)
	}
	b.ReportMetric(float64(w.events.len()), "events")
	if !buf[1].Broken {
		b.Fatal("duplicate-record not broken")
	}
}

// BenchmarkCause100k is one cause chain (on demand, when a learner asks)
// over the same history.
func BenchmarkCause100k(b *testing.B) {
	w := duplicateAfterHistory(b, 100000)
	v := w.violations[0]
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if len(w.Cause(v)) < 3 {
			b.Fatal("short chain")
		}
	}
	b.ReportMetric(float64(w.events.len()), "events")
}

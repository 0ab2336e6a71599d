package engine

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Scale benchmarks: each runs the same workload at two sizes a factor of 8
// apart and reports the time per unit of work, which must stay flat (within
// 1.5x) for the cost to be linear in the work. Compare the two sub-benchmarks'
// ns/record (or ns/producer, ns/txn) metrics.

// reportPerUnit reports wall and CPU time per unit of work, for b.N rounds
// of n units each, with cpu the CPU time when the rounds started.
func reportPerUnit(b *testing.B, cpu time.Duration, n int, unit string) {
	units := float64(b.N * n)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/units, "ns/"+unit)
	if c := cpuTime(); c > 0 {
		b.ReportMetric(float64((c-cpu).Nanoseconds())/units, "cpu-ns/"+unit)
	}
}

func applyAll(tb testing.TB, w *World, lines ...string) {
	tb.Helper()
	for _, line := range lines {
		if _, err := w.Apply(mustAction(line)); err != nil {
			tb.Fatalf("%s: %v", line, err)
		}
	}
}

// processorWorld runs n input records through a consume-transform-produce
// processor with offsets in the transaction: a plain idempotent producer
// writes the input 10 records per send, and the processor runs one loop
// (poll, transform, commit) after every send, as a stream would.
func processorWorld(tb testing.TB, n int) *World {
	w := New(DefaultConfig())
	applyAll(tb, w, "topic t partitions=2", "topic u partitions=2", "producer S acks=all",
		"processor P input=t output=u group.id=g transactional.id=proc-1")
	vals := make([]string, 10)
	for sent := 0; sent < n; sent += len(vals) {
		for i := range vals {
			vals[i] = "v" + strconv.Itoa(sent+i)
		}
		applyAll(tb, w, "S send t-"+strconv.Itoa(sent/10%2)+" "+strings.Join(vals, " "), "run", "P process", "run")
	}
	pr := w.Processor("P")
	for loops := 0; pr.Consumed < n && loops < 1000; loops++ {
		applyAll(tb, w, "P process", "run")
	}
	if pr.Consumed != n {
		tb.Fatalf("processor consumed %d of %d records", pr.Consumed, n)
	}
	if len(w.Violations) > 0 {
		tb.Fatalf("violation: %v", w.Violations[0])
	}
	return w
}

// BenchmarkProcessorRecords: consume-transform-produce of 1,000 and 8,000
// input records; ns/record must not grow with the run (issue 7: the
// offsets-atomic invariant used to rescan the whole output topic on every
// commit).
func BenchmarkProcessorRecords(b *testing.B) {
	for _, n := range []int{1000, 8000} {
		b.Run(fmt.Sprintf("records=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			cpu := cpuTime()
			for i := 0; i < b.N; i++ {
				processorWorld(b, n)
			}
			reportPerUnit(b, cpu, n, "record")
		})
	}
}

// producersWorld declares n transactional producers and has each run one
// committed transaction of one record.
func producersWorld(tb testing.TB, n int) *World {
	w := New(DefaultConfig())
	applyAll(tb, w, "topic t partitions=4")
	for i := 0; i < n; i++ {
		applyAll(tb, w, fmt.Sprintf("producer T%d transactional.id=tx-%d", i, i))
	}
	for i := 0; i < n; i++ {
		applyAll(tb, w, fmt.Sprintf("T%d initTransactions", i))
	}
	applyAll(tb, w, "run")
	for i := 0; i < n; i++ {
		applyAll(tb, w, fmt.Sprintf("T%d beginTransaction", i), fmt.Sprintf("T%d send t-%d v%d", i, i%4, i), fmt.Sprintf("T%d commitTransaction", i))
	}
	applyAll(tb, w, "run")
	committed := 0
	for _, p := range w.Producers {
		if p.State == Ready {
			committed++
		}
	}
	if committed != n || len(w.Violations) > 0 {
		tb.Fatalf("%d of %d producers ready, violations %v", committed, n, w.Violations)
	}
	return w
}

// BenchmarkTxnProducers: 100 and 800 transactional producers, each
// initialising and committing one transaction; ns/producer must stay flat.
func BenchmarkTxnProducers(b *testing.B) {
	for _, n := range []int{100, 800} {
		b.Run(fmt.Sprintf("producers=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			cpu := cpuTime()
			for i := 0; i < b.N; i++ {
				producersWorld(b, n)
			}
			reportPerUnit(b, cpu, n, "producer")
		})
	}
}

// finishedTxnsWorld runs n committed transactions of one record each, one
// after the other, from one producer.
func finishedTxnsWorld(tb testing.TB, n int) *World {
	w := New(DefaultConfig())
	applyAll(tb, w, "topic t partitions=2", "producer T transactional.id=tx", "T initTransactions", "run")
	for i := 0; i < n; i++ {
		applyAll(tb, w, "T beginTransaction", fmt.Sprintf("T send t-%d v%d", i%2, i), "T commitTransaction", "run")
	}
	if len(w.Violations) > 0 {
		tb.Fatalf("violation: %v", w.Violations[0])
	}
	return w
}

// BenchmarkSnapshotFinishedTxns: a snapshot (Clone) of a world that has
// finished 100 and 100,000 transactions must cost about the same. The
// worlds are built once (100,000 transactions take a while) and reused by
// the benchmark's rounds.
func BenchmarkSnapshotFinishedTxns(b *testing.B) {
	worlds := map[int]*World{}
	for _, n := range []int{100, 100000} {
		b.Run(fmt.Sprintf("txns=%d", n), func(b *testing.B) {
			w := worlds[n]
			if w == nil {
				w = finishedTxnsWorld(b, n)
				worlds[n] = w
			}
			b.ReportAllocs()
			b.ResetTimer()
			var sink *World
			for i := 0; i < b.N; i++ {
				sink = w.Clone()
			}
			_ = sink
		})
	}
}

// BenchmarkRecordMemory: heap bytes held per produced record for 10,000
// and 80,000 records appended by an idempotent producer and acknowledged,
// measured as the live heap after a collection, minus an empty world's.
// With 100 records a send the per-send costs (events, messages) are spread
// thin and the figure is what a record itself costs; with 10 a send they
// show.
func BenchmarkRecordMemory(b *testing.B) {
	for _, perSend := range []int{100, 10} {
		for _, n := range []int{10000, 80000} {
			b.Run(fmt.Sprintf("perSend=%d/records=%d", perSend, n), func(b *testing.B) {
				var perRecord float64
				for i := 0; i < b.N; i++ {
					perRecord = recordBytes(b, n, perSend)
				}
				b.ReportMetric(perRecord, "B/record")
			})
		}
	}
}

// recordBytes is the heap a world holds per record after n records were
// sent, perSend to a send, and acknowledged.
func recordBytes(tb testing.TB, n, perSend int) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	w := New(DefaultConfig())
	applyAll(tb, w, "topic t partitions=4", "producer I acks=all")
	vals := make([]string, perSend)
	for sent := 0; sent < n; {
		for k := 0; k < 10 && sent < n; k++ {
			for i := range vals {
				vals[i] = "v" + strconv.Itoa(sent+i)
			}
			applyAll(tb, w, "I send t-"+strconv.Itoa(k%4)+" "+strings.Join(vals, " "))
			sent += len(vals)
		}
		applyAll(tb, w, "run")
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	got := 0
	for _, p := range w.Partitions {
		for i := range p.Batches {
			if !p.Batches[i].Control && p.TP.Topic == "t" {
				got += int(p.Batches[i].Count)
			}
		}
	}
	if got != n {
		tb.Fatalf("world holds %d records, want %d", got, n)
	}
	runtime.KeepAlive(w)
	return float64(after.HeapAlloc-before.HeapAlloc) / float64(n)
}

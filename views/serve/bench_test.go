package serve

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"
)

// BenchmarkSessions200 opens 200 student sessions at 80x24 (server and
// SSH clients in this process), reports the heap each one adds, and
// checks that the heap and the goroutines go back to where they were
// once they close (the heap within 1 MB, 5 KB a session: what is left
// varies from run to run, 30-230 KB, with the runtime's own caches).
//
//	go test ./views/serve -run XXX -bench Sessions200 -benchtime 1x
func BenchmarkSessions200(b *testing.B) {
	const n = 200
	noCleanup = true
	defer func() { noCleanup = false }()
	for range b.N {
		srv := startServer(b, func(c *Config) { c.MaxSessions = n })
		// A first round is not measured: the lesson's frames, the
		// libraries' caches and the runtime's goroutine descriptors
		// (which it keeps for reuse, never frees) are made once.
		round(b, srv, n)
		heap0, g0 := settle()
		heap1, g1 := round(b, srv, n)
		deadline := time.Now().Add(10 * time.Second)
		heap2, g2 := settle()
		for (g2 > g0+2 || srv.Students() > 0) && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
			heap2, g2 = settle()
		}
		per := float64(int64(heap1)-int64(heap0)) / n
		b.ReportMetric(per, "heapB/session")
		b.ReportMetric(float64(g1-g0)/n, "goroutines/session")
		b.ReportMetric(float64(int64(heap2)-int64(heap0)), "heapB-left")
		b.ReportMetric(float64(g2-g0), "goroutines-left")
		if per > 1<<20 {
			b.Errorf("%.0f B of heap a session, want under 1 MB", per)
		}
		if g2 > g0+2 || int64(heap2)-int64(heap0) > 1<<20 {
			b.Errorf("after closing: %d goroutines and %d B of heap more than before", g2-g0, int64(heap2)-int64(heap0))
		}
	}
}

// round opens n sessions, waits until each shows the lesson, measures,
// and closes them.
func round(b *testing.B, srv *testServer, n int) (heap uint64, goroutines int) {
	clients := make([]*client, n)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			clients[i] = join(b, srv.addr, fmt.Sprintf("s%03d", i), testCode, term{"xterm-256color", 80, 24})
		}()
	}
	wg.Wait()
	for _, c := range clients {
		c.waitFor(b, "step 0/", 20*time.Second)
		c.out.Reset()
	}
	heap, goroutines = settle()
	for _, c := range clients {
		c.c.Close()
	}
	for srv.Students() > 0 {
		time.Sleep(10 * time.Millisecond)
	}
	return heap, goroutines
}

func settle() (heap uint64, goroutines int) {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc, runtime.NumGoroutine()
}

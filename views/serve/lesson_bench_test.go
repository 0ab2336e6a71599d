package serve

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/eoslab/eoslab/lessons"
)

// watch is a client's output seen as it comes: it notes when the marker
// it waits for arrives, without keeping the output.
type watch struct {
	mu   sync.Mutex
	want string
	tail string
	seen chan time.Time
}

func newWatch() *watch { return &watch{seen: make(chan time.Time, 1)} }

func (w *watch) expect(marker string) {
	w.mu.Lock()
	w.want, w.tail = marker, ""
	w.mu.Unlock()
}

func (w *watch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.want == "" {
		return len(p), nil
	}
	s := w.tail + string(p)
	if strings.Contains(s, w.want) {
		w.want = ""
		w.seen <- time.Now()
		return len(p), nil
	}
	w.tail = s[max(0, len(s)-len(w.want)):]
	return len(p), nil
}

// BenchmarkClassLesson: a presenter steps through the whole abort lesson
// with 200 students (server and SSH clients in this process, on
// loopback), each of whom answers every question; the presenter reveals
// each once all have answered. It reports the time from the presenter's
// key to each student's screen showing the new step (p50, p99, max over
// every student and step), the process's CPU a step (clients included),
// and the heap each student adds.
//
//	go test ./views/serve -run XXX -bench ClassLesson -benchtime 1x -count 5
func BenchmarkClassLesson(b *testing.B) {
	n := benchStudents
	l, _ := lessons.Load("abort")
	for range b.N {
		b.StopTimer()
		srv := startServer(b, func(c *Config) { c.MaxSessions = n })
		heap0, _ := settle()
		pw := newWatch()
		pres := joinWatched(b, srv.addr, "teacher", "teach-me", presTerm, pw)
		ws := make([]*watch, n)
		cls := make([]*client, n)
		var wg sync.WaitGroup
		for i := range n {
			ws[i] = newWatch()
			ws[i].expect(fmt.Sprintf("step 0/%d", len(l.Steps)))
			wg.Add(1)
			go func() {
				defer wg.Done()
				cls[i] = joinWatched(b, srv.addr, fmt.Sprintf("s%03d", i), testCode, screen80, ws[i])
			}()
		}
		wg.Wait()
		for _, w := range ws {
			<-w.seen
		}
		heap1, _ := settle()
		var lat []time.Duration
		var worst time.Duration
		cpu0 := cpuTime()
		b.StartTimer()
		for k := 1; k <= len(l.Steps); k++ {
			marker := fmt.Sprintf("step %d/%d", k, len(l.Steps))
			for _, w := range ws {
				w.expect(marker)
			}
			key := keyRight
			if k >= 2 && l.Steps[k-2].Ask != nil {
				key = "a" // the reveal moves the class on
			}
			start := time.Now()
			pres.key(key)
			for _, w := range ws {
				d := (<-w.seen).Sub(start)
				lat = append(lat, d)
				worst = max(worst, d)
			}
			if l.Steps[k-1].Ask != nil {
				pw.expect(fmt.Sprintf("step %d: %d of %d answered", k, n, n))
				for i, c := range cls {
					c.key(fmt.Sprint(i%len(l.Steps[k-1].Ask.Choices) + 1))
				}
				<-pw.seen
			}
		}
		b.StopTimer()
		cpu := cpuTime() - cpu0
		slices.Sort(lat)
		q := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))]) / 1e6 }
		b.ReportMetric(q(0.5), "p50-ms")
		b.ReportMetric(q(0.99), "p99-ms")
		b.ReportMetric(float64(lat[len(lat)-1])/1e6, "max-ms")
		b.ReportMetric(float64(cpu)/1e6/float64(len(l.Steps)), "cpu-ms/step")
		b.ReportMetric(float64(int64(heap1)-int64(heap0))/float64(n), "heapB/student")
		for _, c := range cls {
			c.c.Close()
		}
		pres.c.Close()
		srv.Close()
	}
}

// joinWatched is join with the output going to w only.
func joinWatched(b *testing.B, addr, user, password string, tm term, w *watch) *client {
	c, err := dialSSH(addr, user, gossh.Password(password))
	if err != nil {
		b.Fatalf("%s: %v", user, err)
	}
	return openTo(b, c, tm, &syncBuf{}, w)
}

// benchStudents is BenchmarkClassLesson's class size.
var benchStudents = envInt("EOSLAB_BENCH_STUDENTS", 200)

func envInt(k string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(k)); err == nil && v > 0 {
		return v
	}
	return def
}

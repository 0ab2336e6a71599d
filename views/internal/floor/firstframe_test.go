package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/eoslab/eoslab/views/internal/viewtest"
)

// BenchmarkFirstFrame opens eoslab's lesson list and this floor program in
// a pseudo-terminal, 80x24, in pairs (the order alternating), and reports
// the median time to each one's first frame and the median of the pairs'
// ratios (eoslab-ratio: 1.2 means eoslab takes 20% longer than the bare
// Bubble Tea program), and the median ratio of the CPU time (user and
// system) each used up to its first frame, which a machine shared with
// other work disturbs less than the wall time, with the median CPU time
// of each (floor-cpu-ms, eoslab-cpu-ms). The pseudo-terminal answers the
// background colour and device attribute queries as a terminal does.
//
// Each pair also runs 'eoslab --version' (start, every package's init,
// the command line, one line printed, exit): the median CPU time of that
// (version-cpu-ms) is what the binary costs before any of the lesson
// list's work, and list-cpu-ms the median of what the first frame took
// beyond it. The CPU ratio cannot come near the wall one: the floor links
// Bubble Tea alone, eoslab also the SSH server, the Kafka client and the
// engine, whose runtime start and package inits a Go program pays whatever
// command it runs. From the module root:
//
//	go test ./views/internal/floor -run '^$' -bench FirstFrame -benchtime 15x
//
// EOSLAB_FIRSTFRAME_BIN names another eoslab binary to measure instead of
// this tree's, e.g. one built from an older commit.
func BenchmarkFirstFrame(b *testing.B) {
	dir := b.TempDir()
	floor, eoslab := filepath.Join(dir, "floor"), filepath.Join(dir, "eoslab")
	build(b, floor, ".")
	if bin := os.Getenv("EOSLAB_FIRSTFRAME_BIN"); bin != "" {
		eoslab = bin
	} else {
		build(b, eoslab, "../../..")
	}
	state := b.TempDir() // the learner's progress: none, as on a first start
	var tf, te, cf, ce, cv, cl, ratio, cpuRatio []float64
	b.ResetTimer()
	for i := range b.N {
		var f, e start
		if i%2 == 0 {
			f, e = firstFrame(b, floor, state, "Lesson 1"), firstFrame(b, eoslab, state, "Three guarantees")
		} else {
			e, f = firstFrame(b, eoslab, state, "Three guarantees"), firstFrame(b, floor, state, "Lesson 1")
		}
		tf, te = append(tf, ms(f.wall)), append(te, ms(e.wall))
		cf, ce = append(cf, ms(f.cpu)), append(ce, ms(e.cpu))
		v := version(b, eoslab)
		cv, cl = append(cv, ms(v)), append(cl, ms(e.cpu-v))
		ratio = append(ratio, float64(e.wall)/float64(f.wall))
		cpuRatio = append(cpuRatio, float64(e.cpu)/float64(f.cpu))
	}
	b.StopTimer()
	b.ReportMetric(viewtest.Median(tf), "floor-ms")
	b.ReportMetric(viewtest.Median(te), "eoslab-ms")
	b.ReportMetric(viewtest.Median(ratio), "eoslab-ratio")
	b.ReportMetric(slices.Min(ratio), "min-ratio")
	b.ReportMetric(slices.Max(ratio), "max-ratio")
	b.ReportMetric(viewtest.Median(cpuRatio), "cpu-ratio")
	b.ReportMetric(viewtest.Median(cf), "floor-cpu-ms")
	b.ReportMetric(viewtest.Median(ce), "eoslab-cpu-ms")
	b.ReportMetric(viewtest.Median(cv), "version-cpu-ms")
	b.ReportMetric(viewtest.Median(cl), "list-cpu-ms")
	b.ReportMetric(0, "ns/op")
}

func build(b *testing.B, out, pkg string) {
	b.Helper()
	cmd := exec.Command("go", "build", "-o", out, pkg)
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build %s: %v\n%s", pkg, err, msg)
	}
}

// start is one start: the wall time to the first frame and the CPU time
// the program had used when it was stopped right after it.
type start struct{ wall, cpu time.Duration }

// version is the CPU time (user and system) of 'bin --version'.
func version(b *testing.B, bin string) time.Duration {
	b.Helper()
	cmd := exec.Command(bin, "--version")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%s --version: %v\n%s", bin, err, out)
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// firstFrame starts bin in a pseudo-terminal, waits for marker to appear
// on it and stops it.
func firstFrame(b *testing.B, bin, state, marker string) (st start) {
	b.Helper()
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "COLORTERM=", "NO_COLOR=", "CI=", "XDG_STATE_HOME="+state, "EOSLAB_STATE_DIR="+state)
	t0 := time.Now()
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		tty.Close()
		st.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}()
	var seen []byte
	buf := make([]byte, 64<<10)
	for {
		n, err := tty.Read(buf)
		if err != nil {
			b.Fatalf("%s: no %q on its terminal: %v\n%q", bin, marker, err, seen)
		}
		seen = append(seen, buf[:n]...)
		if bytes.Contains(seen, []byte(marker)) {
			st.wall = time.Since(t0)
			return st
		}
		answer(tty, buf[:n])
	}
}

// answer replies to the queries a terminal answers: the background colour
// (OSC 11), the device attributes (DA1) and the cursor position (DSR).
func answer(tty *os.File, out []byte) {
	s := string(out)
	if strings.Contains(s, "\x1b]11;?") {
		tty.WriteString("\x1b]11;rgb:0000/0000/0000\x1b\\")
	}
	if strings.Contains(s, "\x1b[c") {
		tty.WriteString("\x1b[?62;22c")
	}
	if strings.Contains(s, "\x1b[6n") {
		tty.WriteString("\x1b[1;1R")
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

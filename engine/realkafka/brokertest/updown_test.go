package brokertest

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/eoslab/eoslab/engine/realkafka"
)

// TestUpDown runs Up as `eoslab kafka up` does, reads BOOTSTRAP= from its
// stdout, checks the broker answers with the transaction.version asked
// for, then Down from "another process" (the pid file) and checks that no
// process and no data are left.
func TestUpDown(t *testing.T) {
	dir := t.TempDir()
	opts := profile
	opts.Dir = dir
	r, w := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- realkafka.Up(ctx, opts, w, io.Discard)
		w.Close()
	}()
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		t.Fatalf("no BOOTSTRAP line: %v (up: %v)", err, <-done)
	}
	go io.Copy(io.Discard, r)
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "BOOTSTRAP=127.0.0.1:")
	if !ok || addr == "" {
		t.Fatalf("stdout line = %q, want BOOTSTRAP=127.0.0.1:PORT", line)
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers("127.0.0.1:" + addr))
	if err != nil {
		t.Fatal(err)
	}
	tv, err := realkafka.TransactionVersion(ctx, kadm.NewClient(cl))
	cl.Close()
	if err != nil {
		t.Fatal(err)
	}
	if want := opts.TransactionVersion; want >= 0 && tv != want {
		t.Errorf("finalized transaction.version = %d, want %d", tv, want)
	}
	pids, err := os.ReadFile(realkafka.PIDFile(dir))
	if err != nil {
		t.Fatal(err)
	}
	fields := strings.Fields(string(pids))
	if len(fields) != 2 {
		t.Fatalf("pid file %q: want the up pid and one broker pid", pids)
	}
	// The up "process" is this test binary: Down must not signal it, so
	// it falls back to the broker's process group, as for a dead up.
	if err := realkafka.Down(dir, io.Discard); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		var se *realkafka.StartError
		if !errors.As(err, &se) {
			t.Errorf("Up after its broker was stopped underneath it = %v, want a StartError naming the exit", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Up did not return after Down")
	}
	var pid int
	for _, c := range fields[1] {
		pid = pid*10 + int(c-'0')
	}
	if err := syscall.Kill(pid, 0); err == nil {
		t.Errorf("broker process %d still runs after Down", pid)
	}
	for _, p := range []string{realkafka.PIDFile(dir), filepath.Join(dir, "run")} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left behind after Down (%v)", p, err)
		}
	}
}

// TestUpTwiceRefused: a second up on a running DIR is bad input.
func TestUpTwiceRefused(t *testing.T) {
	opts := profile
	opts.Dir = t.TempDir()
	if err := os.WriteFile(realkafka.PIDFile(opts.Dir), []byte("1\n2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := realkafka.Start(context.Background(), opts, io.Discard)
	if realkafka.ExitCode(err) != 2 {
		t.Fatalf("Start on a DIR with a pid file = %v, want a usage error (exit 2)", err)
	}
}

// TestStartFailureShowsLog: a broker that cannot start (a bad config
// value) is exit 1 with its last log lines.
func TestStartFailureShowsLog(t *testing.T) {
	opts := profile
	opts.Dir = t.TempDir()
	opts.Extra = []string{"transaction.state.log.min.isr=notanumber"}
	_, err := realkafka.Start(context.Background(), opts, io.Discard)
	var se *realkafka.StartError
	if !errors.As(err, &se) || realkafka.ExitCode(err) != 1 {
		t.Fatalf("Start with a bad property = %v, want a StartError (exit 1)", err)
	}
	if !strings.Contains(strings.Join(se.Log, "\n"), "notanumber") {
		t.Errorf("the error's log lines do not name the bad value:\n%s", err)
	}
	if _, err := os.Stat(filepath.Join(opts.Dir, "run")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed start left its run directory (%v)", err)
	}
}

// TestUpSignal: ending Up's context (SIGINT or SIGTERM in the CLI, which
// is what `kafka down` sends a live up) stops the broker and removes the
// data; Up returns nil.
func TestUpSignal(t *testing.T) {
	opts := profile
	opts.Dir = t.TempDir()
	r, w := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- realkafka.Up(ctx, opts, w, io.Discard); w.Close() }()
	if _, err := bufio.NewReader(r).ReadString('\n'); err != nil {
		t.Fatalf("no BOOTSTRAP line: %v", err)
	}
	go io.Copy(io.Discard, r)
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Up after its context ended = %v, want nil", err)
	}
	entries, _ := os.ReadDir(opts.Dir)
	for _, e := range entries {
		t.Errorf("left in DIR after Up returned: %s", e.Name())
	}
}

package cli

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// ptyRun starts this test binary as eoslab with args in a new
// pseudo-terminal whose line discipline starts cooked (echo, icanon).
type ptyRun struct {
	cmd  *exec.Cmd
	tty  *os.File // the terminal's side the program has
	ptm  *os.File
	mu   sync.Mutex
	out  bytes.Buffer
	done chan struct{}
}

func startPty(t *testing.T, args string) *ptyRun {
	t.Helper()
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	if err := pty.Setsize(ptm, &pty.Winsize{Rows: 24, Cols: 80}); err != nil {
		t.Fatal(err)
	}
	if before := (&ptyRun{tty: tty}).stty(t); !hasSetting(before, "echo") || !hasSetting(before, "icanon") {
		t.Skipf("the pseudo-terminal does not start cooked: %s", before)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	// CI= because termenv takes a set CI for "no terminal" and would then
	// never ask for the background colour this test signals during.
	cmd.Env = append(os.Environ(), "EOSLAB_TEST_AS_MAIN=1", "EOSLAB_TEST_ARGS="+args, "TERM=xterm-256color", "CI=", "EOSLAB_STATE_DIR="+t.TempDir())
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &ptyRun{cmd: cmd, tty: tty, ptm: ptm, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		buf := make([]byte, 4096)
		for {
			n, err := ptm.Read(buf)
			r.mu.Lock()
			r.out.Write(buf[:n])
			r.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = ptm.Close()
		_ = tty.Close()
	})
	return r
}

func (r *ptyRun) output() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.out.String()
}

// waitFor waits until the output holds s. The bound is there so that a
// hang fails the test instead of the run; nothing is measured against it.
func (r *ptyRun) waitFor(t *testing.T, s string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !strings.Contains(r.output(), s) {
		select {
		case <-r.done:
			t.Fatalf("the program ended before %q:\n%q", s, r.output())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %q in the output:\n%q", s, r.output())
		}
	}
}

// wait waits for the program to end, within the same hang bound.
func (r *ptyRun) wait(t *testing.T) error {
	t.Helper()
	ch := make(chan error, 1)
	go func() { ch <- r.cmd.Wait() }()
	select {
	case err := <-ch:
		return err
	case <-time.After(2 * time.Minute):
		t.Fatalf("the program did not end:\n%q", r.output())
		return nil
	}
}

// stty is the terminal's settings as stty -a prints them.
func (r *ptyRun) stty(t *testing.T) string {
	t.Helper()
	c := exec.Command("stty", "-a")
	c.Stdin = r.tty
	out, err := c.CombinedOutput()
	if err != nil {
		t.Skipf("stty: %v %s", err, out)
	}
	return string(out)
}

func hasSetting(stty, name string) bool {
	for _, f := range strings.Fields(stty) {
		if f == name {
			return true
		}
	}
	return false
}

// TestSignalsRestoreTheTerminal starts the TUI in a pseudo-terminal, sends
// each signal once the screen is up, and checks that the program ends with
// the terminal as it found it (echo and line editing on) and no goroutine
// dump.
func TestSignalsRestoreTheTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs eoslab in a pseudo-terminal")
	}
	for _, when := range []string{"start-up", "running"} {
		for _, sig := range []syscall.Signal{syscall.SIGQUIT, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT} {
			t.Run(when+"/"+sig.String(), func(t *testing.T) {
				signalCase(t, when, sig)
			})
		}
	}
}

// signalCase sends sig at start-up, while lipgloss asks the terminal for
// its background colour (termenv turns echo and icanon off to read the
// answer), or once the TUI runs (the queries answered).
func signalCase(t *testing.T, when string, sig syscall.Signal) {
	r := startPty(t, "")
	before := r.stty(t)
	if !hasSetting(before, "echo") || !hasSetting(before, "icanon") {
		t.Skipf("the pseudo-terminal does not start cooked: %s", before)
	}
	r.waitFor(t, "\x1b[6n")
	if when == "running" {
		if _, err := r.ptm.WriteString("\x1b]11;rgb:0000/0000/0000\x1b\\\x1b[1;1R"); err != nil {
			t.Fatal(err)
		}
		r.waitFor(t, "\x1b[?1049h") // the alternate screen: the TUI is up
		r.waitFor(t, "Lessons")
	}
	if err := r.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	err := r.wait(t)
	after := r.stty(t)
	out := r.output()
	if strings.Contains(out, "goroutine ") {
		t.Errorf("%v printed a goroutine dump:\n%s", sig, out)
	}
	for _, s := range []string{"echo", "icanon", "isig", "icrnl", "opost"} {
		if !hasSetting(after, s) {
			t.Errorf("after %v the terminal has -%s (err %v):\n%s", sig, s, err, after)
		}
	}
	// The program has ended, but its last bytes may still be on their way
	// through the pseudo-terminal to the reader: wait for them, bounded
	// only so that a missing one fails instead of hanging.
	for end := time.Now().Add(10 * time.Second); when == "running" && !strings.Contains(out, "\x1b[?1049l") && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond)
		out = r.output()
	}
	if when == "running" && !strings.Contains(out, "\x1b[?1049l") {
		t.Errorf("after %v the alternate screen was not left (err %v): %q", sig, err, out[max(0, len(out)-200):])
	}
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 128+int(sig) {
		t.Errorf("after %v: %v, want exit code %d", sig, err, 128+int(sig))
	}
}

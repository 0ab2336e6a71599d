package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/lessons/progress"
)

// runNoHang is runCLI for a command that might block on a FIFO: if it
// has not returned within the bound, the FIFO is opened for writing (which
// lets a blocked open go on) and the test fails. Nothing is measured
// against the bound; it turns a hang into a failure.
func runNoHang(t *testing.T, fifo string, args ...string) (int, string, string) {
	t.Helper()
	type res struct {
		code      int
		out, errs string
	}
	ch := make(chan res, 1)
	go func() {
		code, out, errs := runCLI(t, args...)
		ch <- res{code, out, errs}
	}()
	select {
	case r := <-ch:
		return r.code, r.out, r.errs
	case <-time.After(time.Minute):
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
		<-ch
		t.Fatalf("eoslab %s blocked on the FIFO %s", strings.Join(args, " "), fifo)
		return 0, "", ""
	}
}

func mkfifo(t *testing.T, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	return p
}

// TestFIFOsAreRefused gives a FIFO with no writer where eoslab reads a
// file by name: each command ends at once with exit 2 and the name.
func TestFIFOsAreRefused(t *testing.T) {
	runTUI = func(tea.Model) error { t.Error("the TUI opened"); return nil }
	defer func() { runTUI = tuiRunner }()
	dir := t.TempDir()
	scn, les := mkfifo(t, dir, "s.scn"), mkfifo(t, dir, "l.lesson")
	for _, c := range []struct {
		fifo string
		args []string
	}{
		{scn, []string{"check", scn}},
		{les, []string{"check", les}},
		{scn, []string{"run", scn}},
		{scn, []string{"run", "--json", scn}},
		{les, []string{"run", les}},
		{les, []string{"lesson", les}},
		{scn, []string{"sandbox", scn}},
	} {
		code, out, errs := runNoHang(t, c.fifo, c.args...)
		want := c.fifo + ": not a regular file (a named pipe); eoslab reads files only\n"
		if code != 2 || out != "" || errs != want {
			t.Errorf("eoslab %s: exit %d, out %q, err %q; want exit 2 and %q", strings.Join(c.args, " "), code, out, errs, want)
		}
	}
}

// TestFIFOKeysAreRefused gives serve a FIFO with no writer for its key
// files: it ends at once with exit 2, before anything listens.
func TestFIFOKeysAreRefused(t *testing.T) {
	dir := t.TempDir()
	key := mkfifo(t, dir, "key")
	for _, c := range []struct{ flag, what string }{
		{"--host-key", "host key"},
		{"--presenter-key", "presenter key"},
	} {
		code, out, errs := runNoHang(t, key, "serve", "--addr", "127.0.0.1:0", c.flag, key)
		want := "eoslab serve: cannot read the " + c.what + ": " + key + ": not a regular file (a named pipe); eoslab reads files only\n"
		if code != 2 || out != "" || errs != want {
			t.Errorf("serve %s FIFO: exit %d, out %q, err %q; want exit 2 and %q", c.flag, code, out, errs, want)
		}
	}
}

// TestFIFOProgressIsRefused puts a FIFO where progress.json goes: every
// command that reads the progress ends at once with exit 2 and the name,
// and the FIFO is left where it is.
func TestFIFOProgressIsRefused(t *testing.T) {
	runTUI = func(tea.Model) error { t.Error("the TUI opened"); return nil }
	defer func() { runTUI = tuiRunner }()
	dir := t.TempDir()
	t.Setenv(progress.EnvDir, dir)
	fifo := mkfifo(t, dir, progress.FileName)
	for _, args := range [][]string{{}, {"--no-color"}, {"lesson", "lost-ack"}, {"drill"}, {"drill", "--seed", "3"}, {"progress"}, {"progress", "--reset"}} {
		code, out, errs := runNoHang(t, fifo, args...)
		want := fifo + ": not a regular file (a named pipe); eoslab reads files only\n"
		if code != 2 || out != "" || errs != want {
			t.Errorf("eoslab %s: exit %d, out %q, err %q; want exit 2 and %q", strings.Join(args, " "), code, out, errs, want)
		}
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was moved or replaced: %v", err)
	}
}

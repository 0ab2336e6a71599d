package regfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
)

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "a.scn")
	if err := os.WriteFile(reg, []byte("send m1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(reg)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(f)
	f.Close()
	if string(b) != "send m1\n" {
		t.Fatalf("read %q", b)
	}
	link := filepath.Join(dir, "link.scn")
	if err := os.Symlink(reg, link); err == nil {
		if f, err := Open(link); err != nil {
			t.Errorf("a link to a regular file: %v", err)
		} else {
			f.Close()
		}
	}
	if _, err := Open(dir); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a directory: %v", err)
	}
	if _, err := Open(filepath.Join(dir, "none")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
	if runtime.GOOS != "windows" {
		fifo := filepath.Join(dir, "fifo.scn")
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Skip(err)
		}
		_, err := Open(fifo) // with no writer: must return, not block
		if !errors.Is(err, ErrNotRegular) || err.Error() != fifo+": not a regular file (a named pipe); eoslab reads files only" {
			t.Errorf("a FIFO: %v", err)
		}
	}
}

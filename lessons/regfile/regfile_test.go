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

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "k")
	if err := os.WriteFile(p, []byte("12345"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(p, 5); err != nil || string(b) != "12345" {
		t.Errorf("at the limit: %q, %v", b, err)
	}
	if _, err := ReadFile(p, 4); err == nil || err.Error() != p+": larger than 4 bytes" {
		t.Errorf("over the limit: %v", err)
	}
	if _, err := ReadFile(dir, 5); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a directory: %v", err)
	}
	if runtime.GOOS != "windows" {
		fifo := filepath.Join(dir, "fifo")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip(err)
		}
		if _, err := ReadFile(fifo, 5); !errors.Is(err, ErrNotRegular) {
			t.Errorf("a FIFO: %v", err)
		}
	}
}

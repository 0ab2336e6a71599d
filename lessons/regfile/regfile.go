// Package regfile opens a file for reading only when it is a regular file,
// without blocking on what is not: opening a FIFO that has no writer
// blocks forever, and a device (/dev/zero, a terminal) never ends. Every
// file eoslab reads by name (a scenario, a lesson, the progress file) goes
// through Open, so each is refused with its name instead of hanging.
//
// It imports only the standard library.
package regfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// NotRegularError is Open's error for a path that is not a regular file.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s: not a regular file (%s); eoslab reads files only", e.Path, kind(e.Mode))
}

// ErrNotRegular matches a *NotRegularError with errors.Is.
var ErrNotRegular = errors.New("not a regular file")

// Is makes errors.Is(err, ErrNotRegular) true.
func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a directory"
	}
	return "mode " + m.String()
}

// Open opens path for reading if it is a regular file (a symbolic link to
// one is followed). It looks first (Stat), then opens with O_NONBLOCK so
// that a FIFO swapped in after the look still cannot block the open, and
// checks again on the open file (Fstat), which is what is read. On a
// regular file O_NONBLOCK changes nothing. The errors are os.Open's (an
// *fs.PathError) or a *NotRegularError.
func Open(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Mode: st.Mode()}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err = f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &NotRegularError{Path: path, Mode: st.Mode()}
	}
	return f, nil
}

// ReadFile reads path, opened as Open does, and at most max bytes of it: a
// larger file is an error that names it and the limit. It is for the small
// files eoslab reads whole by name (a key file, a file of the state
// directory), so that none of them can block on a FIFO or fill the memory.
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(b)) > max {
		return nil, fmt.Errorf("%s: larger than %s", path, size(max))
	}
	return b, err
}

func size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

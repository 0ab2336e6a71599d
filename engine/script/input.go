package script

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"
)

// MaxFileBytes is the largest scenario or lesson file eoslab reads: 16 MiB.
// Hand-written files are a few kilobytes; the limit is there so that a
// wrong argument (a device, a pipe that never ends, a disk image) stops
// with a clear error instead of filling memory.
const MaxFileBytes = 16 << 20

// Lines reads a file one line at a time in constant memory, whatever its
// size and shape: a blank line costs nothing, and a line longer than
// MaxLineBytes is skipped through, counted but never held. It reads at most
// one byte past a limit of bytes (MaxFileBytes for NewLines), so an endless
// source stops there with an error.
//
// Lines are numbered from 1 and split as bytes.Split(src, "\n") would: a
// file that ends with a newline has an empty last line. A trailing "\r" is
// removed, and so is a UTF-8 byte order mark at the start of the file.
type Lines struct {
	file  string
	r     *bufio.Reader
	limit int64
	read  int64
	n     int
	text  string
	long  int
	done  bool
	err   *Error
}

// readBuffer is the size of the read buffer: lines up to this long are
// read in one piece; longer ones are skipped through in pieces.
const readBuffer = 64 << 10

// NewLines reads the file named file from r, up to MaxFileBytes.
func NewLines(file string, r io.Reader) *Lines { return newLines(file, r, MaxFileBytes) }

func newLines(file string, r io.Reader, limit int64) *Lines {
	return &Lines{file: file, r: bufio.NewReaderSize(io.LimitReader(r, limit+1), readBuffer), limit: limit}
}

// Next reads the next line. It returns false at the end of the file and
// when the file cannot be read further: then Err says why.
func (l *Lines) Next() bool {
	if l.done {
		return false
	}
	l.text, l.long = "", 0
	b, err := l.r.ReadSlice('\n')
	size := len(b)
	l.read += int64(size)
	if errors.Is(err, bufio.ErrBufferFull) {
		// Longer than the buffer, so far longer than any line may be:
		// read through it without keeping it.
		for errors.Is(err, bufio.ErrBufferFull) {
			b, err = l.r.ReadSlice('\n')
			size += len(b)
			l.read += int64(len(b))
		}
		l.long = size
		if bytes.HasSuffix(b, []byte("\n")) {
			l.long--
		}
		b = nil
	}
	if l.read > l.limit {
		l.done, l.err = true, tooLarge(l.file, l.limit)
		return false
	}
	switch {
	case err == io.EOF:
		l.done = true
	case err != nil:
		return l.fail("cannot read: " + err.Error())
	}
	l.n++
	b = bytes.TrimSuffix(b, []byte("\n"))
	b = bytes.TrimSuffix(b, []byte("\r"))
	if l.n == 1 {
		b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	}
	if len(b) > MaxLineBytes {
		l.long, b = len(b), nil
	}
	l.text = string(b)
	return true
}

func (l *Lines) fail(msg string) bool {
	l.done = true
	l.err = &Error{File: l.file, Msg: msg}
	return false
}

// Line is the number of the line Next read.
func (l *Lines) Line() int { return l.n }

// Text is the line Next read, without its line end; "" when it is too long.
func (l *Lines) Text() string { return l.text }

// TooLong is the length in bytes of the line Next read when it is longer
// than MaxLineBytes, and 0 otherwise.
func (l *Lines) TooLong() int { return l.long }

// TooLongError is the error for a line longer than MaxLineBytes.
func (l *Lines) TooLongError() *Error {
	return &Error{File: l.file, Line: l.n, Msg: lineTooLong(l.long)}
}

// Err is why reading stopped before the end of the file (the file is
// larger than the limit, or a read failed), as an *Error naming the file,
// or nil.
func (l *Lines) Err() error {
	if l.err == nil {
		return nil
	}
	return l.err
}

func lineTooLong(n int) string {
	return "line is " + strconv.Itoa(n) + " bytes long; the limit is " + strconv.Itoa(MaxLineBytes)
}

// FileTooLarge is the error for a file larger than MaxFileBytes, for a
// reader that knows the size before reading (a regular file).
func FileTooLarge(file string) *Error { return tooLarge(file, MaxFileBytes) }

func tooLarge(file string, limit int64) *Error {
	return &Error{File: file, Msg: "the file is larger than " + sizeText(limit) + ", the limit for a scenario or lesson file"}
}

// sizeText is a byte count as people read it: "16 MiB (16777216 bytes)".
func sizeText(n int64) string {
	s := strconv.FormatInt(n, 10) + " bytes"
	if n >= 1<<20 && n%(1<<20) == 0 {
		return strconv.FormatInt(n>>20, 10) + " MiB (" + s + ")"
	}
	return s
}

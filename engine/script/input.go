package script

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"strconv"
	"unicode/utf8"
)

// MaxFileBytes is the largest scenario or lesson file eoslab reads: 16 MiB.
// Hand-written files are a few kilobytes; the limit is there so that a
// wrong argument (a device, a pipe that never ends, a disk image) stops
// with a clear error instead of filling memory.
const MaxFileBytes = 16 << 20

// MaxLines is the most lines that are not blank a scenario or lesson file
// may hold. What a scenario keeps and checks grows with its lines (a parsed
// command, its checks, a lesson's steps), so this bounds the memory and the
// time of a check of any file under MaxFileBytes; 16 MiB of "run" lines
// would be four million of them. Hand-written files hold hundreds.
const MaxLines = 100_000

// Lines reads a file one line at a time in constant memory, whatever its
// size and shape: a blank line costs nothing, and a line longer than
// MaxLineBytes is skipped through, counted but never held. It reads at most
// one byte past a limit of bytes (MaxFileBytes for NewLines), so an endless
// source stops there with an error.
//
// Lines are numbered from 1 and split as bytes.Split(src, "\n") would: a
// file that ends with a newline has an empty last line. A trailing "\r" is
// removed, and so is a UTF-8 byte order mark at the start of the file.
// Blank lines are counted and skipped: both languages ignore them.
type Lines struct {
	file  string
	r     *bufio.Reader
	limit int64
	read  int64
	n     int
	text  string
	long  int
	kept  int // lines Next returned
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

// Next reads the next line that is not blank (empty once its "\r" is
// removed); Line still counts the blank lines. It returns false at the end
// of the file, where Line is the number of the last line, and when the
// file cannot be read further: then Err says why.
func (l *Lines) Next() bool {
	for !l.done {
		l.skipBlank()
		if l.read1() && (l.text != "" || l.long > 0) {
			if l.kept++; l.kept > MaxLines {
				l.done, l.text, l.long = true, "", 0
				l.err = &Error{File: l.file, Line: l.n, Msg: "more than " + strconv.Itoa(MaxLines) +
					" lines that are not blank, the limit for a scenario or lesson file"}
				return false
			}
			return true
		}
	}
	return false
}

// skipBlank passes over the blank lines already in the read buffer, a
// byte at a time rather than a line at a time: a file of blank lines reads
// at the speed of a memory scan.
func (l *Lines) skipBlank() {
	for {
		p, _ := l.r.Peek(l.r.Buffered())
		k, lines := 0, 0
		for k < len(p) {
			switch {
			case p[k] == '\n':
				k++
			case p[k] == '\r' && k+1 < len(p) && p[k+1] == '\n':
				k += 2
			default:
				goto done
			}
			lines++
		}
	done:
		if k == 0 {
			return
		}
		l.r.Discard(k)
		l.read += int64(k)
		l.n += lines
	}
}

// read1 reads one line into text (or its length into long). It returns
// false when there is none: at the end of the file or on an error.
func (l *Lines) read1() bool {
	l.text, l.long = "", 0
	b, err := l.r.ReadSlice('\n')
	size := len(b)
	l.read += int64(size)
	if err == bufio.ErrBufferFull {
		// Longer than the buffer, so far longer than any line may be:
		// keep its head (for the parsers to salvage the line's key or
		// declaration) and read through the rest without keeping it.
		head := string(headOf(b))
		for err == bufio.ErrBufferFull {
			b, err = l.r.ReadSlice('\n')
			size += len(b)
			l.read += int64(len(b))
		}
		l.long = size
		if bytes.HasSuffix(b, []byte("\n")) {
			l.long--
		}
		b = []byte(head)
	}
	if l.read > l.limit {
		l.done, l.err = true, tooLarge(l.file, l.limit)
		return false
	}
	switch {
	case err == io.EOF:
		l.done = true
	case err != nil:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the file is named already
		}
		return l.fail("cannot read: " + err.Error())
	}
	l.n++
	b = bytes.TrimSuffix(b, []byte("\n"))
	b = bytes.TrimSuffix(b, []byte("\r"))
	if l.n == 1 {
		b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	}
	if len(b) > MaxLineBytes {
		if l.long == 0 {
			l.long = len(b)
		}
		b = headOf(b)
	}
	l.text = string(b)
	return true
}

// headOf is the first MaxLineBytes bytes of a line, cut between
// characters.
func headOf(b []byte) []byte {
	if len(b) <= MaxLineBytes {
		return b
	}
	b = b[:MaxLineBytes]
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				b = b[:i]
			}
			break
		}
	}
	return b
}

func (l *Lines) fail(msg string) bool {
	l.done = true
	l.err = &Error{File: l.file, Msg: msg}
	return false
}

// Line is the number of the line Next read, or at the end of the file the
// number of the last line.
func (l *Lines) Line() int { return l.n }

// Text is the line Next read, without its line end; for a line longer
// than MaxLineBytes, its first MaxLineBytes bytes.
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

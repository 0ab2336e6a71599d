package script

import (
	"bytes"
	"errors"
	"io"
	"math/rand"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// Lines splits exactly as bytes.Split(src, "\n") did before it, with "\r"
// and the byte order mark removed, on inputs made of the pieces that
// matter: line ends, blank lines, CRs and long lines.
func TestLinesSplitsAsBefore(t *testing.T) {
	pieces := []string{"\n", "\r\n", "\r", "a", "topic t", " ", "\xef\xbb\xbf", strings.Repeat("x", MaxLineBytes-1),
		strings.Repeat("y", MaxLineBytes), strings.Repeat("z", MaxLineBytes+1)}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 2000; i++ {
		var b strings.Builder
		for range r.Intn(12) {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		src := b.String()
		want := bytes.Split(bytes.TrimPrefix([]byte(src), []byte("\xef\xbb\xbf")), []byte("\n"))
		in := NewLines("f", strings.NewReader(src))
		n := 0
		for in.Next() {
			// Next skips blank lines; Line still counts them.
			for n < len(want) && len(bytes.TrimSuffix(want[n], []byte("\r"))) == 0 {
				n++
			}
			if n >= len(want) {
				t.Fatalf("%.80q: more lines than bytes.Split", src)
			}
			w := string(bytes.TrimSuffix(want[n], []byte("\r")))
			n++
			if in.Line() != n {
				t.Fatalf("%.80q: line number %d, want %d", src, in.Line(), n)
			}
			switch {
			case len(w) > MaxLineBytes:
				// The head is kept for the parsers to salvage the line,
				// cut between characters.
				if h := in.Text(); in.TooLong() != len(w) || !strings.HasPrefix(w, h) || len(h) < MaxLineBytes-3 || len(h) > MaxLineBytes {
					t.Fatalf("%.80q line %d: TooLong %d text %d bytes, want TooLong %d", src, n, in.TooLong(), len(in.Text()), len(w))
				}
			case in.Text() != w || in.TooLong() != 0:
				t.Fatalf("%.80q line %d: %.80q (TooLong %d), want %.80q", src, n, in.Text(), in.TooLong(), w)
			}
		}
		for n < len(want) && len(bytes.TrimSuffix(want[n], []byte("\r"))) == 0 {
			n++
		}
		if in.Err() != nil || n != len(want) || in.Line() != len(want) {
			t.Fatalf("%.80q: %d lines, last %d, err %v; bytes.Split has %d", src, n, in.Line(), in.Err(), len(want))
		}
	}
}

// repeatReader yields n bytes of a pattern, without holding them.
type repeatReader struct {
	pattern []byte
	n, off  int64
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > r.n {
		p = p[:r.n]
	}
	n := 0
	for n < len(p) {
		k := copy(p[n:], r.pattern[r.off:])
		n += k
		r.off = (r.off + int64(k)) % int64(len(r.pattern))
	}
	r.n -= int64(n)
	return n, nil
}

// repeat reads n bytes of pattern over and over. The pattern is widened to
// a few kilobytes first, so that the reader copies in large pieces.
func repeat(pattern string, n int64) io.Reader {
	return &repeatReader{pattern: []byte(strings.Repeat(pattern, 8192/len(pattern)+1)[:8192/len(pattern)*len(pattern)]), n: n}
}

func TestFileOverTheLimit(t *testing.T) {
	for _, pattern := range []string{"\n", "x", "\x00\xff"} {
		_, err := ParseReader("big.scn", repeat(pattern, MaxFileBytes+1))
		want := "big.scn: the file is larger than 16 MiB (16777216 bytes), the limit for a scenario or lesson file"
		if err == nil || err.Error() != want {
			t.Fatalf("%q: got %v, want %s", pattern, err, want)
		}
	}
	// Exactly at the limit is fine.
	cmds, err := ParseReader("full.scn", repeat("\n", MaxFileBytes))
	if err != nil || len(cmds) != 0 {
		t.Fatalf("a file of MaxFileBytes blank lines: %d commands, %v", len(cmds), err)
	}
}

// TestDevZero: a device that never ends stops at the limit.
func TestDevZero(t *testing.T) {
	f, err := os.Open("/dev/zero")
	if err != nil {
		t.Skip("no /dev/zero here")
	}
	defer f.Close()
	_, err = ParseReader("/dev/zero", f)
	if err == nil || !strings.Contains(err.Error(), "/dev/zero: the file is larger than 16 MiB") {
		t.Fatalf("got %v", err)
	}
}

// BenchmarkDevZero is `eoslab run /dev/zero`'s parse: 16 MiB of NUL bytes
// read through and refused.
func BenchmarkDevZero(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		f, err := os.Open("/dev/zero")
		if err != nil {
			b.Skip("no /dev/zero here")
		}
		if _, err := ParseReader("/dev/zero", f); err == nil {
			b.Fatal("no error")
		}
		f.Close()
	}
}

// totalAlloc runs f and returns how many bytes it allocated in all.
func totalAlloc(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestBlankLinesInConstantMemory parses 100 MB of blank lines (past the
// file limit, which is lifted here) from a reader, 10 MB of CRLF blank
// lines and a 100 MB line: the parser allocates its read buffer and the
// commands, never the input. Splitting the input into a slice per line
// cost 2.5 GB for the first.
func TestBlankLinesInConstantMemory(t *testing.T) {
	size := int64(100 << 20)
	if raceEnabled {
		size /= 10
	}
	for _, tc := range []struct {
		name, pattern, tail string
		size                int64
	}{
		{"blank lines", "\n", "topic t\nproducer A\nA send t-0 x\n", size},
		{"blank lines with CR", "\r\n", "topic t\n", size / 10},
		{"one huge line", "x", "\ntopic t\n", size},
	} {
		var cmds []Command
		var err error
		alloc := totalAlloc(func() {
			in := newLines("f.scn", io.MultiReader(repeat(tc.pattern, tc.size), strings.NewReader(tc.tail)), 1<<40)
			cmds, err = parseLines(in)
		})
		if tc.name == "one huge line" {
			if err == nil || !strings.Contains(err.Error(), "f.scn:1: line is "+strconv.FormatInt(size, 10)+" bytes long; the limit is 4096") {
				t.Fatalf("%s: %v", tc.name, err)
			}
		} else if err != nil || len(cmds) != strings.Count(tc.tail, "\n") {
			t.Fatalf("%s: %d commands, %v", tc.name, len(cmds), err)
		}
		t.Logf("%s: %d bytes parsed with %d bytes allocated", tc.name, tc.size, alloc)
		if alloc > 1<<20 {
			t.Errorf("%s: %d bytes cost %d bytes of allocation; want under 1 MiB", tc.name, tc.size, alloc)
		}
	}
}

// BenchmarkBlankLines reports the bytes allocated to parse 1 MB and 100 MB
// of blank lines (past the file limit, lifted here): B/op is the read
// buffer at both sizes.
func BenchmarkBlankLines(b *testing.B) {
	for _, size := range []int64{1 << 20, 100 << 20} {
		b.Run(strconv.FormatInt(size>>20, 10)+"MB", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(size)
			for i := 0; i < b.N; i++ {
				if _, err := parseLines(newLines("f.scn", repeat("\n", size), 1<<40)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A binary file is wrong on nearly every line: its first MaxErrors errors
// are shown with their positions, the rest counted.
func TestBinaryFileErrors(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	src := make([]byte, 1<<20)
	r.Read(src)
	_, err := Parse("bin.scn", src)
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("got %T %v", err, err)
	}
	if len(list.Errors) != MaxErrors || list.More < 1000 {
		t.Fatalf("%d errors kept, %d counted", len(list.Errors), list.More)
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != MaxErrors+1 || lines[MaxErrors] != "and "+strconv.Itoa(list.More)+" more errors" {
		t.Fatalf("rendered as %d lines, last %q", len(lines), lines[len(lines)-1])
	}
	for _, l := range lines[:MaxErrors] {
		if !strings.HasPrefix(l, "bin.scn:") {
			t.Fatalf("error without its position: %q", l)
		}
	}
	if n := (ErrorList{Errors: list.Errors[:1], More: 1}).Error(); !strings.HasSuffix(n, "\nand 1 more error") {
		t.Errorf("one more: %q", n)
	}
}

package script

import (
	"runtime"
	"strings"
	"testing"
)

// TestFileAtTheLimitIsRefusedEarly reads 16 MiB of "run" lines (four
// million, under MaxFileBytes): the parser stops at line MaxLines+1 with
// the limit, having allocated a bounded amount, where it used to keep four
// million commands (1.3 GB, 15 s).
func TestFileAtTheLimitIsRefusedEarly(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ParseReader("big.scn", &repeatReader{pattern: []byte("run\n"), n: MaxFileBytes})
	runtime.ReadMemStats(&after)
	want := "big.scn:100001: more than 100000 lines that are not blank, the limit for a scenario or lesson file"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 200<<20 {
		t.Fatalf("allocated %d MB reading the file", alloc>>20)
	}
	// A file of exactly MaxLines lines, blank lines around them, is read.
	src := strings.Repeat("\n", 1000) + strings.Repeat("run\n", MaxLines) + strings.Repeat("\n", 1000)
	if cmds, err := ParseReader("ok.scn", strings.NewReader(src)); err != nil || len(cmds) != MaxLines {
		t.Fatalf("%d lines: %d commands, %v", MaxLines, len(cmds), err)
	}
}

// BenchmarkParseMaxLines parses a file of MaxLines "run" lines.
func BenchmarkParseMaxLines(b *testing.B) {
	src := strings.Repeat("run\n", MaxLines)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseReader("ok.scn", strings.NewReader(src)); err != nil {
			b.Fatal(err)
		}
	}
}

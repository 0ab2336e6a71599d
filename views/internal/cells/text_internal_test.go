package cells

import (
	"reflect"
	"testing"
)

func TestWrap(t *testing.T) {
	cases := []struct {
		in   string
		w    int
		want []string
	}{
		{"", 10, []string{""}},
		{"a b c", 10, []string{"a b c"}},
		{"partitions=[t-0 t-1] and __transaction_state-3", 22, []string{"partitions=[t-0 t-1]", "and", "__transaction_state-3"}},
		{"abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"one\n\ntwo", 10, []string{"one", "", "two"}},
		{"日本語の値", 4, []string{"日本", "語の", "値"}},
		{"x\ty", 10, []string{"x y"}},
	}
	for _, c := range cases {
		if got := Wrap(c.in, c.w); !reflect.DeepEqual(got, c.want) {
			t.Errorf("wrap(%q, %d) = %q, want %q", c.in, c.w, got, c.want)
		}
	}
}

func TestFitAndClean(t *testing.T) {
	if got := Fit("hello world", 5, "…"); got != "hell…" {
		t.Errorf("fit = %q", got)
	}
	if got := Fit("hi", 5, "…"); got != "hi   " {
		t.Errorf("fit pad = %q", got)
	}
	if got := Clean("a\x1b[31mb\tc\n"); got != `a\x1b[31mb c ` {
		t.Errorf("clean = %q", got)
	}
	// C1 controls and bidirectional overrides are escaped too, and
	// invalid UTF-8 shows its bytes.
	if got := Clean("\u009b2J x\u202eexe \xff"); got != `\u009b2J x\u202eexe \xff` {
		t.Errorf("clean = %q", got)
	}
	if got := ASCIIOnly("→ ok ✓ 日本"); got != "> ok v ????" {
		t.Errorf("asciiOnly = %q", got)
	}
}

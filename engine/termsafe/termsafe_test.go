package termsafe

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestUnsafe(t *testing.T) {
	for _, r := range []rune{0, 7, 8, 0x0d, 0x1b, 0x1f, 0x7f, 0x80, 0x85, 0x9b, 0x9d, 0x9f,
		0x61c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069} {
		if !Unsafe(r) {
			t.Errorf("U+%04X is not unsafe", r)
		}
	}
	for _, r := range []rune{'\t', '\n', ' ', 'a', '~', 0xa0, 0xe9, 0x61b, 0x200d, 0x2010, 0x2192, 0x2713, 0x65e5, 0x1f44d, 0xfffd} {
		if Unsafe(r) {
			t.Errorf("U+%04X is unsafe", r)
		}
	}
}

func TestDescribe(t *testing.T) {
	for r, want := range map[rune]string{
		0x1b:   "control character U+001B (ESC)",
		0x07:   "control character U+0007 (BEL)",
		0x7f:   "control character U+007F (DEL)",
		0x9b:   "C1 control character U+009B (CSI)",
		0x9d:   "C1 control character U+009D (OSC)",
		0x202e: "bidirectional control U+202E (RLO, right-to-left override)",
		0x061c: "bidirectional control U+061C (ALM, Arabic letter mark)",
	} {
		if got := Describe(r); got != want {
			t.Errorf("Describe(U+%04X) = %q, want %q", r, got, want)
		}
	}
}

func TestFind(t *testing.T) {
	for _, tc := range []struct {
		line  string
		tabOK bool
		col   int
		msg   string
	}{
		{"plain text, é and 日本 and 👍", true, 0, ""},
		{"a\tb", true, 0, ""},
		{"a\tb", false, 2, "control character U+0009 (HT) is not allowed"},
		{"title: x\x1b]0;pwned\x07", true, 9, "control character U+001B (ESC) is not allowed"},
		{"say: é\u009b31m", true, 7, "C1 control character U+009B (CSI) is not allowed"},
		{"日本\u202etxt.exe", true, 3, "bidirectional control U+202E (RLO, right-to-left override) is not allowed"},
		{"ab\xffcd", true, 3, "invalid UTF-8 (byte 0xff); the file must be UTF-8 text"},
		{"a\rb", true, 2, "control character U+000D (CR) is not allowed"},
	} {
		p, found := Find(tc.line, tc.tabOK)
		if found != (tc.col > 0) || (found && (p.Col != tc.col || p.Message() != tc.msg)) {
			t.Errorf("Find(%q) = %+v %v (%q), want col %d %q", tc.line, p, found, p.Message(), tc.col, tc.msg)
		}
	}
	if n := testing.AllocsPerRun(100, func() { Find("an ordinary line of a scenario: A send t-0 x", true) }); n != 0 {
		t.Errorf("Find allocates %v times on a clean line", n)
	}
}

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                  "plain",
		"tab\tand\nnewline":      "tab\tand\nnewline",
		"\x1b]0;title\x07":       `\x1b]0;title\x07`,
		"\x1b[2J":                `\x1b[2J`,
		"\x1b]52;c;ZXZpbA==\x07": `\x1b]52;c;ZXZpbA==\x07`,
		"a\u009b31mb":            `a\u009b31mb`,
		"exe.\u202etxt":          `exe.\u202etxt`,
		"bad \xff byte":          `bad \xff byte`,
		"\r\x7f":                 `\x0d\x7f`,
		"é 日本 👍":                 "é 日本 👍",
	} {
		got := Escape(in)
		if got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
		for _, r := range got {
			if Unsafe(r) {
				t.Errorf("Escape(%q) still holds U+%04X", in, r)
			}
		}
	}
	clean := "t=12 a: sends m3 a -> broker-1 InitProducerId transactionalId=x"
	if n := testing.AllocsPerRun(100, func() { Escape(clean) }); n != 0 {
		t.Errorf("Escape allocates %v times on a clean line", n)
	}
}

// The writer escapes what it is given, passes clean text through as it
// is, and keeps JSON valid and meaning the same: encoding/json escapes C0
// controls itself but writes C1 and bidirectional controls raw, and their
// \uXXXX escapes are JSON's own.
func TestWriter(t *testing.T) {
	var b bytes.Buffer
	w := Writer(&b)
	if n, err := w.Write([]byte("ok\n")); n != 3 || err != nil {
		t.Fatal(n, err)
	}
	if n, err := w.Write([]byte("name \x1b[2J\u202e\n")); n != len("name \x1b[2J\u202e\n") || err != nil {
		t.Fatal(n, err)
	}
	if got := b.String(); got != "ok\nname \\x1b[2J\\u202e\n" {
		t.Fatalf("wrote %q", got)
	}

	b.Reset()
	value := "v\u009b\u202e\x1b\x07\u200f"
	if err := json.NewEncoder(w).Encode(map[string]string{"text": value}); err != nil {
		t.Fatal(err)
	}
	for _, r := range b.String() {
		if Unsafe(r) {
			t.Fatalf("JSON output holds U+%04X: %q", r, b.String())
		}
	}
	var back map[string]string
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || back["text"] != value {
		t.Fatalf("escaped JSON %q reads back as %q (%v)", b.String(), back["text"], err)
	}
	if strings.Contains(b.String(), `\\u`) {
		t.Fatalf("escape written inside an escape: %q", b.String())
	}
}

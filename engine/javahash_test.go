package engine

import (
	"testing"
	"unicode/utf16"
)

// JavaStringHash hashes the UTF-16 code units Java's String holds, as a
// conversion through utf16.Encode does: ASCII, two-unit characters and
// bytes that are not UTF-8 (each one U+FFFD, as in Java's decoding).
func TestJavaStringHashCodeUnits(t *testing.T) {
	viaEncode := func(s string) int32 {
		var h int32
		for _, u := range utf16.Encode([]rune(s)) {
			h = 31*h + int32(u)
		}
		return h
	}
	for _, s := range []string{"", "a", "tx-1", "proc-800", "transactional-id-with-a-long-name",
		"é", "日本", "\U0001F600x", "a\xffb", "\xed\xa0\x80", "\xf4\x90\x80\x80"} {
		if got, want := JavaStringHash(s), viaEncode(s); got != want {
			t.Errorf("JavaStringHash(%q) = %d, want %d", s, got, want)
		}
	}
	if got := JavaStringHash("hello"); got != 99162322 { // "hello".hashCode() in Java
		t.Errorf(`JavaStringHash("hello") = %d, want 99162322`, got)
	}
}

package lessons

import (
	"errors"
	"io"
	"math/rand"
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine/script"
)

// A lesson's text reaches the learner's terminal (the list, the narration,
// run --lesson), so the characters a terminal acts on are refused where
// they stand, in prose as in commands, with the line and column. These are
// the lines of issue 7: a title that sets the window title, a summary that
// clears the screen, an OSC 52 clipboard write. Each makes exactly one
// error: the line still counts for what it declares or holds.
func TestHostileCharactersAreRefused(t *testing.T) {
	for _, tc := range []struct{ name, old, new, want string }{
		{"ESC in the title", "title: T", "title: T\x1b]0;pwned\x07",
			"x.lesson:1:9: control character U+001B (ESC) is not allowed"},
		{"screen clear in the summary", "summary: S", "summary: S\x1b[2J",
			"x.lesson:2:11: control character U+001B (ESC) is not allowed"},
		{"clipboard write in the narration", "say: A sends.", "say: A sends.\x1b]52;c;ZXZpbA==\x07",
			"x.lesson:10:16: control character U+001B (ESC) is not allowed"},
		{"C1 CSI in a choice", "choice: one record", "choice: one\u009b2J record",
			"x.lesson:13:14: C1 control character U+009B (CSI) is not allowed"},
		{"right-to-left override in a step title", "step: one", "step: o\u202ene",
			"x.lesson:9:8: bidirectional control U+202E (RLO, right-to-left override) is not allowed"},
		{"isolate in explain", "explain: because.", "explain: be\u2067cause.",
			"x.lesson:15:14: bidirectional control U+2067 (RLI, right-to-left isolate) is not allowed"},
		{"bell in a setup line", "  topic t", "  topic t\a",
			"x.lesson:6:10: control character U+0007 (BEL) is not allowed"},
		{"DEL in a do: line", "do: run", "do: run\x7f",
			"x.lesson:19:10: control character U+007F (DEL) is not allowed"},
		{"invalid UTF-8 in intro", "level: basics", "level: basics\nintro: caf\xe9",
			"x.lesson:4:11: invalid UTF-8 (byte 0xe9); the file must be UTF-8 text"},
	} {
		_, err := Parse("x.lesson", []byte(edit(t, tc.old, tc.new)))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.name, err, tc.want)
		}
	}
	// Tabs are indentation here, as spaces are.
	if _, err := Parse("x.lesson", []byte(edit(t, "  say: A sends.", "\tsay:\tA sends."))); err != nil {
		t.Errorf("a tab: %v", err)
	}
}

// A file that is not a lesson at all: at most script.MaxErrors errors, then
// a count; a file over the limit: one error, read no further.
func TestLessonLimits(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	bin := make([]byte, 256<<10)
	r.Read(bin)
	_, err := Parse("bin.lesson", bin)
	var list script.ErrorList
	if !errors.As(err, &list) || len(list.Errors) != script.MaxErrors || list.More == 0 ||
		!strings.HasSuffix(err.Error(), " more errors") {
		t.Fatalf("binary lesson: %d errors kept, %d counted: %.200v", len(list.Errors), list.More, err)
	}
	_, err = ParseReader("big.lesson", io.LimitReader(zeros{}, script.MaxFileBytes+1))
	if err == nil || !strings.Contains(err.Error(), "big.lesson: the file is larger than 16 MiB") {
		t.Fatalf("big lesson: %v", err)
	}
	long := edit(t, "say: It runs.", "say: "+strings.Repeat("word ", script.MaxLineBytes/5+1))
	if _, err := Parse("x.lesson", []byte(long)); err == nil || err.Error() != "x.lesson:18: line is 4107 bytes long; the limit is 4096" {
		t.Fatalf("long line: %v", err)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

package adapt

import (
	"strings"
	"testing"
)

// The Kafka switch's message keeps its words in an 80-column status line.
func TestSandboxStatusCutShowsEllipsis(t *testing.T) {
	b := newSbox(t, "idempotent", 80, 24)
	b.press("s", "n", "n", "n", "v")
	st := b.model().Flash()
	if !strings.HasPrefix(st, "Kafka 4") {
		t.Fatalf("v said %q", st)
	}
	if len([]rune(st)) > 79 {
		t.Errorf("the Kafka switch's message is %d columns: %q", len([]rune(st)), st)
	}
}

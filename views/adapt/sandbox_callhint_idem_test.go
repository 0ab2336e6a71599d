package adapt

import (
	"strings"
	"testing"
)

// A producer without a transactional.id is offered what it can call
// (send), never initTransactions; a transactional one still is.
func TestSandboxCallHintNonTransactional(t *testing.T) {
	for _, c := range []struct {
		preset   string
		txn      bool
		w, h     int
		hintWant string
	}{
		{"idempotent", false, 80, 24, "s makes P call send"},
		{"idempotent", false, 60, 20, "s makes P call send"},
		{"idempotent", false, 200, 60, "s makes P call send"},
		{"zombie", true, 80, 24, "s makes A call send"},
	} {
		b := newSbox(t, c.preset, c.w, c.h)
		// The Waiting panel's text, its wrapped rows joined.
		var rows []string
		for _, ln := range strings.Split(b.m.View(), "\n") {
			if in, ok := strings.CutPrefix(ln, "┃"); ok {
				in, _, _ = strings.Cut(in, "┃")
				rows = append(rows, in)
			}
		}
		screen := strings.Join(strings.Fields(strings.Join(rows, " ")), " ")
		if !strings.Contains(screen, "Nothing is waiting") {
			t.Fatalf("%s at %dx%d: no Waiting hint:\n%s", c.preset, c.w, c.h, b.m.View())
		}
		if got := strings.Contains(screen, "initTransactions"); got != c.txn {
			t.Errorf("%s at %dx%d: initTransactions offered %v, want %v:\n%s", c.preset, c.w, c.h, got, c.txn, b.m.View())
		}
		if !strings.Contains(screen, c.hintWant) {
			t.Errorf("%s at %dx%d: the hint does not say %q:\n%s", c.preset, c.w, c.h, c.hintWant, b.m.View())
		}
	}
}

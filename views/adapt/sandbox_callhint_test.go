package adapt

import (
	"strings"
	"testing"
)

// With a consumer selected, the empty Waiting panel names the consumer's
// call (poll), and s (a producer's send) is refused in one 80-column line
// that cites no line of the setup the sandbox does not show.
func TestSandboxCallHintFitsClient(t *testing.T) {
	b := newSbox(t, "ctp", 80, 24)
	for i := 0; i < 8 && b.model().Flash() != "the call keys act on C"; i++ {
		b.press("]")
	}
	screen := b.m.View()
	if !strings.Contains(screen, "p makes C") || !strings.Contains(screen, "call poll") || strings.Contains(screen, "call send") {
		t.Errorf("Waiting hint for consumer C:\n%s", screen)
	}
	b.press("s")
	st := b.model().Flash()
	if !strings.Contains(st, "C is a consumer and has no send call: p makes C call poll") ||
		strings.Contains(st, "line ") || len([]rune(st)) > 80 {
		t.Errorf("s on consumer C said %q", st)
	}
}

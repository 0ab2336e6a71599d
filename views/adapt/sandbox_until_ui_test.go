package adapt

import (
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine/script"
)

// TestSandboxRunUntil: U opens the prompt on "until "; the world steps
// until the condition holds, recorded as one "step N"; a condition that
// never comes within the bound says so and leaves the world as it was;
// what is no condition is refused under the line. Before, "until" was no
// command.
func TestSandboxRunUntil(t *testing.T) {
	b := newSbox(t, "zombie", 80, 24)
	b.press("i", "R", "b", "s", "R", "m")
	n := b.sb().Len()
	b.press("U")
	if open, line, _, _ := b.model().Prompt(); !open || line != "until " {
		t.Fatalf("U: prompt open %v on %q", open, line)
	}
	b.typeLine("txn app state PrepareCommit")
	b.press("enter")
	x := b.sb()
	if x.Len() != n+1 || !strings.HasPrefix(x.branch().line(x.Len()), "step ") {
		t.Fatalf("until PrepareCommit: %d steps (was %d), last %q; %s", x.Len(), n, x.branch().line(x.Len()), b.model().Flash())
	}
	if f := b.model().Flash(); !strings.Contains(f, "txn app state PrepareCommit holds after") {
		t.Errorf("until PrepareCommit says %q", f)
	}
	c, _ := script.ParseLine("t", 1, "expect txn app state PrepareCommit", x.decls())
	if ok, found, _ := script.Check(x.world(), *c); !ok {
		t.Errorf("after until, the state is %s", found)
	}
	// It stopped at the first step where it held: one step less did not.
	x.Seek(x.Len() - 1)
	if ok, _, _ := script.Check(x.world(), *c); ok {
		// The step before was at the same world only if N was 0.
		t.Errorf("until ran past the first step where PrepareCommit held")
	}
	x.Seek(x.Len())

	b.press(":")
	b.typeLine("until event kind=marker")
	b.press("enter")
	if f := b.model().Flash(); !strings.Contains(f, "event kind=marker holds after") || x.Len() != n+2 {
		t.Errorf("until a marker: %q, %d steps", f, x.Len())
	}

	b.press("R", ":")
	n = x.Len()
	b.typeLine("until markers 99")
	b.press("enter")
	if _, _, perr, _ := b.model().Prompt(); !strings.Contains(perr, "markers 99 never came") || x.Len() != n {
		t.Errorf("a condition that never comes: %q, %d steps (was %d)", perr, x.Len(), n)
	}
	b.press("esc", ":")
	b.typeLine("until A send t-0 x")
	b.press("enter")
	if _, _, perr, _ := b.model().Prompt(); perr == "" || x.Len() != n {
		t.Errorf("an action after until: %q, %d steps", perr, x.Len())
	}
	if err := playFile([]byte(x.Scenario())); err != nil {
		t.Errorf("the branch with step N does not replay: %v\n%s", err, x.Scenario())
	}
}

// TestSandboxUntilTabCompletes: after U, tab completes what an expect line
// checks, a word at a time, from the declared names and Kafka's own names
// (the transactional id, its field, the coordinator's states); the
// completed line runs. Before, nothing followed "until" on tab.
func TestSandboxUntilTabCompletes(t *testing.T) {
	b := newSbox(t, "zombie", 80, 24)
	b.press("i", "R", "b", "s", "R", "m")
	b.press("U")
	for _, c := range []struct{ typed, want string }{
		{"tx", "until txn"},
		{" a", "until txn app"},
		{" st", "until txn app state"},
		{" PrepareC", "until txn app state PrepareCommit"},
	} {
		b.typeLine(c.typed)
		b.press("tab")
		if _, line, _, _ := b.model().Prompt(); line != c.want {
			t.Fatalf("typed %q then tab: prompt %q, want %q", c.typed, line, c.want)
		}
	}
	b.press("enter")
	if f := b.model().Flash(); !strings.Contains(f, "txn app state PrepareCommit holds after") {
		t.Errorf("the completed line says %q", f)
	}
}

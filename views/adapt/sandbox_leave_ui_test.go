package adapt

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/internal/viewtest"
	"github.com/eoslab/eoslab/views/sandbox"
)

// step presses k through Step, as the root does, and reports whether the
// sandbox said it was left.
func (b *sbox) step(k string) bool {
	b.t.Helper()
	sb, cmd, out := b.model().Step(viewtest.Key(k))
	b.m = sb
	if cmd != nil && k == "w" {
		b.m, _ = b.m.Update(cmd())
	}
	viewtest.CheckScreen(b.t, b.m.View(), b.w, b.h, "after "+k)
	_, left := out.(sandbox.LeftMsg)
	return left
}

// TestSandboxQuitAsksWhenNotSaved: q leaves at once while every branch is
// as it was opened or saved; after an action, or a switch that makes a
// new branch, q asks on one line, and only y leaves: n, esc or any other
// key stays, and does nothing else. With saving off there is nothing to
// save, and q leaves.
func TestSandboxQuitAsksWhenNotSaved(t *testing.T) {
	b := newSbox(t, "idempotent", 80, 24)
	if !b.step("q") {
		t.Fatal("q on a preset as opened did not leave")
	}

	b = newSbox(t, "idempotent", 80, 24)
	b.press("s")
	n := b.sb().Len()
	for _, stay := range []string{"esc", "n", "x", "enter"} {
		if b.step("q") {
			t.Fatal("q left with branch 1 not saved")
		}
		v := ansi.Strip(b.m.View())
		if got := b.model().ScreenName(); got != "sandbox leaving" || !strings.Contains(v, "leave? branch 1 is not saved") ||
			!strings.Contains(v, "y leaves; n, esc or any other key stays") {
			t.Fatalf("q did not ask (screen %q):\n%s", got, v)
		}
		if b.step(stay) {
			t.Fatalf("%s after q left", stay)
		}
		if got := b.model().ScreenName(); got != "sandbox" || b.sb().Len() != n || len(b.sb().Waiting()) == 0 {
			t.Fatalf("%s after q: screen %q, %d steps (want %d), waiting %v", stay, got, b.sb().Len(), n, b.sb().Waiting())
		}
		if v := ansi.Strip(b.m.View()); strings.Contains(v, "leave?") {
			t.Fatalf("%s after q: the question stays:\n%s", stay, v)
		}
	}

	// Saved, q leaves.
	b.press("w")
	if len(b.saved) != 1 {
		t.Fatalf("w saved %d files", len(b.saved))
	}
	if !b.step("q") {
		t.Fatal("q after w did not leave")
	}

	// A switch makes branch 2, which is not saved; y leaves.
	b = newSbox(t, "idempotent", 80, 24)
	b.press("s", "w", "1")
	if b.step("q") {
		t.Fatal("q left with the switched branch not saved")
	}
	if v := ansi.Strip(b.m.View()); !strings.Contains(v, "leave? branch 2 (enable.idempotence=false) is not saved") {
		t.Errorf("the question does not name branch 2:\n%s", v)
	}
	if !b.step("y") {
		t.Fatal("y did not leave")
	}

	// Two branches changed: both named.
	b = newSbox(t, "idempotent", 80, 24)
	b.press("s", "1")
	b.step("q")
	if v := ansi.Strip(b.m.View()); !strings.Contains(v, "leave? 2 branches are not saved: branch 1, branch 2") {
		t.Errorf("the question does not name both branches:\n%s", v)
	}

	// Saving off (a served sandbox): q leaves.
	b = newSbox(t, "idempotent", 80, 24)
	b.press("s")
	b.m = views.NewSandbox(nil, nil, b.sb(), views.Options{NoFiles: true,
		SaveFile: func(string, []byte) (string, error) { return "", nil }})
	b.m, _ = b.m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	b.press("s")
	if !b.step("q") {
		t.Fatal("q with saving off did not leave")
	}

	// A reopened file stands as saved.
	b = newSbox(t, "idempotent", 80, 24)
	b.press("s", "n", "w")
	x, err := OpenSandboxFile("again.scn", b.saved[b.sb().SaveName()])
	if err != nil {
		t.Fatal(err)
	}
	b.m = views.NewSandbox(nil, nil, x, views.Options{SaveFile: func(string, []byte) (string, error) { return "", nil }})
	b.m, _ = b.m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if !b.step("q") {
		t.Fatal("q on a reopened file did not leave")
	}
}

// TestHomeSandboxQuitAsks: from the home list, q in the sandbox with an
// action not saved asks; esc stays in the sandbox, q and y go home.
func TestHomeSandboxQuitAsks(t *testing.T) {
	opts := views.Options{OpenSandbox: openPreset, SandboxPresets: SandboxPresets(),
		SaveFile: func(name string, _ []byte) (string, error) { return name, nil }}
	var m tea.Model = views.NewApp(Lessons(), Open, opts)
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	press := func(keys ...string) {
		for _, k := range keys {
			m, _ = m.Update(viewtest.Key(k))
			viewtest.CheckScreen(t, m.View(), 80, 24, "home sandbox "+k)
		}
	}
	press("s", "1", "s", "q")
	if got := m.(views.App).ScreenName(); got != "sandbox leaving" {
		t.Fatalf("q in the sandbox: screen %q", got)
	}
	press("esc")
	if got := m.(views.App).ScreenName(); got != "sandbox" {
		t.Fatalf("esc after q: screen %q", got)
	}
	press("q", "y")
	if m.(views.App).SandboxOpen() || m.(views.App).ScreenName() != "home" {
		t.Fatalf("q y did not go home: %q", m.(views.App).ScreenName())
	}
}

package adapt

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/model"
)

// bar is the safeguards bar of the view: its two lines under the header,
// without styles.
func (b *sbox) bar() string {
	lines := strings.Split(ansi.Strip(b.m.View()), "\n")
	return strings.Join(lines[1:3], "\n")
}

// TestSandboxSwitchesAsTheFileSetsThem: a teaching switch may be set at
// any step (config eoslab.lso=false after the first send). The bar shows
// the switches as the world has them, typed at the prompt and in the file
// that w saves and the sandbox reopens; before, it showed the setup's
// switches ("on") whatever the steps had set. A switch a step sets cannot
// be flipped by playing the setup again: 4-6 there say which step sets it,
// and no branch is made; before that step, it switches as ever.
func TestSandboxSwitchesAsTheFileSetsThem(t *testing.T) {
	b := newSbox(t, "idempotent", 80, 24)
	b.press("s", ":")
	b.typeLine("config eoslab.broker.dedup=false eoslab.lso=false")
	b.press("enter", ":")
	b.typeLine("config eoslab.epoch.fencing=false")
	b.press("enter")
	for _, want := range []string{"4 dedup* ! OFF", "5 fencing* ! OFF", "6 LSO* ! OFF"} {
		if bar := b.bar(); !strings.Contains(bar, want) {
			t.Errorf("after the config lines the bar has no %q:\n%s", want, bar)
		}
	}
	b.press("w")
	data := b.saved[b.sb().SaveName()]
	if !strings.Contains(string(data), "\nconfig eoslab.epoch.fencing=false\n") {
		t.Fatalf("the saved file has no config line:\n%s", data)
	}

	x, err := OpenSandboxFile("switches.scn", data)
	if err != nil {
		t.Fatal(err)
	}
	r := &sbox{t: t, w: 80, h: 24, saved: map[string][]byte{}}
	r.m = views.NewSandbox(nil, nil, x, views.Options{})
	r.m, _ = r.m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	for _, want := range []string{"4 dedup* ! OFF", "5 fencing* ! OFF", "6 LSO* ! OFF", "1 idempotence ✓ on"} {
		if bar := r.bar(); !strings.Contains(bar, want) {
			t.Errorf("the reopened file's bar has no %q:\n%s", want, bar)
		}
	}
	for _, g := range x.Safeguards() {
		if g.NotKafka && (g.On || g.Value != "false") {
			t.Errorf("reopened: %s=%s on=%v, the file sets it false", g.Key, g.Value, g.On)
		}
	}

	// At the end, step 2 sets switch 6: 6 says so and makes no branch.
	r.press("6")
	if n := len(x.Branches()); n != 1 {
		t.Errorf("6 after the step that sets it made a branch: %d branches", n)
	}
	if v := ansi.Strip(r.m.View()); !strings.Contains(v, "step 2 sets eoslab.lso: go back before it (←) to switch it") {
		t.Errorf("6 does not say which step sets it:\n%s", v)
	}
	// Before the config lines the switches are on, and 6 switches it.
	r.press("<")
	if bar := r.bar(); !strings.Contains(bar, "6 LSO* ✓ on") {
		t.Errorf("at the setup the bar shows:\n%s", bar)
	}
	r.press("6")
	if n := len(x.Branches()); n != 2 || !x.Safeguards()[model.GuardLSO].NotKafka || x.Safeguards()[model.GuardLSO].On {
		t.Errorf("6 at the setup: %d branches, %+v", n, x.Safeguards()[model.GuardLSO])
	}
	if bar := r.bar(); !strings.Contains(bar, "6 LSO* ! OFF") {
		t.Errorf("after 6 at the setup the bar shows:\n%s", bar)
	}
}

// TestSandboxIsolationSwitchNamesTheSafeguard: at 80 columns the bar names
// switch 2 by the safeguard it is, read_committed, on or OFF; before, an
// isolation switched off read "2 read_uncommitted ! OFF", which says the
// opposite of what the world does.
func TestSandboxIsolationSwitchNamesTheSafeguard(t *testing.T) {
	b := newSbox(t, "zombie", 80, 24)
	if bar := b.bar(); !strings.Contains(bar, "2 read_committed ✓ on") {
		t.Errorf("before the switch:\n%s", bar)
	}
	b.press("2")
	bar := b.bar()
	if !strings.Contains(bar, "2 read_committed ! OFF") || strings.Contains(bar, "read_uncommitted") {
		t.Errorf("after 2:\n%s", bar)
	}
}

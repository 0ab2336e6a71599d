package adapt

import (
	"bytes"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/internal/viewtest"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/sandbox"
)

// sbox is the sandbox screen on a real engine, driven by keys only, as a
// learner would. The test reads typed values (the session, the monitors)
// to decide which key to press and what to check.
type sbox struct {
	t     testing.TB
	m     tea.Model
	w, h  int
	saved map[string][]byte
}

func openPreset(name string) (model.SandboxSession, error) { return OpenSandbox(name) }

func newSbox(t testing.TB, preset string, w, h int) *sbox {
	t.Helper()
	b := &sbox{t: t, w: w, h: h, saved: map[string][]byte{}}
	opts := views.Options{SaveFile: func(name string, data []byte) (string, error) {
		b.saved[name] = data
		return name, nil
	}}
	b.m = views.NewSandbox(SandboxPresets(), openPreset, nil, opts)
	b.m, _ = b.m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	for i, p := range SandboxPresets() {
		if p.Name == preset {
			b.press(string(rune('1' + i)))
		}
	}
	if b.model().Session() == nil {
		t.Fatalf("preset %q did not open", preset)
	}
	return b
}

func (b *sbox) press(keys ...string) {
	for _, k := range keys {
		var cmd tea.Cmd
		b.m, cmd = b.m.Update(viewtest.Key(k))
		// A save runs as a command: run it, as Bubble Tea would.
		if cmd != nil && k == "w" {
			b.m, _ = b.m.Update(cmd())
		}
		viewtest.CheckScreen(b.t, b.m.View(), b.w, b.h, "after "+k)
	}
}

func (b *sbox) typeLine(s string) {
	for _, r := range s {
		b.press(string(r))
	}
}

func (b *sbox) model() sandbox.Model { return b.m.(sandbox.Model) }
func (b *sbox) sb() *Sandbox         { return b.model().Session().(*Sandbox) }

// selectWaiting moves the selection to the first waiting item ok accepts,
// stepping the world (n) until there is one.
func (b *sbox) selectWaiting(what string, ok func(model.WaitItem) bool) {
	b.t.Helper()
	for tries := 0; tries < 60; tries++ {
		for i, it := range b.sb().Waiting() {
			if ok(it) {
				for b.model().Selected() < i {
					b.press("down")
				}
				for b.model().Selected() > i {
					b.press("up")
				}
				return
			}
		}
		b.press("n")
	}
	b.t.Fatalf("no %s came; waiting: %+v", what, b.sb().Waiting())
}

func produceResponseTo(p string) func(model.WaitItem) bool {
	return func(it model.WaitItem) bool {
		return it.Kind == "ProduceResponse" && strings.Contains(it.Text, "-> "+p+" ")
	}
}

func TestSandboxKeysLostAckEachPreset(t *testing.T) {
	for _, p := range SandboxPresets() {
		for _, idem := range []bool{true, false} {
			b := newSbox(t, p.Name, 80, 24)
			if !idem {
				b.press("1") // enable.idempotence=false
			}
			prod := b.sb().Clients()[0]
			if prod.Transactional {
				b.press("i", "R", "b")
			}
			b.press("s")
			b.selectWaiting("ProduceResponse", produceResponseTo(prod.Name))
			b.press("x", "R")
			m := monitor(b.sb(), "duplicate-record")
			if m.Holds != idem {
				t.Errorf("%s, idempotence %v: no record written twice holds = %v\n%s", p.Name, idem, m.Holds, b.sb().Scenario())
			}
			shown := b.model().CauseShown()
			if idem && shown != "" || !idem && shown != "duplicate-record" {
				t.Errorf("%s, idempotence %v: cause shown for %q", p.Name, idem, shown)
			}
			if !idem {
				view := b.m.View()
				for _, want := range []string{"BROKEN", "a record written twi", "Why", "1. send: " + prod.Name + " sends Produce"} {
					if !strings.Contains(view, want) {
						t.Errorf("%s: the screen lacks %q:\n%s", p.Name, want, view)
					}
				}
				all := strings.Join(m.Cause, "\n")
				if !strings.Contains(all, "fault: the network loses ProduceResponse") || !strings.Contains(all, "REQUEST_TIMED_OUT") {
					t.Errorf("%s: the chain lacks the lost answer or the retry: %q", p.Name, m.Cause)
				}
				if c := m.Cause; len(c) == 0 || !strings.HasPrefix(c[len(c)-1], "violation: ") || !strings.Contains(c[len(c)-1], "duplicate-record") {
					t.Errorf("%s: the chain does not end with the violation: %q", p.Name, c)
				}
				// The cause stays until dismissed, then goes.
				b.press("n", "esc")
				if s := b.model().CauseShown(); s != "" {
					t.Errorf("%s: esc left the cause of %q on screen", p.Name, s)
				}
			}
		}
	}
}

// TestSandboxZombieFenced pauses A in an open transaction, starts B with
// the same transactional.id, resumes A: A is fenced and every guarantee
// holds.
func TestSandboxZombieFenced(t *testing.T) {
	b := newSbox(t, "zombie", 80, 24)
	b.press("i", "R", "b", "s", "R") // A: init, begin, send
	b.press("z")                     // A pauses: the zombie
	b.press("]", "i", "R")           // B: initTransactions fences A's epoch
	b.press("[", "z", "m", "R")      // A resumes and tries to commit
	var a model.ProducerView
	for _, pv := range b.sb().Frame("", 0).Producers {
		if pv.Name == "A" {
			a = pv
		}
	}
	if !a.Fenced && a.ErrorTone != model.ToneFenced {
		t.Errorf("A is not fenced: %+v\n%s", a, b.sb().Scenario())
	}
	for _, m := range b.sb().Monitors() {
		if !m.Holds {
			t.Errorf("%s broke: %q", m.Name, m.Cause)
		}
	}
}

// TestSandboxZombieFencingOff: with epoch fencing switched off (a
// teaching-only switch), the zombie's write is read by read_committed and
// a monitor says so.
func TestSandboxZombieFencingOff(t *testing.T) {
	b := newSbox(t, "zombie", 80, 24)
	var g model.Safeguard
	for _, s := range b.sb().Safeguards() {
		if s.ID == model.GuardFencing {
			g = s
		}
	}
	if !g.Available {
		t.Skip("the engine has no eoslab.epoch.fencing switch yet")
	}
	b.press("5")
	b.press("i", "R", "b", "s", "R")      // A: init, begin, send a1
	b.press("z")                          // A pauses
	b.press("]", "i", "R", "b", "s", "R") // B fences A, opens its own transaction
	b.press("[", "z", "s", "R")           // A wakes up and sends a2 with its old epoch
	b.press("]", "m", "R")                // B commits
	b.press("]", "p", "R")                // C polls with read_committed
	m := monitor(b.sb(), "fenced-write")
	if m.Holds || len(m.Cause) == 0 {
		t.Errorf("with epoch fencing off, fenced-write holds or has no cause: %+v\n%s", m, b.sb().Scenario())
	}
	if !strings.Contains(strings.Join(m.Cause, "\n"), "eoslab.epoch.fencing") {
		t.Errorf("the cause does not name the switch: %q", m.Cause)
	}
	var got []string
	for _, c := range b.sb().Frame("", 0).Consumers {
		for _, r := range c.Records {
			got = append(got, r.Value)
		}
	}
	if strings.Join(got, ",") != "b1,a2" {
		t.Errorf("read_committed C returned %q, want the zombie's a2 with b1", got)
	}
	if b.model().CauseShown() != "fenced-write" {
		t.Errorf("cause shown: %q", b.model().CauseShown())
	}
}

// TestSandboxFork goes back 5 steps, acts, and switches back: both
// branches are intact.
func TestSandboxFork(t *testing.T) {
	b := newSbox(t, "idempotent", 80, 24)
	b.press("s", "n", "n", "n", "s", "n", "n", "n")
	first := b.sb().Scenario()
	if b.sb().Len() != 8 {
		t.Fatalf("%d actions", b.sb().Len())
	}
	b.press("left", "left", "left", "left", "left")
	if b.sb().Pos() != 3 {
		t.Fatalf("back 5 from 8 is at %d", b.sb().Pos())
	}
	b.press("R")
	second := b.sb().Scenario()
	if bs := b.sb().Branches(); len(bs) != 2 || bs[1].Len != 4 || bs[1].Parent != 0 || bs[1].At != 3 {
		t.Fatalf("branches: %+v", bs)
	}
	b.press("B", "1")
	if b.sb().Branch() != 0 || b.sb().Scenario() != first || b.sb().Len() != 8 || b.sb().Pos() != 3 {
		t.Fatalf("branch 1 changed: at %d of %d\n%s", b.sb().Pos(), b.sb().Len(), b.sb().Scenario())
	}
	b.press(">")
	if b.sb().Pos() != 8 {
		t.Fatalf("> went to %d", b.sb().Pos())
	}
	b.press("B", "2")
	if b.sb().Scenario() != second {
		t.Fatalf("branch 2 changed:\n%s", b.sb().Scenario())
	}
	if !strings.HasSuffix(second, "run\n") || strings.Count(second, "\n") != strings.Count(first, "\n")-4 {
		t.Fatalf("branch 2 is not the first 3 actions and run:\n%s", second)
	}
}

// TestSandboxPrompt: a bad line is refused inline with what was expected;
// the world and the typed line stay; completion offers verbs and names.
func TestSandboxPrompt(t *testing.T) {
	b := newSbox(t, "idempotent", 80, 24)
	b.press("s", "n")
	before := b.sb().Scenario()
	b.press(":")
	b.typeLine("P com")
	if _, _, _, sug := b.model().Prompt(); strings.Join(sug, ",") != "P commitTransaction" {
		t.Errorf("P com: suggestions %q", sug)
	}
	b.press("esc", ":")
	b.typeLine("deliver m99")
	b.press("enter")
	open, line, perr, _ := b.model().Prompt()
	if !open || line != "deliver m99" || !strings.Contains(perr, "no message in flight") {
		t.Errorf("deliver m99: open %v, line %q, error %q", open, line, perr)
	}
	b.press("esc", ":")
	b.typeLine("frobnicate")
	b.press("enter")
	open, line, perr, _ = b.model().Prompt()
	if !open || line != "frobnicate" || !strings.Contains(perr, "prompt:1") || !strings.Contains(perr, "frobnicate") {
		t.Errorf("frobnicate: open %v, line %q, error %q", open, line, perr)
	}
	if !strings.Contains(b.m.View(), "frobnicate") {
		t.Error("the typed line is not on screen")
	}
	if b.sb().Scenario() != before {
		t.Errorf("a refused line changed the world:\n%s", b.sb().Scenario())
	}
	// Names of the world: clients after pause, messages after drop.
	b.press("esc", ":")
	b.typeLine("pause ")
	if _, _, _, sug := b.model().Prompt(); strings.Join(sug, ",") != "pause C,pause P" {
		t.Errorf("pause: suggestions %q", sug)
	}
	b.press("esc", ":")
	b.typeLine("drop m")
	_, _, _, sug := b.model().Prompt()
	if len(sug) == 0 {
		t.Fatalf("drop m: no suggestions")
	}
	b.press("tab")
	if _, line, _, _ := b.model().Prompt(); line != sug[0] {
		t.Errorf("tab made %q, want %q", line, sug[0])
	}
	b.press("enter")
	if open, _, perr, _ := b.model().Prompt(); open || !strings.HasSuffix(b.sb().Scenario(), sug[0]+"\n") {
		t.Errorf("%s: open %v, error %q\n%s", sug[0], open, perr, b.sb().Scenario())
	}
	// History: up brings the last line back.
	b.press(":", "up")
	if _, line, _, _ := b.model().Prompt(); line != sug[0] {
		t.Errorf("up: %q", line)
	}
}

// TestSandboxSaveReopen saves with w and reopens the file: the same state.
func TestSandboxSaveReopen(t *testing.T) {
	b := newSbox(t, "zombie", 80, 24)
	b.press("i", "R", "b", "s", "z", "]", "i", "R", "[", "z", "R", "w")
	data := b.saved[b.sb().SaveName()]
	if len(data) == 0 {
		t.Fatalf("nothing saved: %v", b.saved)
	}
	want := stateJSON(t, b.sb())
	x, err := OpenSandboxFile("saved.scn", data)
	if err != nil {
		t.Fatal(err)
	}
	if x.Pos() != x.Len() || x.Len() != b.sb().Len() {
		t.Fatalf("reopened at %d of %d, saved %d", x.Pos(), x.Len(), b.sb().Len())
	}
	if got := stateJSON(t, x); !bytes.Equal(got, want) {
		t.Errorf("reopened state differs:\n%s\nwant\n%s", got, want)
	}
}

func TestSandboxSaveOff(t *testing.T) {
	b := newSbox(t, "idempotent", 80, 24)
	b.m = views.NewSandbox(SandboxPresets(), openPreset, b.sb(), views.Options{NoFiles: true,
		SaveFile: func(string, []byte) (string, error) { t.Fatal("saved with NoFiles"); return "", nil }})
	b.m, _ = b.m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	b.press("w")
}

// TestHomeSandboxEntry: the home list has a Sandbox entry (and nothing
// "coming soon"); enter opens the preset picker, a digit a preset, q comes
// back to the list.
func TestHomeSandboxEntry(t *testing.T) {
	opts := views.Options{OpenSandbox: openPreset, SandboxPresets: SandboxPresets()}
	var m tea.Model = views.NewApp(Lessons(), Open, opts)
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if v := m.View(); strings.Contains(strings.ToLower(v), "coming soon") {
		t.Fatalf("the home screen says coming soon:\n%s", v)
	}
	for range len(Lessons()) {
		m, _ = m.Update(viewtest.Key("down"))
	}
	if !strings.Contains(m.View(), "Free play") {
		t.Fatalf("no Sandbox entry selected:\n%s", m.View())
	}
	m, _ = m.Update(viewtest.Key("enter"))
	if !m.(views.App).SandboxOpen() || !strings.Contains(m.View(), "Pick a starting world") {
		t.Fatalf("enter did not open the picker:\n%s", m.View())
	}
	// The picker's help names what its keys do: enter opens a preset.
	if v := m.View(); strings.Contains(v, "deliver it now") || !strings.Contains(v, "enter/1-4 open") {
		t.Errorf("the picker's help:\n%s", v)
	}
	for _, k := range []string{"2", "i", "n", "q"} {
		m, _ = m.Update(viewtest.Key(k))
		viewtest.CheckScreen(t, m.View(), 80, 24, "home sandbox "+k)
	}
	if m.(views.App).SandboxOpen() {
		t.Fatal("q did not leave the sandbox")
	}
	// s opens it from anywhere in the list, and the line under the title
	// says so.
	if v := m.View(); !strings.Contains(v, "s sandbox") {
		t.Fatalf("the home screen does not offer s:\n%s", v)
	}
	m, _ = m.Update(viewtest.Key("up"))
	m, _ = m.Update(viewtest.Key("s"))
	if !m.(views.App).SandboxOpen() || !strings.Contains(m.View(), "Pick a starting world") {
		t.Fatalf("s did not open the picker:\n%s", m.View())
	}
}

// TestSandboxOffsetsOutsideTransaction: with the processor's offsets
// committed before its transaction (offsets=before), crashing it once the
// OffsetCommit is out commits the input offset without the output, and
// "outputs and input offsets committed together" breaks; inside the
// transaction the same crash keeps it.
func TestSandboxOffsetsOutsideTransaction(t *testing.T) {
	for _, inside := range []bool{true, false} {
		b := newSbox(t, "ctp", 80, 24)
		if !inside {
			b.press("3") // offsets=before
		}
		b.press("s", "R", "]", "]", "e") // src sends; P processes
		if c, _ := b.model().Session().(*Sandbox); c.Clients()[2].Name != "P" {
			t.Fatalf("clients: %+v", c.Clients())
		}
		kind := "OffsetCommit"
		if inside {
			kind = "EndTxn"
		}
		b.selectWaiting(kind, func(it model.WaitItem) bool { return it.Kind == kind })
		b.press("c", "c", "R") // crash P, the current client
		m := monitor(b.sb(), "offsets-atomic")
		if m.Holds != inside {
			t.Errorf("offsets inside the transaction %v: offsets-atomic holds %v\n%s", inside, m.Holds, b.sb().Scenario())
		}
	}
}

// TestSandboxIsolation: with isolation.level=read_uncommitted C returns
// the record of a transaction still open; with read_committed it does not.
func TestSandboxIsolation(t *testing.T) {
	for _, committed := range []bool{true, false} {
		b := newSbox(t, "zombie", 80, 24)
		if !committed {
			b.press("2")
		}
		b.press("i", "R", "b", "s", "R", "]", "]", "p", "R")
		var got []string
		for _, c := range b.sb().Frame("", 0).Consumers {
			if c.ReadCommitted != committed {
				t.Errorf("C read_committed = %v", c.ReadCommitted)
			}
			for _, r := range c.Records {
				got = append(got, r.Value)
			}
		}
		if want := map[bool]string{true: "", false: "a1"}[committed]; strings.Join(got, ",") != want {
			t.Errorf("read_committed %v: C returned %q, want %q\n%s", committed, got, want, b.sb().Scenario())
		}
	}
}

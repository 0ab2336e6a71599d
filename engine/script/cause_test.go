package script

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine"
)

// playFile runs a scenario file of engine/testdata/scenarios and returns
// its world.
func playFile(t *testing.T, name string) *engine.World {
	t.Helper()
	path := filepath.Join(scenarioDir, name+".scn")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cmds, err := Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRunner()
	if err := r.Play(cmds, func(Outcome) error { return nil }); err != nil {
		t.Fatal(err)
	}
	return r.World
}

// TestCauseChains: for each invariant the sandbox monitors, a scenario
// breaks it and World.Cause names the fault that hit a message or an actor
// involved and the decision that let the violation through.
func TestCauseChains(t *testing.T) {
	cases := []struct {
		file, inv string
		fault     engine.FaultKind
		faultMsg  engine.MsgKind // the kind of the message the fault hit, for a fault on a message
		decision  engine.EventKind
		rule      string // a word of the decision's rule
		sw        bool   // a teaching switch is off
	}{
		{"teach-dedup-off-lost-ack", engine.InvDuplicateRecord, engine.FaultDropped, engine.MsgProduceResponse, engine.EvSeqCheck, "eoslab.broker.dedup=false", true},
		{"teach-dedup-off-lost-ack", engine.InvDuplicateSequence, engine.FaultDropped, engine.MsgProduceResponse, engine.EvSeqCheck, "eoslab.broker.dedup=false", true},
		{"story-lost-ack-idempotence-off", engine.InvDuplicateRecord, engine.FaultDropped, engine.MsgProduceResponse, engine.EvAppend, "no producer id", false},
		{"teach-lso-off-open-read", engine.InvUncommittedRead, engine.FaultPause, 0, engine.EvInfo, "eoslab.lso=false", true},
		{"teach-fencing-off-zombie", engine.InvFencedWrite, engine.FaultPause, 0, engine.EvSeqCheck, "eoslab.epoch.fencing=false", true},
		{"teach-fencing-off-zombie-joins-next", engine.InvAtomicVisibility, engine.FaultPause, 0, engine.EvFence, "eoslab.epoch.fencing=false", true},
		{"processor-offsets-before-crash", engine.InvOffsetsAtomic, engine.FaultCrash, 0, engine.EvOffsets, "", false},
	}
	for _, c := range cases {
		t.Run(c.file+"/"+c.inv, func(t *testing.T) {
			w := playFile(t, c.file)
			var v engine.Violation
			found := false
			for _, x := range w.ViolationList() {
				if x.Name == c.inv {
					v, found = x, true
					break
				}
			}
			if !found {
				t.Fatalf("no %s violation", c.inv)
			}
			chain := w.Cause(v)
			var text strings.Builder
			for _, l := range chain {
				text.WriteString("\n  " + itoa(l.Event) + " " + l.Role.String() + ": " + l.Text)
			}
			if len(chain) < 3 {
				t.Fatalf("chain too short:%s", text.String())
			}
			last := chain[len(chain)-1]
			if last.Role != engine.CauseViolation || last.Event != v.Event || w.EventAt(v.Event).Kind != engine.EvViolation {
				t.Errorf("the chain does not end with the violation:%s", text.String())
			}
			var gotFault, gotDecision, gotSwitch, gotSend bool
			for i, l := range chain {
				if i > 0 && l.Event <= chain[i-1].Event && l.Role != engine.CauseViolation {
					t.Errorf("links out of order at %d:%s", i, text.String())
				}
				if l.Event < 0 || l.Event >= w.EventCount() || l.Text == "" {
					t.Fatalf("bad link %+v", l)
				}
				e := w.EventAt(l.Event)
				if l.Msg != 0 && e.MsgID() != l.Msg && l.Role != engine.CauseViolation {
					t.Errorf("link %d names m%d, its event m%d", i, l.Msg, e.MsgID())
				}
				switch l.Role {
				case engine.CauseSend:
					gotSend = gotSend || e.Kind == engine.EvSend
				case engine.CauseFault:
					if e.Fault == c.fault && (c.faultMsg == 0 || e.Message != nil && e.Message.Kind == c.faultMsg) {
						gotFault = true
					}
				case engine.CauseDecision:
					if e.Kind == c.decision && strings.Contains(e.Rule.String()+" "+e.Text(), c.rule) {
						gotDecision = true
					}
				case engine.CauseSwitch:
					gotSwitch = e.Kind == engine.EvSwitch
				}
			}
			if !gotSend {
				t.Errorf("no send in the chain:%s", text.String())
			}
			if !gotFault {
				t.Errorf("the chain does not name the %s fault:%s", c.fault, text.String())
			}
			if !gotDecision {
				t.Errorf("the chain does not name the %s decision (%q):%s", c.decision, c.rule, text.String())
			}
			if gotSwitch != c.sw {
				t.Errorf("teaching switch in the chain: %v, want %v:%s", gotSwitch, c.sw, text.String())
			}
			if testing.Verbose() {
				t.Log(text.String())
			}
		})
	}
}

// TestMonitorStatus: the monitors follow InvariantNames, report what broke
// with its first violation, and cost no allocation with a reused slice.
func TestMonitorStatus(t *testing.T) {
	if len(engine.Monitors()) != len(engine.InvariantNames()) {
		t.Fatalf("%d monitors for %d invariants", len(engine.Monitors()), len(engine.InvariantNames()))
	}
	for i, m := range engine.Monitors() {
		if m.Invariant != engine.InvariantNames()[i] || m.Holds == "" || m.Broken == "" {
			t.Errorf("monitor %d: %+v", i, m)
		}
	}
	w := playFile(t, "teach-dedup-off-lost-ack")
	vs := w.ViolationList()
	st := w.MonitorStatus()
	for _, s := range st {
		want := 0
		firstIdx := -1
		for i, v := range vs {
			if v.Name == s.Invariant {
				if firstIdx < 0 {
					firstIdx = i
				}
				want++
			}
		}
		if s.Count != want || s.Broken != (want > 0) || s.FirstIndex != firstIdx {
			t.Errorf("%s: count %d broken %v first %d, want %d %v %d", s.Invariant, s.Count, s.Broken, s.FirstIndex, want, want > 0, firstIdx)
		}
		if s.Broken && (s.First.Name != s.Invariant || s.First.Event != vs[firstIdx].Event) {
			t.Errorf("%s: first %+v", s.Invariant, s.First)
		}
	}
	if !st[1].Broken || st[1].Invariant != engine.InvDuplicateRecord || st[2].Broken {
		t.Errorf("duplicate-record broken, uncommitted-read not: %+v", st)
	}
	// A snapshot keeps its own counts; the live world goes on.
	snap := w.Clone()
	buf := make([]engine.MonitorState, 0, len(engine.Monitors()))
	if n := testing.AllocsPerRun(100, func() { buf = snap.MonitorStatusInto(buf) }); n != 0 {
		t.Errorf("MonitorStatusInto allocates %v times", n)
	}
	if got, want := len(snap.Cause(st[1].First)), len(w.Cause(st[1].First)); got != want || got == 0 {
		t.Errorf("a snapshot's cause chain has %d links, the world's %d", got, want)
	}
}

// TestTeachingSwitchEvents: a switch change is one EvSwitch event, typed
// (SwitchChangeAt); setting a switch to the value it has is no event.
func TestTeachingSwitchEvents(t *testing.T) {
	w := engine.New(engine.DefaultConfig())
	for _, sw := range w.TeachingSwitches() {
		if !sw.On || !sw.Key.Teaching() || !sw.Key.Boolean() {
			t.Fatalf("switch %v: %+v", sw.Key, sw)
		}
	}
	evs, err := w.Apply(engine.SetTeaching(engine.ConfigTeachLSO, true))
	if err != nil || len(evs) != 1 {
		t.Fatalf("on -> on: %v events, %v", len(evs), err)
	}
	evs, _ = w.Apply(engine.SetTeaching(engine.ConfigTeachLSO, false))
	if len(evs) != 2 || evs[1].Kind != engine.EvSwitch || !strings.Contains(evs[1].Rule.String(), "not a Kafka setting") {
		t.Fatalf("on -> off: %+v", evs)
	}
	if k, on, ok := w.SwitchChangeAt(int(evs[1].Seq)); !ok || on || k != engine.ConfigTeachLSO {
		t.Errorf("SwitchChangeAt: %v %v %v", k, on, ok)
	}
	if !w.Config().Teach.NoLSO || w.TeachingSwitches()[2].On {
		t.Errorf("eoslab.lso still on")
	}
	evs, _ = w.Apply(engine.SetTeaching(engine.ConfigTeachLSO, true))
	if k, on, ok := w.SwitchChangeAt(int(evs[len(evs)-1].Seq)); !ok || !on || k != engine.ConfigTeachLSO || w.Config().Teach.Any() {
		t.Errorf("off -> on: %v %v %v %+v", k, on, ok, w.Config().Teach)
	}
}

package adapt

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine/script"
	"github.com/eoslab/eoslab/views"
)

// lostAck sends from producer p, steps until p's ProduceResponse is in
// flight, drops it and runs until quiet.
func lostAck(t *testing.T, x *Sandbox, p string) {
	t.Helper()
	if _, err := x.Do(views.Op{Kind: views.OpCall, Client: p, Call: views.CallSend}); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		if i > 50 {
			t.Fatalf("no ProduceResponse to %s came; waiting: %+v", p, x.Waiting())
		}
		var id int64
		for _, w := range x.Waiting() {
			if w.Kind == "ProduceResponse" && strings.Contains(w.Text, "-> "+p+" ") {
				id = w.ID
			}
		}
		if id != 0 {
			if _, err := x.Do(views.Op{Kind: views.OpDrop, Msg: id}); err != nil {
				t.Fatal(err)
			}
			break
		}
		if _, err := x.Do(views.Op{Kind: views.OpStep}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := x.Do(views.Op{Kind: views.OpRun}); err != nil {
		t.Fatal(err)
	}
}

func monitor(x *Sandbox, name string) views.Monitor {
	for _, m := range x.Monitors() {
		if m.Name == name {
			return m
		}
	}
	return views.Monitor{}
}

var presetProducer = map[string]string{"idempotent": "P", "zombie": "A", "ctp": "src", "replicated": "P"}

func TestSandboxLostAckEachPreset(t *testing.T) {
	for _, p := range SandboxPresets() {
		for _, idem := range []bool{true, false} {
			x, err := OpenSandbox(p.Name)
			if err != nil {
				t.Fatal(err)
			}
			if !idem {
				if _, err := x.Toggle(views.GuardIdempotence); err != nil {
					t.Fatal(err)
				}
			}
			prod := presetProducer[p.Name]
			for _, c := range x.Clients() {
				if c.Name == prod && c.Transactional {
					for _, op := range []views.Op{{Kind: views.OpCall, Client: prod, Call: views.CallInit}, {Kind: views.OpRun},
						{Kind: views.OpCall, Client: prod, Call: views.CallBegin}} {
						if _, err := x.Do(op); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			lostAck(t, x, prod)
			m := monitor(x, "duplicate-record")
			if m.Holds != idem {
				t.Errorf("%s idempotence=%v: duplicate-record holds=%v; scenario:\n%s", p.Name, idem, m.Holds, x.Scenario())
			}
			if !idem && len(m.Cause) < 2 {
				t.Errorf("%s: cause chain too short: %q", p.Name, m.Cause)
			}
			t.Logf("%s idem=%v cause:\n%s", p.Name, idem, strings.Join(m.Cause, "\n"))
		}
	}
}

func stateJSON(t testing.TB, x *Sandbox) []byte {
	t.Helper()
	b, err := json.Marshal(x.World().State())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSandboxOpsRoundTrip: every op the keys make is one engine action
// whose line parses back to the same action.
func TestSandboxOpsRoundTrip(t *testing.T) {
	x, err := OpenSandbox("ctp")
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range []views.Op{{Kind: views.OpCall, Client: "src", Call: views.CallSend}, {Kind: views.OpStep},
		{Kind: views.OpCall, Client: "P", Call: views.CallProcess}, {Kind: views.OpRun}, {Kind: views.OpCall, Client: "C", Call: views.CallPoll}} {
		if _, err := x.Do(op); err != nil {
			t.Fatal(err)
		}
	}
	x.Do(views.Op{Kind: views.OpCall, Client: "src", Call: views.CallSend})
	w := x.Waiting()
	if len(w) < 2 {
		t.Fatalf("waiting: %+v", w)
	}
	ops := []views.Op{
		{Kind: views.OpDeliver, Msg: w[0].ID}, {Kind: views.OpDrop, Msg: w[0].ID}, {Kind: views.OpDuplicate, Msg: w[0].ID},
		{Kind: views.OpDelay, Msg: w[0].ID, Ms: 5000}, {Kind: views.OpAdvance, Ms: 30}, {Kind: views.OpStep}, {Kind: views.OpRun},
		{Kind: views.OpCrash, Broker: 2}, {Kind: views.OpRestart, Broker: 2}, {Kind: views.OpCrash, Coordinator: true},
		{Kind: views.OpCrash, Client: "P"}, {Kind: views.OpPause, Client: "src"}, {Kind: views.OpResume, Client: "src"},
	}
	for _, c := range []views.ClientCall{views.CallInit, views.CallBegin, views.CallSend, views.CallCommit, views.CallAbort} {
		ops = append(ops, views.Op{Kind: views.OpCall, Client: "src", Call: c})
	}
	ops = append(ops, views.Op{Kind: views.OpCall, Client: "C", Call: views.CallPoll},
		views.Op{Kind: views.OpCall, Client: "P", Call: views.CallProcess})
	// No consumer here has a group: the key says to use the prompt.
	if _, err := x.action(views.Op{Kind: views.OpCall, Client: "src", Call: views.CallSendOffsets}); err == nil {
		t.Error("sendOffsetsToTransaction without a consumer group was made")
	}
	for _, op := range ops {
		a, err := x.action(op)
		if err != nil {
			t.Errorf("%+v: %v", op, err)
			continue
		}
		c, err := script.ParseLine("t", 1, a.String(), x.decls())
		if err != nil || c == nil {
			t.Errorf("%q does not parse: %v", a.String(), err)
			continue
		}
		if !reflect.DeepEqual(c.Action, a) {
			t.Errorf("%q parses to %#v, not %#v", a.String(), c.Action, a)
		}
	}
}

// A scenario file whose name holds a control character saves a file that
// opens again: the name in the comment line is blanked, not copied.
func TestSandboxSavedCommentReopens(t *testing.T) {
	name := "a\u202eb\x1bc\u0085d\te.scn"
	x, err := OpenSandboxFile(name, []byte("topic t\nproducer P\n"))
	if err != nil {
		t.Fatal(err)
	}
	saved := x.Scenario()
	if _, err := OpenSandboxFile("saved.scn", []byte(saved)); err != nil {
		t.Fatalf("the saved file does not open: %v\n%s", err, saved)
	}
	if !strings.HasPrefix(saved, "# eoslab sandbox: a b c d e, branch 1\n") {
		t.Fatalf("comment line %q", strings.SplitN(saved, "\n", 2)[0])
	}
}

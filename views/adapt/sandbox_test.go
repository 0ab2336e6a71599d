package adapt

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine/script"
	"github.com/eoslab/eoslab/views/model"
)

// lostAck sends from producer p, steps until p's ProduceResponse is in
// flight, drops it and runs until quiet.
func lostAck(t *testing.T, x *Sandbox, p string) {
	t.Helper()
	if _, err := x.Do(model.Op{Kind: model.OpCall, Client: p, Call: model.CallSend}); err != nil {
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
			if _, err := x.Do(model.Op{Kind: model.OpDrop, Msg: id}); err != nil {
				t.Fatal(err)
			}
			break
		}
		if _, err := x.Do(model.Op{Kind: model.OpStep}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := x.Do(model.Op{Kind: model.OpRun}); err != nil {
		t.Fatal(err)
	}
}

func monitor(x *Sandbox, name string) model.Monitor {
	for _, m := range x.Monitors() {
		if m.Name == name {
			return m
		}
	}
	return model.Monitor{}
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
				if _, err := x.Toggle(model.GuardIdempotence); err != nil {
					t.Fatal(err)
				}
			}
			prod := presetProducer[p.Name]
			for _, c := range x.Clients() {
				if c.Name == prod && c.Transactional {
					for _, op := range []model.Op{{Kind: model.OpCall, Client: prod, Call: model.CallInit}, {Kind: model.OpRun},
						{Kind: model.OpCall, Client: prod, Call: model.CallBegin}} {
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
	for _, op := range []model.Op{{Kind: model.OpCall, Client: "src", Call: model.CallSend}, {Kind: model.OpStep},
		{Kind: model.OpCall, Client: "P", Call: model.CallProcess}, {Kind: model.OpRun}, {Kind: model.OpCall, Client: "C", Call: model.CallPoll}} {
		if _, err := x.Do(op); err != nil {
			t.Fatal(err)
		}
	}
	x.Do(model.Op{Kind: model.OpCall, Client: "src", Call: model.CallSend})
	w := x.Waiting()
	if len(w) < 2 {
		t.Fatalf("waiting: %+v", w)
	}
	ops := []model.Op{
		{Kind: model.OpDeliver, Msg: w[0].ID}, {Kind: model.OpDrop, Msg: w[0].ID}, {Kind: model.OpDuplicate, Msg: w[0].ID},
		{Kind: model.OpDelay, Msg: w[0].ID, Ms: 5000}, {Kind: model.OpAdvance, Ms: 30}, {Kind: model.OpStep}, {Kind: model.OpRun},
		{Kind: model.OpCrash, Broker: 2}, {Kind: model.OpRestart, Broker: 2}, {Kind: model.OpCrash, Coordinator: true},
		{Kind: model.OpCrash, Client: "P"}, {Kind: model.OpPause, Client: "src"}, {Kind: model.OpResume, Client: "src"},
	}
	for _, c := range []model.ClientCall{model.CallInit, model.CallBegin, model.CallSend, model.CallCommit, model.CallAbort} {
		ops = append(ops, model.Op{Kind: model.OpCall, Client: "src", Call: c})
	}
	ops = append(ops, model.Op{Kind: model.OpCall, Client: "C", Call: model.CallPoll},
		model.Op{Kind: model.OpCall, Client: "P", Call: model.CallProcess})
	// No consumer here has a group: the key says to use the prompt.
	if _, err := x.action(model.Op{Kind: model.OpCall, Client: "src", Call: model.CallSendOffsets}); err == nil {
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

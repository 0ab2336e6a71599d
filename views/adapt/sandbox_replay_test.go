package adapt

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine/script"
	"github.com/eoslab/eoslab/views/model"
)

// randomSession plays n random sandbox actions on a preset: ops on the
// waiting messages and the clients, safeguards switched, going back (the
// next action makes a branch) and switching branches. It returns the
// sandbox and what it did, for a failure to show.
func randomSession(t *testing.T, r *rand.Rand, preset string, kafka, n int) (*Sandbox, []string) {
	t.Helper()
	x, err := OpenSandboxKafka(preset, kafka)
	if err != nil {
		t.Fatal(err)
	}
	var log []string
	for i := 0; i < n; i++ {
		switch k := r.Intn(20); {
		case k < 2:
			id := model.SafeguardID(r.Intn(int(model.NumGuards)))
			if _, err := x.Toggle(id); err == nil {
				log = append(log, fmt.Sprintf("toggle %d", id+1))
			}
		case k < 3 && x.Len() > 0:
			pos := r.Intn(x.Len() + 1)
			x.Seek(pos)
			log = append(log, fmt.Sprintf("seek %d", pos))
		case k < 4:
			b := r.Intn(len(x.Branches()))
			if x.Switch(b) == nil {
				log = append(log, fmt.Sprintf("branch %d", b+1))
			}
		default:
			op := model.Op{Kind: model.OpKind(r.Intn(int(model.OpCall) + 1)), Ms: int64(r.Intn(3)+1) * 1000, Broker: 1 + r.Intn(3),
				Coordinator: r.Intn(4) == 0, Call: model.ClientCall(r.Intn(int(model.CallProcess) + 1))}
			if w := x.Waiting(); len(w) > 0 {
				op.Msg, op.Other = w[r.Intn(len(w))].ID, w[r.Intn(len(w))].ID
			}
			if cs := x.Clients(); len(cs) > 0 {
				op.Client = cs[r.Intn(len(cs))].Name
			}
			if line, err := x.Do(op); err == nil {
				log = append(log, line)
			}
		}
	}
	return x, log
}

// eventLines are the world's events at the end of the current branch.
func eventLines(x *Sandbox) []string {
	pos := x.Pos()
	x.Seek(x.Len())
	defer x.Seek(pos)
	var out []string
	for _, e := range x.world().EventsSince(0) {
		out = append(out, e.Line())
	}
	return out
}

func guardsOn(x *Sandbox) string {
	var b strings.Builder
	for _, s := range x.Safeguards() {
		fmt.Fprintf(&b, "%s=%s ", s.Key, s.Value)
	}
	return b.String()
}

func dropFirstLine(s string) string {
	_, rest, _ := strings.Cut(s, "\n")
	return rest
}

// TestSavedSandboxReplays: over random sessions, the file 'w' saves runs
// with 'eoslab run' without an error to the same events the sandbox
// shows, and reopened it shows the same safeguards and saves the same
// lines again.
func TestSavedSandboxReplays(t *testing.T) {
	seeds, actions := 40, 40
	if testing.Short() {
		seeds = 12
	}
	presets := SandboxPresets()
	for seed := 1; seed <= seeds; seed++ {
		r := rand.New(rand.NewSource(int64(seed)))
		preset, kafka := presets[r.Intn(len(presets))].Name, 3+r.Intn(2)
		x, log := randomSession(t, r, preset, kafka, actions)
		what := fmt.Sprintf("seed %d, preset %s, Kafka %d, after: %s", seed, preset, kafka, strings.Join(log, "; "))
		saved := x.Scenario()
		if testing.Verbose() && seed <= 3 {
			t.Logf("%s", what)
		}

		cmds, err := script.Parse("saved.scn", []byte(saved))
		if err != nil {
			t.Fatalf("%s\nthe saved file does not parse: %v\n%s", what, err, saved)
		}
		var ran []string
		err = script.NewRunner().Play(cmds, func(o script.Outcome) error {
			for _, e := range o.Events {
				ran = append(ran, e.Line())
			}
			if o.Failure != nil {
				return fmt.Errorf("%s:%d: %s", o.Failure.File, o.Failure.Line, o.Failure.Text)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%s\neoslab run of the saved file: %v\n%s", what, err, saved)
		}
		if shown := eventLines(x); strings.Join(ran, "\n") != strings.Join(shown, "\n") {
			t.Fatalf("%s\nthe saved file replays to %d events, the sandbox showed %d\n%s", what, len(ran), len(shown), saved)
		}

		y, err := OpenSandboxFile("saved.scn", []byte(saved))
		if err != nil {
			t.Fatalf("%s\nthe saved file does not reopen: %v", what, err)
		}
		if a, b := guardsOn(x), guardsOn(y); a != b {
			t.Fatalf("%s\nreopened, the safeguards read\n  %s\nnot\n  %s\n%s", what, b, a, saved)
		}
		again := y.Scenario()
		if dropFirstLine(again) != dropFirstLine(saved) {
			t.Fatalf("%s\nsaved again:\n%s\nfirst save:\n%s", what, again, saved)
		}
		if a, b := eventLines(x), eventLines(y); strings.Join(a, "\n") != strings.Join(b, "\n") {
			t.Fatalf("%s\nreopened, the world differs (%d events, not %d)", what, len(b), len(a))
		}

		// The file of every branch plays the same, and reopens with
		// every branch, each saving the same lines again.
		all := x.ScenarioAll()
		if err := playFile([]byte(all)); err != nil {
			t.Fatalf("%s\neoslab run of the file of every branch: %v\n%s", what, err, all)
		}
		z, err := OpenSandboxFile("all.scn", []byte(all))
		if err != nil {
			t.Fatalf("%s\nthe file of every branch does not reopen: %v\n%s", what, err, all)
		}
		if dropFirstLine(z.ScenarioAll()) != dropFirstLine(all) {
			t.Fatalf("%s\nevery branch saved again:\n%s\nfirst:\n%s", what, z.ScenarioAll(), all)
		}
	}
}

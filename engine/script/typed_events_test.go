package script

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine"
)

// These tests hold the engine's typed events and change sets to what the
// scenario files actually do: every event carries as fields what its text
// says (so no reader has to parse the text), and every step's change set
// names everything that step changed (so no view has to compare worlds).
// Reading the text and comparing worlds is what the tests do, as oracles.

// knownCodes are the error codes the language knows, from the engine's
// table (wire errors and client-side exceptions).
func knownCodes() []engine.ErrorCode {
	var out []engine.ErrorCode
	for _, c := range kafkaErrors {
		if c != engine.None {
			out = append(out, c)
		}
	}
	return out
}

// checkEvent reports what is wrong with one event's typed fields.
func checkEvent(w *engine.World, e *engine.Event, codes []engine.ErrorCode, injected map[string]bool) string {
	// A message-borne event (sent, delivered, lost) names the message's
	// codes; the message carries them.
	if e.Message == nil && e.Kind != engine.EvViolation {
		var named []engine.ErrorCode
		for _, c := range codes {
			if strings.Contains(e.Text(), c.String()) {
				named = append(named, c)
			}
		}
		found := len(named) == 0
		for _, c := range named {
			found = found || c == e.Code
		}
		if !found {
			return "names " + named[0].String() + " but carries Code " + e.Code.String()
		}
	}
	if e.Code != engine.None && !strings.Contains(e.Text(), e.Code.Name()) {
		return "carries Code " + e.Code.String() + " that its text does not name"
	}
	switch e.Kind {
	case engine.EvSend:
		if e.Message == nil {
			return "a send without its message"
		}
	case engine.EvFault:
		switch e.Fault {
		case engine.FaultNone:
			return "a fault without a fault kind"
		case engine.FaultDropped, engine.FaultDelayed, engine.FaultLost, engine.FaultDuplicated, engine.FaultReordered:
			if e.Message == nil {
				return e.Fault.String() + " without its message"
			}
		}
	case engine.EvClientState:
		from, to, ok := e.Change.Client()
		if e.Text() != "closed" && (!ok || e.Text() != from.String()+" -> "+to.String()) {
			return "a client state change without its transition"
		}
	case engine.EvTxnState:
		if from, to, ok := e.Change.Txn(); ok {
			if !strings.HasPrefix(e.Text(), e.TxnID+" "+from.String()+" -> "+to.String()) {
				return "a coordinator transition whose text is not its fields"
			}
		} else if !strings.HasPrefix(e.Text(), "loaded ") {
			return "a coordinator state change without its transition"
		}
	}
	// Unnumbered leaves out the number of the one message the text names.
	want := e.Text()
	if m := e.Message; m != nil && e.Fault != engine.FaultDuplicated && e.Fault != engine.FaultReordered {
		if !strings.Contains(e.Text(), m.Name()+" ") {
			return "about " + m.Name() + ", which its text does not name"
		}
		want = strings.Replace(e.Text(), m.Name()+" ", "", 1)
	}
	if got := e.Unnumbered(); got != want {
		return "unnumbered as " + strconv.Quote(got)
	}
	if e.Fault != engine.FaultNone && e.Kind != engine.EvFault {
		return "a fault kind on a " + e.Kind.String() + " event"
	}
	if e.HasTP() && w.Partition(e.TP) == nil {
		return "about " + e.TP.String() + ", which does not exist"
	}
	if e.TxnID != "" && !injected[e.TxnID] && !knownTxnID(w, e.TxnID) {
		return "about " + e.TxnID + ", which no producer or coordinator knows"
	}
	return ""
}

// injectedTxnIDs are the transactional ids the scenario's expert requests
// name: a coordinator answers them even when nobody else knows the id.
func injectedTxnIDs(cmds []Command) map[string]bool {
	ids := map[string]bool{}
	for _, c := range cmds {
		switch a := c.Action.(type) {
		case engine.InjectInitProducerID:
			ids[a.TransactionalID] = true
		case engine.InjectAddPartitions:
			ids[a.TransactionalID] = true
		case engine.InjectAddOffsets:
			ids[a.TransactionalID] = true
		case engine.InjectEndTxn:
			ids[a.TransactionalID] = true
		}
	}
	return ids
}

// knownTxnID reports whether a producer is configured with the id or a
// coordinator has a record of it.
func knownTxnID(w *engine.World, id string) bool {
	for _, p := range w.AllProducers() {
		if p.Config.TransactionalID == id {
			return true
		}
	}
	for _, t := range w.TxnStateLogs() {
		for _, r := range t.Log {
			if r.TransactionalID == id {
				return true
			}
		}
	}
	return false
}

// versionPins are the ways the typed-event tests play every scenario: as
// its config lines say (0), and with transaction.version pinned to 2, as
// `eoslab run --kafka 4` does, so that the TV2 paths' events and changes
// are held to the same rules over the classic scenarios too.
var versionPins = []int{0, 2}

// pinLabel names a pinned run in a failure.
func pinLabel(pin int) string {
	if pin == 0 {
		return ""
	}
	return " (transaction.version=" + strconv.Itoa(pin) + ")"
}

func TestEventsCarryTheirFields(t *testing.T) {
	codes := knownCodes()
	seen := map[string]bool{}
	for _, pin := range versionPins {
		for _, f := range scenarioFiles(t) {
			cmds, err := Parse(f.path, f.src)
			if err != nil {
				t.Fatal(err)
			}
			r := NewRunner()
			if pin != 0 {
				r.PinTransactionVersion(pin)
			}
			for _, c := range cmds {
				r.Exec(c)
			}
			injected := injectedTxnIDs(cmds)
			for i := range r.World.EventCount() {
				ev := r.World.EventAt(i)
				e := &ev
				if e.Code != engine.None {
					seen["code"] = true
				}
				if e.Fault != engine.FaultNone {
					seen[e.Fault.String()] = true
				}
				if e.Change.Of != engine.NoStateMachine {
					seen["transition"] = true
				}
				if why := checkEvent(r.World, e, codes, injected); why != "" {
					t.Errorf("%s%s: %s: %s", f.name, pinLabel(pin), e.Line(), why)
				}
			}
		}
	}
	// The files reach every kind of field, so the checks above ran on each.
	for _, k := range []string{"code", "transition", "dropped", "duplicated", "delayed", "reordered", "lost", "crash", "restart", "pause", "resume"} {
		if !seen[k] {
			t.Errorf("no scenario has an event with %s", k)
		}
	}
}

// TestChangeSetsName every change: after each action of every scenario,
// whatever differs between the world before and after is in the action's
// change set, with the right starting points.
func TestChangeSetsNameEveryChange(t *testing.T) {
	for _, pin := range versionPins {
		for _, f := range scenarioFiles(t) {
			checkChangeSets(t, f, pin)
		}
	}
}

func checkChangeSets(t *testing.T, f scenarioFile, pin int) {
	t.Helper()
	cmds, err := Parse(f.path, f.src)
	if err != nil {
		t.Fatal(err)
	}
	name := f.name + pinLabel(pin)
	r := NewRunner()
	if pin != 0 {
		r.PinTransactionVersion(pin)
	}
	for _, c := range cmds {
		if c.Action == nil {
			r.Exec(c)
			continue
		}
		if run, ok := c.Action.(engine.Run); ok && run.Max == 0 {
			// One Step at a time: each has its own change set.
			for n := 0; r.World.Busy() && n < 100000; n++ {
				before := r.World.Clone()
				r.World.Step()
				for _, why := range missingChanges(before, r.World) {
					t.Errorf("%s:%d step %d: %s", name, c.Line, n, why)
				}
			}
			continue
		}
		before := r.World.Clone()
		r.Exec(c)
		at := name + ":" + itoaRun(c.Line) + " " + c.Text
		for _, why := range missingChanges(before, r.World) {
			t.Errorf("%s: %s", at, why)
		}
	}
}

func missingChanges(before, w *engine.World) []string {
	cs := w.Changes()
	var out []string
	miss := func(s string) { out = append(out, s) }
	if cs.FirstEvent != before.EventCount() || cs.FirstViolation != len(before.Violations()) {
		miss("starts at event " + itoaRun(cs.FirstEvent) + ", violation " + itoaRun(cs.FirstViolation))
	}
	for _, e := range w.EventsSince(before.EventCount()) {
		if !cs.Actor(e.Actor) {
			miss("actor " + e.Actor + " of " + e.Line())
		}
		if m := e.Message; m != nil && !cs.Message(m.ID) {
			miss("message " + m.Name() + " of " + e.Line())
		}
	}
	for tp, p := range w.PartitionLogs() {
		b := before.Partition(tp)
		var leo int64
		changed := p.LEO > 0
		if b != nil {
			leo = b.LEO
			changed = b.LEO != p.LEO || b.HW != p.HW || b.LastStableOffset() != p.LastStableOffset() ||
				b.Leader != p.Leader || !reflect.DeepEqual(b.Producers, p.Producers)
		}
		from, ok := cs.Partition(tp)
		if changed && (!ok || from != leo) {
			miss("partition " + tp.String())
		}
	}
	clients := func(x *engine.World) map[string]any {
		m := map[string]any{}
		for _, p := range x.AllProducers() {
			m[p.Name] = []any{p.State, p.ProducerID, p.Epoch, p.LastError, p.Paused, p.Crashed, len(p.InFlight), p.Acks, len(p.Queue), p.Parts, len(p.Pending), p.TxnCorr, p.EndRequested, p.BumpEpoch, p.TV2, p.TVUpgrade}
		}
		for _, c := range x.AllConsumers() {
			m[c.Name+"/consumer"] = []any{len(c.Received), c.Positions, c.LastError, c.Crashed, c.Paused, len(c.AwaitReset), len(c.InFlight)}
		}
		return m
	}
	was := clients(before)
	for name, now := range clients(w) {
		if !reflect.DeepEqual(was[name], now) && !cs.Actor(strings.TrimSuffix(name, "/consumer")) {
			miss("client " + name)
		}
	}
	for _, c := range w.AllConsumers() {
		for _, b := range before.AllConsumers() {
			if b.Name == c.Name && len(b.Received) != len(c.Received) {
				if from, ok := cs.ReceivedFrom(c.Name); !ok || from != len(b.Received) {
					miss("records of " + c.Name)
				}
			}
		}
	}
	for n, t := range w.TxnStateLogs() {
		bt := before.TxnStatePartition(n)
		for _, id := range txnIDsIn(t, bt) {
			var bm engine.TxnMetadata
			var had bool
			var logLen int
			if bt != nil {
				bm, had = bt.Meta[id]
				logLen = len(bt.Log)
			}
			m, has := t.Meta[id]
			changed := had != has || bm.State != m.State || bm.ProducerID != m.ProducerID || bm.ProducerEpoch != m.ProducerEpoch ||
				bm.TV2 != m.TV2 || bm.NextProducerID != m.NextProducerID || !reflect.DeepEqual(bm.Partitions, m.Partitions)
			for _, r := range t.Log[min(logLen, len(t.Log)):] {
				changed = changed || r.TransactionalID == id
			}
			if changed && !cs.TxnID(id) {
				miss("transactional id " + id)
			}
		}
	}
	for id, g := range w.Groups() {
		b := before.Group(id)
		if b == nil || b.Generation != g.Generation || !reflect.DeepEqual(b.Members, g.Members) ||
			!reflect.DeepEqual(b.Committed, g.Committed) || !reflect.DeepEqual(b.Pending, g.Pending) {
			if (b != nil || len(g.Members)+len(g.Committed)+len(g.Pending) > 0) && !cs.Group(id) {
				miss("group " + id)
			}
		}
	}
	return out
}

func txnIDsIn(ts ...*engine.TxnStatePartition) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range ts {
		if t == nil {
			continue
		}
		for id := range t.Meta {
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
		for _, r := range t.Log {
			if !seen[r.TransactionalID] {
				seen[r.TransactionalID] = true
				out = append(out, r.TransactionalID)
			}
		}
	}
	return out
}

// TestChangeSetMerge: a lesson step's change set is its actions' merged,
// each thing once, with the first starting point.
func TestChangeSetMerge(t *testing.T) {
	tp := engine.TP{Topic: "t", Partition: 0}
	a := engine.ChangeSet{FirstEvent: 4, FirstViolation: 1, Actors: []string{"p"}, Messages: []int64{3},
		Partitions: []engine.PartitionChange{{TP: tp, FromLEO: 2}}, Received: []engine.ReceivedChange{{Client: "c", From: 5}}}
	b := engine.ChangeSet{FirstEvent: 9, FirstViolation: 1, Actors: []string{"p", "broker-1"}, Messages: []int64{3, 4},
		Partitions: []engine.PartitionChange{{TP: tp, FromLEO: 3}}, Received: []engine.ReceivedChange{{Client: "c", From: 6}},
		TxnIDs: []string{"tx"}, Groups: []string{"g"}}
	a.Merge(b)
	want := engine.ChangeSet{FirstEvent: 4, FirstViolation: 1, Actors: []string{"p", "broker-1"}, Messages: []int64{3, 4},
		Partitions: []engine.PartitionChange{{TP: tp, FromLEO: 2}}, Received: []engine.ReceivedChange{{Client: "c", From: 5}},
		TxnIDs: []string{"tx"}, Groups: []string{"g"}}
	if !reflect.DeepEqual(a, want) {
		t.Fatalf("merged %+v\nwant %+v", a, want)
	}
}

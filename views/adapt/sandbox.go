package adapt

import (
	"errors"
	"path/filepath"
	"strconv"
	"strings"

	"eoslab/engine"
	"eoslab/engine/script"
	"eoslab/lessons"
	"eoslab/views"
)

// Sandbox implements views.SandboxSession: a world the learner drives one
// action at a time. Each branch is a lesson that grows: the setup, then one
// step per action (lessons.Player.Append), played by a Session, so the
// sandbox draws its panels and Timeline exactly as the lesson player does.
type Sandbox struct {
	title string
	name  string // the preset's name or the file's base name, for SaveName
	// base is the setup as written (the preset's or the file's); the
	// setup in force is base with the safeguards applied (setupLines).
	base     []engine.Action
	written  guards // the safeguards as base writes them
	branches []*sbBranch
	cur      int
	avail    [views.NumGuards]bool
}

// sbBranch is one line of time: a growing lesson and its action lines.
type sbBranch struct {
	s      *Session
	g      guards
	setup  []string
	lines  []string
	parent int
	at     int
	name   string
	// causes caches the cause chains of the violations, by position.
	causes map[int][]cause
	// decls are the declarations at position declsPos (Sandbox.decls).
	decls    *script.Decls
	declsPos int
}

// guards is the state of the safeguards bar.
type guards struct {
	idempotence   bool
	readCommitted bool
	offsets       engine.OffsetsMode
	dedup, fence  bool
	lso           bool
}

// The teaching-only cluster settings (engine branch sandbox-engine): a
// world refuses them until the engine knows them, and the bar then says
// so.
var teachKeys = [views.NumGuards]string{
	views.GuardDedup:   "eoslab.broker.dedup",
	views.GuardFencing: "eoslab.epoch.fencing",
	views.GuardLSO:     "eoslab.lso",
}

// SandboxPresets are the starting worlds of the preset picker.
func SandboxPresets() []views.SandboxPreset {
	out := make([]views.SandboxPreset, len(presets))
	for i, p := range presets {
		out[i] = views.SandboxPreset{Name: p.name, Title: p.title, Summary: p.summary}
	}
	return out
}

type preset struct {
	name, title, summary string
	setup                []string
}

// presets are written in the scenario language, the same lines a saved
// session starts with. Each has a consumer C reading with read_committed
// from the earliest offset, and a plain producer whose lost ACK the
// idempotence switch is about.
var presets = []preset{
	{name: "idempotent", title: "One idempotent producer",
		summary: "Producer P writes to t (two partitions); consumer C reads it.",
		setup: []string{"topic t partitions=2", "producer P",
			"consumer C isolation.level=read_committed auto.offset.reset=earliest"}},
	{name: "zombie", title: "Two instances, one transactional.id",
		summary: "A and B share transactional.id app: pause A, start B, and see who is fenced.",
		setup: []string{"topic t", "producer A transactional.id=app", "producer B transactional.id=app",
			"consumer C isolation.level=read_committed auto.offset.reset=earliest"}},
	{name: "ctp", title: "Consume, transform, produce",
		summary: "src writes to in; processor P reads in, writes out and commits its input offsets (group g).",
		setup: []string{"topic in", "topic out", "producer src",
			"processor P input=in output=out group.id=g transactional.id=p-1",
			"consumer C isolation.level=read_committed topics=out auto.offset.reset=earliest"}},
	{name: "replicated", title: "Three brokers with replication",
		summary: "t has three replicas; P writes with acks=all. Crash a leader and watch the others take over.",
		setup: []string{"brokers 3", "topic t rf=3", "producer P acks=all",
			"consumer C isolation.level=read_committed auto.offset.reset=earliest"}},
}

// OpenSandbox starts the sandbox on a preset by name, under Kafka 3's
// transaction protocol (transaction.version=1).
func OpenSandbox(name string) (*Sandbox, error) { return OpenSandboxKafka(name, 3) }

// OpenSandboxKafka starts a preset under Kafka 3 or 4: Kafka 4's setup
// begins with config transaction.version=2 (KIP-890 part 2), a line a
// saved session keeps.
func OpenSandboxKafka(name string, kafka int) (*Sandbox, error) {
	var names []string
	for _, p := range presets {
		if p.name == name {
			setup, title := p.setup, p.title
			if kafka == 4 {
				setup = append([]string{"config transaction.version=2"}, setup...)
				title += " (Kafka 4)"
			}
			return newSandbox(title, p.name, "preset "+p.name, strings.Join(setup, "\n")+"\n", false)
		}
		names = append(names, p.name)
	}
	return nil, errors.New("no sandbox preset " + strconv.Quote(name) + "; presets: " + strings.Join(names, ", "))
}

// OpenSandboxFile starts the sandbox on a scenario file: its leading
// declarations are the setup, and every line after them is one step,
// played to the end, where the world waits.
func OpenSandboxFile(file string, src []byte) (*Sandbox, error) {
	base := filepath.Base(file)
	base = base[:len(base)-len(filepath.Ext(base))]
	return newSandbox(base, base, file, string(src), true)
}

func newSandbox(title, name, file, src string, toEnd bool) (*Sandbox, error) {
	cmds, err := script.Parse(file, []byte(src))
	if err != nil {
		return nil, err
	}
	x := &Sandbox{title: title, name: name}
	var lines []string
	for _, c := range cmds {
		if len(lines) == 0 && c.Kind() == script.Setup {
			x.base = append(x.base, c.Action)
			continue
		}
		lines = append(lines, c.Text)
	}
	x.written = writtenGuards(x.base)
	for _, id := range []views.SafeguardID{views.GuardDedup, views.GuardFencing, views.GuardLSO} {
		_, err := script.ParseLine("sandbox", 1, "config "+teachKeys[id]+"=false", nil)
		x.avail[id] = err == nil
	}
	b, err := x.newBranch(x.written, lines, -1, 0, "branch 1")
	if err != nil {
		return nil, err
	}
	x.branches = []*sbBranch{b}
	if toEnd {
		b.s.p.Seek(b.s.p.Len())
	}
	return x, nil
}

// writtenGuards reads the safeguards a setup writes.
func writtenGuards(base []engine.Action) guards {
	g := guards{idempotence: true, readCommitted: true, dedup: true, fence: true, lso: true}
	sawConsumer := false
	for _, a := range base {
		switch a := a.(type) {
		case engine.DeclareProducer:
			if !a.Config.Idempotence {
				g.idempotence = false
			}
		case engine.DeclareConsumer:
			if !sawConsumer {
				g.readCommitted = a.Isolation == engine.ReadCommitted
				sawConsumer = true
			}
		case engine.DeclareProcessor:
			g.offsets = a.Offsets
		}
	}
	return g
}

// setupLines is base with the safeguards g applied, where they differ from
// what base writes, as scenario lines.
func (x *Sandbox) setupLines(g guards) []string {
	w := x.written
	var out []string
	for _, a := range x.base {
		switch d := a.(type) {
		case engine.DeclareProducer:
			if g.idempotence != w.idempotence {
				d.Config.Idempotence = g.idempotence
				d.Set = d.Set.With(engine.ProducerIdempotence)
				if !g.idempotence && d.Config.TransactionalID != "" {
					// Java refuses transactional.id without
					// idempotence (ConfigException, ref 1.1): the
					// instance runs without transactions.
					d.Config.TransactionalID = ""
					d.Set &^= 1 << engine.ProducerTransactionalID
				}
			}
			a = d
		case engine.DeclareConsumer:
			if g.readCommitted != w.readCommitted {
				d.Isolation = engine.ReadUncommitted
				if g.readCommitted {
					d.Isolation = engine.ReadCommitted
				}
			}
			a = d
		case engine.DeclareProcessor:
			if g.offsets != w.offsets {
				d.Offsets = g.offsets
			}
			a = d
		}
		out = append(out, a.String())
	}
	for _, id := range []views.SafeguardID{views.GuardDedup, views.GuardFencing, views.GuardLSO} {
		if !g.teach(id) && x.avail[id] {
			out = append(out, "config "+teachKeys[id]+"=false")
		}
	}
	return out
}

func (g guards) teach(id views.SafeguardID) bool {
	switch id {
	case views.GuardDedup:
		return g.dedup
	case views.GuardFencing:
		return g.fence
	}
	return g.lso
}

// newBranch plays setup and lines on a fresh world, each line one step,
// and stands at position 0.
func (x *Sandbox) newBranch(g guards, lines []string, parent, at int, name string) (*sbBranch, error) {
	setup := x.setupLines(g)
	d := script.NewDecls()
	var cmds []script.Command
	for i, t := range setup {
		c, err := script.ParseLine("setup", i+1, t, d)
		if err != nil {
			return nil, err
		}
		if c != nil {
			cmds = append(cmds, *c)
		}
	}
	l := &lessons.Lesson{File: "sandbox", Name: "sandbox", Title: x.title, Setup: cmds}
	for i, t := range lines {
		st := lessons.Step{Title: t}
		if c, err := script.ParseLine("sandbox", len(setup)+i+1, t, d); err == nil && c != nil {
			st.Commands = []script.Command{*c}
		}
		l.Steps = append(l.Steps, st)
	}
	b := &sbBranch{s: x.session(lessons.NewGrowingPlayer(l)), g: g, setup: setup,
		lines: append([]string(nil), lines...), parent: parent, at: at, name: name, causes: map[int][]cause{}}
	return b, nil
}

func (x *Sandbox) branch() *sbBranch { return x.branches[x.cur] }

// session starts the session of a new branch. Its frame keys start at the
// branch's number times 2^32, so no two branches give two frames the same
// Key (the views keep what they drew by Key; see highlightKey).
func (x *Sandbox) session(p *lessons.Player) *Session {
	s := newSessionOn(p)
	s.lastKey = uint64(len(x.branches)+1) << 32
	return s
}

// world is the world at the current position: a snapshot, never stepped.
func (x *Sandbox) world() *engine.World { return x.branch().s.p.World() }

// Title is the preset's title or the file's name.
func (x *Sandbox) Title() string { return x.title }

// Pos is the position on the current branch.
func (x *Sandbox) Pos() int { return x.branch().s.p.Pos() }

// Len is the number of actions on the current branch.
func (x *Sandbox) Len() int { return x.branch().s.p.Len() }

// Seek moves along the current branch.
func (x *Sandbox) Seek(k int) { x.branch().s.p.Seek(k) }

// Brokers is the number of brokers.
func (x *Sandbox) Brokers() int { return len(x.world().Brokers) }

// Clients lists the clients in declaration order.
func (x *Sandbox) Clients() []views.SandboxClient {
	w := x.world()
	var out []views.SandboxClient
	for _, p := range w.Producers {
		out = append(out, views.SandboxClient{Name: p.Name, Kind: views.ClientProducer,
			Transactional: p.Config.TransactionalID != "", Paused: p.Paused, Crashed: p.Crashed})
	}
	for _, c := range w.Consumers {
		out = append(out, views.SandboxClient{Name: c.Name, Kind: views.ClientConsumer, Paused: c.Paused, Crashed: c.Crashed})
	}
	for _, pr := range w.Processors {
		out = append(out, views.SandboxClient{Name: pr.Name, Kind: views.ClientProcessor, Transactional: true,
			Paused: pr.Producer.Paused, Crashed: pr.Producer.Crashed})
	}
	return out
}

// Waiting lists what the world will do next.
func (x *Sandbox) Waiting() []views.WaitItem {
	var out []views.WaitItem
	w := x.world()
	for _, it := range w.Pending(false) {
		if m := it.Msg; m != nil {
			out = append(out, views.WaitItem{ID: m.ID, At: it.At, In: it.At - w.Now, Kind: m.Kind.String(),
				Text: m.From + " -> " + m.To + " " + m.Brief()})
			continue
		}
		t := it.Timer
		text := t.Owner
		if t.TP != (engine.TP{}) {
			text += " " + t.TP.String()
		}
		out = append(out, views.WaitItem{At: it.At, In: it.At - w.Now, Kind: t.Kind.String(), Text: text, Timer: true})
	}
	return out
}

// Do turns a typed op into its engine action and applies it as a line.
func (x *Sandbox) Do(op views.Op) (string, error) {
	a, err := x.action(op)
	if err != nil {
		return "", err
	}
	line := a.String()
	_, err = x.Exec(line)
	return line, err
}

func sel(id int64) engine.Selector { return engine.Selector{ID: id} }

// action is the engine action an op means.
func (x *Sandbox) action(op views.Op) (engine.Action, error) {
	switch op.Kind {
	case views.OpDeliver:
		return engine.Deliver{Msg: sel(op.Msg)}, nil
	case views.OpDrop:
		return engine.Drop{Msg: sel(op.Msg)}, nil
	case views.OpDuplicate:
		return engine.Duplicate{Msg: sel(op.Msg)}, nil
	case views.OpDelay:
		return engine.Delay{Msg: sel(op.Msg), Ms: op.Ms}, nil
	case views.OpReorder:
		return engine.Reorder{First: sel(op.Msg), Second: sel(op.Other)}, nil
	case views.OpAdvance:
		return engine.Advance{Ms: max(op.Ms, 1)}, nil
	case views.OpStep:
		return engine.Step{}, nil
	case views.OpRun:
		return engine.Run{}, nil
	case views.OpCrash, views.OpRestart:
		t, err := x.target(op)
		if err != nil {
			return nil, err
		}
		if op.Kind == views.OpCrash {
			return engine.Crash{Target: t}, nil
		}
		return engine.Restart{Target: t}, nil
	case views.OpPause:
		return engine.Pause{Client: op.Client}, nil
	case views.OpResume:
		return engine.Resume{Client: op.Client}, nil
	case views.OpCall:
		return x.call(op)
	}
	return nil, errors.New("unknown sandbox action")
}

// target is the broker or client a crash or restart is about; the
// coordinator is the broker leading the first transactional id's
// __transaction_state partition.
func (x *Sandbox) target(op views.Op) (engine.Target, error) {
	if op.Client != "" {
		return engine.Target{Client: op.Client}, nil
	}
	if !op.Coordinator {
		return engine.Target{Broker: op.Broker}, nil
	}
	w := x.world()
	for _, p := range w.AllProducers() {
		if id := p.Config.TransactionalID; id != "" {
			if info := w.TxnInfo(id); info.Broker > 0 {
				return engine.Target{Broker: info.Broker}, nil
			}
		}
	}
	return engine.Target{}, errors.New("no transaction coordinator yet: a transactional producer finds its coordinator with initTransactions")
}

// call is a client call from the keys: send writes the next value to the
// first partition of the client's first topic; sendOffsetsToTransaction
// sends the positions of the consumer of a group.
func (x *Sandbox) call(op views.Op) (engine.Action, error) {
	w := x.world()
	c := op.Client
	switch op.Call {
	case views.CallInit:
		return engine.Call{Client: c, Method: engine.CallInitTransactions}, nil
	case views.CallBegin:
		return engine.Call{Client: c, Method: engine.CallBeginTransaction}, nil
	case views.CallCommit:
		return engine.Call{Client: c, Method: engine.CallCommitTransaction}, nil
	case views.CallAbort:
		return engine.Call{Client: c, Method: engine.CallAbortTransaction}, nil
	case views.CallPoll:
		return engine.Call{Client: c, Method: engine.CallPoll}, nil
	case views.CallProcess:
		return engine.Call{Client: c, Method: engine.CallProcess}, nil
	case views.CallSend:
		if len(w.Topics) == 0 {
			return nil, errors.New("no topic to send to")
		}
		// The values count the client's sends: a1, a2, ...
		n := 1
		for k := 1; k <= x.Pos(); k++ {
			for _, cmd := range x.branch().s.p.StepAt(k).Commands {
				if a, ok := cmd.Action.(engine.Send); ok && a.Client == c {
					n++
				}
			}
		}
		return engine.Send{Client: c, TP: engine.TP{Topic: w.Topics[0].Name}, Values: []string{strings.ToLower(c) + strconv.Itoa(n)}}, nil
	case views.CallSendOffsets:
		for _, k := range w.Consumers {
			if k.GroupID == "" {
				continue
			}
			info, _ := w.ConsumerInfo(k.Name)
			if len(info.Positions) == 0 {
				return nil, errors.New(k.Name + " has no positions yet: poll first")
			}
			return engine.SendOffsets{Client: c, Group: k.GroupID, Offsets: info.Positions, Generation: -1, Consumer: k.Name}, nil
		}
		return nil, errors.New("no consumer with a group.id: write sendOffsetsToTransaction at the prompt")
	}
	return nil, errors.New("unknown call")
}

// decls are the declarations in force at the current position, for the
// prompt: the setup's and those of the lines before it. They are worked
// out once a position (the prompt asks on every key) and handed out as a
// copy, since parsing a line records its declarations.
func (x *Sandbox) decls() *script.Decls {
	b := x.branch()
	pos := x.Pos()
	if b.decls == nil || b.declsPos != pos {
		d := script.NewDecls()
		for i, t := range b.setup {
			script.ParseLine("setup", i+1, t, d)
		}
		for i, t := range b.lines[:pos] {
			script.ParseLine("sandbox", len(b.setup)+i+1, t, d)
		}
		b.decls, b.declsPos = d, pos
	}
	return b.decls.Clone()
}

// Exec applies one line of the scenario language at the current position.
// The action is tried on a copy of the world first, so a line the engine
// refuses leaves nothing behind; one it takes becomes the next step, on a
// new branch if the learner had gone back.
func (x *Sandbox) Exec(line string) (string, error) {
	b := x.branch()
	c, err := script.ParseLine("prompt", 1, line, x.decls())
	if err != nil {
		return "", err
	}
	if c == nil {
		return "", errors.New("an empty line does nothing: type a verb (step, deliver m3, A send t-0 v)")
	}
	if c.Action == nil {
		ok, found, err := script.Check(x.world(), *c)
		switch {
		case err != nil:
			return "", err
		case ok:
			return "holds: " + c.Text, nil
		}
		return "does not hold: " + c.Text + "; found " + found, nil
	}
	// The trial copy starts an empty event history: its events are thrown
	// away, and appending to the shared history would copy all of it.
	trial := x.world().Clone()
	trial.Events = nil
	if _, err := trial.Apply(c.Action); err != nil {
		return "", errors.New(c.Text + ": " + err.Error())
	}
	pos := b.s.p.Pos()
	if pos < b.s.p.Len() {
		nb := &sbBranch{s: x.session(b.s.p.Fork(pos)), g: b.g, setup: b.setup,
			lines: append([]string(nil), b.lines[:pos]...), parent: x.cur, at: pos,
			name: "branch " + strconv.Itoa(len(x.branches)+1), causes: map[int][]cause{}}
		x.branches = append(x.branches, nb)
		x.cur = len(x.branches) - 1
		b = nb
	}
	b.s.p.Append(lessons.Step{Title: c.Text, Commands: []script.Command{*c}})
	b.lines = append(b.lines, c.Text)
	clear(b.s.frames)
	b.s.p.Next()
	return c.Text, nil
}

// Complete offers the lines the typed line may become.
func (x *Sandbox) Complete(line string) []string {
	var msgs []string
	for _, m := range x.world().InFlight() {
		msgs = append(msgs, m.Name())
	}
	return script.Complete(line, x.decls(), msgs)
}

// Safeguards are the bar's switches as they stand on the current branch.
func (x *Sandbox) Safeguards() []views.Safeguard {
	g := x.branch().g
	w := x.world()
	hasProducer, hasConsumer := false, len(w.Consumers) > 0
	for _, a := range x.base {
		if _, ok := a.(engine.DeclareProducer); ok {
			hasProducer = true
		}
	}
	out := []views.Safeguard{
		{ID: views.GuardIdempotence, Key: "enable.idempotence", Value: strconv.FormatBool(g.idempotence), On: g.idempotence,
			Available: hasProducer, Why: "no producer"},
		{ID: views.GuardIsolation, Key: "isolation.level", Value: isolationWord(g.readCommitted), On: g.readCommitted,
			Available: hasConsumer, Why: "no consumer"},
		{ID: views.GuardOffsets, Key: "offsets", Value: g.offsets.String(), On: g.offsets == engine.OffsetsInTransaction,
			Available: len(w.Processors) > 0, Why: "no processor"},
	}
	for _, id := range []views.SafeguardID{views.GuardDedup, views.GuardFencing, views.GuardLSO} {
		on := g.teach(id)
		out = append(out, views.Safeguard{ID: id, Key: teachKeys[id], Value: strconv.FormatBool(on), On: on, NotKafka: true,
			Available: x.avail[id], Why: "this engine has no such switch yet"})
	}
	return out
}

func isolationWord(rc bool) string {
	if rc {
		return engine.ReadCommitted.String()
	}
	return engine.ReadUncommitted.String()
}

// Toggle flips a safeguard: the branch's actions are played again on a
// world set up with the new value, as a new branch standing at the same
// position; the old branch is kept.
func (x *Sandbox) Toggle(id views.SafeguardID) (string, error) {
	for _, s := range x.Safeguards() {
		if s.ID == id && !s.Available {
			return "", errors.New(s.Key + " cannot be switched here: " + s.Why)
		}
	}
	b := x.branch()
	g := b.g
	switch id {
	case views.GuardIdempotence:
		g.idempotence = !g.idempotence
	case views.GuardIsolation:
		g.readCommitted = !g.readCommitted
	case views.GuardOffsets:
		g.offsets = (g.offsets + 1) % 3
	case views.GuardDedup:
		g.dedup = !g.dedup
	case views.GuardFencing:
		g.fence = !g.fence
	case views.GuardLSO:
		g.lso = !g.lso
	}
	pos := b.s.p.Pos()
	nb, err := x.newBranch(g, b.lines, x.cur, 0, "branch "+strconv.Itoa(len(x.branches)+1))
	if err != nil {
		return "", err
	}
	nb.s.p.Seek(pos)
	x.branches = append(x.branches, nb)
	x.cur = len(x.branches) - 1
	var s views.Safeguard
	for _, v := range x.Safeguards() {
		if v.ID == id {
			s = v
		}
	}
	nb.name += " (" + s.Key + "=" + s.Value + ")"
	msg := s.Key + "=" + s.Value + ": the setup is played again with it"
	if len(b.lines) > 0 {
		msg += ", then your " + strconv.Itoa(len(b.lines)) + " action(s)"
	}
	if id == views.GuardIdempotence && !g.idempotence && x.hasTxnProducer() {
		msg += "; transactional producers lose transactional.id (Java refuses it without idempotence)"
	}
	if n := nb.refused(); n > 0 {
		msg += "; " + strconv.Itoa(n) + " refused now"
	}
	return msg, nil
}

func (x *Sandbox) hasTxnProducer() bool {
	for _, a := range x.base {
		if d, ok := a.(engine.DeclareProducer); ok && d.Config.TransactionalID != "" {
			return true
		}
	}
	return false
}

// refused counts the steps up to the current position that the engine
// refused.
func (b *sbBranch) refused() int {
	n := 0
	for k := 1; k <= b.s.p.Pos(); k++ {
		n += len(b.s.p.ProblemsAt(k))
	}
	return n
}

// Branches lists the branches.
func (x *Sandbox) Branches() []views.BranchInfo {
	out := make([]views.BranchInfo, len(x.branches))
	for i, b := range x.branches {
		out[i] = views.BranchInfo{Name: b.name, Len: b.s.p.Len(), Parent: b.parent, At: b.at}
	}
	return out
}

// Branch is the current branch's index.
func (x *Sandbox) Branch() int { return x.cur }

// Switch moves to branch i.
func (x *Sandbox) Switch(i int) error {
	if i < 0 || i >= len(x.branches) {
		return errors.New("no branch " + strconv.Itoa(i+1) + "; there are " + strconv.Itoa(len(x.branches)))
	}
	x.cur = i
	return nil
}

// Scenario is the current branch as a scenario file.
func (x *Sandbox) Scenario() string {
	b := x.branch()
	var sb strings.Builder
	sb.WriteString("# eoslab sandbox: " + oneLineText(x.title) + ", " + b.name + "\n")
	sb.WriteString("# Replay it with 'eoslab run FILE'; reopen it with 'eoslab sandbox FILE'.\n")
	for _, l := range b.setup {
		sb.WriteString(l + "\n")
	}
	for _, l := range b.lines {
		sb.WriteString(l + "\n")
	}
	return sb.String()
}

// oneLineText is s with line breaks and other control characters made
// spaces, for a comment line.
func oneLineText(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}

// SaveName is the file name a save suggests: sandbox-NAME.scn.
func (x *Sandbox) SaveName() string {
	n := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '-'
	}, x.name)
	return "sandbox-" + n + ".scn"
}

// World is the world at the current position, for tests and the CLI: a
// snapshot, never to be stepped.
func (x *Sandbox) World() *engine.World { return x.world() }

// Problems are what the engine refused in the step to the current position.
func (x *Sandbox) Problems() []string {
	var out []string
	for _, e := range x.branch().s.p.ProblemsAt(x.Pos()) {
		out = append(out, e.Error())
	}
	return out
}

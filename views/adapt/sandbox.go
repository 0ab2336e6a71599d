package adapt

import (
	"errors"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
	"github.com/eoslab/eoslab/engine/termsafe"
	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/views/model"
)

// Sandbox implements model.SandboxSession: a world the learner drives one
// action at a time. Each branch is a lesson that grows: the setup, then one
// step per action (lessons.Player.Append), played by a Session, so the
// sandbox draws its panels and Timeline exactly as the lesson player does.
type Sandbox struct {
	title string
	name  string // the preset's name or the file's base name, for SaveName
	// base is the setup as written (the preset's or the file's), the
	// first branch's; the setup in force is a branch's base with the
	// safeguards applied (setupLines). A branch replayed under the other
	// Kafka protocol (v) has a base of its own.
	base     *setupBase
	branches []*sbBranch
	cur      int
	// goal is the challenge the sandbox was opened on (OpenChallenge),
	// or nil.
	goal *sbGoal
}

// sbBranch is one line of time: a growing lesson and its action lines.
type sbBranch struct {
	s      *Session
	base   *setupBase
	g      guards
	setup  []string
	parent int
	at     int
	name   string
	// causes caches the cause chains of the violations, by position.
	causes map[int][]cause
	// decls are the declarations at position declsPos (Sandbox.decls).
	decls    *script.Decls
	declsPos int
	// sends counts each client's sends in the steps before sendsPos, so
	// that a new send's value (a1, a2, ...) is found without reading the
	// whole branch again (Sandbox.sendsBefore).
	sends    map[string]int
	sendsPos int
	// from is, for a branch replayed from its parent with a safeguard
	// switched, the step each of the parent's steps became here (0: left
	// out); nil for any other branch.
	from []int
	// note is the learner's note on the branch; moments their notes on
	// its steps, by step (branches.go).
	note    string
	moments map[int]string
}

// setupBase is a setup as written, and the safeguards it writes.
type setupBase struct {
	actions []engine.Action
	written guards
}

// SandboxPresets are the starting worlds of the preset picker.
func SandboxPresets() []model.SandboxPreset {
	out := make([]model.SandboxPreset, len(presets))
	for i, p := range presets {
		out[i] = model.SandboxPreset{Name: p.name, Title: p.title, Summary: p.summary}
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
				// Title says "(Kafka 4)" from the setup.
				setup = append([]string{"config transaction.version=2"}, setup...)
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
	x := &Sandbox{title: title, name: name, base: &setupBase{}}
	var lines []string
	for _, c := range cmds {
		if len(lines) == 0 && c.Kind() == script.Setup {
			x.base.actions = append(x.base.actions, c.Action)
			continue
		}
		lines = append(lines, c.Text)
	}
	x.base.written = writtenGuards(x.base.actions)
	if toEnd {
		// A file w saved with every branch reopens with all of them.
		if ok, err := x.openBranches(file, src); ok || err != nil {
			return x, err
		}
	}
	b, err := x.newBranch(x.base, x.base.written, lines, -1, 0, "branch 1")
	if err != nil {
		return nil, err
	}
	x.branches = []*sbBranch{b}
	if toEnd {
		b.s.p.Seek(b.s.p.Len())
	}
	return x, nil
}

// newBranch plays setup and lines on a fresh world, each line one step,
// and stands at position 0.
func (x *Sandbox) newBranch(base *setupBase, g guards, lines []string, parent, at int, name string) (*sbBranch, error) {
	setup := setupLines(base, g)
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
	b := &sbBranch{s: x.session(lessons.NewGrowingPlayer(l)), base: base, g: g, setup: setup,
		parent: parent, at: at, name: name, causes: map[int][]cause{}}
	return b, nil
}

func (x *Sandbox) branch() *sbBranch { return x.branches[x.cur] }

// line is the action line of step k (1..Len): the step's title, which is
// the line as written.
func (b *sbBranch) line(k int) string { return b.s.p.StepAt(k).Title }

// lines are the branch's action lines, one a step.
func (b *sbBranch) lines() []string {
	out := make([]string, b.s.p.Len())
	for i := range out {
		out[i] = b.line(i + 1)
	}
	return out
}

// session starts the session of a new branch. Its frame keys start at the
// branch's number times 2^32, so no two branches give two frames the same
// Key (the views keep what they drew by Key; see highlightKey).
func (x *Sandbox) session(p *lessons.Player) *Session {
	s := onPlayer(p)
	s.lastKey = uint64(len(x.branches)+1) << 32
	return s
}

// world is the world at the current position: a snapshot, never stepped.
func (x *Sandbox) world() *engine.World { return x.branch().s.p.World() }

// Title is the preset's title or the file's name, with "(Kafka 4)" when
// the current branch plays Kafka 4 (v switches it).
func (x *Sandbox) Title() string {
	if x.Kafka() == 4 {
		return x.title + " (Kafka 4)"
	}
	return x.title
}

// Pos is the position on the current branch.
func (x *Sandbox) Pos() int { return x.branch().s.p.Pos() }

// Len is the number of actions on the current branch.
func (x *Sandbox) Len() int { return x.branch().s.p.Len() }

// Seek moves along the current branch.
func (x *Sandbox) Seek(k int) { x.branch().s.p.Seek(k) }

// Brokers is the number of brokers.
func (x *Sandbox) Brokers() int { return len(x.world().Brokers()) }

// Clients lists the clients in declaration order.
func (x *Sandbox) Clients() []model.SandboxClient {
	w := x.world()
	var out []model.SandboxClient
	for _, p := range w.Producers() {
		out = append(out, model.SandboxClient{Name: p.Name, Kind: model.ClientProducer,
			Transactional: p.Config.TransactionalID != "", Paused: p.Paused, Crashed: p.Crashed})
	}
	for _, c := range w.Consumers() {
		out = append(out, model.SandboxClient{Name: c.Name, Kind: model.ClientConsumer, Paused: c.Paused, Crashed: c.Crashed})
	}
	for _, pr := range w.Processors() {
		out = append(out, model.SandboxClient{Name: pr.Name, Kind: model.ClientProcessor, Transactional: true,
			Paused: pr.Producer.Paused, Crashed: pr.Producer.Crashed})
	}
	return out
}

// Waiting lists what the world will do next.
func (x *Sandbox) Waiting() []model.WaitItem {
	var out []model.WaitItem
	w := x.world()
	for _, it := range w.Pending(false) {
		if m := it.Msg; m != nil {
			out = append(out, model.WaitItem{ID: m.ID, At: it.At, In: it.At - w.Now(), Kind: m.Kind.String(),
				Text: m.From + " -> " + m.To + " " + m.Brief()})
			continue
		}
		t := it.Timer
		text := t.Owner
		if t.TP != (engine.TP{}) {
			text += " " + t.TP.String()
		}
		out = append(out, model.WaitItem{At: it.At, In: it.At - w.Now(), Kind: t.Kind.String(), Text: text, Timer: true})
	}
	return out
}

// decls are the declarations in force at the current position, for the
// prompt: the setup's and those of the lines before it. They are handed
// out as a copy, since parsing a line records its declarations. Going
// forward parses only the lines since the last position asked for, so a
// session of n actions costs O(n) parsing, not O(n^2) (a keystroke that
// acts on a branch of 3,000 lines took 2.2 ms re-reading them all, and
// grew with every action); going back, or a new branch, reads the lines
// again once.
func (x *Sandbox) decls() *script.Decls {
	b := x.branch()
	pos := x.Pos()
	if b.decls == nil || pos < b.declsPos {
		b.decls, b.declsPos = script.NewDecls(), 0
		for i, t := range b.setup {
			script.ParseLine("setup", i+1, t, b.decls)
		}
	}
	for i := b.declsPos; i < pos; i++ {
		script.ParseLine("sandbox", len(b.setup)+i+1, b.line(i+1), b.decls)
	}
	b.declsPos = pos
	return b.decls.Clone()
}

// sendsBefore is how many sends client c made in the steps before the
// current position. Like decls it reads forward from the last position
// asked for: a session of n sends reads each step once.
func (x *Sandbox) sendsBefore(c string) int {
	b := x.branch()
	pos := x.Pos()
	if b.sends == nil || pos < b.sendsPos {
		b.sends, b.sendsPos = map[string]int{}, 0
	}
	for k := b.sendsPos + 1; k <= pos; k++ {
		for _, cmd := range b.s.p.StepAt(k).Commands {
			if a, ok := cmd.Action.(engine.Send); ok {
				b.sends[a.Client]++
			}
		}
	}
	b.sendsPos = pos
	return b.sends[c]
}

// Exec applies one line of the scenario language at the current position.
// The action is tried on a copy of the world first, so a line the engine
// refuses leaves nothing behind; one it takes becomes the next step, on a
// new branch if the learner had gone back.
func (x *Sandbox) Exec(line string) (string, error) {
	if cond, ok := script.UntilCondition(line); ok {
		return x.RunUntil(cond)
	}
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
	trial := x.world().CloneForTrial()
	if _, err := trial.Apply(c.Action); err != nil {
		return "", errors.New(c.Text + ": " + err.Error())
	}
	pos := b.s.p.Pos()
	if pos < b.s.p.Len() {
		nb := &sbBranch{s: x.session(b.s.p.Fork(pos)), base: b.base, g: b.g, setup: b.setup,
			parent: x.cur, at: pos,
			name: "branch " + strconv.Itoa(len(x.branches)+1), causes: map[int][]cause{}}
		x.branches = append(x.branches, nb)
		x.cur = len(x.branches) - 1
		b = nb
	}
	b.s.p.Append(lessons.Step{Title: c.Text, Commands: []script.Command{*c}})
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

// Branches lists the branches.
func (x *Sandbox) Branches() []model.BranchInfo {
	out := make([]model.BranchInfo, len(x.branches))
	for i, b := range x.branches {
		out[i] = model.BranchInfo{Name: b.name, Len: b.s.p.Len(), Parent: b.parent, At: b.at, Note: b.note, Moments: b.momentList()}
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
	sb.WriteString("# eoslab sandbox: " + oneLineText(x.Title()) + ", " + b.name + "\n")
	sb.WriteString("# Replay it with 'eoslab run FILE'; reopen it with 'eoslab sandbox FILE'.\n")
	for _, l := range b.setup {
		sb.WriteString(l + "\n")
	}
	for k, l := range b.lines() {
		if refusedAction(b, k+1) {
			// A line the engine refused changed nothing; kept as it
			// is, 'eoslab run' of the file would stop at it.
			sb.WriteString("# refused here, left out: " + oneLineText(l) + "\n")
			continue
		}
		sb.WriteString(l + "\n")
	}
	return sb.String()
}

// refusedAction reports whether step k of b is an action the engine
// refused (a failed expectation is no refusal: it replays, and says so).
// Every step's line parsed where it stands: a file's lines parsed as the
// file, and a replay keeps only the lines that parse in the new setup.
func refusedAction(b *sbBranch, k int) bool {
	for _, c := range b.s.p.StepAt(k).Commands {
		if c.Action != nil {
			return len(b.s.p.ProblemsAt(k)) > 0
		}
	}
	return false
}

// oneLineText is s with line breaks, tabs and every character a terminal
// would act on (termsafe.Unsafe) made spaces, for a comment line: the
// parser refuses those even in a comment, so a saved file opens again.
func oneLineText(s string) string {
	return strings.ReplaceAll(termsafe.Blank(s), "\t", " ")
}

// SaveName is the file name a save suggests: sandbox-NAME.scn.
func (x *Sandbox) SaveName() string {
	n := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '-'
	}, x.name)
	// A file a save wrote (sandbox-NAME.scn) opened again keeps its name:
	// the prefix is not added twice (the save takes the next free name).
	if t := strings.TrimPrefix(n, "sandbox-"); t != "" {
		n = t
	}
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

package model

// The sandbox's view-model: what a SandboxSession tells the sandbox screen,
// as plain values. views/adapt implements it on top of the engine; the
// views never see an engine action, only the typed Op that the session turns
// into one (engine.Action), and the scenario line it answers with.

// SandboxPreset is one starting world of the preset picker.
type SandboxPreset struct {
	Name    string // the id OpenPreset takes, e.g. "idempotent"
	Title   string
	Summary string
}

// SandboxSession is a world the learner drives one action at a time. Each
// action becomes one step of the current branch and one line of scenario
// text. Acting at an earlier position forks a new branch; the old one is
// kept.
type SandboxSession interface {
	Title() string
	// Frame is the panels at the current position. Highlight names a
	// broken monitor whose cause chain the Timeline marks, or ""; the
	// Timeline also marks the message selected (its id; 0 for none).
	Frame(highlight string, selected int64) Frame
	// Pos is the position on the current branch, 0..Len (0: after the
	// setup); Seek moves along the branch without acting.
	Pos() int
	Len() int
	Seek(k int)
	// Waiting lists the messages in flight and the pending timers at the
	// current position, in the order "step" would take them.
	Waiting() []WaitItem
	// Clients are the producers, consumers and processors, in
	// declaration order; Brokers is the number of brokers.
	Clients() []SandboxClient
	Brokers() int
	// Do applies one typed action and returns its scenario line. An error
	// leaves the world as it was.
	Do(op Op) (line string, err error)
	// Exec applies one line of the scenario language (the prompt). An
	// expect line is checked and answered, not recorded. An error leaves
	// the world as it was and says what was expected.
	Exec(line string) (answer string, err error)
	// Complete returns the lines the typed line may become: the verbs and
	// the names of the world that fit its last word.
	Complete(line string) []string
	// Monitors are the guarantees, each with whether it holds at the
	// current position and, when it does not, its cause chain.
	Monitors() []Monitor
	// Safeguards are the switches of the bar; Toggle flips one, which
	// replays the branch's actions on a world set up with the new value (a
	// new branch; the old one is kept).
	Safeguards() []Safeguard
	Toggle(id SafeguardID) (string, error)
	// Branches lists the branches; Branch is the current one; Switch
	// moves to another, at the position it was left at.
	Branches() []BranchInfo
	Branch() int
	Switch(i int) error
	// Problems are what the engine refused in the step to the current
	// position (a line played again after a safeguard switched, or one
	// that met a limit), each naming its line.
	Problems() []string
	// Scenario is the current branch as a scenario file: the setup, then
	// the actions, one a line. SaveName is a file name to save it under.
	Scenario() string
	SaveName() string
	// Goal is the challenge the session was opened on, judged by the
	// engine at the current position; false when it has none.
	Goal() (SandboxGoal, bool)
}

// WaitItem is a message in flight or a pending timer.
type WaitItem struct {
	// ID is the message's id (as m12 names it); 0 for a timer.
	ID int64
	// At is the logical time it is due, and In how long from now, in ms.
	At, In int64
	// Kind is the request, response or timer name; Text the rest of the
	// description.
	Kind, Text string
	Timer      bool
}

// ClientKind says what a sandbox client is.
type ClientKind uint8

// Client kinds.
const (
	ClientProducer ClientKind = iota
	ClientConsumer
	ClientProcessor
)

func (k ClientKind) String() string {
	switch k {
	case ClientConsumer:
		return "consumer"
	case ClientProcessor:
		return "processor"
	}
	return "producer"
}

// SandboxClient is one client of the world.
type SandboxClient struct {
	Name          string
	Kind          ClientKind
	Transactional bool
	Paused        bool
	Crashed       bool
}

// OpKind is the kind of a sandbox action.
type OpKind uint8

// Sandbox actions; each is one engine action.
const (
	OpDeliver   OpKind = iota // deliver the message Msg now, whatever is ahead of it
	OpDrop                    // the network loses Msg
	OpDuplicate               // the network delivers Msg twice
	OpDelay                   // Msg arrives Ms later
	OpReorder                 // Msg and Other swap places
	OpAdvance                 // the clock moves Ms forward
	OpStep                    // the next scheduled item happens
	OpRun                     // run until nothing is scheduled but the periodic checks
	OpCrash                   // broker Broker, or the coordinator, or client Client crashes
	OpRestart                 // ... restarts
	OpPause                   // client Client stops in a GC pause
	OpResume                  // ... goes on
	OpCall                    // client Client calls Call
)

// ClientCall is a client API call the keys make.
type ClientCall uint8

// Client calls.
const (
	CallInit ClientCall = iota
	CallBegin
	CallSend
	CallSendOffsets
	CallCommit
	CallAbort
	CallPoll
	CallProcess
)

// Op is one sandbox action as typed values.
type Op struct {
	Kind       OpKind
	Msg, Other int64
	Ms         int64
	// Broker is the broker a crash or restart is about; Coordinator asks
	// for the broker that coordinates the first transactional id instead.
	Broker      int
	Coordinator bool
	Client      string
	Call        ClientCall
}

// Monitor is one guarantee as a sentence.
type Monitor struct {
	Name     string // the engine's invariant name
	Sentence string
	// Short is the sentence in at most 27 cells, for a narrow screen.
	Short string
	Holds bool
	// Cause is the chain of events that led to the first violation, in
	// Kafka's words, oldest first, the violation last. Empty while it
	// holds.
	Cause []string
}

// SafeguardID names a switch of the safeguards bar.
type SafeguardID uint8

// Safeguards, in the bar's order.
const (
	GuardIdempotence SafeguardID = iota
	GuardIsolation
	GuardOffsets
	GuardDedup
	GuardFencing
	GuardLSO
	NumGuards
)

// Safeguard is one switch of the bar.
type Safeguard struct {
	ID SafeguardID
	// Key is the setting's name, Value its current value as written
	// ("enable.idempotence", "true").
	Key, Value string
	// On says the safeguard protects: the value Kafka's exactly-once
	// needs.
	On bool
	// NotKafka marks a teaching-only switch that no Kafka has.
	NotKafka bool
	// Available is false when the world has nothing it applies to, or the
	// engine cannot switch it; Why says which.
	Available bool
	Why       string
}

// BranchInfo is one branch of the session's time.
type BranchInfo struct {
	Name string
	Len  int
	// Parent is the branch it forked from (-1 for the first) and At the
	// position it forked at.
	Parent, At int
	// Note is the learner's note on the branch; Moments their notes on
	// its steps, in step order.
	Note    string
	Moments []Moment
}

// Moment is a note on one step of a branch.
type Moment struct {
	Step int
	Note string
}

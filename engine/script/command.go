package script

import "github.com/eoslab/eoslab/engine"

// kv is one key=value word, as written (quotes removed).
type kv struct{ Key, Value string }

// Command is one parsed line: where it was written, its text, and what it
// means. Every line but an expectation is an engine action, built once by
// the parser; the runner hands it to the engine as it is.
type Command struct {
	File string
	Line int
	Text string // the line as written, trimmed, comment removed

	// Action is the line as the engine's typed action; nil for an expect
	// line.
	Action engine.Action

	// Expect is the typed form of an expect line, built once by the
	// parser; nil for every other line.
	Expect Expectation

	form *form // the form the line was parsed with
}

// Kind says which family the command's verb belongs to.
func (c Command) Kind() CommandKind {
	if c.form == nil {
		return Unknown
	}
	return c.form.kind
}

// String renders the command as its text, which is its canonical form.
func (c Command) String() string { return c.Text }

// CommandKind is the family of a verb.
type CommandKind int

const (
	Unknown CommandKind = iota
	Setup               // brokers, config, topic, producer, consumer, processor
	Call                // a client's Java API call: A send, C poll, P process
	Step                // step, deliver, run, advance: time and delivery
	Fault               // drop, duplicate, delay, reorder, crash, restart, pause, resume, rebalance
	Inject              // inject: raw batches, markers, coordinator records and requests, bypassing the clients
	Expect              // expect: an assertion about the state
)

var kindNames = [...]string{"unknown", "setup", "call", "step", "fault", "inject", "expect"}

func (k CommandKind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return "unknown"
	}
	return kindNames[k]
}

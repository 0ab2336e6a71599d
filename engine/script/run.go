package script

import (
	"strings"

	"github.com/eoslab/eoslab/engine"
)

// Failure is an expectation that did not hold.
type Failure struct {
	File string
	Line int
	Text string // the expect line
	Got  string // what was found instead
}

func (f Failure) Error() string {
	return f.File + ":" + itoaRun(f.Line) + ": expectation failed: " + f.Text + "\n    found: " + f.Got
}

func itoaRun(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	if neg {
		b = append([]byte{'-'}, b...)
	}
	return string(b)
}

// Runner plays commands against a world.
type Runner struct {
	World    *engine.World
	Failures []Failure
	// events indexes World's history for the event checks; it follows the
	// world as it grows, and starts over if World is replaced.
	events eventIndex
	// pinnedVersion, when set, is the transaction.version every run of
	// the scenario uses, whatever its config lines say (PinTransactionVersion).
	pinnedVersion int64
}

// PinTransactionVersion makes the run use transaction.version v (1 or 2)
// from its start: the world begins with it, and every
// `config transaction.version=N` of the scenario is played with v instead,
// so the transcript shows the version in force. This is what
// `eoslab run --kafka 3|4` does.
func (r *Runner) PinTransactionVersion(v int) {
	r.pinnedVersion = int64(v)
	r.World.SetTransactionVersion(v)
}

// pinned returns the action with the pinned transaction version in place
// of the one a config line writes.
func (r *Runner) pinned(a engine.Action) engine.Action {
	c, ok := a.(engine.SetConfig)
	if !ok || r.pinnedVersion == 0 {
		return a
	}
	out := engine.SetConfig{Settings: append([]engine.Setting(nil), c.Settings...)}
	for i, s := range out.Settings {
		if s.Key == engine.ConfigTransactionVersion {
			out.Settings[i].Value = r.pinnedVersion
		}
	}
	return out
}

// NewRunner starts a runner on a fresh world with Kafka's defaults.
func NewRunner() *Runner { return &Runner{World: engine.New(engine.DefaultConfig())} }

// Exec runs one command. An expectation that does not hold is recorded in
// Failures and returned; an action the engine refuses is an *Error naming
// file:line.
func (r *Runner) Exec(c Command) ([]engine.Event, *Failure, error) {
	if c.Action == nil {
		k := checker{w: r.World, idx: &r.events}
		ok, got, err := k.check(c.Expect)
		if err != nil {
			return nil, nil, &Error{File: c.File, Line: c.Line, Msg: err.Error()}
		}
		if !ok {
			f := Failure{File: c.File, Line: c.Line, Text: c.Text, Got: got}
			r.Failures = append(r.Failures, f)
			return nil, &f, nil
		}
		return nil, nil, nil
	}
	evs, err := r.World.Apply(r.pinned(c.Action))
	if err != nil {
		return evs, nil, &Error{File: c.File, Line: c.Line, Msg: err.Error()}
	}
	return evs, nil, nil
}

// Outcome is what one command of a scenario did: its events and, for an
// expect line that did not hold, the failure.
type Outcome struct {
	Command Command
	Events  []engine.Event
	Failure *Failure
}

// Play runs commands in order and hands each one's outcome to each, until
// a command is refused or each returns an error. It is the one
// scenario-run loop: the CLI, the transcript and the scenario tests all
// play through it (a lesson steps through Exec, one step at a time).
func (r *Runner) Play(cmds []Command, each func(Outcome) error) error {
	for _, c := range cmds {
		evs, f, err := r.Exec(c)
		if herr := each(Outcome{Command: c, Events: evs, Failure: f}); herr != nil {
			return herr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// WriteTranscript writes an outcome as transcript lines: one event per line,
// then a failed expectation.
func WriteTranscript(b *strings.Builder, s Outcome) {
	for _, e := range s.Events {
		b.WriteString(e.Line())
		b.WriteByte('\n')
	}
	if s.Failure != nil {
		b.WriteString("FAILED " + s.Failure.Error() + "\n")
	}
}

// Transcript runs a whole scenario and returns its transcript (one event per
// line), the failures, and the first error that stopped it.
func Transcript(file string, src []byte) (string, []Failure, error) {
	cmds, err := Parse(file, src)
	if err != nil {
		return "", nil, err
	}
	r := NewRunner()
	var b strings.Builder
	err = r.Play(cmds, func(s Outcome) error { WriteTranscript(&b, s); return nil })
	return b.String(), r.Failures, err
}

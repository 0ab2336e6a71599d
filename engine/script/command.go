package script

import "strings"

// KV is one key=value option, as written (quotes removed).
type KV struct{ Key, Value string }

// Command is one parsed line.
//
// Verb is the canonical verb. Client calls use the Java method name as Verb
// ("send", "initTransactions") and put the client's name in Actor. Args are
// the positional words after the verb, or after "NAME call" for a client
// call. For producer, consumer and processor the declared name goes in Actor
// and Args holds what follows it (nothing); for topic the name is Args[0],
// because a topic is not a client. For expect and inject the subject word
// comes first: "expect partition t-0 leo 3" has Args [partition t-0 leo 3].
// Opts are the key=value words in the order written, including message
// filters (to=A) and sendOffsetsToTransaction's TP=OFFSET pairs.
type Command struct {
	File  string
	Line  int
	Text  string // the line as written, trimmed, comment removed
	Verb  string
	Actor string
	Args  []string
	Opts  []KV
	// Expect is the typed form of an expect line, built once by the
	// parser; nil for every other verb.
	Expect Expectation
}

// Opt returns the value of the option key. Parsing rejects a key given twice,
// except message filters: "reorder Produce to=broker-1 Produce to=broker-2"
// has two, one per selector, and Opt returns the first; use Selectors.
func (c Command) Opt(key string) (string, bool) {
	for _, kv := range c.Opts {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return "", false
}

// Kind says which family the command's verb belongs to.
func (c Command) Kind() CommandKind {
	if f := callForms[c.Verb]; f != nil && c.Actor != "" {
		return Call
	}
	if fs := verbForms[c.Verb]; len(fs) > 0 {
		return fs[0].kind
	}
	return Unknown
}

// Offsets returns the TP=OFFSET pairs of sendOffsetsToTransaction and
// commitSync, in order, leaving out the named options (generation=, ...).
func (c Command) Offsets() []KV {
	f := callForms[c.Verb]
	if f == nil || f.keyed == nil {
		return nil
	}
	var out []KV
	for _, kv := range c.Opts {
		if _, named := f.opt(kv.Key); !named {
			out = append(out, kv)
		}
	}
	return out
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
	Inject              // inject: write raw batches or markers, bypassing the clients
	Expect              // expect: an assertion about the state
)

var kindNames = [...]string{"unknown", "setup", "call", "step", "fault", "inject", "expect"}

func (k CommandKind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return "unknown"
	}
	return kindNames[k]
}

// Selector picks in-flight messages for deliver and the message faults:
// either one message by id (Kind empty, ID set) or the oldest in-flight
// message of Kind that matches the filters that are not empty.
type Selector struct {
	ID        int64  // 12 for m12
	Kind      string // ProduceResponse
	To        string // a client or broker-N
	From      string
	Partition string // t-0
}

// Selectors returns the message selectors of deliver, drop, duplicate, delay
// and reorder, in order, each with the filters written after it. It reads
// Text again because the grouping of filters with their kind is positional
// ("reorder Produce to=broker-1 Produce to=broker-2"). It returns nil for
// other verbs or text that does not lex.
func (c Command) Selectors() []Selector {
	fs := verbForms[c.Verb]
	if len(fs) != 1 || !fs[0].hasMsg() {
		return nil
	}
	f := fs[0]
	_, toks, err := lex(c.Text)
	if err != nil || len(toks) == 0 {
		return nil
	}
	var sels []Selector
	cur, pos := -1, 0
	for _, t := range toks[1:] {
		if !t.isOpt() {
			if a, ok := f.argAt(pos); ok && a.msg {
				sels = append(sels, newSelector(t.val))
				cur = len(sels) - 1
			}
			pos++
			continue
		}
		if cur < 0 {
			continue
		}
		switch s := &sels[cur]; t.key() {
		case "to":
			s.To = t.value()
		case "from":
			s.From = t.value()
		case "partition":
			s.Partition = t.value()
		}
	}
	return sels
}

func newSelector(w string) Selector {
	if isMessageID(w) {
		n, _ := parseInt(strings.TrimPrefix(w, "m"))
		return Selector{ID: n}
	}
	return Selector{Kind: w}
}

package script

import "github.com/eoslab/eoslab/engine"

// A form is one shape a command can take: its words, options and rules. The
// language is defined by the tables of forms in verbs.go and expect.go, and
// parse.go interprets them; adding a verb means adding a row, not a branch.
type form struct {
	verb  string
	kind  CommandKind
	on    []ClientKind // client calls: the kinds of client that have the call
	usage string       // as written in the doc; NAME becomes the actor in messages
	need  string       // what the positional words are, for "X needs ..." messages

	args []arg // positional words after the verb (after "NAME call" for calls)
	min  int   // how many of args must be present; the rest are optional
	rest *arg  // if set, any number of further words of this sort may follow

	restMin int // fewest rest words (send needs one value)

	opts   []opt     // key=value options this form accepts
	keyed  *keyedOpt // options whose key is itself a value (TP=OFFSET)
	optMin int       // fewest options (config needs one)

	// named: args[0] is the name being declared. A client's name goes in
	// Command.Actor, as for its calls; a topic's stays in Args.
	named, client bool

	// rule checks what involves several words; it returns a message or "".
	rule func(p *pctx) string
	// build makes the engine's action from the checked words; nil for
	// expect, which the engine still reads as words (Command.Expect).
	build func(p *pctx) engine.Action
	// declare records the line's declarations once the line is valid.
	declare func(p *pctx)
	// salvage records what a declaration line that failed still declares
	// (its name and kind), so that one typo in a lesson does not also turn
	// every later use of the name into an error. Only Parse uses it.
	salvage func(p *pctx)
}

// arg is one positional word of a form.
type arg struct {
	name  string // placeholder in the usage: TP, N, NAME, MSG
	lit   string // if set, the word must be exactly this; it selects the form
	role  string // what a literal selects, for messages: "subject", "field"
	check check
	msg   bool // a message selector: filters to=, from=, partition= may follow
}

// opt is one key=value option of a form.
type opt struct {
	key      string
	ph       string // placeholder for messages: partitions=N
	required bool
	check    check
	// fixed options shape the cluster and must be set before it starts.
	fixed bool
}

// keyedOpt is an option whose key is a value of its own, as in
// sendOffsetsToTransaction's TP=OFFSET.
type keyedOpt struct {
	ph  string // TP=OFFSET
	key check
	val check
	min int
}

// literal returns the literal word at position i, if there is one.
func (f *form) literal(i int) (arg, bool) {
	if i < len(f.args) && f.args[i].lit != "" {
		return f.args[i], true
	}
	return arg{}, false
}

// maxArgs is the most positional words the form takes, or -1 for no limit.
func (f *form) maxArgs() int {
	if f.rest != nil {
		return -1
	}
	return len(f.args)
}

// argAt is the spec of the i-th positional word.
func (f *form) argAt(i int) (arg, bool) {
	if i < len(f.args) {
		return f.args[i], true
	}
	if f.rest != nil {
		return *f.rest, true
	}
	return arg{}, false
}

func (f *form) opt(key string) (opt, bool) {
	for _, o := range f.opts {
		if o.key == key {
			return o, true
		}
	}
	return opt{}, false
}

func (f *form) optKeys() []string {
	keys := make([]string, len(f.opts))
	for i, o := range f.opts {
		keys[i] = o.key
	}
	return keys
}

// hasMsg reports whether any positional word is a message selector.
func (f *form) hasMsg() bool {
	for _, a := range f.args {
		if a.msg {
			return true
		}
	}
	return false
}

// Package script reads eoslab's scenario language: the one line-oriented
// language shared by lessons, the sandbox prompt, `eoslab check FILE`,
// `eoslab run FILE` and the engine's scenario tests. The language itself is
// described for users in assets/scenario-language.md.
//
// Parsing includes every check that can be made without running the
// simulation: verbs and their arity, option keys and values, declared names
// (clients, topics, groups, transactional ids), partition numbers and the
// client kind that owns each call. What Kafka itself would only reject at run
// time (initTransactions on a producer without transactional.id, a commit
// outside a transaction) is left to the engine, which reproduces Kafka's
// error, because showing that error is often the point of a lesson.
//
// Parsing is deterministic and never panics, whatever the input: the sandbox
// prompt feeds it whatever the learner types, and FuzzParse holds it to that.
//
// A line is parsed once: its words are checked against the form tables
// (verbs.go, expect.go) and, when they pass, the form's builder (build.go)
// turns them into the engine's typed action (engine.Action), which is what
// the runner hands to the engine, or, for an expect line, into this
// package's typed Expectation (expectation.go), which check.go and
// check_events.go evaluate against the world through the engine's read-only
// accessors. The parser therefore imports engine, for those types and
// for the names the engine defines (setting keys, call methods, message
// kinds); it never runs the simulation. Checks of syntax, value ranges and
// declared names live here, and only here; the engine checks what depends
// on the world when the action runs. The Kafka names listed in names.go are
// compared with the engine's by names_test.go.
package script

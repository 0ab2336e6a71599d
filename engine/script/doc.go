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
// The parsing files import nothing but the standard library, and never
// eoslab/engine: the language is defined here on its own terms, not by how
// the engine happens to store state, and the parser can be tested and fuzzed
// in isolation. The Kafka names it checks (message kinds, client and
// coordinator states, error and invariant names) are therefore kept as data
// in names.go, and names_test.go compares them with the engine's so the two
// cannot drift. Only the runner (run.go), which feeds parsed commands to the
// engine, and the checks (check.go, check_events.go), which evaluate parsed
// expectations against it through its read-only accessors, may import
// eoslab/engine; TestParserImportsNoEngine holds the rest to that.
package script

// Package engine is eoslab's deterministic, in-process simulation of Apache
// Kafka's exactly-once semantics: idempotent producers, transactions, the
// transaction coordinator, read_committed consumers and transactional offset
// commits (KIP-98, KIP-360, KIP-447, KIP-588).
//
// The engine is a pure state machine in the spirit of etcd-io/raft: an Action
// goes in through World.Apply, Events come out. Actors never call each other;
// they put requests and responses on a simulated network, and delivering a
// message is an explicit step. There are no goroutines, no wall clock, no
// globals and no I/O, so one action list always yields one transcript, byte
// for byte.
//
// Behaviour follows the project's Kafka reference; comments may cite its
// sections as "ref 2.3", and name the Kafka class that holds the rule. What a
// user reads cites only Kafka: each event's rule is a Reason whose table
// entry (rule.go) names the class and method, KIP or JIRA.
//
// For the sandbox, three read-only views explain what went wrong:
//
//   - Monitors and World.MonitorStatus (monitors.go): each invariant as a
//     plain sentence ("no record was written twice") with whether it is
//     broken, how often, and its first violation; kept up to date as
//     violations happen, so reading it costs the same at any history length.
//   - World.Cause (cause.go): the chain of events that led to a violation,
//     oldest first, as CauseLinks (event index, message id, role, sentence):
//     the sends involved, the faults on their messages and actors, the
//     teaching switches that were off, the decisions that let it through.
//     Violation carries the typed fields it needs (partition, producer id
//     and epoch, sequence, offsets, record, transaction, consumer, group).
//   - Teaching switches (teach.go): eoslab.broker.dedup, eoslab.epoch.fencing
//     and eoslab.lso, config keys that are not Kafka settings and turn off a
//     safeguard (SetTeaching, World.TeachingSwitches).
//
// This package imports nothing but the standard library.
package engine

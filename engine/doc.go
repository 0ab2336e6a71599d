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
// Behaviour follows shared/kafka-eos-reference.md; comments cite its sections
// as "ref 2.3" and name the Kafka class that holds the rule.
//
// This package imports nothing but the standard library.
package engine

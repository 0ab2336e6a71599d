package engine

import "sort"

// The names of the scenario language come from the engine's own tables, so
// that each name (a message kind, a state, an error, an event kind) is
// written down once. These functions list them for the parser's checks and
// suggestions; each returns a fresh slice the caller may keep.

// MessageKindNames lists the request and response names (Kafka's ApiKeys,
// with Response appended for the answer), in MsgKind order.
func MessageKindNames() []string { return append([]string(nil), msgKindNames[:]...) }

// ClientStateNames lists the states of Java's TransactionManager.State
// (ref 1.3), in ClientState order.
func ClientStateNames() []string { return append([]string(nil), clientStateNames[:]...) }

// TxnStateNames lists the coordinator's TransactionState values (ref 3.3),
// in Kafka's id order.
func TxnStateNames() []string { return append([]string(nil), txnStateNames[:]...) }

// EventKindNames lists the event kinds an expectation may name, in
// EventKind order from 1: EvAction (the scenario's own lines) is left out.
func EventKindNames() []string { return append([]string(nil), eventKindNames[1:]...) }

// ErrorCodes lists every error the simulation can report, by code: the wire
// errors, then the client-side exceptions (codes from 1000).
func ErrorCodes() []ErrorCode {
	out := make([]ErrorCode, 0, len(errorNames))
	for c := range errorNames {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// The name tables as copies: a caller may change what it gets, never the
// engine's own tables.

// InvariantNames lists every invariant, in the order of Monitors.
func InvariantNames() []string { return append([]string(nil), invariantNames...) }

// HazardNames lists every named Kafka hazard.
func HazardNames() []string { return append([]string(nil), hazardNames...) }

// Monitors lists the guarantees, in the order of InvariantNames.
func Monitors() []Monitor { return append([]Monitor(nil), monitors...) }

// TxnStates lists every coordinator state in id order.
func TxnStates() []TxnState { return append([]TxnState(nil), txnStates...) }

package script

import "github.com/eoslab/eoslab/engine"

// The Kafka names the language accepts, as the engine defines them.
var (
	messageKinds   = engine.MessageKindNames()
	producerStates = engine.ClientStateNames()
	txnStates      = engine.TxnStateNames()
	eventKinds     = engine.EventKindNames()
	kafkaErrors    = engine.ErrorCodes()
	invariants     = engine.InvariantNames()
)

// Internal topic names (ref 3.1, 5). Scripts may not declare topics starting
// with "__", and refer to these only where the spec says so.
const (
	txnStateTopic = engine.TxnStateTopic
	offsetsTopic  = engine.OffsetsTopic
)

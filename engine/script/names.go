package script

// The Kafka names the language accepts. They are kept here as data, not
// imported from eoslab/engine (see the package comment), and must match the
// engine's spelling, which follows Kafka's.

// messageKinds are the request and response names a message selector may use
// (Kafka's ApiKeys, with the Response suffix for the answer).
var messageKinds = []string{
	"Produce", "ProduceResponse",
	"FindCoordinator", "FindCoordinatorResponse",
	"InitProducerId", "InitProducerIdResponse",
	"AddPartitionsToTxn", "AddPartitionsToTxnResponse",
	"AddOffsetsToTxn", "AddOffsetsToTxnResponse",
	"EndTxn", "EndTxnResponse",
	"WriteTxnMarkers", "WriteTxnMarkersResponse",
	"TxnOffsetCommit", "TxnOffsetCommitResponse",
	"OffsetCommit", "OffsetCommitResponse",
	"OffsetFetch", "OffsetFetchResponse",
	"Fetch", "FetchResponse",
	"ListOffsets", "ListOffsetsResponse",
}

// producerStates are the client-side transaction states of Java's
// TransactionManager.State (ref 1.3).
var producerStates = []string{
	"UNINITIALIZED", "INITIALIZING", "READY", "IN_TRANSACTION",
	"COMMITTING_TRANSACTION", "ABORTING_TRANSACTION", "ABORTABLE_ERROR", "FATAL_ERROR",
}

// txnStates are the coordinator's TransactionState values (ref 3.3), in
// Kafka's id order.
var txnStates = []string{
	"Empty", "Ongoing", "PrepareCommit", "PrepareAbort",
	"CompleteCommit", "CompleteAbort", "Dead", "PrepareEpochFence",
}

// errorCode pairs a Kafka error name (Errors.java) with its wire code.
type errorCode struct {
	name string
	code int
}

// kafkaErrors are the error names an expectation may name: the wire errors
// the simulation can return, then the client-side exceptions it reports by
// their Java class name, and NOT_ACKNOWLEDGED for an acks=0 send that got no
// answer (these client-side names have no wire code; 0 here).
var kafkaErrors = []errorCode{
	{"UNKNOWN_SERVER_ERROR", -1}, {"NONE", 0},
	{"NOT_LEADER_OR_FOLLOWER", 6}, {"REQUEST_TIMED_OUT", 7},
	{"COORDINATOR_LOAD_IN_PROGRESS", 14}, {"COORDINATOR_NOT_AVAILABLE", 15},
	{"NOT_COORDINATOR", 16}, {"NOT_ENOUGH_REPLICAS", 19},
	{"ILLEGAL_GENERATION", 22}, {"UNKNOWN_MEMBER_ID", 25},
	{"INVALID_REQUEST", 42}, {"OUT_OF_ORDER_SEQUENCE_NUMBER", 45},
	{"DUPLICATE_SEQUENCE_NUMBER", 46}, {"INVALID_PRODUCER_EPOCH", 47},
	{"INVALID_TXN_STATE", 48}, {"INVALID_PRODUCER_ID_MAPPING", 49},
	{"INVALID_TRANSACTION_TIMEOUT", 50}, {"CONCURRENT_TRANSACTIONS", 51},
	{"TRANSACTION_COORDINATOR_FENCED", 52}, {"OPERATION_NOT_ATTEMPTED", 55},
	{"UNKNOWN_PRODUCER_ID", 59}, {"FENCED_INSTANCE_ID", 82},
	{"INVALID_RECORD", 87}, {"UNSTABLE_OFFSET_COMMIT", 88},
	{"PRODUCER_FENCED", 90}, {"TRANSACTION_ABORTABLE", 120},
	{"TimeoutException", 0}, {"ConfigException", 0},
	{"IllegalStateException", 0}, {"KafkaException", 0},
	{"NOT_ACKNOWLEDGED", 0}, {"NoOffsetForPartitionException", 0},
}

// invariants are the names of the invariants the engine checks after every
// step (engine/invariants.go), for "expect violation NAME".
var invariants = []string{
	"duplicate-sequence", "duplicate-record", "uncommitted-read", "watermarks",
	"fenced-write", "atomic-visibility", "offsets-atomic", "illegal-transition",
}

// Internal topic names (ref 3.1, 5). Scripts may not declare topics starting
// with "__", and refer to these only where the spec says so.
const (
	txnStateTopic = "__transaction_state"
	offsetsTopic  = "__consumer_offsets"
)

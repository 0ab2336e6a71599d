package engine

import (
	"math"
	"strconv"
	"unicode/utf16"
)

// ErrorCode is a Kafka protocol error code (ref 0.1, Errors.java).
type ErrorCode int16

// The error codes the simulation can produce or handle.
const (
	UnknownServerError           ErrorCode = -1
	None                         ErrorCode = 0
	NotLeaderOrFollower          ErrorCode = 6
	RequestTimedOut              ErrorCode = 7
	CoordinatorLoadInProgress    ErrorCode = 14
	CoordinatorNotAvailable      ErrorCode = 15
	NotCoordinator               ErrorCode = 16
	NotEnoughReplicas            ErrorCode = 19
	IllegalGeneration            ErrorCode = 22
	UnknownMemberID              ErrorCode = 25
	InvalidRequest               ErrorCode = 42
	OutOfOrderSequenceNumber     ErrorCode = 45
	DuplicateSequenceNumber      ErrorCode = 46
	InvalidProducerEpoch         ErrorCode = 47
	InvalidTxnState              ErrorCode = 48
	InvalidProducerIDMapping     ErrorCode = 49
	InvalidTransactionTimeout    ErrorCode = 50
	ConcurrentTransactions       ErrorCode = 51
	TransactionCoordinatorFenced ErrorCode = 52
	OperationNotAttempted        ErrorCode = 55
	UnknownProducerID            ErrorCode = 59
	FencedInstanceID             ErrorCode = 82
	InvalidRecord                ErrorCode = 87
	UnstableOffsetCommit         ErrorCode = 88
	ProducerFenced               ErrorCode = 90
	TransactionAbortable         ErrorCode = 120
	errTimeout                   ErrorCode = 1000 // client-side: delivery.timeout.ms expired
	errConfig                    ErrorCode = 1001 // client-side: ConfigException at construction
	errIllegalState              ErrorCode = 1002 // client-side: IllegalStateException (API misuse)
	errKafkaException            ErrorCode = 1003 // client-side: KafkaException wrapping a fatal state
	errLost                      ErrorCode = 1004 // client-side: acks=0, fire and forget
	errNoOffsetForPartition      ErrorCode = 1005 // client-side: no committed offset and auto.offset.reset=none
)

var errorNames = map[ErrorCode]string{
	UnknownServerError:           "UNKNOWN_SERVER_ERROR",
	None:                         "NONE",
	NotLeaderOrFollower:          "NOT_LEADER_OR_FOLLOWER",
	RequestTimedOut:              "REQUEST_TIMED_OUT",
	CoordinatorLoadInProgress:    "COORDINATOR_LOAD_IN_PROGRESS",
	CoordinatorNotAvailable:      "COORDINATOR_NOT_AVAILABLE",
	NotCoordinator:               "NOT_COORDINATOR",
	NotEnoughReplicas:            "NOT_ENOUGH_REPLICAS",
	IllegalGeneration:            "ILLEGAL_GENERATION",
	UnknownMemberID:              "UNKNOWN_MEMBER_ID",
	InvalidRequest:               "INVALID_REQUEST",
	OutOfOrderSequenceNumber:     "OUT_OF_ORDER_SEQUENCE_NUMBER",
	DuplicateSequenceNumber:      "DUPLICATE_SEQUENCE_NUMBER",
	InvalidProducerEpoch:         "INVALID_PRODUCER_EPOCH",
	InvalidTxnState:              "INVALID_TXN_STATE",
	InvalidProducerIDMapping:     "INVALID_PRODUCER_ID_MAPPING",
	InvalidTransactionTimeout:    "INVALID_TRANSACTION_TIMEOUT",
	ConcurrentTransactions:       "CONCURRENT_TRANSACTIONS",
	TransactionCoordinatorFenced: "TRANSACTION_COORDINATOR_FENCED",
	OperationNotAttempted:        "OPERATION_NOT_ATTEMPTED",
	UnknownProducerID:            "UNKNOWN_PRODUCER_ID",
	FencedInstanceID:             "FENCED_INSTANCE_ID",
	InvalidRecord:                "INVALID_RECORD",
	UnstableOffsetCommit:         "UNSTABLE_OFFSET_COMMIT",
	ProducerFenced:               "PRODUCER_FENCED",
	TransactionAbortable:         "TRANSACTION_ABORTABLE",
	errTimeout:                   "TimeoutException",
	errConfig:                    "ConfigException",
	errIllegalState:              "IllegalStateException",
	errKafkaException:            "KafkaException",
	errLost:                      "NOT_ACKNOWLEDGED",
	errNoOffsetForPartition:      "NoOffsetForPartitionException",
}

// Name is the Kafka name of the code, such as OUT_OF_ORDER_SEQUENCE_NUMBER.
// Client-side exceptions that have no wire code use the Java class name.
func (e ErrorCode) Name() string {
	if n, ok := errorNames[e]; ok {
		return n
	}
	return "ERROR_" + strconv.Itoa(int(e))
}

// IsWire reports whether the code travels on the wire (has a Kafka number).
func (e ErrorCode) IsWire() bool { return e < 1000 }

// String renders the code the way the project writes it everywhere:
// OUT_OF_ORDER_SEQUENCE_NUMBER(45), or the bare class name for client-side
// exceptions.
func (e ErrorCode) String() string {
	if !e.IsWire() {
		return e.Name()
	}
	return e.Name() + "(" + strconv.Itoa(int(e)) + ")"
}

// ErrorByName finds a code by its Kafka name ("OUT_OF_ORDER_SEQUENCE_NUMBER"),
// its rendered form ("OUT_OF_ORDER_SEQUENCE_NUMBER(45)") or its number.
func ErrorByName(s string) (ErrorCode, bool) {
	for code, name := range errorNames {
		if s == name || s == code.String() {
			return code, true
		}
	}
	if n, err := strconv.Atoi(s); err == nil {
		if _, ok := errorNames[ErrorCode(n)]; ok {
			return ErrorCode(n), true
		}
	}
	return 0, false
}

// Retriable mirrors whether the Java exception for the code extends
// RetriableException (ref 0.1 table).
func (e ErrorCode) Retriable() bool {
	switch e {
	case NotLeaderOrFollower, RequestTimedOut, CoordinatorLoadInProgress, CoordinatorNotAvailable,
		NotCoordinator, NotEnoughReplicas, ConcurrentTransactions, UnstableOffsetCommit:
		return true
	}
	return false
}

// Protocol constants (ref 0.1).
const (
	NoProducerID          int64 = -1
	NoProducerEpoch       int16 = -1
	NoSequence            int32 = -1
	NumBatchesToRetain          = 5
	MaxInFlightIdempotent       = 5
	MaxSequence           int32 = math.MaxInt32
	// EpochExhaustedAt is the coordinator's isEpochExhausted bound: Short.MAX_VALUE - 1.
	EpochExhaustedAt int16 = math.MaxInt16 - 1
	// ProducerIDBlockSize is how many producer ids a broker takes at once.
	ProducerIDBlockSize int64 = 1000
	// AddPartitionsRetryBackoffMs is the client's short backoff for the first
	// AddPartitionsToTxn answered CONCURRENT_TRANSACTIONS (TransactionManager).
	AddPartitionsRetryBackoffMs int64 = 20
)

// JavaStringHash is Java's String.hashCode: 31*h + c over UTF-16 code units
// with int32 wrap-around (ref 3.1, appendix A).
// The code units are made rune by rune (utf16.Encode of []rune(s) made two
// slices per call, and the coordinator's partition is asked for on most
// transactional requests).
func JavaStringHash(s string) int32 {
	var h int32
	for _, r := range s {
		if r >= 0x10000 {
			hi, lo := utf16.EncodeRune(r)
			h = 31*(31*h+hi) + lo
			continue
		}
		h = 31*h + r
	}
	return h
}

// KafkaAbs is org.apache.kafka.common.utils.Utils.abs: Integer.MIN_VALUE maps
// to 0, unlike Math.abs. It is not Utils.toPositive (ref 3.1).
func KafkaAbs(n int32) int32 {
	if n == math.MinInt32 {
		return 0
	}
	if n < 0 {
		return -n
	}
	return n
}

// PartitionFor is TransactionStateManager.partitionFor and the group
// coordinator's partitionFor: Utils.abs(id.hashCode) % partitions.
func PartitionFor(id string, partitions int32) int32 {
	return KafkaAbs(JavaStringHash(id)) % partitions
}

// nextSeq is the sequence after s, wrapping from 2147483647 to 0
// (ProducerAppendInfo.inSequence).
func nextSeq(s int32) int32 {
	if s == MaxSequence {
		return 0
	}
	return s + 1
}

// addSeq adds n to a sequence with the same wrap-around.
func addSeq(s int32, n int32) int32 {
	v := int64(s) + int64(n)
	if v > int64(MaxSequence) {
		v -= int64(MaxSequence) + 1
	}
	return int32(v)
}

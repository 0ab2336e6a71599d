package engine

// TxnState is a transaction coordinator state (TransactionState.java, ref 3.3).
type TxnState int8

// The eight coordinator states, with Kafka's ids.
const (
	Empty             TxnState = 0
	Ongoing           TxnState = 1
	PrepareCommit     TxnState = 2
	PrepareAbort      TxnState = 3
	CompleteCommit    TxnState = 4
	CompleteAbort     TxnState = 5
	Dead              TxnState = 6
	PrepareEpochFence TxnState = 7
)

// txnStates lists every state in id order (TxnStates is a copy).
var txnStates = []TxnState{Empty, Ongoing, PrepareCommit, PrepareAbort, CompleteCommit, CompleteAbort, Dead, PrepareEpochFence}

var txnStateNames = [...]string{"Empty", "Ongoing", "PrepareCommit", "PrepareAbort", "CompleteCommit", "CompleteAbort", "Dead", "PrepareEpochFence"}

func (s TxnState) String() string {
	if s >= 0 && int(s) < len(txnStateNames) {
		return txnStateNames[s]
	}
	return "Unknown"
}

// TxnStateByName parses a state name.
func TxnStateByName(s string) (TxnState, bool) {
	for i, n := range txnStateNames {
		if n == s {
			return TxnState(i), true
		}
	}
	return 0, false
}

// validPreviousTxnStates is TransactionMetadata.validPreviousStates for TV1,
// held as data and checked on every transition as the coordinator does.
// TV2 adds Empty/CompleteCommit/CompleteAbort -> PrepareAbort ("empty abort").
var validPreviousTxnStates = map[TxnState][]TxnState{
	Empty:             {Empty, CompleteCommit, CompleteAbort},
	Ongoing:           {Ongoing, Empty, CompleteCommit, CompleteAbort},
	PrepareCommit:     {Ongoing},
	PrepareAbort:      {Ongoing, PrepareEpochFence},
	CompleteCommit:    {PrepareCommit},
	CompleteAbort:     {PrepareAbort},
	Dead:              {Empty, CompleteAbort, CompleteCommit},
	PrepareEpochFence: {Ongoing},
}

// ValidTxnTransition reports whether from -> to is legal.
func ValidTxnTransition(from, to TxnState) bool {
	for _, s := range validPreviousTxnStates[to] {
		if s == from {
			return true
		}
	}
	return false
}

// ClientState is the producer client's transaction state (TransactionManager.State, ref 1.3).
type ClientState uint8

// Client states.
const (
	Uninitialized ClientState = iota
	Initializing
	Ready
	InTransaction
	CommittingTransaction
	AbortingTransaction
	AbortableError
	FatalError
)

var clientStateNames = [...]string{"UNINITIALIZED", "INITIALIZING", "READY", "IN_TRANSACTION",
	"COMMITTING_TRANSACTION", "ABORTING_TRANSACTION", "ABORTABLE_ERROR", "FATAL_ERROR"}

func (s ClientState) String() string { return clientStateNames[s] }

// ClientStateByName parses a client state name.
func ClientStateByName(s string) (ClientState, bool) {
	for i, n := range clientStateNames {
		if n == s {
			return ClientState(i), true
		}
	}
	return 0, false
}

// validClientTransitions is State.isTransitionValid as data: target -> allowed sources.
var validClientTransitions = map[ClientState][]ClientState{
	Uninitialized:         {Ready, AbortableError},
	Initializing:          {Uninitialized, AbortingTransaction},
	Ready:                 {Initializing, CommittingTransaction, AbortingTransaction},
	InTransaction:         {Ready},
	CommittingTransaction: {InTransaction},
	AbortingTransaction:   {InTransaction, AbortableError},
	AbortableError:        {InTransaction, CommittingTransaction, AbortableError, Initializing},
}

// ValidClientTransition reports whether the client may move from -> to.
// FATAL_ERROR is reachable from any state.
func ValidClientTransition(from, to ClientState) bool {
	if to == FatalError {
		return true
	}
	for _, s := range validClientTransitions[to] {
		if s == from {
			return true
		}
	}
	return false
}

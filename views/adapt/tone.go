package adapt

import (
	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/views"
)

// The tones the views draw the engine's typed states and error codes in,
// decided here from the values, never from their names.

// txnTone is what a coordinator state (TransactionState) means to a reader.
func txnTone(s engine.TxnState) views.Tone {
	switch s {
	case engine.Ongoing:
		return views.ToneOpen
	case engine.PrepareCommit:
		return views.ToneEnding
	case engine.CompleteCommit:
		return views.ToneCommitted
	case engine.PrepareAbort, engine.CompleteAbort:
		return views.ToneAborted
	case engine.Dead:
		return views.ToneIdle
	case engine.PrepareEpochFence:
		return views.ToneFenced
	default: // Empty: ready for a transaction, nothing to point out
		return views.TonePlain
	}
}

// clientTone is what a producer's TransactionManager.State means.
func clientTone(s engine.ClientState) views.Tone {
	switch s {
	case engine.Uninitialized:
		return views.ToneIdle
	case engine.InTransaction:
		return views.ToneOpen
	case engine.CommittingTransaction:
		return views.ToneEnding
	case engine.AbortingTransaction, engine.AbortableError, engine.FatalError:
		return views.ToneAborted
	default: // INITIALIZING, READY
		return views.TonePlain
	}
}

// errorTone is what a client's last error means: the three fencing
// errors (ProducerFencedException, TransactionCoordinatorFencedException,
// FencedInstanceIdException) say a newer instance or coordinator took
// over; any other error aborted something.
func errorTone(c engine.ErrorCode) views.Tone {
	switch c {
	case engine.ProducerFenced, engine.TransactionCoordinatorFenced, engine.FencedInstanceID:
		return views.ToneFenced
	}
	return views.ToneAborted
}

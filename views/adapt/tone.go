package adapt

import (
	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/views/model"
)

// The tones the views draw the engine's typed states and error codes in,
// decided here from the values, never from their names.

// txnTone is what a coordinator state (TransactionState) means to a reader.
func txnTone(s engine.TxnState) model.Tone {
	switch s {
	case engine.Ongoing:
		return model.ToneOpen
	case engine.PrepareCommit:
		return model.ToneEnding
	case engine.CompleteCommit:
		return model.ToneCommitted
	case engine.PrepareAbort, engine.CompleteAbort:
		return model.ToneAborted
	case engine.Dead:
		return model.ToneIdle
	case engine.PrepareEpochFence:
		return model.ToneFenced
	default: // Empty: ready for a transaction, nothing to point out
		return model.TonePlain
	}
}

// clientTone is what a producer's TransactionManager.State means.
func clientTone(s engine.ClientState) model.Tone {
	switch s {
	case engine.Uninitialized:
		return model.ToneIdle
	case engine.InTransaction:
		return model.ToneOpen
	case engine.CommittingTransaction:
		return model.ToneEnding
	case engine.AbortingTransaction, engine.AbortableError, engine.FatalError:
		return model.ToneAborted
	default: // INITIALIZING, READY
		return model.TonePlain
	}
}

// errorTone is what a client's last error means: the three fencing
// errors (ProducerFencedException, TransactionCoordinatorFencedException,
// FencedInstanceIdException) say a newer instance or coordinator took
// over; any other error aborted something.
func errorTone(c engine.ErrorCode) model.Tone {
	switch c {
	case engine.ProducerFenced, engine.TransactionCoordinatorFenced, engine.FencedInstanceID:
		return model.ToneFenced
	}
	return model.ToneAborted
}

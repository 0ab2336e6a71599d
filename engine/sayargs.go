package engine

import "strings"

// The arguments of notes that are lists or choices of the engine's own
// values, each put into words by its String when the note is shown.

// isolation is a consumer's isolation.level: read_committed when true.
type isolation bool

func (i isolation) String() string {
	if i {
		return "read_committed"
	}
	return "read_uncommitted"
}

// consumedRecords are records a fetch handed to the application, shown
// as offset:value pairs.
type consumedRecords []ConsumedRecord

func (rs consumedRecords) String() string {
	var b strings.Builder
	for i, r := range rs {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(itoa(r.Offset))
		b.WriteString(":")
		b.WriteString(r.Value)
	}
	return b.String()
}

// skippedBatch is a batch a read_committed fetch did not hand out: a
// control batch (its marker) or an aborted transaction's data (its pid).
type skippedBatch struct {
	control bool
	marker  MarkerType
	offsets batchOffsetsArg
	pid     int64
}

func (s skippedBatch) String() string {
	if s.control {
		return s.marker.String() + " marker at " + itoa(s.offsets.base)
	}
	return "aborted " + s.offsets.String() + " (pid " + itoa(s.pid) + ")"
}

// skippedBatches are the batches a fetch skipped, shown as "; skips ..."
// (nothing when there are none).
type skippedBatches []skippedBatch

func (l skippedBatches) String() string {
	if len(l) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("; skips ")
	for i, s := range l {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(s.String())
	}
	return b.String()
}

// endVerb is an EndTxn's result as the coordinator's words say it:
// commit when true, abort when false.
type endVerb bool

func (v endVerb) String() string {
	if v {
		return "commit"
	}
	return "abort"
}

// resultName is a transaction's result as a name: Commit or Abort.
type resultName bool

func (v resultName) String() string {
	if v {
		return "Commit"
	}
	return "Abort"
}

// txnCall is the producer API call that ends a transaction:
// commitTransaction when true, abortTransaction when false.
type txnCall bool

func (c txnCall) String() string {
	if c {
		return "commitTransaction"
	}
	return "abortTransaction"
}

// txnLogValue is a record written to __transaction_state: a state with
// its producer and partitions, or a tombstone.
type txnLogValue struct {
	state     TxnState
	tombstone bool
	epoch     int16
	pid       int64
	next      int64 // nextProducerId, NoProducerID for none
	parts     []TP
}

func (v txnLogValue) String() string {
	var b strings.Builder
	if v.tombstone {
		b.WriteString("a tombstone")
	} else {
		b.WriteString(v.state.String() + " pid=" + itoa(v.pid) + " epoch=" + itoa(int64(v.epoch)))
		if len(v.parts) > 0 {
			b.WriteString(" partitions=" + tpList(v.parts))
		}
	}
	if v.next != NoProducerID {
		b.WriteString(" nextProducerId=" + itoa(v.next))
	}
	return b.String()
}

// markerAccepted is why a partition leader appended a transaction marker:
// its epoch check, its coordinator epoch check, what it did to the pid's
// open transaction there (first >= 0: the transaction from first to the
// marker at offset marker, committed or aborted) and whether the new
// epoch cleared the 5-batch cache.
type markerAccepted struct {
	epochs             *note
	coordEpoch         int32
	stored             int32
	abort, cleared     bool
	pid, first, marker int64
}

func (m markerAccepted) String() string {
	var b strings.Builder
	b.WriteString(m.epochs.String())
	b.WriteString(", coordinatorEpoch " + itoa(int64(m.coordEpoch)) + " >= stored " + itoa(int64(m.stored)))
	switch {
	case m.first < 0:
		b.WriteString("; no open transaction for pid " + itoa(m.pid) + " here: appended, LSO unaffected")
	case m.abort:
		b.WriteString("; transaction " + itoa(m.first) + ".." + itoa(m.marker) + " recorded in the aborted index")
	default:
		b.WriteString("; transaction from offset " + itoa(m.first) + " committed")
	}
	if m.cleared {
		b.WriteString("; epoch changed: 5-batch cache cleared")
	}
	return b.String()
}

package engine

// Typed readers for the numbers some events carry in their phrase's
// fields, for code that compares an event with another system's facts
// (verify against a real broker) without reading the event's text.

// Accepted is what a leader's "accepts" decision appended: the batch's
// base sequence, record count and base offset; ok is false for any other
// event.
func (e *Event) Accepted() (baseSeq, count int32, baseOffset int64, ok bool) {
	if e.say != sayAccepts {
		return 0, 0, 0, false
	}
	return e.x, e.y, e.arg, true
}

// MarkerAppended is the marker a marker event appended: its type,
// coordinator epoch and offset; ok is false for any other event (a
// refused marker included).
func (e *Event) MarkerAppended() (t MarkerType, coordinatorEpoch int32, offset int64, ok bool) {
	if e.say != sayMarker {
		return 0, 0, 0, false
	}
	return MarkerType(e.x), e.y, e.arg, true
}

// Durable is where a coordinator's __transaction_state write became
// durable: the partition, the record's offset in it and the producer
// epoch written; ok is false for any other event.
func (e *Event) Durable() (partition int32, offset int64, epoch int16, ok bool) {
	if e.say != sayDurable {
		return 0, 0, 0, false
	}
	return e.x, e.arg, e.epoch, true
}

// ConsumeKind is what a consumer's consume event reports (Consumed).
type ConsumeKind uint8

const (
	// ConsumeNone: not one of the consume events below.
	ConsumeNone ConsumeKind = iota
	// ConsumeReset: auto.offset.reset set the position (a ListOffsets
	// answer on a real client).
	ConsumeReset
	// ConsumeCommitted: the position starts at the group's committed
	// offset (an OffsetFetch answer on a real client).
	ConsumeCommitted
	// ConsumeFetched: a fetch handed records to the application.
	ConsumeFetched
	// ConsumeSkipped: a fetch handed nothing to the application, only
	// control or aborted batches the consumer skipped.
	ConsumeSkipped
	// ConsumeNothingNew: a fetch found nothing past the position.
	ConsumeNothingNew
	// ConsumeUndecided: a read_uncommitted fetch handed out records of
	// an aborted or open transaction (records: their offsets, no
	// values; position: the first of them).
	ConsumeUndecided
)

// Consumed is what a consume event reports: its kind, the records a
// fetch handed to the application (ConsumeFetched), and the consumer's
// position on the event's TP after it (for a reset or a committed start,
// the offset it starts at). ok is false for any other event, and in a
// world that keeps no event words (a quiet one).
func (e *Event) Consumed() (k ConsumeKind, records []ConsumedRecord, position int64, ok bool) {
	if e.Kind == EvConsume && e.say == sayNothingNew {
		return ConsumeNothingNew, nil, e.arg, true
	}
	if e.Kind != EvConsume || e.note == nil {
		return ConsumeNone, nil, 0, false
	}
	if e.note.says == saysReturnedOffsetsOfToThe {
		for _, a := range e.note.args {
			if o, ok := a.(batchOffsetsArg); ok {
				for k := range int64(o.count) {
					records = append(records, ConsumedRecord{TP: e.TP, Offset: o.base + k})
				}
				return ConsumeUndecided, records, o.base, true
			}
		}
		return ConsumeNone, nil, 0, false
	}
	switch e.note.says {
	case saysResetsToOffset:
		k = ConsumeReset
	case saysStartsAtCommittedOffset:
		k = ConsumeCommitted
	case saysFetchReceives:
		k = ConsumeFetched
	case saysFetchReceivesNothing:
		k = ConsumeSkipped
	default:
		return ConsumeNone, nil, 0, false
	}
	position, found := 0, false
	for _, a := range e.note.args {
		switch v := a.(type) {
		case consumedRecords:
			records = v
		case num:
			position, found = int64(v), true
		}
	}
	if !found {
		return ConsumeNone, nil, 0, false
	}
	return k, records, position, true
}

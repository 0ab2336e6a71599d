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

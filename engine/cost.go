package engine

// What exactly-once costs, counted from the world's typed history: the
// requests put on the network and the transaction markers appended. Each
// request gets exactly one answer, so a request is a round trip; responses
// are not counted again.

// RequestFilter selects the requests RequestCount counts. The zero filter
// counts every request.
type RequestFilter struct {
	// Kind, when KindSet, keeps one request kind (never a response kind).
	Kind    MsgKind
	KindSet bool
	// From keeps the requests one sender put on the network: a client, a
	// broker ("broker-2") or "expert".
	From string
	// TxnID keeps the requests that serve one transactional id: those its
	// body names (InitProducerId, AddPartitionsToTxn, AddOffsetsToTxn,
	// EndTxn, TxnOffsetCommit, a transactional Produce, the coordinator's
	// WriteTxnMarkers, a FindCoordinator for the id), whoever sent them, so
	// that the brokers' work for a transaction counts with the client's.
	TxnID string
}

// RequestCount counts the requests sent so far that pass the filter: one
// per send event, so a retry counts again and a copy the network made does
// not.
func (w *World) RequestCount(f RequestFilter) int {
	n := 0
	for i := range w.Events {
		e := &w.Events[i]
		if e.Kind != EvSend || e.Message == nil || e.Message.Kind.IsResponse() {
			continue
		}
		m := e.Message
		if f.KindSet && m.Kind != f.Kind {
			continue
		}
		if f.From != "" && m.From != f.From {
			continue
		}
		if f.TxnID != "" && requestTxnID(m) != f.TxnID {
			continue
		}
		n++
	}
	return n
}

// requestTxnID is the transactional id a request serves, as its body
// names it; "" for a request that serves none.
func requestTxnID(m *Message) string {
	switch b := m.Body.(type) {
	case *ProduceRequest:
		return b.TransactionalID
	case *FindCoordinatorRequest:
		if !b.Group {
			return b.Key
		}
	case *InitProducerIDRequest:
		return b.TransactionalID
	case *AddPartitionsToTxnRequest:
		return b.TransactionalID
	case *AddOffsetsToTxnRequest:
		return b.TransactionalID
	case *EndTxnRequest:
		return b.TransactionalID
	case *WriteTxnMarkersRequest:
		return b.TransactionalID
	case *TxnOffsetCommitRequest:
		return b.TransactionalID
	}
	return ""
}

// MarkerCount counts the transaction markers appended to partition logs so
// far (one control batch per partition a transaction touched, data
// partitions and __consumer_offsets alike), for one transactional id or,
// with "", for all. A marker a leader refused is not counted.
func (w *World) MarkerCount(txnID string) int {
	n := 0
	for i := range w.Events {
		e := &w.Events[i]
		// The leader's append is the marker event about a partition with
		// no error; a refusal carries its error, and the coordinator's
		// own marker events (waiting for a leader, re-sending) name no
		// partition.
		if e.Kind != EvMarker || !e.HasTP() || e.Code != None {
			continue
		}
		if txnID != "" && e.TxnID != txnID {
			continue
		}
		n++
	}
	return n
}

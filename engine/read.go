package engine

import "sort"

// Read-only accessors. The scenario language's expectations (engine/script)
// and anything else that only looks at a world read it through these: each
// returns values or copies, and none creates an entry. Looking at an
// internal partition or a transactional id that nothing has used yet reads
// as empty, exactly as the first real use would find it, and leaves the
// world as it was, so a checkpoint can be judged on a live world or on a
// shared snapshot.

// EventCount is the number of events so far.
func (w *World) EventCount() int { return w.events.len() }

// EventAt is the i-th event (0 <= i < EventCount), by value. Its Message,
// when set, is shared: messages are never modified after they are sent.
func (w *World) EventAt(i int) Event { return w.events.at(i) }

// FirstEventAt is the position of the first event at or after virtual time
// t, or EventCount if there is none. Time never goes back, so the events
// are in time order and this is a binary search.
func (w *World) FirstEventAt(t int64) int {
	return sort.Search(w.events.len(), func(i int) bool { return w.events.at(i).Time >= t })
}

// ViolationList is a copy of the invariant violations so far, in order.
func (w *World) ViolationList() []Violation { return append([]Violation(nil), w.violations...) }

// PartitionInfo is what a partition's offsets say (ref 4.2).
type PartitionInfo struct {
	TP               TP
	Leader           int
	LogStartOffset   int64
	LogEndOffset     int64
	HighWatermark    int64
	LastStableOffset int64
}

// peekPartition is Partition without creating an internal partition on
// first use: an untouched __consumer_offsets partition reads as empty.
func (w *World) peekPartition(tp TP) *PartitionLog {
	if p, ok := w.partitions[tp]; ok {
		return p
	}
	if tp.Topic == OffsetsTopic && tp.Partition >= 0 && tp.Partition < w.config.OffsetsPartitions {
		return &PartitionLog{TP: tp, Leader: -1, Producers: map[int64]ProducerStateEntry{}}
	}
	return nil
}

// PartitionInfo describes a partition of a declared topic or of
// __consumer_offsets; ok is false for any other.
func (w *World) PartitionInfo(tp TP) (PartitionInfo, bool) {
	p := w.peekPartition(tp)
	if p == nil {
		return PartitionInfo{}, false
	}
	return PartitionInfo{TP: tp, Leader: p.Leader, LogStartOffset: p.LogStartOffset, LogEndOffset: p.LEO,
		HighWatermark: p.HW, LastStableOffset: p.LastStableOffset()}, true
}

// RecordCount is the number of data records in a partition's log (markers
// are not records an application sees). It reads every batch.
func (w *World) RecordCount(tp TP) (int64, bool) {
	p := w.peekPartition(tp)
	if p == nil {
		return 0, false
	}
	var n int64
	for i := range p.Batches {
		if !p.Batches[i].Control {
			n += int64(p.Batches[i].Count)
		}
	}
	return n, true
}

// BatchInfo is one batch of a log as fields (RecordBatch v2, ref 4.1), with
// what became of it.
type BatchInfo struct {
	BaseOffset       int64
	ProducerID       int64
	ProducerEpoch    int16
	BaseSequence     int32
	LastSequence     int32
	Count            int32
	Transactional    bool
	Control          bool
	Marker           MarkerType // control batches only
	CoordinatorEpoch int32      // control batches only
	Status           BatchStatus
	Values           []string // data batches only; a copy
}

// Seqs renders the sequences as the transcript does: "0..2", "5" or "-1".
func (b BatchInfo) Seqs() string {
	bt := Batch{BaseSequence: b.BaseSequence, Count: b.Count}
	return bt.Seqs()
}

// BatchAt is the batch holding offset in a partition's log. ok is false
// when no batch holds it; known is false when there is no such partition.
func (w *World) BatchAt(tp TP, offset int64) (b BatchInfo, ok, known bool) {
	p := w.peekPartition(tp)
	if p == nil {
		return BatchInfo{}, false, false
	}
	bt, ok := p.BatchAt(offset)
	if !ok {
		return BatchInfo{}, false, true
	}
	b = BatchInfo{BaseOffset: bt.BaseOffset, ProducerID: bt.ProducerID, ProducerEpoch: bt.ProducerEpoch, BaseSequence: bt.BaseSequence,
		LastSequence: bt.LastSequence(), Count: bt.Count, Transactional: bt.Transactional, Control: bt.Control, Status: p.Status(bt)}
	if bt.Control {
		b.Marker, b.CoordinatorEpoch = bt.Marker, bt.CoordinatorEpoch
	} else {
		b.Values = bt.Values()
	}
	return b, true, true
}

// AbortedIndex is a copy of a partition's aborted transaction index (ref 4.3).
func (w *World) AbortedIndex(tp TP) ([]AbortedTxn, bool) {
	p := w.peekPartition(tp)
	if p == nil {
		return nil, false
	}
	return append([]AbortedTxn(nil), p.Aborted...), true
}

// ProducerStateAt is a partition leader's entry for a producer id (ref 2.1),
// a plain value. ok is false when the leader has none; known is false when
// there is no such partition.
func (w *World) ProducerStateAt(tp TP, pid int64) (e ProducerStateEntry, ok, known bool) {
	p := w.peekPartition(tp)
	if p == nil {
		return ProducerStateEntry{}, false, false
	}
	e, ok = p.Producers[pid]
	return e, ok, true
}

// ProducerInfo is what a producer client knows about itself.
type ProducerInfo struct {
	Name       string
	State      ClientState
	LastError  ErrorCode
	ProducerID int64
	Epoch      int16
	// Idempotent is enable.idempotence as Kafka settles it: a producer whose
	// configuration was refused is not idempotent.
	Idempotent bool
	Parts      []PartitionSeq // a copy, sorted by partition
	// LastAcked is the newest acknowledged send; HasAcked says there is one.
	LastAcked AckedSend
	HasAcked  bool
}

// NextSeq is the next sequence number the producer will use on tp; a
// partition it has never written to starts at 0.
func (p ProducerInfo) NextSeq(tp TP) int32 {
	for _, s := range p.Parts {
		if s.TP == tp {
			return s.NextSeq
		}
	}
	return 0
}

// ProducerInfo describes a producer, or the producer inside a processor.
func (w *World) ProducerInfo(name string) (ProducerInfo, bool) {
	p := w.Producer(name)
	if p == nil {
		return ProducerInfo{}, false
	}
	info := ProducerInfo{Name: p.Name, State: p.State, LastError: p.LastError, ProducerID: p.ProducerID, Epoch: p.Epoch,
		Idempotent: p.Config.Idempotence && p.ConfigError == nil, Parts: append([]PartitionSeq(nil), p.Parts...)}
	if p.Acks > 0 {
		// Records are immutable and shared, so the copy needs none of its own.
		info.LastAcked, info.HasAcked = p.LastAcked, true
	}
	return info, true
}

// ConsumerInfo is what a consumer has handed to its application.
type ConsumerInfo struct {
	Name      string
	Received  []ConsumedRecord // a copy, in order
	Positions []TPOffset       // a copy
	LastError ErrorCode
}

// Position is the consumer's position on tp; ok is false when tp is not
// assigned to it.
func (c ConsumerInfo) Position(tp TP) (int64, bool) {
	for _, p := range c.Positions {
		if p.TP == tp {
			return p.Offset, true
		}
	}
	return 0, false
}

// ConsumerInfo describes a consumer, or the consumer inside a processor.
func (w *World) ConsumerInfo(name string) (ConsumerInfo, bool) {
	c := w.Consumer(name)
	if c == nil {
		return ConsumerInfo{}, false
	}
	return ConsumerInfo{Name: c.Name, Received: append([]ConsumedRecord(nil), c.Received...),
		Positions: append([]TPOffset(nil), c.Positions...), LastError: c.LastError}, true
}

// TxnInfo is the transaction coordinator's view of one transactional id.
type TxnInfo struct {
	// Coordinator is the __transaction_state partition that owns the id
	// (ref 3.1), and Broker its leader (-1 when it has none).
	Coordinator TP
	Broker      int
	// Loading: a new coordinator is still reading the partition (ref 3.9).
	Loading bool
	// Found says the coordinator has metadata for the id; Meta is a copy.
	Found bool
	Meta  TxnMetadata
}

// TxnInfo describes a transactional id at its coordinator.
func (w *World) TxnInfo(id string) TxnInfo {
	pn := w.TxnPartitionFor(id)
	info := TxnInfo{Coordinator: TP{Topic: TxnStateTopic, Partition: pn}}
	t, ok := w.txnParts[pn]
	if !ok {
		info.Broker = w.firstAlive(w.replicasFor(TxnStateTopic, pn, 3))
		return info
	}
	info.Broker, info.Loading = t.Leader, t.Loading
	if m, ok := t.Meta[id]; ok {
		m.Partitions = append([]TP(nil), m.Partitions...)
		info.Found, info.Meta = true, m
	}
	return info
}

// TxnLog is a copy of the records the coordinator wrote to
// __transaction_state for one transactional id, oldest first (ref 3.2).
// The log outlives coordinators: it is the partition's durable content.
func (w *World) TxnLog(id string) []TxnLogRecord {
	t, ok := w.txnParts[w.TxnPartitionFor(id)]
	if !ok {
		return nil
	}
	var out []TxnLogRecord
	for _, r := range t.Log {
		if r.TransactionalID == id {
			r.Partitions = append([]TP(nil), r.Partitions...)
			out = append(out, r)
		}
	}
	return out
}

// GroupInfo is a consumer group at its coordinator.
type GroupInfo struct {
	ID         string
	Generation int32
	Committed  []TPOffset // sorted by partition
	// Pending are transactional offsets waiting for their marker (ref 5),
	// by producer id in ascending order, then by partition.
	Pending []PendingOffset
}

// PendingOffset is one pending transactional offset.
type PendingOffset struct {
	ProducerID int64
	TP         TP
	Offset     int64
}

// GroupIDs lists the groups the group coordinator holds, sorted by id:
// those a consumer joined and those an offset commit created.
func (w *World) GroupIDs() []string { return sortedKeys(w.groups) }

// GroupInfo describes a group; ok is false when the coordinator has none.
func (w *World) GroupInfo(id string) (GroupInfo, bool) {
	g, ok := w.groups[id]
	if !ok {
		return GroupInfo{}, false
	}
	info := GroupInfo{ID: id, Generation: g.Generation}
	for _, tp := range sortedTPKeys(g.Committed) {
		info.Committed = append(info.Committed, TPOffset{TP: tp, Offset: g.Committed[tp].Offset})
	}
	for _, pid := range sortedIDs(g.Pending) {
		for _, tp := range sortedTPKeys(g.Pending[pid]) {
			info.Pending = append(info.Pending, PendingOffset{ProducerID: pid, TP: tp, Offset: g.Pending[pid][tp].Offset})
		}
	}
	return info, true
}

// ResponseFields are the fields of a response that checks read: its error
// codes, and the base offset or producer id and epoch it carries.
type ResponseFields struct {
	// Code is the response's error: the first non-NONE code of any of its
	// partitions, as Message.Code.
	Code ErrorCode
	// Results are the per-partition codes, in the response's order; a
	// Produce or Fetch response has one. Nil for responses about no
	// partition (InitProducerId, EndTxn, ...).
	Results []TPCode
	// BaseOffset is set for a ProduceResponse.
	BaseOffset    int64
	HasBaseOffset bool
	// ProducerID and ProducerEpoch are set for an InitProducerIdResponse
	// and an EndTxn v5 answer (TV2, ref 6).
	ProducerID    int64
	ProducerEpoch int16
	HasProducer   bool
}

// ResponseFields reads a response's fields; ok is false for a request.
func (m *Message) ResponseFields() (ResponseFields, bool) {
	if !m.Kind.IsResponse() {
		return ResponseFields{}, false
	}
	f := ResponseFields{Code: m.Code()}
	switch b := m.Body.(type) {
	case *ProduceResponse:
		f.Results = []TPCode{{TP: b.TP, Code: b.Code}}
		f.BaseOffset, f.HasBaseOffset = b.BaseOffset, true
	case *FetchResponse:
		f.Results = []TPCode{{TP: b.TP, Code: b.Code}}
	case *InitProducerIDResponse:
		f.ProducerID, f.ProducerEpoch, f.HasProducer = b.ProducerID, b.ProducerEpoch, true
	case *EndTxnResponse:
		f.ProducerID, f.ProducerEpoch, f.HasProducer = b.ProducerID, b.ProducerEpoch, b.V5
	case *AddPartitionsToTxnResponse:
		f.Results = append([]TPCode(nil), b.Results...)
	case *WriteTxnMarkersResponse:
		f.Results = append([]TPCode(nil), b.Results...)
	case *TxnOffsetCommitResponse:
		f.Results = append([]TPCode(nil), b.Results...)
	case *OffsetCommitResponse:
		f.Results = append([]TPCode(nil), b.Results...)
	}
	return f, true
}

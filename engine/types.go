package engine

import (
	"strconv"
	"strings"
)

// TP names a topic partition. It renders as Kafka writes it: "t-0".
type TP struct {
	Topic     string
	Partition int32
}

func (tp TP) String() string { return tp.Topic + "-" + strconv.Itoa(int(tp.Partition)) }

// ParseTP reads "topic-N". Topic names may themselves contain dashes; the
// partition is the part after the last one.
func ParseTP(s string) (TP, bool) {
	i := strings.LastIndexByte(s, '-')
	if i <= 0 || i == len(s)-1 {
		return TP{}, false
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil || n < 0 {
		return TP{}, false
	}
	return TP{Topic: s[:i], Partition: int32(n)}, true
}

// Internal topic names (ref 3.1, 5).
const (
	TxnStateTopic = "__transaction_state"
	OffsetsTopic  = "__consumer_offsets"
)

// Source ties an output record to the input record it was made from, so the
// engine can check that consumed offsets commit atomically with outputs. It is
// bookkeeping of the simulation, not a Kafka field.
type Source struct {
	TP     TP    `json:"partition"`
	Offset int64 `json:"offset"`
}

// MarkerType is the control record type of a transaction marker (ref 2.7).
type MarkerType int8

const (
	MarkerAbort  MarkerType = 0
	MarkerCommit MarkerType = 1
)

func (m MarkerType) String() string {
	if m == MarkerCommit {
		return "COMMIT"
	}
	return "ABORT"
}

// Batch is a record batch as stored in a partition log (RecordBatch v2,
// ref 4.1). Batches are immutable once appended, which is what lets a
// snapshot share the log's backing array.
type Batch struct {
	BaseOffset       int64
	ProducerID       int64
	ProducerEpoch    int16
	BaseSequence     int32
	Count            int32
	Transactional    bool
	Control          bool
	Marker           MarkerType // for control batches
	CoordinatorEpoch int32      // for control batches
	Records          Records    // data batches only
	AppendTime       int64
	// Txn is the simulation's id of the transaction instance this data batch
	// belongs to (0 when none); it is what the invariants use to check
	// all-or-nothing visibility across partitions.
	Txn int64
}

// LastOffset is the offset of the batch's last record.
func (b *Batch) LastOffset() int64 { return b.BaseOffset + int64(b.Count) - 1 }

// NextOffset is the offset just after the batch.
func (b *Batch) NextOffset() int64 { return b.BaseOffset + int64(b.Count) }

// LastSequence is baseSequence + lastOffsetDelta, wrapping (DefaultRecordBatch.lastSequence).
func (b *Batch) LastSequence() int32 {
	if b.BaseSequence == NoSequence {
		return NoSequence
	}
	return addSeq(b.BaseSequence, b.Count-1)
}

// Offsets renders "3" or "0..2".
func (b *Batch) Offsets() string {
	if b.Count == 1 {
		return strconv.FormatInt(b.BaseOffset, 10)
	}
	return strconv.FormatInt(b.BaseOffset, 10) + ".." + strconv.FormatInt(b.LastOffset(), 10)
}

// Seqs renders "0..2" or "-1".
func (b *Batch) Seqs() string {
	if b.BaseSequence == NoSequence {
		return "-1"
	}
	if b.Count == 1 {
		return strconv.Itoa(int(b.BaseSequence))
	}
	return strconv.Itoa(int(b.BaseSequence)) + ".." + strconv.Itoa(int(b.LastSequence()))
}

// Values lists the batch's record values.
func (b *Batch) Values() []string {
	return b.Records.Values()
}

// BatchMetadata is one of the five cached batches per producer per partition
// (BatchMetadata.java).
type BatchMetadata struct {
	FirstSeq    int32 `json:"firstSeq"`
	LastSeq     int32 `json:"lastSeq"`
	FirstOffset int64 `json:"firstOffset"`
	LastOffset  int64 `json:"lastOffset"`
	Timestamp   int64 `json:"timestamp"`
}

// ProducerStateEntry is the partition leader's state for one producer id
// (ProducerStateEntry.java, ref 2.1). It is a plain value: copying it copies
// the whole entry.
type ProducerStateEntry struct {
	ProducerID       int64
	ProducerEpoch    int16
	CoordinatorEpoch int32
	// Batches holds the newest NumBatchesToRetain batches, oldest first;
	// only the first NumCached are valid.
	Batches   [NumBatchesToRetain]BatchMetadata
	NumCached int
	// CurrentTxnFirstOffset is the first offset of this producer's open
	// transaction on this partition, or -1.
	CurrentTxnFirstOffset int64
	LastTimestamp         int64
	// CurrentTxn is the simulation's transaction instance id of the open
	// transaction here (bookkeeping, not Kafka).
	CurrentTxn int64
}

// LastSeq is the newest cached batch's last sequence, or -1 if none is cached.
func (e *ProducerStateEntry) LastSeq() int32 {
	if e.NumCached == 0 {
		return NoSequence
	}
	return e.Batches[e.NumCached-1].LastSeq
}

// Cached returns the valid cached batch metadata, oldest first.
func (e *ProducerStateEntry) Cached() []BatchMetadata { return e.Batches[:e.NumCached] }

func (e *ProducerStateEntry) push(m BatchMetadata) {
	if e.NumCached == NumBatchesToRetain {
		copy(e.Batches[:], e.Batches[1:])
		e.NumCached--
	}
	e.Batches[e.NumCached] = m
	e.NumCached++
}

func (e *ProducerStateEntry) findDuplicate(first, last int32) (BatchMetadata, bool) {
	for _, m := range e.Batches[:e.NumCached] {
		if m.FirstSeq == first && m.LastSeq == last {
			return m, true
		}
	}
	return BatchMetadata{}, false
}

// TxnRange is a transaction on one partition: the producer, its first offset
// and, once finished, the marker's offset (ref 4.2).
type TxnRange struct {
	ProducerID   int64
	FirstOffset  int64
	MarkerOffset int64 // -1 while ongoing
	Txn          int64
}

// AbortedTxn is an entry of the aborted transaction index (AbortedTxn.java, ref 4.3).
type AbortedTxn struct {
	ProducerID       int64 `json:"producerId"`
	FirstOffset      int64 `json:"firstOffset"`
	LastOffset       int64 `json:"lastOffset"`
	LastStableOffset int64 `json:"lastStableOffset"`
}

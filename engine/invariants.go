package engine

import "encoding/json"

// Invariants are code, checked after every step (and at the moment of the
// decision where that is cheaper). A violation is an event, not a panic, so
// a lesson can show what breaks when a safeguard is switched off.

// Violation is one detected invariant violation. Name, Step and Text are
// what --json prints; the typed fields after them say what the violation
// is about, so that World.Cause can tell how it came about. A field that
// does not apply holds its "none" value (NoneViolation).
type Violation struct {
	Name string `json:"name"`
	Step int    `json:"step"`
	// text is what was found, as a note (a says code and its typed
	// arguments), worded by Text.
	text arg

	// Event is the index in the history of the EvViolation event.
	Event int `json:"-"`
	// Actor is the event's actor: the partition, consumer, group
	// coordinator or client that found it.
	Actor string `json:"-"`
	// TP is the partition the violation is about: the log written twice
	// or by a fenced producer, the partition read, the input partition
	// of offsets-atomic. The zero TP when none.
	TP TP `json:"-"`
	// ProducerID and Epoch are the producer of the offending batch (-1:
	// none); CurrentEpoch is the newer epoch that fenced it (fenced-write,
	// -1 otherwise).
	ProducerID   int64 `json:"-"`
	Epoch        int16 `json:"-"`
	CurrentEpoch int16 `json:"-"`
	// Seq is the offending batch's base sequence (-1: none).
	Seq int32 `json:"-"`
	// Offset is the first offset of the offending batch, or the input
	// offset of offsets-atomic (-1: none); Earlier is the first offset of
	// the copy already in the log of a duplicate (-1: none).
	Offset  int64 `json:"-"`
	Earlier int64 `json:"-"`
	// UID is the simulation's number of the offending batch's first
	// record (0: none): it follows the record from its send to the log.
	UID int64 `json:"-"`
	// Txn is the simulation's id of the transaction instance concerned
	// (0: none).
	Txn int64 `json:"-"`
	// Consumer is the read_committed consumer that read the data
	// (uncommitted-read), and
	// Group the group whose offsets moved (offsets-atomic).
	Consumer string `json:"-"`
	Group    string `json:"-"`
	// Msg is the message being handled when the violation was found: the
	// Produce, WriteTxnMarkers, FetchResponse, commit request (0: none,
	// a timer).
	Msg int64 `json:"-"`
}

// NoneViolation is a violation of the given invariant with every typed
// field at its "none" value.
func NoneViolation(name string, text arg) Violation {
	return Violation{Name: name, text: text, ProducerID: NoProducerID, Epoch: NoProducerEpoch, CurrentEpoch: NoProducerEpoch,
		Seq: NoSequence, Offset: -1, Earlier: -1}
}

// Invariant names.
const (
	InvDuplicateSequence = "duplicate-sequence" // no (pid, epoch, seq) twice in a partition
	InvDuplicateRecord   = "duplicate-record"   // no application send appended twice
	InvUncommittedRead   = "uncommitted-read"   // a read_committed consumer returned aborted or open data
	InvWatermarks        = "watermarks"         // LSO <= HW <= LEO
	InvFencedWrite       = "fenced-write"       // no write from a fenced epoch is accepted or committed
	InvAtomicVisibility  = "atomic-visibility"  // a transaction commits on all its partitions or none
	InvOffsetsAtomic     = "offsets-atomic"     // consumed offsets commit atomically with the outputs
	InvIllegalTransition = "illegal-transition" // a state machine left its table
)

// invariantNames lists every invariant (InvariantNames is a copy).
var invariantNames = []string{InvDuplicateSequence, InvDuplicateRecord, InvUncommittedRead, InvWatermarks,
	InvFencedWrite, InvAtomicVisibility, InvOffsetsAtomic, InvIllegalTransition}

// invariantCount is len(InvariantNames).
const invariantCount = 8

// Kafka's own hazards: behaviour real Kafka shows under the simulated
// protocol (TV1: KIP-98 with KIP-890 part 1 verification) that breaks what
// an invariant promises. KIP-890 part 2 (TV2) closes both by bumping the
// epoch on every transaction. The engine names a hazard when it happens and
// does not count it as a violation: the simulation is right to show it.
const (
	// A TxnOffsetCommit of a client transaction that had already ended is
	// written into, and decided by, a later transaction of the same
	// producer: under TV1 the next transaction has the same epoch, and once
	// it has added the offsets partition (AddOffsetsToTxn) verification
	// passes (ref 5.3 table; TxnOffsetCommitRequestTest.
	// testDelayedTxnOffsetCommitWithBumpedEpochIsRejected expects NONE for
	// TV1). With verification off (before 3.7) any late one is taken.
	HazardLateTxnOffsetCommit = "late-txn-offset-commit"
	// A delayed AddPartitionsToTxn or AddOffsetsToTxn of a client
	// transaction that had already ended reaches the coordinator in
	// CompleteCommit/CompleteAbort/Empty at the same epoch and starts a new
	// transaction no client is running; only the timeout ends it (ref 3.5,
	// 3.8).
	HazardLateAddToTxn = "late-add-to-txn"
	// A WriteTxnMarkers request of a transaction the coordinator already
	// completed (it timed out, the coordinator resent it and the copy was
	// answered) reaches a partition where the same producer has opened a
	// later transaction at the same epoch. Under TV1 a marker is taken
	// when its epoch and coordinatorEpoch are at least the stored ones
	// (ref 2.7, ProducerAppendInfo.appendEndTxnMarker), so it decides that
	// later transaction there: its pending offsets commit without its
	// outputs, or its outputs commit while it may still abort. KIP-1228
	// (4.2.0, TV2 markers) takes an equal-epoch marker only when no
	// transaction is open (KAFKA-19999; ref 6).
	HazardLateTxnMarker = "late-txn-marker"
)

// An idempotent, non-transactional producer gets OUT_OF_ORDER_SEQUENCE_NUMBER
// for the batch right after its last acknowledged one, a real gap, bumps
// its epoch and renumbers from 0 every unanswered batch of that partition
// (TransactionManager.bumpIdempotentProducerEpoch,
// TxnPartitionEntry.startSequencesAtBeginning). One of them may already be
// in the log: a leader that holds no state for the producer id takes any
// sequence (ProducerAppendInfo.checkSequence), so a later batch that got
// there first was appended, and the earlier one meets the gap. Under its
// new epoch and sequence that batch is a new batch to the leader and is
// appended again (KAFKA-14034). Idempotence alone, whatever
// transaction.version: transactional producers abort instead.
const HazardSequenceRewrite = "epoch-bump-rewrites-sequence"

// hazardNames lists every named hazard (HazardNames is a copy).
var hazardNames = []string{HazardLateTxnOffsetCommit, HazardLateAddToTxn, HazardLateTxnMarker, HazardSequenceRewrite}

// rewrittenByBump reports whether the duplicate b of o is
// HazardSequenceRewrite's: the same idempotent producer id, a later epoch,
// and the client's batch renumbered by its epoch bump after it was sent.
func (w *World) rewrittenByBump(b, o *Batch) bool {
	if b.Transactional || b.ProducerID < 0 || b.ProducerID != o.ProducerID || b.ProducerEpoch <= o.ProducerEpoch {
		return false
	}
	first := b.Records.FirstUID()
	for _, p := range w.producers {
		if p.ProducerID != b.ProducerID || p.transactional() {
			continue
		}
		for i := range p.Queue {
			if q := &p.Queue[i]; q.SeqReset && q.Records.FirstUID() == first {
				return true
			}
		}
	}
	return false
}

func (w *World) hazard(name, actor string, text arg, rule Rule) *Event {
	return w.emitRule(EvHazard, actor, rule, saysKafkaHazard, quoted(name), text)
}

func (w *World) violate(name, actor string, text arg) {
	w.violateWith(NoneViolation(name, text), actor)
}

// heldViolation is a violation waiting for the event of the append
// that caused it.
type heldViolation struct {
	v     Violation
	actor string
}

// holdViolations makes the violations found from now on wait for
// releaseViolations: an append's checks run before the batch is in the
// log (checkAppendInvariants), but its violation is logged after the
// append event, which is its cause.
func (w *World) holdViolations() { w.holding = true }

// releaseViolations logs the violations held, in the order found.
func (w *World) releaseViolations() {
	w.holding = false
	held := w.heldViols
	w.heldViols = nil
	for _, h := range held {
		w.violateWith(h.v, h.actor)
	}
}

// violateWith records a violation whose typed fields are set.
func (w *World) violateWith(v Violation, actor string) {
	if w.holding {
		w.heldViols = append(w.heldViols, heldViolation{v, actor})
		return
	}
	v.Step, v.Actor = w.stepCount, actor
	if v.Msg == 0 && w.cur != nil {
		v.Msg = w.cur.ID
	}
	e := w.emitRule(EvViolation, actor, because(RuleInvariant, saysInvariant), saysViolation, quoted(v.Name), v.text)
	v.Event = int(e.Seq)
	w.violations = append(w.violations, v)
	w.monitorViolated(len(w.violations) - 1)
}

// batchViolation is a violation about a data batch b of partition p.
func batchViolation(name string, text arg, p *PartitionLog, b *Batch) Violation {
	v := NoneViolation(name, text)
	v.TP, v.ProducerID, v.Epoch, v.Seq, v.Offset, v.UID, v.Txn = p.TP, b.ProducerID, b.ProducerEpoch, b.BaseSequence, b.BaseOffset, b.Records.FirstUID(), b.Txn
	return v
}

// checkInvariants runs the per-step checks on the partitions touched.
func (w *World) checkInvariants() {
	if !w.config.CheckInvariants {
		w.dirty = w.dirty[:0]
		return
	}
	for _, tp := range w.dirty {
		p := w.partitions[tp]
		if p == nil {
			continue
		}
		lso := p.LastStableOffset()
		if !(lso <= p.HW && p.HW <= p.LEO) {
			w.violate(InvWatermarks, tp.String(), sub(saysLsoHwLeoDoesNot, num(lso), num(p.HW), num(p.LEO)))
		}
	}
	w.dirty = w.dirty[:0]
}

// checkAppendInvariants runs before a data batch is appended: no duplicate
// (pid, epoch, seq), no duplicate application record, no stale epoch. The
// common case costs two comparisons; only a suspicious batch is checked
// against the log.
func (w *World) checkAppendInvariants(p *PartitionLog, b *Batch) {
	if !w.config.CheckInvariants || b.Control {
		return
	}
	if b.ProducerID >= 0 && b.BaseSequence >= 0 {
		if e, ok := p.Producers[b.ProducerID]; ok && e.ProducerEpoch != NoProducerEpoch && b.ProducerEpoch < e.ProducerEpoch {
			v := batchViolation(InvFencedWrite, sub(saysABatchWithEpochWas, num(int64(b.ProducerEpoch)), num(int64(e.ProducerEpoch))), p, b)
			v.CurrentEpoch = e.ProducerEpoch
			w.violateWith(v, p.TP.String())
		}
		if p.SeqMax == nil {
			p.SeqMax = map[int64]seqMark{}
		}
		mark, ok := p.SeqMax[b.ProducerID]
		last := b.LastSequence()
		if ok && mark.Epoch == b.ProducerEpoch && b.BaseSequence <= mark.Last {
			for i := range p.Batches {
				o := &p.Batches[i]
				if o.ProducerID == b.ProducerID && o.ProducerEpoch == b.ProducerEpoch && !o.Control && o.BaseSequence >= 0 &&
					o.BaseSequence <= last && b.BaseSequence <= o.LastSequence() {
					v := batchViolation(InvDuplicateSequence, sub(saysPidEpochSeqOverlapsOffsets, num(b.ProducerID), num(int64(b.ProducerEpoch)), batchSeqs(b), batchOffsets(o)), p, b)
					v.Earlier = o.BaseOffset
					w.violateWith(v, p.TP.String())
					break
				}
			}
		}
		if !ok || mark.Epoch != b.ProducerEpoch || last > mark.Last {
			p.SeqMax[b.ProducerID] = seqMark{Epoch: b.ProducerEpoch, Last: last}
		}
	}
	// A send numbers its records in a row, so a batch's UIDs are the
	// range [first, last].
	first := b.Records.FirstUID()
	if first <= 0 {
		return
	}
	last := first + int64(b.Records.Len()) - 1
	if first <= p.MaxUID {
		for i := range p.Batches {
			o := &p.Batches[i]
			of := o.Records.FirstUID()
			if of <= 0 || of > last || first > of+int64(o.Records.Len())-1 {
				continue
			}
			k := max(0, int(first-of)) // o's first record that is also in b
			if w.rewrittenByBump(b, o) {
				w.hazard(HazardSequenceRewrite, p.TP.String(), sub(saysTheRecordAtOffsetsIs, quoted(o.Records.Value(k)), batchOffsets(o), num(p.LEO), num(b.ProducerID), num(int64(o.ProducerEpoch)), num(int64(b.ProducerEpoch)), batchSeqs(b)), because(RuleHazardSequenceRewrite, saysStartSequencesAtBeginning)).on(p.TP)
				break
			}
			v := batchViolation(InvDuplicateRecord, sub(saysTheRecordSentOnceIs, quoted(o.Records.Value(k)), batchOffsets(o), num(p.LEO)), p, b)
			v.Earlier = o.BaseOffset
			w.violateWith(v, p.TP.String())
			break
		}
	}
	if last > p.MaxUID {
		p.MaxUID = last
	}
}

// checkMarkerInvariants: a COMMIT must not commit data from an older epoch
// than the marker's (a fenced writer), and one transaction must get the same
// result on every partition. owner is the client transaction the marker
// decides (0 when unknown). It reports whether the marker is Kafka's
// HazardLateTxnMarker: it closes a later transaction than its own.
func (w *World) checkMarkerInvariants(p *PartitionLog, e *ProducerStateEntry, epoch int16, result MarkerType, owner int64) (late bool) {
	if !w.config.CheckInvariants {
		return false
	}
	if result == MarkerCommit {
		for i := len(p.Batches) - 1; i >= 0 && p.Batches[i].BaseOffset >= e.CurrentTxnFirstOffset; i-- {
			b := &p.Batches[i]
			if b.ProducerID == e.ProducerID && !b.Control && b.ProducerEpoch < epoch {
				v := batchViolation(InvFencedWrite, sub(saysCommitWithEpochCommitsOffsets, num(int64(epoch)), batchOffsets(b), num(int64(b.ProducerEpoch))), p, b)
				v.CurrentEpoch = epoch
				w.violateWith(v, p.TP.String())
			}
		}
	}
	txn := e.CurrentTxn
	if late = w.noteLateMarker(p, e, result, owner); late {
		// The marker decides for the transaction it serves; the later
		// transaction it closed here may still end otherwise elsewhere.
		txn = owner
	}
	if p.TP.Topic == OffsetsTopic && owner != 0 {
		// The group coordinator writes no sequence numbers, so nothing
		// but verification keeps a late TxnOffsetCommit out of a later
		// transaction: the marker decides for the transaction it serves.
		w.noteLateOffsets(p, e, result, owner)
		txn = owner
	}
	if txn == 0 {
		return late
	}
	if prev := w.txnOutcomes.get(txn); prev != 0 && MarkerType(prev-1) != result {
		v := NoneViolation(InvAtomicVisibility, sub(saysOneTransactionGotOnOne, MarkerType(prev-1), result, p.TP))
		v.TP, v.ProducerID, v.Epoch, v.Offset, v.Txn = p.TP, e.ProducerID, epoch, e.CurrentTxnFirstOffset, txn
		w.violateWith(v, p.TP.String())
	}
	w.txnOutcomes = w.txnOutcomes.set(txn, int8(result)+1)
	return late
}

// noteLateMarker names HazardLateTxnMarker when the producer's open
// transaction on p holds a batch of a later client transaction than the
// one the marker serves (client transaction ids grow in the order
// transactions begin), and reports whether it did.
func (w *World) noteLateMarker(p *PartitionLog, e *ProducerStateEntry, result MarkerType, owner int64) bool {
	if owner == 0 {
		return false
	}
	for i := p.batchIndex(e.CurrentTxnFirstOffset); i < len(p.Batches); i++ {
		b := &p.Batches[i]
		if b.ProducerID != e.ProducerID || b.Control || b.Txn <= owner {
			continue
		}
		w.hazard(HazardLateTxnMarker, p.TP.String(), sub(saysADelayedMarkerOfAn, result, num(e.ProducerID), num(e.CurrentTxnFirstOffset), result), because(RuleHazardLateMarker, saysUnderTv1AMarkerIs)).on(p.TP)
		return true
	}
	return false
}

// checkOffsetsWriteVerified runs before the group coordinator starts a
// transaction of a producer on an offsets partition (no open transaction
// of the pid there) while verification is on: KIP-890 part 1 promises that
// the partition is then in the coordinator's transaction for that producer,
// so the transaction's own marker will decide the write. Without this
// check a missing verification would pass as HazardLateTxnOffsetCommit.
func (w *World) checkOffsetsWriteVerified(p *PartitionLog, txnID string, pid int64) {
	if !w.config.CheckInvariants {
		return
	}
	t := w.txnPart(w.TxnPartitionFor(txnID))
	if t.Leader < 0 || t.Loading {
		return
	}
	meta, ok := t.Meta[txnID]
	inTxn := ok && meta.ProducerID == pid && meta.hasPartition(p.TP) &&
		(meta.State == Ongoing || meta.State == PrepareCommit || meta.State == PrepareAbort)
	if !inTxn {
		v := NoneViolation(InvAtomicVisibility, sub(saysOffsetsOfPidStartA, num(pid), p.TP, quoted(txnID)))
		v.TP, v.ProducerID = p.TP, pid
		w.violateWith(v, p.TP.String())
	}
}

// noteLateOffsets names HazardLateTxnOffsetCommit for each offsets batch in
// the transaction a marker closes that an earlier client transaction than
// the marker's wrote (a later one is HazardLateTxnMarker's). Offsets transactions hold one batch per TxnOffsetCommit,
// so the scan is short.
func (w *World) noteLateOffsets(p *PartitionLog, e *ProducerStateEntry, result MarkerType, owner int64) {
	i := len(p.Batches)
	for i > 0 && p.Batches[i-1].BaseOffset >= e.CurrentTxnFirstOffset {
		i--
	}
	for ; i < len(p.Batches); i++ {
		b := &p.Batches[i]
		if b.ProducerID != e.ProducerID || b.Control || b.Txn == 0 || b.Txn >= owner {
			continue
		}
		w.hazard(HazardLateTxnOffsetCommit, p.TP.String(), sub(saysOffsetsAtCameFromA, recordValues(b.Values()), batchOffsets(b), num(e.ProducerID), result), because(RuleHazardLateTxnOffset, saysUnderTv1TheNextTransaction, p.TP)).on(p.TP)
	}
}

// checkDelivery: a read_committed consumer hands the application a batch
// that is aborted or not yet decided, which it never may (the LSO and the
// aborted-transaction list keep it out). A read_uncommitted consumer doing
// so is Kafka's documented behaviour, narrated by noteUncommittedRead.
func (w *World) checkDelivery(c *Consumer, tp TP, b *Batch) {
	if !w.config.CheckInvariants {
		return
	}
	if st := w.undecidedStatus(tp, b); st != StatusPlain {
		v := batchViolation(InvUncommittedRead, sub(saysConsumerReturnedDataOffsets, isolation(c.ReadCommitted), st, tp, batchOffsets(b)), w.partitions[tp], b)
		v.Consumer = c.Name
		w.violateWith(v, c.Name)
	}
}

// undecidedStatus is the status of a transactional batch a consumer
// returned when that is aborted or open, StatusPlain otherwise.
func (w *World) undecidedStatus(tp TP, b *Batch) BatchStatus {
	p := w.partitions[tp]
	if p == nil || !b.Transactional {
		return StatusPlain
	}
	switch st := p.Status(b); st {
	case StatusAborted, StatusOpen:
		return st
	}
	return StatusPlain
}

// undecidedRead is a batch of an aborted or open transaction that a
// read_uncommitted consumer returned.
type undecidedRead struct {
	b  *Batch
	st BatchStatus
}

// noteUncommittedRead narrates what a read_uncommitted consumer returned
// of an aborted or open transaction: Kafka's documented behaviour
// (ConsumerConfig isolation.level), so an ordinary event, not a violation.
func (w *World) noteUncommittedRead(c *Consumer, tp TP, u undecidedRead) {
	what := saysAbortedTxn
	if u.st == StatusOpen {
		what = saysOpenTxn
	}
	w.emitRule(EvConsume, c.Name, because(RuleReadUncommitted, saysReadUncommittedTheDefaultReturns), saysReturnedOffsetsOfToThe, isolation(c.ReadCommitted), tp, batchOffsets(u.b), sub(what)).on(tp)
}

// Text is what the violation found, in words.
func (v Violation) Text() string {
	if v.text == nil {
		return ""
	}
	return v.text.String()
}

// MarshalJSON is the violation as --json prints it: its name, step and
// text.
func (v Violation) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Name string `json:"name"`
		Step int    `json:"step"`
		Text string `json:"text"`
	}{v.Name, v.Step, v.Text()})
}

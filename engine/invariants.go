package engine

import "strings"

// Invariants are code, checked after every step (and at the moment of the
// decision where that is cheaper). A violation is an event, not a panic, so
// a lesson can show what breaks when a safeguard is switched off.

// Violation is one detected invariant violation.
type Violation struct {
	Name string `json:"name"`
	Step int    `json:"step"`
	Text string `json:"text"`
}

// Invariant names.
const (
	InvDuplicateSequence = "duplicate-sequence" // no (pid, epoch, seq) twice in a partition
	InvDuplicateRecord   = "duplicate-record"   // no application send appended twice
	InvUncommittedRead   = "uncommitted-read"   // a consumer returned aborted or open data
	InvWatermarks        = "watermarks"         // LSO <= HW <= LEO
	InvFencedWrite       = "fenced-write"       // no write from a fenced epoch is accepted or committed
	InvAtomicVisibility  = "atomic-visibility"  // a transaction commits on all its partitions or none
	InvOffsetsAtomic     = "offsets-atomic"     // consumed offsets commit atomically with the outputs
	InvIllegalTransition = "illegal-transition" // a state machine left its table
)

// InvariantNames lists every invariant.
var InvariantNames = []string{InvDuplicateSequence, InvDuplicateRecord, InvUncommittedRead, InvWatermarks,
	InvFencedWrite, InvAtomicVisibility, InvOffsetsAtomic, InvIllegalTransition}

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
)

// HazardNames lists every named hazard.
var HazardNames = []string{HazardLateTxnOffsetCommit, HazardLateAddToTxn}

func (w *World) hazard(name, actor, text, rule string) *Event {
	return w.emitRule(EvHazard, actor, "KAFKA HAZARD "+name+": "+text, rule)
}

func (w *World) violate(name, actor, text string) {
	w.Violations = append(w.Violations, Violation{Name: name, Step: w.StepCount, Text: text})
	w.emitRule(EvViolation, actor, "VIOLATION "+name+": "+text, "invariant")
}

// checkInvariants runs the per-step checks on the partitions touched.
func (w *World) checkInvariants() {
	if !w.Config.CheckInvariants {
		w.dirty = w.dirty[:0]
		return
	}
	for _, tp := range w.dirty {
		p := w.Partitions[tp]
		if p == nil {
			continue
		}
		lso := p.LastStableOffset()
		if !(lso <= p.HW && p.HW <= p.LEO) {
			w.violate(InvWatermarks, tp.String(), "LSO "+itoa(lso)+" <= HW "+itoa(p.HW)+" <= LEO "+itoa(p.LEO)+" does not hold")
		}
	}
	w.dirty = w.dirty[:0]
}

// checkAppendInvariants runs before a data batch is appended: no duplicate
// (pid, epoch, seq), no duplicate application record, no stale epoch. The
// common case costs two comparisons; only a suspicious batch is checked
// against the log.
func (w *World) checkAppendInvariants(p *PartitionLog, b *Batch) {
	if !w.Config.CheckInvariants || b.Control {
		return
	}
	if b.ProducerID >= 0 && b.BaseSequence >= 0 {
		if e, ok := p.Producers[b.ProducerID]; ok && e.ProducerEpoch != NoProducerEpoch && b.ProducerEpoch < e.ProducerEpoch {
			w.violate(InvFencedWrite, p.TP.String(), "a batch with epoch "+itoa(int64(b.ProducerEpoch))+" was accepted after epoch "+itoa(int64(e.ProducerEpoch)))
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
					w.violate(InvDuplicateSequence, p.TP.String(), "pid="+itoa(b.ProducerID)+" epoch="+itoa(int64(b.ProducerEpoch))+" seq="+b.Seqs()+" overlaps offsets "+o.Offsets())
					break
				}
			}
		}
		if !ok || mark.Epoch != b.ProducerEpoch || last > mark.Last {
			p.SeqMax[b.ProducerID] = seqMark{Epoch: b.ProducerEpoch, Last: last}
		}
	}
	minUID := int64(-1)
	for _, r := range b.Records {
		if r.UID > 0 && (minUID < 0 || r.UID < minUID) {
			minUID = r.UID
		}
	}
	if minUID > 0 && minUID <= p.MaxUID {
		seen := map[int64]bool{}
		for _, r := range b.Records {
			seen[r.UID] = true
		}
	scan:
		for i := range p.Batches {
			for _, r := range p.Batches[i].Records {
				if r.UID > 0 && seen[r.UID] {
					w.violate(InvDuplicateRecord, p.TP.String(), "the record "+r.Value+" sent once is now in the log twice (offsets "+p.Batches[i].Offsets()+" and again at "+itoa(p.LEO)+")")
					break scan
				}
			}
		}
	}
	for _, r := range b.Records {
		if r.UID > p.MaxUID {
			p.MaxUID = r.UID
		}
	}
}

// checkMarkerInvariants: a COMMIT must not commit data from an older epoch
// than the marker's (a fenced writer), and one transaction must get the same
// result on every partition. owner is the client transaction the marker
// decides (0 when unknown).
func (w *World) checkMarkerInvariants(p *PartitionLog, e *ProducerStateEntry, epoch int16, result MarkerType, owner int64) {
	if !w.Config.CheckInvariants {
		return
	}
	if result == MarkerCommit {
		for i := len(p.Batches) - 1; i >= 0 && p.Batches[i].BaseOffset >= e.CurrentTxnFirstOffset; i-- {
			b := &p.Batches[i]
			if b.ProducerID == e.ProducerID && !b.Control && b.ProducerEpoch < epoch {
				w.violate(InvFencedWrite, p.TP.String(), "COMMIT with epoch "+itoa(int64(epoch))+" commits offsets "+b.Offsets()+" written with fenced epoch "+itoa(int64(b.ProducerEpoch)))
			}
		}
	}
	txn := e.CurrentTxn
	if p.TP.Topic == OffsetsTopic && owner != 0 {
		// The group coordinator writes no sequence numbers, so nothing
		// but verification keeps a late TxnOffsetCommit out of a later
		// transaction: the marker decides for the transaction it serves.
		w.noteLateOffsets(p, e, result, owner)
		txn = owner
	}
	if txn == 0 {
		return
	}
	if prev, ok := w.TxnOutcomes[txn]; ok && prev != result {
		w.violate(InvAtomicVisibility, p.TP.String(), "one transaction got "+prev.String()+" on one partition and "+result.String()+" on "+p.TP.String())
	}
	w.TxnOutcomes[txn] = result
}

// checkOffsetsWriteVerified runs before the group coordinator starts a
// transaction of a producer on an offsets partition (no open transaction
// of the pid there) while verification is on: KIP-890 part 1 promises that
// the partition is then in the coordinator's transaction for that producer,
// so the transaction's own marker will decide the write. Without this
// check a missing verification would pass as HazardLateTxnOffsetCommit.
func (w *World) checkOffsetsWriteVerified(p *PartitionLog, txnID string, pid int64) {
	if !w.Config.CheckInvariants {
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
		w.violate(InvAtomicVisibility, p.TP.String(), "offsets of pid="+itoa(pid)+" start a transaction on "+p.TP.String()+" that is not in the coordinator's transaction of "+txnID+": no marker of that transaction will decide them")
	}
}

// noteLateOffsets names HazardLateTxnOffsetCommit for each offsets batch in
// the transaction a marker closes that another client transaction than the
// marker's wrote. Offsets transactions hold one batch per TxnOffsetCommit,
// so the scan is short.
func (w *World) noteLateOffsets(p *PartitionLog, e *ProducerStateEntry, result MarkerType, owner int64) {
	i := len(p.Batches)
	for i > 0 && p.Batches[i-1].BaseOffset >= e.CurrentTxnFirstOffset {
		i--
	}
	for ; i < len(p.Batches); i++ {
		b := &p.Batches[i]
		if b.ProducerID != e.ProducerID || b.Control || b.Txn == 0 || b.Txn == owner {
			continue
		}
		w.hazard(HazardLateTxnOffsetCommit, p.TP.String(), "offsets "+strings.Join(b.Values(), ",")+" at "+b.Offsets()+
			" came from a TxnOffsetCommit of an earlier, already ended transaction of pid="+itoa(e.ProducerID)+
			"; the "+result.String()+" of the transaction it joined decides them",
			"ref 5.3: under TV1 the next transaction keeps the epoch, so once it has "+p.TP.String()+" (or at all without verification, before 3.7) nothing refuses a late TxnOffsetCommit; KIP-890 part 2 (TV2) refuses it with INVALID_PRODUCER_EPOCH(47)").on(p.TP)
	}
}

// checkDelivery: a consumer hands the application a batch that is aborted
// or not yet decided. read_committed never does; read_uncommitted may, which
// is what the lesson on isolation shows.
func (w *World) checkDelivery(c *Consumer, tp TP, b *Batch) {
	if !w.Config.CheckInvariants || !b.Transactional {
		return
	}
	p := w.Partitions[tp]
	if p == nil {
		return
	}
	switch st := p.Status(b); st {
	case StatusAborted, StatusOpen:
		w.violate(InvUncommittedRead, c.Name, c.Isolation()+" consumer returned "+st.String()+" data "+tp.String()+" offsets "+b.Offsets())
	}
}

// checkOffsetsAtomic: when a group's committed offset on an input partition
// moves from prev to next, every input record in between must have exactly
// one committed output (found through the outputs' Source).
//
// pid is the producer whose COMMIT marker made the offsets final (-1 for a
// plain OffsetCommit): its outputs that are still open are committed by the
// same decision, their own markers simply have not landed yet (markers go
// to the partitions concurrently, ref 3.7).
func (w *World) checkOffsetsAtomic(group string, in TP, prev, next, pid int64) {
	if !w.Config.CheckInvariants || next <= prev {
		return
	}
	var pr *Processor
	for _, x := range w.Processors {
		if x.Consumer.GroupID == group && x.Input == in.Topic {
			pr = x
			break
		}
	}
	if pr == nil {
		return
	}
	if prev < 0 {
		prev = 0
	}
	src := w.Partitions[in]
	if src == nil {
		return
	}
	counts := map[int64]int{}
	for _, tp := range w.allPartitions() {
		if tp.Topic != pr.Output {
			continue
		}
		op := w.Partitions[tp]
		for i := range op.Batches {
			b := &op.Batches[i]
			if b.Control || len(b.Records) == 0 || b.Records[0].Source == nil {
				continue
			}
			if st := op.Status(b); b.Transactional && st != StatusCommitted && !(st == StatusOpen && b.ProducerID == pid) {
				continue
			}
			for _, r := range b.Records {
				if r.Source != nil && r.Source.TP == in {
					counts[r.Source.Offset]++
				}
			}
		}
	}
	for i := range src.Batches {
		b := &src.Batches[i]
		if b.Control || b.NextOffset() <= prev || b.BaseOffset >= next {
			continue
		}
		if b.Transactional && src.Status(b) != StatusCommitted {
			continue
		}
		for k := range b.Records {
			off := b.BaseOffset + int64(k)
			if off < prev || off >= next {
				continue
			}
			switch n := counts[off]; {
			case n == 0:
				w.violate(InvOffsetsAtomic, "group("+group+")", "offset "+in.String()+"="+itoa(next)+" is committed but the output for input "+in.String()+"@"+itoa(off)+" is not")
				return
			case n > 1:
				w.violate(InvOffsetsAtomic, "group("+group+")", "input "+in.String()+"@"+itoa(off)+" has "+itoa(int64(n))+" committed outputs")
				return
			}
		}
	}
}

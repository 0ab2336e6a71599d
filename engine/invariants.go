package engine

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
			w.violate(InvDuplicateRecord, p.TP.String(), "the record "+o.Records.Value(k)+" sent once is now in the log twice (offsets "+o.Offsets()+" and again at "+itoa(p.LEO)+")")
			break
		}
	}
	if last > p.MaxUID {
		p.MaxUID = last
	}
}

// checkMarkerInvariants: a COMMIT must not commit data from an older epoch
// than the marker's (a fenced writer), and one transaction must get the same
// result on every partition.
func (w *World) checkMarkerInvariants(p *PartitionLog, e *ProducerStateEntry, epoch int16, result MarkerType) {
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
	if e.CurrentTxn == 0 {
		return
	}
	if prev := w.txnOutcomes.get(e.CurrentTxn); prev != 0 && MarkerType(prev-1) != result {
		w.violate(InvAtomicVisibility, p.TP.String(), "one transaction got "+MarkerType(prev-1).String()+" on one partition and "+result.String()+" on "+p.TP.String())
	}
	w.txnOutcomes = w.txnOutcomes.set(e.CurrentTxn, int8(result)+1)
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

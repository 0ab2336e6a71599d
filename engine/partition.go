package engine

import (
	"slices"
	"sort"
	"strconv"
)

// PartitionLog is one partition as its leader keeps it: the log of batches,
// the log end offset, high watermark and last stable offset, the per-producer
// state with its 5-batch window, the open and unreplicated transactions and
// the aborted transaction index (ref 2.1, 4.2, 4.3).
type PartitionLog struct {
	TP             TP
	Replicas       []int
	Leader         int // -1 when offline
	LeaderEpoch    int32
	Batches        []Batch // append-only; entries are never modified
	LogStartOffset int64
	LEO            int64
	HW             int64
	Producers      map[int64]ProducerStateEntry
	Ongoing        []TxnRange // open transactions, by first offset
	Unreplicated   []TxnRange // finished, marker not yet below HW
	Aborted        []AbortedTxn
	// Verifying holds the KIP-890 part 1 VerificationStateEntry per pid:
	// the lowest sequence whose verification is under way (ref 2.1, 2.3 row 3).
	Verifying map[int64]VerificationState

	// Invariant bookkeeping: highest record UID and per-producer highest
	// sequence appended; a value at or below them triggers an exact check.
	MaxUID int64
	SeqMax map[int64]seqMark
}

// VerificationState is Kafka's VerificationStateEntry: created when a
// transactional batch from a pid with no open transaction here starts
// verification, it remembers the lowest sequence (for the newest epoch)
// being verified. Until the transaction starts, a batch with a higher
// sequence is out of order (ref 2.3 row 3), so the first batch of a
// transaction on a partition is always the lowest one.
type VerificationState struct {
	LowestSeq int32
	Epoch     int16
	Timestamp int64 // creation time; expires like producer state (ref 2.1)
	// Guard is the entry's VerificationGuard: a produce that was verified
	// under it may append only while this very entry still exists (ref 2.2
	// step 3). A marker or a transactional append removes the entry.
	Guard int64
	// TV2 is the entry's supportsEpochBump: it was created for a Produce
	// v12, whose first batch must then start at sequence 0 (tv2.go).
	TV2 bool
}

// startVerification is maybeCreateVerificationStateEntry followed by
// maybeUpdateLowestSequenceAndEpoch.
// It returns the entry's guard.
func (p *PartitionLog) startVerification(pid int64, seq int32, epoch int16, now, newGuard int64) int64 {
	if p.Verifying == nil {
		p.Verifying = map[int64]VerificationState{}
	}
	v, ok := p.Verifying[pid]
	switch {
	case !ok:
		v = VerificationState{LowestSeq: seq, Epoch: epoch, Timestamp: now, Guard: newGuard}
	case epoch > v.Epoch:
		v.LowestSeq, v.Epoch = seq, epoch
	case epoch == v.Epoch && seq < v.LowestSeq:
		v.LowestSeq = seq
	}
	p.Verifying[pid] = v
	return v.Guard
}

type seqMark struct {
	Epoch int16
	Last  int32
}

// heldResponse is an acks=all answer held in the leader's purgatory until
// the high watermark of every listed partition has passed its offset.
type heldResponse struct {
	Need []TPOffset // answer once HW > Offset on each
	Kind MsgKind
	From string
	To   string
	Corr int64
	Body Body
}

// hold keeps an answer until the writes it reports are replicated.
func (w *World) hold(need []TPOffset, m *Message, kind MsgKind, body Body) {
	h := heldResponse{Need: need, Kind: kind, From: m.To, To: m.From, Corr: m.Corr, Body: body}
	if w.replicated(h.Need) {
		w.send(h.Kind, h.From, h.To, h.Corr, h.Body)
		return
	}
	w.held = append(w.held, h)
}

func (w *World) replicated(need []TPOffset) bool {
	for _, n := range need {
		if p := w.partitions[n.TP]; p == nil || p.HW <= n.Offset {
			return false
		}
	}
	return true
}

// releaseHeld sends the held answers whose writes are now replicated.
func (w *World) releaseHeld() {
	kept := w.held[:0:0]
	for _, h := range w.held {
		if w.replicated(h.Need) {
			w.send(h.Kind, h.From, h.To, h.Corr, h.Body)
		} else {
			kept = append(kept, h)
		}
	}
	w.held = kept
}

// IsInternal reports whether the partition belongs to an internal topic.
func (p *PartitionLog) IsInternal() bool {
	return p.TP.Topic == OffsetsTopic || p.TP.Topic == TxnStateTopic
}

// LastStableOffset is min(first unstable offset, HW) (ref 4.2). Ongoing is
// in the order of first offsets (a transaction starts at the log end), so
// its first entry is the earliest open transaction; the unreplicated ones
// are few, and gone once the high watermark passes their markers.
func (p *PartitionLog) LastStableOffset() int64 {
	lso := p.HW
	if len(p.Ongoing) > 0 && p.Ongoing[0].FirstOffset < lso {
		lso = p.Ongoing[0].FirstOffset
	}
	for _, t := range p.Unreplicated {
		if t.FirstOffset < lso {
			lso = t.FirstOffset
		}
	}
	return lso
}

// BatchAt finds the batch holding an offset.
func (p *PartitionLog) BatchAt(offset int64) (*Batch, bool) {
	i := sort.Search(len(p.Batches), func(i int) bool { return p.Batches[i].NextOffset() > offset })
	if i < len(p.Batches) && p.Batches[i].BaseOffset <= offset {
		return &p.Batches[i], true
	}
	return nil, false
}

// BatchStatus is what became of a data batch.
type BatchStatus uint8

// Batch statuses.
const (
	StatusPlain     BatchStatus = iota // not transactional
	StatusOpen                         // transaction not finished here
	StatusCommitted                    // a COMMIT marker followed
	StatusAborted                      // an ABORT marker followed
	StatusControl                      // the batch is a marker
)

var statusNames = [...]string{"plain", "open", "committed", "aborted", "control"}

func (s BatchStatus) String() string { return statusNames[s] }

// Status says whether a batch is plain, open, committed or aborted, by
// looking for this producer's next marker after it.
func (p *PartitionLog) Status(b *Batch) BatchStatus {
	if b.Control {
		return StatusControl
	}
	if !b.Transactional {
		return StatusPlain
	}
	i := sort.Search(len(p.Batches), func(i int) bool { return p.Batches[i].BaseOffset > b.BaseOffset })
	for ; i < len(p.Batches); i++ {
		m := &p.Batches[i]
		if m.Control && m.ProducerID == b.ProducerID {
			if m.Marker == MarkerCommit {
				return StatusCommitted
			}
			return StatusAborted
		}
	}
	return StatusOpen
}

// appendResult is the leader's answer to one client batch.
type appendResult struct {
	Code       ErrorCode
	BaseOffset int64
	Duplicate  bool
	Expected   int32 // the sequence the leader expected, or -1
	Rule       Rule
	// keepEpoch: a batch of an older epoch taken because the teaching
	// switch eoslab.epoch.fencing is off; the producer state keeps the
	// newer epoch and its cached batches.
	keepEpoch bool
}

// appendClientBatch validates and appends a batch from a client, in Kafka's
// order (ref 2.2) and with the decision table of ref 2.3. Verification
// (KIP-890 part 1) has already happened in the broker when it applies;
// guard is then the verification guard the produce was verified under (0
// when no verification was needed).
func (w *World) appendClientBatch(p *PartitionLog, b Batch, guard int64) appendResult {
	if b.ProducerID < 0 {
		return w.appendBatch(p, b, appendResult{Rule: w.because(RuleNotIdempotent, saysNoProducerIdNotIdempotent)})
	}
	e, known := p.Producers[b.ProducerID]
	if !known {
		e = ProducerStateEntry{ProducerID: b.ProducerID, ProducerEpoch: NoProducerEpoch, CoordinatorEpoch: -1, CurrentTxnFirstOffset: -1}
	}
	last := b.LastSequence()
	teach := w.config.Teach
	// Row 1: duplicate of a cached batch (UnifiedLog.analyzeAndValidateProducerState).
	if known && b.ProducerEpoch == e.ProducerEpoch && !teach.NoDedup {
		if m, ok := e.findDuplicate(b.BaseSequence, last); ok {
			return appendResult{Code: None, BaseOffset: m.FirstOffset, Duplicate: true, Expected: -1,
				Rule: w.because(RuleSeqDuplicate, saysSameEpochSeqMatchesA, seqSpan{b.BaseSequence, last}, num(m.FirstOffset))}
		}
	}
	// Ref 2.2 step 3, the verification guard: a marker or another
	// transactional append removed the entry this produce was verified
	// under, so the coordinator's answer may be stale (the ABA case).
	if guard != 0 && b.Transactional && e.CurrentTxnFirstOffset < 0 {
		if v, ok := p.Verifying[b.ProducerID]; !ok || v.Guard != guard {
			return appendResult{Code: InvalidTxnState, Expected: -1,
				Rule: w.because(RuleVerificationGuard, saysGuardGone)}
		}
	}
	// Row 2: stale epoch (checkProducerEpoch).
	if e.ProducerEpoch != NoProducerEpoch && b.ProducerEpoch < e.ProducerEpoch {
		if !teach.NoFencing {
			return appendResult{Code: InvalidProducerEpoch, Expected: -1,
				Rule: w.because(RuleSeqStaleEpoch, saysEpochStoredEpoch, num(int64(b.ProducerEpoch)), num(int64(e.ProducerEpoch)))}
		}
		// A fenced epoch's sequences mean nothing next to the stored
		// epoch's: the batch goes in as it comes, and the stored state
		// keeps the newer epoch.
		res := appendResult{Expected: -1, keepEpoch: true,
			Rule: teachRule(ConfigTeachFencing, sub(saysEpochStoredEpochIsNot, num(int64(b.ProducerEpoch)), num(int64(e.ProducerEpoch))))}
		if e.CurrentTxnFirstOffset >= 0 && !b.Transactional {
			return appendResult{Code: InvalidTxnState, Expected: -1,
				Rule: res.Rule.and(notTransactional(b.ProducerID))}
		}
		return w.appendBatch(p, b, res)
	}
	if teach.NoDedup {
		// Rows 1, 3 and 5 to 8 skipped: any sequence is taken, a retry
		// included.
		res := appendResult{Expected: -1,
			Rule: teachRule(ConfigTeachDedup, sub(saysTheLeaderSkipsTheDuplicate, seqSpan{b.BaseSequence, last}))}
		if e.CurrentTxnFirstOffset >= 0 && !b.Transactional {
			return appendResult{Code: InvalidTxnState, Expected: -1,
				Rule: res.Rule.and(notTransactional(b.ProducerID))}
		}
		return w.appendBatch(p, b, res)
	}
	if res, bad := w.firstSequenceV2(p, e, &b); bad {
		return res
	}
	// Row 3: a verification is under way for a lower sequence of this pid
	// (ProducerAppendInfo.checkSequence, KIP-890 part 1).
	if v, ok := p.Verifying[b.ProducerID]; ok && b.BaseSequence > v.LowestSeq {
		return appendResult{Code: OutOfOrderSequenceNumber, Expected: v.LowestSeq,
			Rule: w.because(RuleSeqVerifying, saysVerificationOfSeqFromPid, num(int64(v.LowestSeq)), num(b.ProducerID), num(int64(b.BaseSequence)))}
	}
	res := appendResult{Expected: -1}
	switch {
	case e.ProducerEpoch == NoProducerEpoch:
		res.Rule = w.because(RuleSeqNoState, saysNoStateForPidHere, num(b.ProducerID))
	case b.ProducerEpoch > e.ProducerEpoch:
		res.Expected = 0
		if b.BaseSequence != 0 {
			return appendResult{Code: OutOfOrderSequenceNumber, Expected: 0,
				Rule: w.because(RuleSeqNewEpochNotZero, saysNewEpochMustStartAt, num(int64(b.ProducerEpoch)), num(int64(e.ProducerEpoch)), num(int64(b.BaseSequence)))}
		}
		res.Rule = w.because(RuleSeqNewEpoch, saysNewEpochStartingAt0, num(int64(b.ProducerEpoch)), num(int64(e.ProducerEpoch)))
	default:
		want := nextSeq(e.LastSeq())
		res.Expected = want
		if b.BaseSequence != want {
			return appendResult{Code: OutOfOrderSequenceNumber, Expected: want,
				Rule: w.because(RuleSeqOutOfOrder, saysSameEpochBaseIsNot, num(int64(b.BaseSequence)), num(int64(e.LastSeq())))}
		}
		if e.LastSeq() == NoSequence {
			res.Rule = w.because(RuleSeqInOrder, saysSameEpochNothingCachedBase)
		} else {
			res.Rule = typedRule(RuleSeqInOrder, ruleSaySameBase, e.LastSeq())
		}
	}
	// Rows 9 and 10: transaction consistency (appendDataBatch).
	if e.CurrentTxnFirstOffset >= 0 && !b.Transactional {
		return appendResult{Code: InvalidTxnState, Expected: res.Expected,
			Rule: notTransactional(b.ProducerID)}
	}
	return w.appendBatch(p, b, res)
}

func seqRange(a, b int32) string {
	if a == b {
		return strconv.Itoa(int(a))
	}
	return strconv.Itoa(int(a)) + ".." + strconv.Itoa(int(b))
}

// appendBatch assigns offsets and updates producer state for an accepted
// data batch (client origin after validation, or coordinator origin).
func (w *World) appendBatch(p *PartitionLog, b Batch, res appendResult) appendResult {
	w.changes.partition(p)
	b.BaseOffset = p.LEO
	b.AppendTime = w.now
	w.checkAppendInvariants(p, &b)
	p.Batches = append(p.Batches, b)
	p.LEO += int64(b.Count)
	w.outputsAppended(p, &b)
	res.Code = None
	res.BaseOffset = b.BaseOffset
	if b.ProducerID >= 0 {
		e, known := p.Producers[b.ProducerID]
		if !known {
			e = ProducerStateEntry{ProducerID: b.ProducerID, ProducerEpoch: NoProducerEpoch, CoordinatorEpoch: -1, CurrentTxnFirstOffset: -1}
		}
		if !res.keepEpoch { // else the stored epoch and its cache stay
			if e.ProducerEpoch != b.ProducerEpoch {
				e.NumCached = 0
				e.ProducerEpoch = b.ProducerEpoch
			}
			if b.BaseSequence != NoSequence {
				e.push(BatchMetadata{FirstSeq: b.BaseSequence, LastSeq: b.LastSequence(), FirstOffset: b.BaseOffset, LastOffset: b.LastOffset(), Timestamp: w.now})
			}
		}
		e.LastTimestamp = w.now
		if b.Transactional {
			// Either the transaction now has a first offset or it is
			// complete: the verification entry has done its job
			// (UnifiedLog.updateProducers).
			delete(p.Verifying, b.ProducerID)
		}
		if b.Transactional && e.CurrentTxnFirstOffset < 0 {
			e.CurrentTxnFirstOffset = b.BaseOffset
			e.CurrentTxn = b.Txn
			p.Ongoing = append(p.Ongoing, TxnRange{ProducerID: b.ProducerID, FirstOffset: b.BaseOffset, MarkerOffset: -1, Txn: b.Txn})
			res.Rule = res.Rule.and(because(RuleTxnFirstOffset, saysFirstTransactionalBatchHereThe, num(b.BaseOffset)))
		}
		p.Producers[b.ProducerID] = e
	}
	return res
}

// appendMarker validates and appends a transaction marker (ref 2.7).
// txn is the bookkeeping id of the client transaction the marker decides
// (0 when unknown); only the invariants read it. late reports Kafka's
// HazardLateTxnMarker (the marker closed a later transaction than txn).
func (w *World) appendMarker(p *PartitionLog, pid int64, epoch int16, coordEpoch int32, result MarkerType, txn int64, version int8, tv2Txn bool) (code ErrorCode, rule Rule, late bool) {
	e, known := p.Producers[pid]
	if !known {
		e = ProducerStateEntry{ProducerID: pid, ProducerEpoch: NoProducerEpoch, CoordinatorEpoch: -1, CurrentTxnFirstOffset: -1}
	}
	code, reason, why := markerEpochCheck(e, epoch, version)
	if code != None {
		return code, Rule{Reason: reason}.withDetail(why), false
	}
	if coordEpoch < e.CoordinatorEpoch {
		return TransactionCoordinatorFenced, because(RuleMarkerCoordinatorFenced, saysMarkerCoordinatorepochStored, num(int64(coordEpoch)), num(int64(e.CoordinatorEpoch))), false
	}
	off := p.LEO
	mb := Batch{BaseOffset: off, ProducerID: pid, ProducerEpoch: epoch, BaseSequence: NoSequence, Count: 1,
		Transactional: true, Control: true, Marker: result, CoordinatorEpoch: coordEpoch, AppendTime: w.now}
	accepted := markerAccepted{epochs: why, coordEpoch: coordEpoch, stored: e.CoordinatorEpoch, pid: pid, first: -1}
	if e.CurrentTxnFirstOffset >= 0 {
		accepted.first, accepted.marker, accepted.abort = e.CurrentTxnFirstOffset, off, result == MarkerAbort
		first := e.CurrentTxnFirstOffset
		late = w.checkMarkerInvariants(p, &e, markerDataEpoch(epoch, tv2Txn), result, txn)
		if result == MarkerCommit {
			w.outputsCommitted(p, pid, first)
		}
		p.removeOngoing(pid, first)
		p.Unreplicated = append(p.Unreplicated, TxnRange{ProducerID: pid, FirstOffset: first, MarkerOffset: off, Txn: e.CurrentTxn})
		if result == MarkerAbort {
			lso := off + 1
			if len(p.Ongoing) > 0 && p.Ongoing[0].FirstOffset < lso {
				lso = p.Ongoing[0].FirstOffset // the earliest other open transaction
			}
			p.Aborted = append(p.Aborted, AbortedTxn{ProducerID: pid, FirstOffset: first, LastOffset: off, LastStableOffset: lso})
		}
	}
	if e.ProducerEpoch != epoch {
		e.NumCached = 0
		e.ProducerEpoch = epoch
		accepted.cleared = true
	}
	e.CoordinatorEpoch = coordEpoch
	e.CurrentTxnFirstOffset = -1
	e.CurrentTxn = 0
	e.LastTimestamp = w.now
	w.changes.partition(p)
	p.Producers[pid] = e
	delete(p.Verifying, pid)
	p.Batches = append(p.Batches, mb)
	p.LEO++
	return None, because(reason, saysArg, accepted), late
}

// removeOngoing removes a producer's open transaction, which starts at
// first, from Ongoing: found by its first offset (Ongoing is in that
// order) and removed in place (Clone copies Ongoing, so no snapshot shares
// it).
func (p *PartitionLog) removeOngoing(pid, first int64) {
	i := sort.Search(len(p.Ongoing), func(i int) bool { return p.Ongoing[i].FirstOffset >= first })
	for ; i < len(p.Ongoing) && p.Ongoing[i].FirstOffset == first; i++ {
		if p.Ongoing[i].ProducerID == pid {
			p.Ongoing = removeOrdered(p.Ongoing, i)
			return
		}
	}
}

// afterAppend (called once the decision is narrated) advances the high watermark at once when no follower is alive
// to wait for (rf=1), or schedules the followers' fetch.
func (w *World) afterAppend(p *PartitionLog) {
	w.markDirty(p.TP)
	if w.aliveFollowers(p) == 0 {
		w.advanceHW(p, p.LEO)
		return
	}
	if !w.hasTimer(TimerReplicate, brokerAddr(p.Leader), p.TP) {
		w.setTimer(w.config.LatencyMs, Timer{Kind: TimerReplicate, Owner: brokerAddr(p.Leader), ID: p.LEO, TP: p.TP})
	}
}

func (w *World) aliveFollowers(p *PartitionLog) int {
	n := 0
	for _, r := range p.Replicas {
		if r != p.Leader && w.brokerAlive(r) {
			n++
		}
	}
	return n
}

// onReplicate is the followers' fetch: the high watermark moves to what they
// have copied.
func (w *World) onReplicate(t Timer) {
	p := w.partitions[t.TP]
	if p == nil {
		return
	}
	upto := t.ID
	if upto > p.LEO {
		upto = p.LEO
	}
	w.advanceHW(p, upto)
	if p.LEO > p.HW && w.aliveFollowers(p) > 0 {
		w.setTimer(w.config.LatencyMs, Timer{Kind: TimerReplicate, Owner: brokerAddr(p.Leader), ID: p.LEO, TP: p.TP})
	}
}

func (w *World) advanceHW(p *PartitionLog, hw int64) {
	if hw <= p.HW {
		return
	}
	w.changes.partition(p)
	oldLSO := p.LastStableOffset()
	old := p.HW
	p.HW = hw
	kept := p.Unreplicated[:0:0]
	for _, t := range p.Unreplicated {
		if t.MarkerOffset >= p.HW {
			kept = append(kept, t)
		}
	}
	p.Unreplicated = kept
	if !p.IsInternal() {
		e := w.emitTyped(EvWatermark, brokerAddr(p.Leader), sayWatermark).on(p.TP)
		e.x, e.arg, e.y, e.z = int32(old), hw, int32(oldLSO), int32(p.LastStableOffset())
	}
	w.markDirty(p.TP)
	if len(w.held) > 0 {
		w.releaseHeld()
	}
}

// read returns the batches a fetch from offset sees: below the LSO for
// read_committed, below the high watermark otherwise, with the aborted
// transactions that overlap them (ref 4.4).
func (p *PartitionLog) read(from int64, readCommitted bool, max int) ([]Batch, []AbortedTxn, int64) {
	bound := p.HW
	if readCommitted {
		bound = p.LastStableOffset()
	}
	return p.readTo(from, bound, readCommitted, max)
}

// readTo is read with the bound given: the teaching switch eoslab.lso=false
// reads a read_committed fetch up to the high watermark.
func (p *PartitionLog) readTo(from, bound int64, readCommitted bool, max int) ([]Batch, []AbortedTxn, int64) {
	i := sort.Search(len(p.Batches), func(i int) bool { return p.Batches[i].NextOffset() > from })
	j := i
	for j < len(p.Batches) && p.Batches[j].BaseOffset < bound && j-i < max {
		j++
	}
	batches := p.Batches[i:j:j]
	var aborted []AbortedTxn
	if readCommitted && j > i {
		upper := p.Batches[j-1].NextOffset()
		for _, a := range p.Aborted {
			if a.LastOffset >= from && a.FirstOffset < upper {
				aborted = append(aborted, a)
			}
		}
	}
	return batches, aborted, bound
}

// truncateTo cuts the log back to an offset (a new leader without the
// unreplicated tail) and rebuilds the producer state by replaying the log,
// as a follower's replay would.
func (w *World) truncateTo(p *PartitionLog, off int64) {
	w.changes.partition(p)
	i := sort.Search(len(p.Batches), func(i int) bool { return p.Batches[i].NextOffset() > off })
	lost := p.LEO - off
	reopened := w.outputsTruncated(p, i)
	p.Batches = p.Batches[:i:i]
	p.LEO = off
	if p.HW > off {
		p.HW = off
	}
	p.Producers = map[int64]ProducerStateEntry{}
	p.Ongoing, p.Unreplicated, p.Verifying = nil, nil, nil
	var aborted []AbortedTxn
	for _, a := range p.Aborted {
		if a.LastOffset < off {
			aborted = append(aborted, a)
		}
	}
	p.Aborted = aborted
	for k := range p.Batches {
		b := &p.Batches[k]
		if b.ProducerID < 0 {
			continue
		}
		e, ok := p.Producers[b.ProducerID]
		if !ok {
			e = ProducerStateEntry{ProducerID: b.ProducerID, ProducerEpoch: NoProducerEpoch, CoordinatorEpoch: -1, CurrentTxnFirstOffset: -1}
		}
		if e.ProducerEpoch != b.ProducerEpoch {
			e.NumCached = 0
			e.ProducerEpoch = b.ProducerEpoch
		}
		if b.Control {
			if e.CurrentTxnFirstOffset >= 0 {
				p.removeOngoing(b.ProducerID, e.CurrentTxnFirstOffset)
			}
			e.CoordinatorEpoch = b.CoordinatorEpoch
			e.CurrentTxnFirstOffset = -1
			e.CurrentTxn = 0
		} else {
			if b.BaseSequence != NoSequence {
				e.push(BatchMetadata{FirstSeq: b.BaseSequence, LastSeq: b.LastSequence(), FirstOffset: b.BaseOffset, LastOffset: b.LastOffset(), Timestamp: b.AppendTime})
			}
			if b.Transactional && e.CurrentTxnFirstOffset < 0 {
				e.CurrentTxnFirstOffset = b.BaseOffset
				e.CurrentTxn = b.Txn
				p.Ongoing = append(p.Ongoing, TxnRange{ProducerID: b.ProducerID, FirstOffset: b.BaseOffset, MarkerOffset: -1, Txn: b.Txn})
			}
		}
		e.LastTimestamp = b.AppendTime
		p.Producers[b.ProducerID] = e
	}
	w.outputsReopened(p, reopened)
	if lost > 0 {
		w.emit(EvFault, brokerAddr(p.Leader), saysNewLeaderTruncatesToThe, p.TP, num(lost)).fault(FaultTruncate).on(p.TP)
	}
	w.markDirty(p.TP)
}

// expireProducers drops producer state without an open transaction that has
// been idle for producer.id.expiration.ms (ref 2.1).
func (w *World) expireProducers(p *PartitionLog) {
	var ids []int64
	for pid, e := range p.Producers {
		if e.CurrentTxnFirstOffset < 0 && w.now-e.LastTimestamp >= w.config.ProducerIDExpirationMs {
			ids = append(ids, pid)
		}
	}
	slices.Sort(ids)
	for _, pid := range ids {
		w.changes.partition(p)
		epoch := p.Producers[pid].ProducerEpoch
		delete(p.Producers, pid)
		w.emit(EvInfo, brokerAddr(p.Leader), saysProducerStateForPidExpired, p.TP, num(pid)).on(p.TP).producer(pid, epoch)
	}
	// Verification entries expire on the same timer (removeExpiredProducers).
	for pid, v := range p.Verifying {
		if w.now-v.Timestamp >= w.config.ProducerIDExpirationMs {
			delete(p.Verifying, pid)
		}
	}
}

// notTransactional is the rule that refuses a non-transactional batch from
// a pid with an open transaction on the partition.
func notTransactional(pid int64) Rule {
	return because(RuleTxnNotTransactional, saysPidHasAnOpenTransaction, num(pid))
}

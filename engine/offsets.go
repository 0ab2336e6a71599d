package engine

import "sort"

// The offsets-atomic invariant (consumed offsets commit atomically with the
// outputs) asks, when a group's committed offset moves over some input
// records, how many committed outputs each of them has. Rescanning the
// output topic for that on every commit made a consume-transform-produce
// run quadratic, so the answer is kept up to date as the logs change:
//
//   - an output record counts once it is committed: when it is appended
//     outside a transaction, or when a COMMIT marker of its producer closes
//     its transaction on that partition;
//   - a new leader's truncation takes back what it removed, and reopens the
//     transactions whose marker it removed;
//   - outputs of the transaction whose COMMIT makes the offsets final are
//     still open on partitions whose marker has not landed yet (markers go
//     to the partitions concurrently, ref 3.7); they are counted at the
//     check, from that transaction's own span of the log.
//
// The counts are persistent vectors (pvec), so a snapshot shares them.

// outputKey names the counts of one output topic's records made from one
// input partition.
type outputKey struct {
	Topic string
	In    TP
}

// hasSources reports whether a data batch carries processor outputs (all
// records of a batch made by a processor do).
func hasSources(b *Batch) bool {
	return !b.Control && b.Records.HasSources()
}

// countOutputs adds d to the committed-output count of every input record
// that a batch on the topic was made from.
func (w *World) countOutputs(topic string, b *Batch, d int32) {
	if w.outputs == nil {
		w.outputs = map[outputKey]pvec[int32]{}
	}
	for i := 0; i < b.Records.Len(); i++ {
		src := b.Records.Source(i)
		k := outputKey{Topic: topic, In: src.TP}
		v := w.outputs[k]
		w.outputs[k] = v.set(src.Offset, v.get(src.Offset)+d)
	}
}

// outputsAppended counts a data batch appended outside any transaction:
// it is visible, hence committed, at once.
func (w *World) outputsAppended(p *PartitionLog, b *Batch) {
	if w.config.CheckInvariants && !b.Transactional && hasSources(b) {
		w.countOutputs(p.TP.Topic, b, 1)
	}
}

// outputsCommitted counts the outputs of the transaction a COMMIT marker is
// about to close on p: the producer's batches from the transaction's first
// offset on (there is no marker of this producer after that offset).
func (w *World) outputsCommitted(p *PartitionLog, pid, first int64) {
	if !w.config.CheckInvariants {
		return
	}
	for i := p.batchIndex(first); i < len(p.Batches); i++ {
		if b := &p.Batches[i]; b.ProducerID == pid && b.Transactional && hasSources(b) {
			w.countOutputs(p.TP.Topic, b, 1)
		}
	}
}

// batchIndex is the index of the first batch at or after an offset.
func (p *PartitionLog) batchIndex(offset int64) int {
	return sort.Search(len(p.Batches), func(i int) bool { return p.Batches[i].BaseOffset >= offset })
}

// outputsTruncated takes back the counts of the batches from index cut on,
// which a truncation is about to remove. It returns the producers whose
// earliest removed marker was a COMMIT: their transaction on p is open
// again, and outputsReopened takes its outputs back once the producer
// state is rebuilt.
func (w *World) outputsTruncated(p *PartitionLog, cut int) map[int64]bool {
	if !w.config.CheckInvariants {
		return nil
	}
	// Walk back from the end, remembering each producer's next marker.
	next := map[int64]MarkerType{}
	for i := len(p.Batches) - 1; i >= cut; i-- {
		b := &p.Batches[i]
		if b.Control {
			next[b.ProducerID] = b.Marker
			continue
		}
		if !hasSources(b) {
			continue
		}
		if m, ok := next[b.ProducerID]; !b.Transactional || ok && m == MarkerCommit {
			w.countOutputs(p.TP.Topic, b, -1)
		}
	}
	var reopened map[int64]bool
	for pid, m := range next {
		if m == MarkerCommit {
			if reopened == nil {
				reopened = map[int64]bool{}
			}
			reopened[pid] = true
		}
	}
	return reopened
}

// outputsReopened takes back the outputs of transactions that a
// truncation reopened (their COMMIT marker was removed).
func (w *World) outputsReopened(p *PartitionLog, reopened map[int64]bool) {
	for _, t := range p.Ongoing {
		if !reopened[t.ProducerID] {
			continue
		}
		for i := p.batchIndex(t.FirstOffset); i < len(p.Batches); i++ {
			if b := &p.Batches[i]; b.ProducerID == t.ProducerID && b.Transactional && hasSources(b) {
				w.countOutputs(p.TP.Topic, b, -1)
			}
		}
	}
}

// openOutputs counts, per input offset of in, the outputs on the topic that
// producer pid wrote in its transaction still open there: the transaction
// whose COMMIT is being applied, whose markers have not all landed.
func (w *World) openOutputs(topic string, in TP, pid int64) map[int64]int32 {
	t, ok := w.Topic(topic)
	if !ok {
		return nil
	}
	var open map[int64]int32
	for k := int32(0); k < t.Partitions; k++ {
		op := w.partitions[TP{Topic: topic, Partition: k}]
		if op == nil {
			continue
		}
		e, ok := op.Producers[pid]
		if !ok || e.CurrentTxnFirstOffset < 0 {
			continue
		}
		for i := op.batchIndex(e.CurrentTxnFirstOffset); i < len(op.Batches); i++ {
			b := &op.Batches[i]
			if b.ProducerID != pid || !b.Transactional || !hasSources(b) {
				continue
			}
			for k := 0; k < b.Records.Len(); k++ {
				if src := b.Records.Source(k); src.TP == in {
					if open == nil {
						open = map[int64]int32{}
					}
					open[src.Offset]++
				}
			}
		}
	}
	return open
}

// checkOffsetsAtomic: when a group's committed offset on an input partition
// moves from prev to next, every input record in between must have exactly
// one committed output (found through the outputs' Source).
//
// pid is the producer whose COMMIT marker made the offsets final (-1 for a
// plain OffsetCommit): its outputs that are still open are committed by the
// same decision, their own markers simply have not landed yet (markers go
// to the partitions concurrently, ref 3.7).
//
// The cost is that of the input range and of pid's open transaction, not of
// the history: committed outputs are counted as they commit (see above).
func (w *World) checkOffsetsAtomic(group string, in TP, prev, next, pid int64) {
	if !w.config.CheckInvariants || next <= prev {
		return
	}
	var pr *Processor
	for _, x := range w.processors {
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
	src := w.partitions[in]
	if src == nil {
		return
	}
	committed := w.outputs[outputKey{Topic: pr.Output, In: in}]
	var open map[int64]int32
	if pid >= 0 {
		open = w.openOutputs(pr.Output, in, pid)
	}
	for i := sort.Search(len(src.Batches), func(i int) bool { return src.Batches[i].NextOffset() > prev }); i < len(src.Batches); i++ {
		b := &src.Batches[i]
		if b.BaseOffset >= next {
			break
		}
		if b.Control {
			continue
		}
		if b.Transactional && src.Status(b) != StatusCommitted {
			continue
		}
		for k := 0; k < b.Records.Len(); k++ {
			off := b.BaseOffset + int64(k)
			if off < prev || off >= next {
				continue
			}
			n := committed.get(off) + open[off]
			if n == 1 {
				continue
			}
			text := sub(saysInputHasCommittedOutputs, in, num(off), num(n))
			if n == 0 {
				text = sub(saysOffsetCommittedOutputNot, in, num(next), in, num(off))
			}
			v := NoneViolation(InvOffsetsAtomic, text)
			v.TP, v.Offset, v.Group, v.ProducerID, v.UID = in, off, group, pid, b.Records.UID(k)
			w.violateWith(v, "group("+group+")")
			return
		}
	}
}

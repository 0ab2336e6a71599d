package adapt

import (
	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/views/model"
)

// rowWindow is the log rows of a partition as the last frame built showed
// them: the frame's position, the index of the batch of rows[0], and the
// identity of the last batch, by which the next frame tells that the log
// still holds what the window showed.
type rowWindow struct {
	pos, from int
	rows      []model.LogRow
	last      batchID
	changed   bool // a row of rows is Changed
}

// logRows is the log rows of partition p from batch from on, at position
// pos, where the step to pos started at log end offset prevLEO. A row is
// new if it lies at or past prevLEO; an older transactional row changed if
// the marker that decided it is new.
//
// Stepping forward, the frame of pos-1 was built just before: its rows are
// those of pos with the step's batches appended and the transactions the
// step decided marked (rowsAfter), which costs the step's batches, not the
// window's. Anything else (a jump, a step back, a log that a new leader
// truncated) builds every row.
func (s *Session) logRows(p *engine.PartitionLog, pos, from int, prevLEO int64) []model.LogRow {
	rows, ok := s.rowsAfter(p, pos, from, prevLEO)
	if !ok {
		rows = make([]model.LogRow, len(p.Batches)-from)
		s.allRows(p, from, from, prevLEO, rows)
	}
	w := &rowWindow{pos: pos, from: from, rows: rows}
	for i := range rows {
		if rows[i].Changed {
			w.changed = true
			break
		}
	}
	if n := len(p.Batches); n > 0 {
		w.last = idOf(&p.Batches[n-1])
	}
	s.windows[p.TP] = w
	return rows
}

// rowsAfter is logRows from the window of position pos-1, if that is the
// last one built and the log still holds its batches.
func (s *Session) rowsAfter(p *engine.PartitionLog, pos, from int, prevLEO int64) ([]model.LogRow, bool) {
	w := s.windows[p.TP]
	if w == nil || pos == 0 || w.pos != pos-1 {
		return nil, false
	}
	n, seen := len(p.Batches), w.from+len(w.rows)
	// A log only grows at its end, except when a new leader truncates it,
	// which removes the window's last batch (engine.World.truncateTo).
	if seen == 0 || n < seen || from < w.from || from > seen || idOf(&p.Batches[seen-1]) != w.last {
		return nil, false
	}
	// A partition the step did not write to, after a step that marked
	// none of its rows, shows the rows it showed: the two frames share
	// them (nothing changes a frame's rows once built).
	if n == seen && from == w.from && !w.changed {
		return w.rows[:len(w.rows):len(w.rows)], true
	}
	out := make([]model.LogRow, n-from)
	copy(out, w.rows[from-w.from:])
	// The step's batches, and the first marker of each producer among
	// them: the one that decides that producer's open rows above.
	next := s.allRows(p, from, seen, prevLEO, out)
	for i := range out[:seen-from] {
		r := &out[i]
		// Rows the last step made or decided are not new any more; an
		// open row may be decided by a marker of this step.
		r.Changed = false
		if r.Status != model.StatusOpen {
			continue
		}
		if m := next.of(r.PID); m != nil {
			r.Status = model.StatusAborted
			if m.Marker == engine.MarkerCommit {
				r.Status = model.StatusCommitted
			}
			r.Changed = m.BaseOffset >= prevLEO
		}
	}
	return out, true
}

// allRows fills out[i-from] with the row of batch i, for i from start to
// the log's end, and returns the first marker of each producer among those
// batches. Walking backwards, next.of(pid) is the first marker of pid after
// the current batch: the one that decides its status, which is Status for
// every row in one pass.
func (s *Session) allRows(p *engine.PartitionLog, from, start int, prevLEO int64, out []model.LogRow) deciders {
	next := s.next[:0]
	cache := s.rows[p.TP]
	if cache == nil {
		cache = newRing[rowStatic](2 * maxRows)
		s.rows[p.TP] = cache
	}
	for i := len(p.Batches) - 1; i >= start; i-- {
		b := &p.Batches[i]
		r := &out[i-from]
		*r = staticRow(cache, i, b)
		r.Changed = b.BaseOffset >= prevLEO
		switch {
		case b.Control:
			r.Status = model.StatusAborted
			if b.Marker == engine.MarkerCommit {
				r.Status = model.StatusCommitted
			}
			next = next.set(b.ProducerID, b)
		case !b.Transactional:
			r.Status = model.StatusPlain
		default:
			r.Status = model.StatusOpen
			if m := next.of(b.ProducerID); m != nil {
				r.Status = model.StatusAborted
				if m.Marker == engine.MarkerCommit {
					r.Status = model.StatusCommitted
				}
				r.Changed = r.Changed || m.BaseOffset >= prevLEO
			}
		}
	}
	s.next = next[:0]
	return next
}

// deciders maps a producer id to the marker that decides its open rows.
// A partition has a few producers: a list read through is cheaper than a
// map made at every frame, and its array is kept for the next frame
// (Session.next).
type deciders []decider

type decider struct {
	pid int64
	m   *engine.Batch
}

func (d deciders) of(pid int64) *engine.Batch {
	for i := range d {
		if d[i].pid == pid {
			return d[i].m
		}
	}
	return nil
}

func (d deciders) set(pid int64, m *engine.Batch) deciders {
	for i := range d {
		if d[i].pid == pid {
			d[i].m = m
			return d
		}
	}
	return append(d, decider{pid, m})
}

// rowStatic is the part of a batch's log row that never changes once the
// batch is in the log (offsets, producer, sequences, values), kept per
// partition and batch index so that a frame does not format a thousand
// rows again. id checks that the batch at that index is still the same
// one: a log that is truncated and written again gets fresh rows.
type rowStatic struct {
	id  batchID
	row model.LogRow
}

type batchID struct {
	base, appendTime, pid int64
	seq, count            int32
	epoch                 int16
	control               bool
	marker                engine.MarkerType
}

func idOf(b *engine.Batch) batchID {
	return batchID{base: b.BaseOffset, appendTime: b.AppendTime, pid: b.ProducerID, seq: b.BaseSequence, count: b.Count,
		epoch: b.ProducerEpoch, control: b.Control, marker: b.Marker}
}

// staticRow is the unchanging part of the row of batch i of a partition
// whose cached rows are rows.
func staticRow(rows *ring[rowStatic], i int, b *engine.Batch) model.LogRow {
	if c, ok := rows.get(i); ok && c.id == idOf(b) {
		return c.row
	}
	r := model.LogRow{First: b.BaseOffset, Last: b.LastOffset(), PID: b.ProducerID, Epoch: b.ProducerEpoch, Seqs: b.Seqs()}
	switch {
	case !b.Control:
		r.Kind, r.Values = model.RowData, b.Values()
	case b.Marker == engine.MarkerCommit:
		r.Kind = model.RowCommit
	default:
		r.Kind = model.RowAbort
	}
	rows.put(i, rowStatic{id: idOf(b), row: r})
	return r
}

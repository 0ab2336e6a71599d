package verify

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// Lines neither side meets. A scenario that pins no protocol is written
// under the language's default transaction.version 1; verify plays it
// under the cluster's protocol, where some of its state lines name values
// of the other protocol (a marker's epoch, an offset one bump later).
// Neither the simulation nor Kafka then has the value the line writes,
// and what the line cannot tell, the values can: under this protocol the
// fact is the value each side has. The line is rewritten with the
// simulation's values for the fields it names, on the same subject
// (partition, offset, producer, id), and that line is judged on the
// broker by the same check: it holds there too -> the two agree on the
// value (both differ from the line as written); it does not -> they
// differ.

// valuedAs is e with the simulation's values in place of the ones the line
// writes, on the same subject and fields, and the values in words; ok is
// false where the simulation has no value of that fact to put there (no
// batch at the offset, no entry for the producer, a field no broker
// check reads).
func valuedAs(e script.Expectation, w *engine.World) (alt script.Expectation, shown string, ok bool) {
	some := func(v int64) script.Opt[int64] { return script.Opt[int64]{Set: true, V: v} }
	switch x := e.(type) {
	case script.PartitionCheck:
		tp := engine.TP{Topic: x.TP.Topic, Partition: x.TP.N}
		var n int64
		if x.Field == script.PartitionRecords {
			c, known := w.RecordCount(tp)
			if !known {
				return nil, "", false
			}
			n = c
		} else {
			p, known := w.PartitionInfo(tp)
			if !known {
				return nil, "", false
			}
			switch x.Field {
			case script.PartitionLEO:
				n = p.LogEndOffset
			case script.PartitionHW:
				n = p.HighWatermark
			case script.PartitionLSO:
				n = p.LastStableOffset
			default:
				n = p.LogStartOffset
			}
		}
		x.N = n
		return x, fmt.Sprintf("%s %s %d", x.TP, x.Field, n), true
	case script.BatchCheck:
		b, found, known := w.BatchAt(engine.TP{Topic: x.TP.Topic, Partition: x.TP.N}, x.Offset)
		if !known || !found || b.BaseOffset != x.Offset {
			return nil, "", false
		}
		var f []string
		if x.Marker.Set {
			if !b.Control {
				return nil, "", false
			}
			x.Marker.V = script.MarkerCommit
			if b.Marker == engine.MarkerAbort {
				x.Marker.V = script.MarkerAbort
			}
			f = append(f, "marker "+x.Marker.V.String())
		} else if b.Control {
			return nil, "", false
		}
		put(&x.PID, b.ProducerID, "pid", &f)
		put(&x.Epoch, int64(b.ProducerEpoch), "epoch", &f)
		if x.Seq.Set {
			x.Seq.V = script.SeqRange{First: b.BaseSequence, Last: b.LastSequence, Range: b.BaseSequence >= 0 && b.Count > 1}
			f = append(f, "seq="+b.Seqs())
		}
		put(&x.Count, int64(b.Count), "count", &f)
		if x.Txn.Set {
			x.Txn.V = b.Transactional
			f = append(f, fmt.Sprintf("txn=%v", b.Transactional))
		}
		if x.Status.Set {
			x.Status.V = b.Status.String()
			f = append(f, "status="+x.Status.V)
		}
		if x.Values != nil {
			x.Values = slices.Clone(b.Values)
			f = append(f, "values="+strings.Join(b.Values, ","))
		}
		put(&x.CoordinatorEpoch, int64(b.CoordinatorEpoch), "coordinatorEpoch", &f)
		return x, fmt.Sprintf("%s batch %d %s", x.TP, x.Offset, strings.Join(f, " ")), true
	case script.ProducerStateCheck:
		p, found, known := w.ProducerStateAt(engine.TP{Topic: x.TP.Topic, Partition: x.TP.N}, x.PID)
		if !known || !found {
			return nil, "", false
		}
		f := []string{fmt.Sprintf("%s producer %d", x.TP, x.PID)}
		put(&x.Epoch, int64(p.ProducerEpoch), "epoch", &f)
		put(&x.LastSeq, int64(p.LastSeq()), "lastseq", &f)
		if x.Cached.Set {
			x.Cached.V = int64(p.NumCached) // not compared on the broker: not shown
		}
		put(&x.TxnFirst, p.CurrentTxnFirstOffset, "txnfirst", &f)
		put(&x.CoordinatorEpoch, int64(p.CoordinatorEpoch), "coordinatorEpoch", &f)
		return x, strings.Join(f, " "), true
	case script.ProducerCheck:
		p, found := w.ProducerInfo(x.Name)
		if !found {
			return nil, "", false
		}
		switch x.Field {
		case script.ClientState:
			x.State = p.State.String()
			return x, "producer " + x.Name + " state " + x.State, true
		case script.ClientError:
			x.Error = errWord(p.LastError)
			return x, "producer " + x.Name + " error " + x.Error, true
		case script.ClientEpoch:
			x.N = int64(p.Epoch)
			return x, fmt.Sprintf("producer %s epoch %d", x.Name, x.N), true
		case script.ClientPID:
			x.N = p.ProducerID
			return x, fmt.Sprintf("producer %s pid %d", x.Name, x.N), true
		case script.ClientOffset:
			if !p.HasAcked {
				return nil, "", false
			}
			x.N = p.LastAcked.BaseOffset
			return x, fmt.Sprintf("producer %s offset %d", x.Name, x.N), true
		}
	case script.ConsumerCheck:
		c, found := w.ConsumerInfo(x.Name)
		if !found {
			return nil, "", false
		}
		switch x.Field {
		case script.ClientValues:
			x.Values = nil
			for _, r := range c.Received {
				x.Values = append(x.Values, r.Value)
			}
			return x, "consumer " + x.Name + " values " + orNone(strings.Join(x.Values, ",")), true
		case script.ClientOffsets:
			x.Offsets = nil
			var s []string
			for _, r := range c.Received {
				x.Offsets = append(x.Offsets, r.Offset)
				s = append(s, strconv.FormatInt(r.Offset, 10))
			}
			return x, "consumer " + x.Name + " offsets " + orNone(strings.Join(s, ",")), true
		case script.ClientPosition:
			pos, assigned := c.Position(engine.TP{Topic: x.TP.Topic, Partition: x.TP.N})
			if !assigned {
				return nil, "", false
			}
			x.N = pos
			return x, fmt.Sprintf("consumer %s position %s %d", x.Name, x.TP, pos), true
		case script.ClientError:
			x.Error = errWord(c.LastError)
			return x, "consumer " + x.Name + " error " + x.Error, true
		}
	case script.TxnCheck:
		t := w.TxnInfo(x.ID)
		if !t.Found {
			return nil, "", false
		}
		switch x.Field {
		case script.TxnStateField:
			x.State = t.Meta.State.String()
			return x, "txn " + x.ID + " state " + x.State, true
		case script.TxnEpoch:
			x.N = int64(t.Meta.ProducerEpoch)
			return x, fmt.Sprintf("txn %s epoch %d", x.ID, x.N), true
		case script.TxnPID:
			x.N = t.Meta.ProducerID
			return x, fmt.Sprintf("txn %s pid %d", x.ID, x.N), true
		case script.TxnPartitions:
			x.Partitions = nil
			var s []string
			for _, tp := range t.Meta.Partitions {
				x.Partitions = append(x.Partitions, script.Partition{Topic: tp.Topic, N: tp.Partition})
				s = append(s, tp.String())
			}
			return x, "txn " + x.ID + " partitions " + orNone(strings.Join(s, ",")), true
		}
	case script.GroupCheck:
		if x.Field != script.GroupOffset {
			return nil, "", false
		}
		g, found := w.GroupInfo(x.Group)
		if !found {
			return nil, "", false
		}
		x.N = script.Opt[int64]{}
		for _, c := range g.Committed {
			if c.TP == (engine.TP{Topic: x.TP.Topic, Partition: x.TP.N}) {
				x.N = some(c.Offset)
			}
		}
		shown := "none"
		if x.N.Set {
			shown = strconv.FormatInt(x.N.V, 10)
		}
		return x, fmt.Sprintf("group %s offset %s %s", x.Group, x.TP, shown), true
	case script.RequestsCheck:
		f := engine.RequestFilter{From: x.From, TxnID: x.TxnID}
		if x.Kind != "" {
			f.Kind, f.KindSet = engine.MsgKindByName(x.Kind)
		}
		x.N = int64(w.RequestCount(f))
		return x, fmt.Sprintf("requests %d", x.N), true
	case script.MarkersCheck:
		x.N = int64(w.MarkerCount(x.TxnID))
		return x, fmt.Sprintf("markers %d", x.N), true
	case script.ResponseCheck:
		m := script.ResponseOf(w, x)
		if m == nil {
			return nil, "", false
		}
		f, _ := m.ResponseFields()
		code := f.Code
		if x.Partition.Set {
			for _, r := range f.Results {
				if r.TP == (engine.TP{Topic: x.Partition.V.Topic, Partition: x.Partition.V.N}) {
					code = r.Code
				}
			}
		}
		shown := []string{m.Kind.String() + " to " + m.To}
		if x.Error.Set {
			x.Error.V = code.Name()
			shown = append(shown, "error="+code.Name())
		}
		put(&x.BaseOffset, f.BaseOffset, "baseOffset", &shown)
		put(&x.PID, f.ProducerID, "pid", &shown)
		put(&x.Epoch, int64(f.ProducerEpoch), "epoch", &shown)
		return x, strings.Join(shown, " "), true
	}
	return nil, "", false
}

// put sets an option the line gives to the simulation's value v and names
// it in shown.
func put(o *script.Opt[int64], v int64, name string, shown *[]string) {
	if o.Set {
		o.V = v
		*shown = append(*shown, fmt.Sprintf("%s=%d", name, v))
	}
}

// errWord is a client's last error as a line names it.
func errWord(code engine.ErrorCode) string {
	if code == engine.None {
		return "none"
	}
	return code.Name()
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// judgeNeither judges a state line neither side meets by the values each
// side has (valuedAs); it reports false, leaving the row as it is, where
// the values are not of one fact both sides can show.
//
// Only a line of the other protocol is judged so: one the simulation
// meets when it plays the file under the other protocol (underOther). A
// line neither meets under either protocol is no line of either: a wrong
// line stays not played, whatever the two sides show.
func (d *driver) judgeNeither(row *Row, c script.Command, fail *script.Failure, kafka string, w *engine.World) bool {
	_, tv, met := d.underOther(c.Line)
	if !met {
		return false
	}
	as := fmt.Sprintf("neither meets the line as written, which is transaction.version %d's (the simulation meets it there)", tv)
	if x, ok := c.Expect.(script.AbortedCheck); ok {
		return d.judgeNeitherAborted(row, x, fail, kafka, w, as)
	}
	if x, ok := c.Expect.(script.BatchCheck); ok {
		if _, found, known := w.BatchAt(engine.TP{Topic: x.TP.Topic, Partition: x.TP.N}, x.Offset); known && !found {
			return d.judgeNoBatch(row, x, fail, w, as)
		}
	}
	alt, shown, ok := valuedAs(c.Expect, w)
	if !ok {
		return false
	}
	// The rewritten line is the simulation's own fact: it must hold there.
	if holds, _, err := script.Check(w, script.Command{Expect: alt}); err != nil || !holds {
		return false
	}
	holds, fact, why := d.checkIn(alt, w)
	if why != "" {
		return false
	}
	if holds {
		row.Verdict, row.Why = Agree, ""
		row.Neither = fmt.Sprintf("%s: both have %s; Kafka: %s", as, shown, fact)
		return true
	}
	row.Verdict = Differ
	row.Sim = fmt.Sprintf("found %s (neither side has the line's value; the two differ on this one)", fail.Got)
	row.Kafka = fact
	return true
}

// judgeNoBatch: neither side has a batch at the line's offset.
func (d *driver) judgeNoBatch(row *Row, x script.BatchCheck, fail *script.Failure, w *engine.World, as string) bool {
	l, err := d.log(x.TP)
	if err != nil {
		return false
	}
	p, _ := w.PartitionInfo(engine.TP{Topic: x.TP.Topic, Partition: x.TP.N})
	for _, b := range l.Batches {
		if b.BaseOffset <= x.Offset && x.Offset < b.BaseOffset+int64(max(b.Records, 1)) {
			row.Verdict = Differ
			row.Sim = "found " + fail.Got
			row.Kafka = fmt.Sprintf("a batch at %d pid=%s epoch=%d seq=%d count=%d control=%v holds offset %d", b.BaseOffset, d.simPID(b.ProducerID), b.ProducerEpoch, b.BaseSequence, b.Records, b.Control, x.Offset)
			return true
		}
	}
	row.Verdict, row.Why = Agree, ""
	row.Neither = fmt.Sprintf("%s: neither log has a batch at offset %d (the simulation's %s log end offset %d, Kafka's high watermark %d)", as, x.Offset, x.TP, p.LogEndOffset, l.HighWatermark)
	return true
}

// judgeNeitherAborted: the line's aborted entry is in neither index; the
// fact is the index itself (pid, first and last offset of each aborted
// transaction; lso= is not compared, as on a line that is met).
func (d *driver) judgeNeitherAborted(row *Row, x script.AbortedCheck, fail *script.Failure, kafka string, w *engine.World, as string) bool {
	idx, known := w.AbortedIndex(engine.TP{Topic: x.TP.Topic, Partition: x.TP.N})
	if !known {
		return false
	}
	got, why := d.abortedIndex(x.TP)
	if why != "" {
		return false
	}
	var sim []string
	for _, a := range idx {
		sim = append(sim, fmt.Sprintf("pid=%d first=%d last=%d", a.ProducerID, a.FirstOffset, a.LastOffset))
	}
	if slices.Equal(sim, got) {
		row.Verdict, row.Why = Agree, ""
		row.Neither = fmt.Sprintf("%s: both have the aborted index %s: %s", as, x.TP, orNone(strings.Join(sim, "; ")))
		return true
	}
	row.Verdict = Differ
	row.Sim = "found " + fail.Got
	row.Kafka = kafka
	return true
}

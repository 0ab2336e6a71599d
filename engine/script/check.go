package script

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/eoslab/eoslab/engine"
)

// Evaluation of expectations. An expectation reads the world only through
// the engine's read-only accessors (engine/read.go), so judging a
// checkpoint never changes what it judges. Each check returns whether it
// holds and, when it does not, what was found instead; an error is for an
// expectation that cannot be evaluated at all (an unknown partition).

// Check evaluates a parsed expect command against w. It reads the event
// history from the newest event back; a Runner also keeps an index of it.
func Check(w *engine.World, c Command) (ok bool, found string, err error) {
	k := checker{w: w}
	return k.check(c.Expect)
}

// checker evaluates expectations against one world.
type checker struct {
	w   *engine.World
	idx *eventIndex // nil: read the history without an index
}

func (k *checker) check(e Expectation) (bool, string, error) {
	switch x := e.(type) {
	case PartitionCheck:
		return k.partition(x)
	case BatchCheck:
		return k.batch(x)
	case AbortedCheck:
		return k.aborted(x)
	case ProducerStateCheck:
		return k.producerState(x)
	case ProducerCheck:
		return k.producer(x)
	case ConsumerCheck:
		return k.consumer(x)
	case TxnCheck:
		return k.txn(x)
	case TxnLogCheck:
		return k.txnLog(x)
	case GroupCheck:
		return k.group(x)
	case RequestsCheck:
		f := engine.RequestFilter{From: x.From, TxnID: x.TxnID}
		if x.Kind != "" {
			f.Kind, f.KindSet = engine.MsgKindByName(x.Kind)
		}
		return eqInt(int64(k.w.RequestCount(f)), x.N)
	case MarkersCheck:
		return eqInt(int64(k.w.MarkerCount(x.TxnID)), x.N)
	case ViolationCheck:
		return k.violation(x)
	case EventCheck:
		return k.event(x)
	case ResponseCheck:
		return k.response(x)
	}
	return false, "", errors.New("not an expectation")
}

func engineTP(p Partition) engine.TP { return engine.TP{Topic: p.Topic, Partition: p.N} }

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

// eq compares a value with the expected one; found is the value.
func eq[T comparable](got, want T, shown string) (bool, string, error) {
	return got == want, shown, nil
}

func eqInt(got, want int64) (bool, string, error) { return eq(got, want, itoa64(got)) }

func orNoneText(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func unknownPartition(p Partition) error { return fmt.Errorf("unknown partition %s", p) }

func (k *checker) partition(x PartitionCheck) (bool, string, error) {
	tp := engineTP(x.TP)
	if x.Field == PartitionRecords {
		n, ok := k.w.RecordCount(tp)
		if !ok {
			return false, "", unknownPartition(x.TP)
		}
		return eqInt(n, x.N)
	}
	p, ok := k.w.PartitionInfo(tp)
	if !ok {
		return false, "", unknownPartition(x.TP)
	}
	switch x.Field {
	case PartitionLEO:
		return eqInt(p.LogEndOffset, x.N)
	case PartitionHW:
		return eqInt(p.HighWatermark, x.N)
	case PartitionLSO:
		return eqInt(p.LastStableOffset, x.N)
	}
	return eqInt(p.LogStartOffset, x.N)
}

// batchKeys are a batch's fields as expectations and the JSON state name
// them; a marker has coordinatorEpoch where a data batch has values.
var (
	dataBatchKeys   = []string{"kind", "offset", "pid", "epoch", "seq", "count", "txn", "status", "values"}
	markerBatchKeys = []string{"kind", "offset", "pid", "epoch", "seq", "count", "txn", "status", "coordinatorEpoch"}
)

// describeBatch is a batch as fields: what a failed batch check found.
func describeBatch(b engine.BatchInfo) string {
	kind, last := "data", "values="+strings.Join(b.Values, ",")
	if b.Control {
		kind, last = b.Marker.String(), "coordinatorEpoch="+itoa64(int64(b.CoordinatorEpoch))
	}
	return "kind=" + kind + " offset=" + itoa64(b.BaseOffset) + " pid=" + itoa64(b.ProducerID) + " epoch=" + itoa64(int64(b.ProducerEpoch)) +
		" seq=" + b.Seqs() + " count=" + itoa64(int64(b.Count)) + " txn=" + yesNo(b.Transactional) + " status=" + b.Status.String() + " " + last
}

func (k *checker) batch(x BatchCheck) (bool, string, error) {
	tp := engineTP(x.TP)
	b, ok, known := k.w.BatchAt(tp, x.Offset)
	if !known {
		return false, "", unknownPartition(x.TP)
	}
	if !ok {
		p, _ := k.w.PartitionInfo(tp)
		return false, "no batch at offset " + itoa64(x.Offset) + " (LEO " + itoa64(p.LogEndOffset) + ")", nil
	}
	found := describeBatch(b)
	if x.Values != nil && b.Control {
		return false, "", fmt.Errorf("unknown field %q (fields: %s)", "values", strings.Join(markerBatchKeys, ", "))
	}
	holds := true
	if x.Marker.Set {
		want := engine.MarkerCommit
		if x.Marker.V == MarkerAbort {
			want = engine.MarkerAbort
		}
		holds = b.Control && b.Marker == want
	}
	if holds && x.CoordinatorEpoch.Set && !b.Control {
		return false, "", fmt.Errorf("unknown field %q (fields: %s)", "coordinatorEpoch", strings.Join(dataBatchKeys, ", "))
	}
	holds = holds && optEq(x.PID, b.ProducerID) && optEq(x.Epoch, int64(b.ProducerEpoch)) && optEq(x.Count, int64(b.Count)) &&
		(!x.Seq.Set || x.Seq.V.String() == b.Seqs()) && optEq(x.Txn, b.Transactional) && optEq(x.Status, b.Status.String()) &&
		(x.Values == nil || slices.Equal(x.Values, b.Values)) && optEq(x.CoordinatorEpoch, int64(b.CoordinatorEpoch))
	return holds, found, nil
}

// optEq holds when the option was not given or equals got.
func optEq[T comparable](o Opt[T], got T) bool { return !o.Set || o.V == got }

func describeAborted(a engine.AbortedTxn) string {
	return "pid=" + itoa64(a.ProducerID) + " first=" + itoa64(a.FirstOffset) + " last=" + itoa64(a.LastOffset) + " lso=" + itoa64(a.LastStableOffset)
}

func (k *checker) aborted(x AbortedCheck) (bool, string, error) {
	index, ok := k.w.AbortedIndex(engineTP(x.TP))
	if !ok {
		return false, "", unknownPartition(x.TP)
	}
	var s []string
	for _, a := range index {
		if a.ProducerID == x.PID && a.FirstOffset == x.First && a.LastOffset == x.Last && optEq(x.LSO, a.LastStableOffset) {
			return true, "", nil
		}
		s = append(s, describeAborted(a))
	}
	return false, "aborted index: " + orNoneText(strings.Join(s, "; ")), nil
}

func (k *checker) producerState(x ProducerStateCheck) (bool, string, error) {
	e, ok, known := k.w.ProducerStateAt(engineTP(x.TP), x.PID)
	if !known {
		return false, "", unknownPartition(x.TP)
	}
	if !ok {
		return false, "no producer state for pid " + itoa64(x.PID), nil
	}
	found := "epoch=" + itoa64(int64(e.ProducerEpoch)) + " lastseq=" + itoa64(int64(e.LastSeq())) + " cached=" + strconv.Itoa(e.NumCached) +
		" txnfirst=" + itoa64(e.CurrentTxnFirstOffset) + " coordinatorEpoch=" + itoa64(int64(e.CoordinatorEpoch))
	holds := optEq(x.Epoch, int64(e.ProducerEpoch)) && optEq(x.LastSeq, int64(e.LastSeq())) && optEq(x.Cached, int64(e.NumCached)) &&
		optEq(x.TxnFirst, e.CurrentTxnFirstOffset) && optEq(x.CoordinatorEpoch, int64(e.CoordinatorEpoch))
	return holds, found, nil
}

// clientErrorName is a client's last error as checks name it.
func clientErrorName(code engine.ErrorCode) string {
	if code == engine.None {
		return "none"
	}
	return code.Name()
}

func (k *checker) producer(x ProducerCheck) (bool, string, error) {
	p, ok := k.w.ProducerInfo(x.Name)
	if !ok {
		return false, "", fmt.Errorf("unknown producer %q", x.Name)
	}
	switch x.Field {
	case ClientState:
		return eq(p.State.String(), x.State, p.State.String())
	case ClientError:
		got := clientErrorName(p.LastError)
		return eq(got, x.Error, got)
	case ClientPID:
		return eqInt(p.ProducerID, x.N)
	case ClientEpoch:
		return eqInt(int64(p.Epoch), x.N)
	case ClientIdempotent:
		return eq(p.Idempotent, x.Bool, strconv.FormatBool(p.Idempotent))
	case ClientNextSeq:
		return eqInt(int64(p.NextSeq(engineTP(x.TP))), x.N)
	case ClientOffset:
		if !p.HasAcked {
			return false, "nothing acknowledged", nil
		}
		return eqInt(p.LastAcked.BaseOffset, x.N)
	}
	return false, "", fmt.Errorf("unknown producer field %q", x.Field)
}

func (k *checker) consumer(x ConsumerCheck) (bool, string, error) {
	c, ok := k.w.ConsumerInfo(x.Name)
	if !ok {
		return false, "", fmt.Errorf("unknown consumer %q", x.Name)
	}
	switch x.Field {
	case ClientValues:
		got := make([]string, len(c.Received))
		for i, r := range c.Received {
			got[i] = r.Value
		}
		return slices.Equal(got, x.Values), orNoneText(strings.Join(got, ",")), nil
	case ClientOffsets:
		got := make([]int64, len(c.Received))
		for i, r := range c.Received {
			got[i] = r.Offset
		}
		return slices.Equal(got, x.Offsets), orNoneText(joinInts(got)), nil
	case ClientPosition:
		pos, ok := c.Position(engineTP(x.TP))
		if !ok {
			return false, "not assigned", nil
		}
		return eqInt(pos, x.N)
	case ClientError:
		got := clientErrorName(c.LastError)
		return eq(got, x.Error, got)
	}
	return false, "", fmt.Errorf("unknown consumer field %q", x.Field)
}

func (k *checker) txn(x TxnCheck) (bool, string, error) {
	t := k.w.TxnInfo(x.ID)
	if x.Field == TxnCoordinator {
		got := t.Coordinator.String()
		return eq(got, x.Coordinator.String(), got)
	}
	if !t.Found {
		if t.Loading {
			return false, "coordinator is loading", nil
		}
		return false, "no metadata for " + x.ID, nil
	}
	m := t.Meta
	switch x.Field {
	case TxnStateField:
		return eq(m.State.String(), x.State, m.State.String())
	case TxnEpoch:
		return eqInt(int64(m.ProducerEpoch), x.N)
	case TxnPID:
		return eqInt(m.ProducerID, x.N)
	case TxnLastProducerEpoch:
		return eqInt(int64(m.LastProducerEpoch), x.N)
	case TxnPartitions:
		got := tpWords(m.Partitions)
		return got == joinPartitions(x.Partitions), orNoneText(got), nil
	}
	return false, "", fmt.Errorf("unknown txn field %q", x.Field)
}

func tpWords(tps []engine.TP) string {
	s := make([]string, len(tps))
	for i, tp := range tps {
		s[i] = tp.String()
	}
	return strings.Join(s, ",")
}

// recordState is a record's state as checks name it.
func recordState(r engine.TxnLogRecord) string {
	if r.Tombstone {
		return "tombstone"
	}
	return r.State.String()
}

// describeTxnRecord is a __transaction_state record as fields (the
// TransactionLogValue of ref 3.2, in the language's words).
func describeTxnRecord(r engine.TxnLogRecord) string {
	s := "@" + itoa64(r.Offset) + " " + recordState(r)
	if !r.Tombstone {
		s += " pid=" + itoa64(r.ProducerID) + " prevPid=" + itoa64(r.PrevProducerID) + " epoch=" + itoa64(int64(r.ProducerEpoch)) +
			" partitions=" + orNoneText(tpWords(r.Partitions)) + " timeout=" + itoa64(r.TimeoutMs)
	}
	return s + " coordinatorEpoch=" + itoa64(int64(r.CoordEpoch))
}

func (k *checker) txnLog(x TxnLogCheck) (bool, string, error) {
	recs := k.w.TxnLog(x.ID)
	if x.Field == TxnLogStates {
		got := make([]string, len(recs))
		for i, r := range recs {
			got[i] = recordState(r)
		}
		return slices.Equal(got, x.States), orNoneText(strings.Join(got, ",")), nil
	}
	coord := k.w.TxnInfo(x.ID).Coordinator
	if len(recs) == 0 {
		return false, "no record of " + x.ID + " in " + coord.String(), nil
	}
	r := recs[len(recs)-1]
	if x.Offset.Set {
		i := slices.IndexFunc(recs, func(r engine.TxnLogRecord) bool { return r.Offset == x.Offset.V })
		if i < 0 {
			offs := make([]int64, len(recs))
			for j, r := range recs {
				offs[j] = r.Offset
			}
			return false, "offset " + itoa64(x.Offset.V) + " of " + coord.String() + " holds no record of " + x.ID +
				" (its records are at " + joinInts(offs) + ")", nil
		}
		r = recs[i]
	}
	holds := optEq(x.State, recordState(r))
	if !r.Tombstone {
		holds = holds && optEq(x.PID, r.ProducerID) && optEq(x.PrevPID, r.PrevProducerID) && optEq(x.Epoch, int64(r.ProducerEpoch)) &&
			optEq(x.Timeout, r.TimeoutMs) && (!x.Partitions.Set || joinPartitions(x.Partitions.V) == tpWords(r.Partitions))
	} else {
		holds = holds && !x.PID.Set && !x.PrevPID.Set && !x.Epoch.Set && !x.Timeout.Set && !x.Partitions.Set
	}
	holds = holds && optEq(x.CoordinatorEpoch, int64(r.CoordEpoch))
	return holds, describeTxnRecord(r), nil
}

func (k *checker) group(x GroupCheck) (bool, string, error) {
	g, ok := k.w.GroupInfo(x.Group)
	if !ok {
		return false, "no group " + x.Group, nil
	}
	if x.Field == GroupGeneration {
		return eqInt(int64(g.Generation), x.N.V)
	}
	tp := engineTP(x.TP)
	got := Opt[int64]{}
	if x.Field == GroupOffset {
		for _, c := range g.Committed {
			if c.TP == tp {
				got = some(c.Offset)
			}
		}
	} else {
		// The highest producer id with a pending offset for tp wins, as the
		// pending offsets are listed by ascending producer id.
		for _, p := range g.Pending {
			if p.TP == tp {
				got = some(p.Offset)
			}
		}
	}
	shown := "none"
	if got.Set {
		shown = itoa64(got.V)
	}
	return got == x.N, shown, nil
}

func (k *checker) violation(x ViolationCheck) (bool, string, error) {
	vs := k.w.ViolationList()
	if x.Name == "" {
		if len(vs) == 0 {
			return true, "", nil
		}
		return false, vs[0].Name + ": " + vs[0].Text(), nil
	}
	var names []string
	for _, v := range vs {
		if v.Name == x.Name {
			return true, "", nil
		}
		names = append(names, v.Name)
	}
	return false, "violations: " + orNoneText(strings.Join(names, ",")), nil
}

package verify

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/realkafka"
	"github.com/eoslab/eoslab/engine/script"
)

// kindOf names the kind of fact an expectation checks, for the share of
// simulation-only facts by kind.
func kindOf(e script.Expectation) string {
	switch x := e.(type) {
	case script.PartitionCheck:
		return "partition " + x.Field.String()
	case script.BatchCheck:
		if x.Marker.Set {
			return "partition marker"
		}
		return "partition batch"
	case script.AbortedCheck:
		return "partition aborted"
	case script.ProducerStateCheck:
		return "partition producer"
	case script.ProducerCheck:
		return "producer " + x.Field.String()
	case script.ConsumerCheck:
		return "consumer " + x.Field.String()
	case script.TxnCheck:
		return "txn " + x.Field.String()
	case script.TxnLogCheck:
		return "txnlog"
	case script.GroupCheck:
		return "group " + x.Field.String()
	case script.ViolationCheck:
		return "violation"
	case script.EventCheck:
		return "event"
	case script.ResponseCheck:
		return "response"
	case script.RequestsCheck:
		return "requests"
	case script.MarkersCheck:
		return "markers"
	}
	return "other"
}

// simOnlyWhy says why a kind of fact has no broker counterpart ("" when it
// has one).
func simOnlyWhy(e script.Expectation) string {
	switch x := e.(type) {
	case script.ProducerCheck:
		switch x.Field {
		case script.ClientNextSeq:
			return "the Java producer's next sequence, client memory no broker exposes"
		case script.ClientIdempotent:
			return "the Java producer's settled config, client memory no broker exposes"
		case script.ClientError:
			if strings.HasSuffix(x.Error, "Exception") {
				return "a Java client exception, not a broker error code"
			}
		}
	case script.TxnCheck:
		switch x.Field {
		case script.TxnLastProducerEpoch:
			return "TransactionMetadata.lastProducerEpoch is coordinator memory: DescribeTransactions does not return it and TransactionLogValue has no field for it"
		case script.TxnCoordinator:
			return "the __transaction_state partition is abs(id.hashCode) % partitions (TransactionStateManager.partitionFor): the broker run's id carries the run's prefix and its cluster has its own partition count"
		}
	case script.ConsumerCheck:
		if x.Field == script.ClientError && strings.HasSuffix(x.Error, "Exception") {
			return "a Java client exception, not a broker error code"
		}
	}
	return ""
}

// judge sets row's verdict: fail is the simulation's failure (nil: it
// holds).
func (d *driver) judge(row *Row, c script.Command, fail *script.Failure, w *engine.World) {
	if d.judgeObserved(row, c, fail, w) {
		return
	}
	if x, ok := c.Expect.(script.TxnCheck); ok && x.Field == script.TxnCoordinator && w.Config().TxnStatePartitions != simInternalPartitions {
		row.Verdict, row.Why = NotPlayed, fmt.Sprintf("the file sets transaction.state.log.num.partitions=%d; the broker run's cluster has %d", w.Config().TxnStatePartitions, simInternalPartitions)
		return
	}
	if why := simOnlyWhy(c.Expect); why != "" && !d.placedCoordinator(c.Expect) {
		row.Verdict, row.Why = SimOnly, why
		if u := d.unplacedCoordinator(c.Expect); u != "" {
			row.Verdict, row.Why = NotPlayed, u
		}
		return
	}
	if d.stopped != "" {
		row.Verdict = NotPlayed
		if d.simOnly {
			row.Verdict = SimOnly
		}
		row.Why = fmt.Sprintf("line %d: %s", d.stopAt, d.stopped)
		row.StopLine = d.stopAt
		return
	}
	if d.busy(w) {
		if why := d.holdAt(c, w); why != "" { // inflight.go
			row.Verdict, row.Why = NotPlayed, why
			return
		}
	}
	holds, fact, why := d.checkIn(c.Expect, w)
	if fail != nil && !holds && why == "" && d.judgeNeither(row, c, fail, fact, w) { // unmet.go
		return
	}
	note := ""
	if x, ok := c.Expect.(script.ProducerCheck); ok && x.Field == script.ClientState {
		note = "Java's reading of the broker's answers (TransactionManager)" // javastate.go
	}
	d.verdict(row, fail, holds, fact, why, note)
}

// check evaluates e on the cluster: whether it holds, what Kafka shows,
// or why it cannot be checked (yet).
func (d *driver) check(e script.Expectation) (bool, string, string) {
	switch x := e.(type) {
	case script.PartitionCheck:
		l, err := d.log(x.TP)
		if err != nil {
			return false, "", "fetch failed: " + err.Error()
		}
		var n int64
		switch x.Field {
		case script.PartitionLEO, script.PartitionHW:
			// One replica: the high watermark is the log end offset.
			n = l.HighWatermark
			if x.Field == script.PartitionLEO && ownerOf(d.ctx) != nil {
				// Followers (replicahold.go): the leader's own log end.
				if n, err = d.logEnd(x.TP); err != nil {
					return false, "", "reading the log end failed: " + err.Error()
				}
			}
		case script.PartitionLSO:
			n = l.LastStable
		case script.PartitionLogStart:
			n = l.LogStart
		case script.PartitionRecords:
			for _, b := range l.Batches {
				if !b.Control {
					n += int64(b.Records)
				}
			}
		}
		return n == x.N, fmt.Sprintf("%s %d", x.Field, n), ""
	case script.BatchCheck:
		return d.batch(x)
	case script.AbortedCheck:
		got, why := d.abortedIndex(x.TP)
		if why != "" {
			return false, "", why
		}
		want := fmt.Sprintf("pid=%d first=%d last=%d", x.PID, x.First, x.Last)
		return slices.Contains(got, want), "aborted " + strings.Join(got, "; ") + " (lso= not compared)", ""
	case script.ProducerStateCheck:
		return d.producerState(x)
	case script.ProducerCheck:
		return d.producerFact(x)
	case script.ConsumerCheck:
		return d.consumerFact(x)
	case script.TxnCheck:
		return d.txn(x)
	case script.GroupCheck:
		if x.Field != script.GroupOffset {
			return d.groupGeneration(x) // group.go
		}
		ctx, cancel := context.WithTimeout(d.ctx, 30*time.Second)
		defer cancel()
		os, err := d.adm.FetchOffsets(ctx, d.prefix+x.Group)
		if err != nil {
			return false, "", "OffsetFetch failed: " + err.Error()
		}
		o, ok := os.Lookup(d.name(x.TP.Topic), x.TP.N)
		got := "none"
		if ok && o.At >= 0 {
			got = strconv.FormatInt(o.At, 10)
		}
		want := "none"
		if x.N.Set {
			want = strconv.FormatInt(x.N.V, 10)
		}
		return got == want, "offset " + got, ""
	case script.TxnLogCheck:
		return false, "", "reading __transaction_state records is not implemented in the driver yet"
	case script.ResponseCheck:
		return false, "", "responses as the client saw them are not recorded by the driver yet"
	case script.RequestsCheck:
		return false, "", "request counts are not recorded by the driver yet"
	case script.MarkersCheck:
		return d.markerCount(x) // markers.go
	}
	return false, "", "not compared"
}

// abortedIndex is tp's aborted transactions on the broker, as the
// simulation's index names them: pid, first offset and the abort marker's
// offset (last).
func (d *driver) abortedIndex(tp script.Partition) ([]string, string) {
	l, err := d.log(tp)
	if err != nil {
		return nil, "fetch failed: " + err.Error()
	}
	var got []string
	for _, a := range l.Aborted {
		last := int64(-1)
		for _, b := range l.Batches {
			if b.Control && b.Marker == "ABORT" && b.ProducerID == a.ProducerID && b.BaseOffset > a.FirstOffset {
				last = b.BaseOffset
				break
			}
		}
		got = append(got, fmt.Sprintf("pid=%s first=%d last=%d", d.simPID(a.ProducerID), a.FirstOffset, last))
	}
	return got, ""
}

func (d *driver) batch(x script.BatchCheck) (bool, string, string) {
	l, err := d.log(x.TP)
	if err != nil {
		return false, "", "fetch failed: " + err.Error()
	}
	var b *realkafka.Batch
	for i := range l.Batches {
		if l.Batches[i].BaseOffset == x.Offset {
			b = &l.Batches[i]
		}
	}
	if b == nil {
		return false, fmt.Sprintf("no batch at offset %d", x.Offset), ""
	}
	fact := fmt.Sprintf("batch %d pid=%s epoch=%d seq=%d count=%d txn=%v control=%v", b.BaseOffset, d.simPID(b.ProducerID), b.ProducerEpoch, b.BaseSequence, b.Records, b.Transactional, b.Control)
	if b.Control {
		fact += " marker=" + strings.ToLower(b.Marker)
	}
	ok := true
	if x.Marker.Set {
		ok = ok && b.Control && strings.EqualFold(b.Marker, x.Marker.V.String())
	} else {
		ok = ok && !b.Control
	}
	if x.PID.Set {
		ok = ok && d.simPID(b.ProducerID) == strconv.FormatInt(x.PID.V, 10)
	}
	if x.Epoch.Set {
		ok = ok && int64(b.ProducerEpoch) == x.Epoch.V
	}
	if x.Seq.Set && b.ProducerID < 0 && x.Seq.V.First == -1 {
		// franz-go writes base sequence 0 on a batch without a producer
		// id (pkg/kgo/sink.go, seqRecBatch.appendTo), Java -1
		// (RecordBatch.NO_SEQUENCE); the broker stores it unchecked
		// (UnifiedLog.analyzeAndValidateProducerState checks only batches
		// with a producer id). A client's bytes, not a broker fact.
		fact += " (seq of a batch without producer id: the client's, not compared)"
	} else if x.Seq.Set {
		last := b.BaseSequence
		if b.BaseSequence >= 0 {
			last = b.BaseSequence + int32(b.Records) - 1
		}
		ok = ok && b.BaseSequence == x.Seq.V.First && (!x.Seq.V.Range || last == x.Seq.V.Last)
	}
	if x.Count.Set {
		ok = ok && int64(b.Records) == x.Count.V
	}
	if x.Txn.Set {
		ok = ok && b.Transactional == x.Txn.V
	}
	if x.Status.Set {
		st := status(l, *b)
		fact += " status=" + st
		ok = ok && st == x.Status.V
	}
	if x.Values != nil {
		fact += " values=" + strings.Join(b.Values, ",")
		ok = ok && slices.Equal(b.Values, x.Values)
	}
	if x.CoordinatorEpoch.Set {
		ce := d.coordEpoch(b.ProducerID, b.CoordinatorEpoch) // cluster.go
		fact += fmt.Sprintf(" coordinatorEpoch=%d", ce)
		ok = ok && int64(ce) == x.CoordinatorEpoch.V
	}
	return ok, fact, ""
}

// status is a data batch's fate: plain, or its transaction's marker.
func status(l realkafka.Log, b realkafka.Batch) string {
	if !b.Transactional {
		return "plain"
	}
	for _, m := range l.Batches {
		if m.Control && m.ProducerID == b.ProducerID && m.BaseOffset > b.BaseOffset {
			if m.Marker == "COMMIT" {
				return "committed"
			}
			return "aborted"
		}
	}
	return "open"
}

func (d *driver) producerState(x script.ProducerStateCheck) (bool, string, string) {
	ctx, cancel := context.WithTimeout(d.ctx, 30*time.Second)
	defer cancel()
	ps, err := d.adm.DescribeProducers(ctx, map[string]map[int32]struct{}{d.name(x.TP.Topic): {x.TP.N: {}}})
	if err != nil {
		return false, "", "DescribeProducers failed: " + err.Error()
	}
	var facts []string
	ok := false
	for _, p := range ps.SortedProducers() {
		ce := d.coordEpoch(p.ProducerID, p.CoordinatorEpoch) // cluster.go
		f := fmt.Sprintf("producer %s epoch=%d lastseq=%d txnfirst=%d coordinatorEpoch=%d", d.simPID(p.ProducerID), p.ProducerEpoch, p.LastSequence, p.CurrentTxnStartOffset, ce)
		facts = append(facts, f)
		if d.simPID(p.ProducerID) != strconv.FormatInt(x.PID, 10) {
			continue
		}
		m := true
		if x.Epoch.Set {
			m = m && int64(p.ProducerEpoch) == x.Epoch.V
		}
		if x.LastSeq.Set {
			m = m && int64(p.LastSequence) == x.LastSeq.V
		}
		if x.TxnFirst.Set {
			m = m && p.CurrentTxnStartOffset == x.TxnFirst.V
		}
		if x.CoordinatorEpoch.Set {
			m = m && int64(ce) == x.CoordinatorEpoch.V
		}
		ok = m
	}
	if len(facts) == 0 {
		facts = []string{"no producer state"}
	}
	note := ""
	if x.Cached.Set {
		note = " (cached= not exposed, not compared)"
	}
	return ok, strings.Join(facts, "; ") + note, ""
}

func (d *driver) producerFact(x script.ProducerCheck) (bool, string, string) {
	p, ok := d.prods[x.Name]
	if !ok {
		return false, "", "the producer made no call on the broker"
	}
	switch x.Field {
	case script.ClientState:
		st, by, why := d.javaState(x.Name) // javastate.go
		if why != "" {
			return false, "", why
		}
		return st == x.State, fmt.Sprintf("state %s: the Java client's reading (TransactionManager) of the broker's answers, last %s", st, by), ""
	case script.ClientError:
		var co *clientOnly
		if errors.As(p.lastErr, &co) {
			return false, "", "franz-go failed the call itself (" + co.Error() + "), without a broker's answer to compare"
		}
		got := errName(p.lastErr)
		return got == x.Error, "error " + got, ""
	case script.ClientPID, script.ClientEpoch:
		if holds, fact, ok := d.rawEndFact(p, x); ok { // offsets.go
			return holds, fact, ""
		}
		if p.closed || p.cl == nil {
			return false, "", "the producer is closed; its id is not read"
		}
		ctx, cancel := context.WithTimeout(d.ctx, 10*time.Second)
		defer cancel()
		id, epoch, err := p.cl.ProducerID(ctx)
		if err != nil {
			return false, "error " + errName(err), ""
		}
		if x.Field == script.ClientPID {
			got := d.simPID(id)
			return got == strconv.FormatInt(x.N, 10), "pid " + got, ""
		}
		return int64(epoch) == x.N, fmt.Sprintf("epoch %d", epoch), ""
	case script.ClientOffset:
		if !p.hasAck {
			return false, "no acknowledged send (last error " + errName(p.lastErr) + ")", ""
		}
		return p.offset == x.N, fmt.Sprintf("offset %d", p.offset), ""
	}
	return false, "", "not compared"
}

func (d *driver) consumerFact(x script.ConsumerCheck) (bool, string, string) {
	c, ok := d.cons[x.Name]
	if !ok {
		c = &consumer{pos: map[engine.TP]int64{}}
	}
	switch x.Field {
	case script.ClientValues:
		got := strings.Join(c.values, ",")
		if got == "" {
			got = "none"
		}
		want := strings.Join(x.Values, ",")
		if want == "" {
			want = "none"
		}
		fact := "values " + got
		if c.lastErr != nil {
			fact += " (error " + errName(c.lastErr) + ")"
		}
		if got != want && sameMultiset(c.values, x.Values) {
			// Order across partitions is the client's fetch order
			// (franz-go's, not the Java consumer's), no broker fact.
			return true, fact, ""
		}
		return got == want, fact, ""
	case script.ClientOffsets:
		var s []string
		for _, o := range c.offsets {
			s = append(s, strconv.FormatInt(o, 10))
		}
		var w []string
		for _, o := range x.Offsets {
			w = append(w, strconv.FormatInt(o, 10))
		}
		g := strings.Join(s, ",")
		if g == "" {
			g = "none"
		}
		// Across partitions the order is the client's (as for values).
		return slices.Equal(s, w) || sameMultiset(s, w), "offsets " + g, ""
	case script.ClientPosition:
		// franz-go hands out records, not a position; with control
		// records kept, the last one's offset + 1 is the Java
		// consumer's position, markers included. Before any record
		// the position is the reset or committed offset, which kgo
		// does not expose.
		tp := engine.TP{Topic: x.TP.Topic, Partition: x.TP.N}
		pos, ok := c.pos[tp]
		if !ok {
			// Before a record, the offset its Fetch asks for (position.go).
			if at, fetched := d.fetchPosition(x.Name, c, tp); fetched {
				return at == x.N, fmt.Sprintf("position %d (the offset its last Fetch asked for; no record taken yet)", at), ""
			}
			return false, "", "the consumer has not fetched the partition on the broker"
		}
		return pos == x.N, fmt.Sprintf("position %d", pos), ""
	case script.ClientError:
		got := errName(c.lastErr)
		return got == x.Error, "error " + got, ""
	}
	return false, "", "not compared"
}

func (d *driver) txn(x script.TxnCheck) (bool, string, string) {
	ctx, cancel := context.WithTimeout(d.ctx, 30*time.Second)
	defer cancel()
	if x.Field == script.TxnCoordinator {
		return d.txnCoordinator(ctx, x)
	}
	ts, err := d.adm.DescribeTransactions(ctx, d.prefix+x.ID)
	if err != nil {
		return false, "", "DescribeTransactions failed: " + err.Error()
	}
	t, ok := ts[d.prefix+x.ID]
	if !ok {
		return false, "", "DescribeTransactions did not answer for the id"
	}
	if t.Err != nil {
		return false, "error " + errName(t.Err), ""
	}
	switch x.Field {
	case script.TxnStateField:
		return t.State == x.State, "state " + t.State, ""
	case script.TxnEpoch:
		return int64(t.ProducerEpoch) == x.N, fmt.Sprintf("epoch %d", t.ProducerEpoch), ""
	case script.TxnPID:
		got := d.simPID(t.ProducerID)
		return got == strconv.FormatInt(x.N, 10), "pid " + got, ""
	case script.TxnPartitions:
		got := sortedTPs(t.Topics, d.prefix)
		var want []string
		for _, p := range x.Partitions {
			if strings.HasPrefix(p.Topic, "__consumer_offsets") {
				want = append(want, "__consumer_offsets")
				continue
			}
			want = append(want, p.String())
		}
		slices.Sort(want)
		g := strings.Join(got, ",")
		if g == "" {
			g = "none"
		}
		return slices.Equal(got, want), "partitions " + g + " (__consumer_offsets-N compared without N)", ""
	}
	return false, "", "not compared"
}

func sameMultiset(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// placedCoordinator reports whether e is a coordinator row the broker run
// can judge: on a cluster verify owns, whose __transaction_state has the
// simulation's partition count, when the run's prefix puts the prefixed
// id on the partition the simulation gives the bare id (placedPrefix).
//
// On a broker verify does not own, the prefix was searched for the
// file's coordinator ids (placeCoordinators, coordplace.go).
func (d *driver) placedCoordinator(e script.Expectation) bool {
	x, ok := e.(script.TxnCheck)
	if !ok || x.Field != script.TxnCoordinator {
		return false
	}
	if _, searched := d.ctx.Value(coordKey{}).(coordPlacement); !searched && ownerOf(d.ctx) == nil {
		return false
	}
	return engine.PartitionFor(d.prefix+x.ID, simInternalPartitions) == engine.PartitionFor(x.ID, simInternalPartitions)
}

// unplacedCoordinator says why a coordinator row the search could not
// place is not played ("" for any other row).
func (d *driver) unplacedCoordinator(e script.Expectation) string {
	x, ok := e.(script.TxnCheck)
	pl, searched := d.ctx.Value(coordKey{}).(coordPlacement)
	if !ok || x.Field != script.TxnCoordinator || !searched || pl.placed {
		return ""
	}
	return fmt.Sprintf("no run prefix within %d tries puts all %d transactional ids of the file's coordinator rows on the simulation's %s partitions (each id lands on its own with a chance of 1 in %d per prefix), so the prefixed ids' partitions cannot be compared", coordPlaceTries, pl.ids, engine.TxnStateTopic, simInternalPartitions)
}

// txnCoordinator is the coordinator fact on the cluster: the
// __transaction_state partition of the prefixed id under the broker's
// own partition count (TransactionStateManager.partitionFor:
// Utils.abs(transactionalId.hashCode) % transactionTopicPartitionCount),
// and whether FindCoordinator names that partition's leader.
func (d *driver) txnCoordinator(ctx context.Context, x script.TxnCheck) (bool, string, string) {
	id := d.prefix + x.ID
	co, ok := d.adm.FindTxnCoordinators(ctx, id)[id]
	if !ok {
		return false, "", "FindCoordinator did not answer for the id"
	}
	if co.Err != nil {
		return false, "error " + errName(co.Err), ""
	}
	td, err := d.adm.ListTopicsWithInternal(ctx, engine.TxnStateTopic)
	if err != nil {
		return false, "", "Metadata failed: " + err.Error()
	}
	t, ok := td[engine.TxnStateTopic]
	if !ok || t.Err != nil || len(t.Partitions) == 0 {
		return false, "", "Metadata has no " + engine.TxnStateTopic
	}
	leaders := map[int32]int32{}
	for p, pd := range t.Partitions {
		leaders[p] = pd.Leader
	}
	return coordinatorHolds(id, x.Coordinator.String(), len(t.Partitions), co.NodeID, leaders)
}

// coordinatorHolds judges a coordinator row on the broker's answers: the
// prefixed id's partition under the broker's partition count of
// __transaction_state (n) against the simulation's (want), and whether
// FindCoordinator's node (coord) leads that partition (leaders).
func coordinatorHolds(id, want string, n int, coord int32, leaders map[int32]int32) (bool, string, string) {
	if n != simInternalPartitions {
		return false, "", fmt.Sprintf("the broker's %s has %d partitions, the simulation's %d (eoslab kafka up makes %d): a partition number is not comparable", engine.TxnStateTopic, n, simInternalPartitions, simInternalPartitions)
	}
	p := engine.PartitionFor(id, int32(n))
	got := fmt.Sprintf("%s-%d", engine.TxnStateTopic, p)
	leader, ok := leaders[p]
	if !ok {
		leader = -1
	}
	fact := fmt.Sprintf("coordinator %s (FindCoordinator: node %d, the partition's leader: node %d; the id carries the run's prefix, placed on the simulation's partition)", got, coord, leader)
	return got == want && coord == leader, fact, ""
}

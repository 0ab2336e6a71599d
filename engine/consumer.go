package engine

import (
	"sort"
)

// OffsetReset is the consumer's auto.offset.reset: where a partition's
// position starts when the group has no committed offset for it, or the
// consumer has no group (ConsumerConfig, OffsetResetStrategy).
type OffsetReset uint8

// The strategies. The zero value is Java's default, latest.
const (
	ResetLatest OffsetReset = iota
	ResetEarliest
	ResetNone
)

var offsetResetNames = [...]string{"latest", "earliest", "none"}

func (r OffsetReset) String() string { return offsetResetNames[r] }

// OffsetResetByName finds a strategy by its configuration value.
func OffsetResetByName(s string) (OffsetReset, bool) {
	for i, n := range offsetResetNames {
		if n == s {
			return OffsetReset(i), true
		}
	}
	return 0, false
}

// Consumer is a KafkaConsumer: positions per partition, fetches with its
// isolation level, and the client-side filtering of aborted transactions
// (CompletedFetch, ref 4.4).
type Consumer struct {
	Name          string
	ReadCommitted bool
	OffsetReset   OffsetReset
	GroupID       string
	InstanceID    string
	MemberID      string
	Topics        []string
	Positions     []TPOffset // -1 until known
	AwaitReset    []TP       // no committed offset: the position comes from auto.offset.reset
	Received      []ConsumedRecord
	InFlight      []InFlightRequest
	Crashed       bool
	Paused        bool
	Deferred      []item
	LastError     ErrorCode
	GroupBroker   int
	Polls         int
}

// ConsumedRecord is a record handed to the application.
type ConsumedRecord struct {
	TP     TP      `json:"partition"`
	Offset int64   `json:"offset"`
	Value  string  `json:"value"`
	UID    int64   `json:"uid"`
	Source *Source `json:"source,omitempty"`
}

// Consumer finds a consumer by name.
func (w *World) Consumer(name string) *Consumer { return w.namedConsumer(name) }

// Isolation names the consumer's isolation.level.
func (c *Consumer) Isolation() string {
	if c.ReadCommitted {
		return "read_committed"
	}
	return "read_uncommitted"
}

func (c *Consumer) position(tp TP) *TPOffset {
	for i := range c.Positions {
		if c.Positions[i].TP == tp {
			return &c.Positions[i]
		}
	}
	return nil
}

func (w *World) assign(c *Consumer) {
	for _, t := range w.topics {
		if len(c.Topics) > 0 && !containsString(c.Topics, t.Name) {
			continue
		}
		for p := int32(0); p < t.Partitions; p++ {
			tp := TP{Topic: t.Name, Partition: p}
			if c.position(tp) == nil {
				c.Positions = append(c.Positions, TPOffset{TP: tp, Offset: -1})
			}
		}
	}
}

func containsString(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func (c *Consumer) inFlight(kind MsgKind, tp TP) bool {
	for _, r := range c.InFlight {
		if r.Kind == kind && (len(r.TPs) == 0 || r.TPs[0] == tp) {
			return true
		}
	}
	return false
}

func (w *World) consumerSend(c *Consumer, kind MsgKind, broker int, body Body, tps []TP) {
	corr := w.newCorr()
	c.InFlight = append(c.InFlight, InFlightRequest{Corr: corr, Kind: kind, Broker: broker, TPs: tps})
	w.send(kind, c.Name, brokerAddr(broker), corr, body)
	w.setTimer(30000, Timer{Kind: TimerRequestTimeout, Owner: c.Name, ID: corr})
}

// poll starts a fetch on every assigned partition. Positions that are not
// known yet come first from the group's committed offsets (OffsetFetch with
// requireStable); a partition with no committed offset, or every partition
// of a consumer without a group, is reset by auto.offset.reset
// (SubscriptionState.resetInitializingPositions): ListOffsets to the leader
// for latest or earliest, or NoOffsetForPartitionException for none.
func (w *World) poll(c *Consumer) {
	if c.Crashed || c.Paused {
		return
	}
	c.Polls++
	w.assign(c)
	var unknown []TP
	for _, pos := range c.Positions {
		if pos.Offset < 0 && !hasTP(c.AwaitReset, pos.TP) {
			unknown = append(unknown, pos.TP)
		}
	}
	if len(unknown) > 0 && c.GroupID != "" {
		if c.inFlight(MsgOffsetFetch, TP{}) || c.inFlight(MsgFindCoordinator, TP{}) {
			return
		}
		if c.GroupBroker < 0 {
			if b := w.anyBroker(); b >= 0 {
				w.consumerSend(c, MsgFindCoordinator, b, &FindCoordinatorRequest{Key: c.GroupID, Group: true}, nil)
			}
			return
		}
		w.consumerSend(c, MsgOffsetFetch, c.GroupBroker, &OffsetFetchRequest{GroupID: c.GroupID, Partitions: unknown, RequireStable: true}, nil)
		return
	}
	if len(unknown) > 0 {
		// Without a group there are no committed offsets to look up.
		if !w.requestOffsetReset(c, unknown) {
			return
		}
	}
	w.resetPositions(c)
	for i := range c.Positions {
		pos := &c.Positions[i]
		if pos.Offset < 0 || c.inFlight(MsgFetch, pos.TP) {
			continue
		}
		p := w.partitions[pos.TP]
		if p == nil || p.Leader < 0 {
			continue
		}
		w.consumerSend(c, MsgFetch, p.Leader, &FetchRequest{TP: pos.TP, Offset: pos.Offset, ReadCommitted: c.ReadCommitted}, []TP{pos.TP})
	}
}

// requestOffsetReset is SubscriptionState.resetInitializingPositions for
// partitions with no committed offset: they await a reset by
// auto.offset.reset, or, with none, poll throws NoOffsetForPartitionException
// and fetches nothing (the partitions stay without a position, and the next
// poll looks for committed offsets again). It reports whether poll goes on.
func (w *World) requestOffsetReset(c *Consumer, tps []TP) bool {
	if c.OffsetReset == ResetNone {
		c.LastError = errNoOffsetForPartition
		w.emitRule(EvClientError, c.Name, cite(RuleOffsetReset), saysNoOffsetForPartition, tpSet(tps)).code(errNoOffsetForPartition)
		return false
	}
	for _, tp := range tps {
		if !hasTP(c.AwaitReset, tp) {
			c.AwaitReset = append(c.AwaitReset, tp)
		}
	}
	return true
}

// resetPositions is OffsetFetcher.resetPositionsIfNeeded: one ListOffsets
// per partition awaiting a reset (Java groups them per leader), EARLIEST or
// LATEST with the consumer's isolation level.
func (w *World) resetPositions(c *Consumer) {
	for _, tp := range c.AwaitReset {
		if c.inFlight(MsgListOffsets, tp) {
			continue
		}
		if p := w.partitions[tp]; p != nil && p.Leader >= 0 {
			w.consumerSend(c, MsgListOffsets, p.Leader, &ListOffsetsRequest{TP: tp, Latest: c.OffsetReset == ResetLatest, ReadCommitted: c.ReadCommitted}, []TP{tp})
		}
	}
}

// onListOffsetsResponse sets a reset position and goes on fetching; after
// an error the next poll asks again.
func (w *World) onListOffsetsResponse(c *Consumer, r *ListOffsetsResponse) {
	if r.Code != None {
		c.LastError = r.Code
		return
	}
	pos := c.position(r.TP)
	if pos == nil || !hasTP(c.AwaitReset, r.TP) {
		return
	}
	pos.Offset = r.Offset
	kept := c.AwaitReset[:0:0]
	for _, tp := range c.AwaitReset {
		if tp != r.TP {
			kept = append(kept, tp)
		}
	}
	c.AwaitReset = kept
	what := saysResetLogStart
	if c.OffsetReset == ResetLatest {
		what = saysResetHW
		if c.ReadCommitted {
			what = saysResetLSO
		}
	}
	w.emitRule(EvConsume, c.Name, w.because(RuleOffsetReset, saysAutoOffsetReset, c.OffsetReset), saysResetsToOffset, r.TP, num(pos.Offset), w.sub(what)).on(r.TP)
	w.poll(c)
}

func (c *Consumer) removeInFlight(corr int64) (InFlightRequest, bool) {
	for i, r := range c.InFlight {
		if r.Corr == corr {
			c.InFlight = append(c.InFlight[:i:i], c.InFlight[i+1:]...)
			return r, true
		}
	}
	return InFlightRequest{}, false
}

func (w *World) onConsumerMessage(c *Consumer, m *Message) {
	if _, ok := c.removeInFlight(m.Corr); !ok {
		return
	}
	w.cancelTimer(TimerRequestTimeout, c.Name, m.Corr)
	switch r := m.Body.(type) {
	case *FindCoordinatorResponse:
		if r.Code == None {
			c.GroupBroker = r.Broker
			w.poll(c)
		}
	case *OffsetFetchResponse:
		if r.Code != None {
			c.LastError = r.Code
			w.emitRule(EvClientError, c.Name, cite(RuleUnstableOffsetRetry), saysGetsFromOffsetfetchWaitsFor, r.Code).code(r.Code)
			if r.Code == NotCoordinator {
				c.GroupBroker = -1
			}
			return
		}
		var none []TP
		for _, o := range r.Offsets {
			if pos := c.position(o.TP); pos != nil {
				if o.Offset < 0 {
					// No committed offset: auto.offset.reset decides.
					none = append(none, o.TP)
					continue
				}
				pos.Offset = o.Offset
				w.emit(EvConsume, c.Name, saysStartsAtCommittedOffset, o.TP, num(pos.Offset)).on(o.TP)
			}
		}
		if len(none) > 0 && !w.requestOffsetReset(c, none) {
			return
		}
		w.poll(c)
	case *FetchResponse:
		w.onFetchResponse(c, r)
	case *ListOffsetsResponse:
		w.onListOffsetsResponse(c, r)
	}
}

// onFetchResponse is CompletedFetch: aborted batches are skipped using the
// aborted-transaction list, control records are never delivered, and the
// position moves past both (ref 4.4).
func (w *World) onFetchResponse(c *Consumer, r *FetchResponse) {
	pos := c.position(r.TP)
	if pos == nil {
		return
	}
	if r.Code != None {
		c.LastError = r.Code
		return
	}
	// Java keeps the aborted transactions in a priority queue by first
	// offset; the index itself is in marker order.
	aborted := append([]AbortedTxn(nil), r.Aborted...)
	sort.SliceStable(aborted, func(i, j int) bool { return aborted[i].FirstOffset < aborted[j].FirstOffset })
	abortedPids := map[int64]bool{}
	var got []ConsumedRecord
	var skipped skippedBatches
	var undecided []undecidedRead // read_uncommitted: aborted or open batches handed out
	for i := range r.Batches {
		b := &r.Batches[i]
		if b.NextOffset() <= pos.Offset {
			continue
		}
		if c.ReadCommitted && b.ProducerID >= 0 {
			for len(aborted) > 0 && aborted[0].FirstOffset <= b.LastOffset() {
				abortedPids[aborted[0].ProducerID] = true
				aborted = aborted[1:]
			}
			if b.Control {
				if b.Marker == MarkerAbort {
					delete(abortedPids, b.ProducerID)
				}
				skipped = append(skipped, skippedBatch{control: true, marker: b.Marker, offsets: batchOffsetsArg{b.BaseOffset, 1}})
				pos.Offset = b.NextOffset()
				continue
			}
			if b.Transactional && abortedPids[b.ProducerID] {
				skipped = append(skipped, skippedBatch{offsets: batchOffsetsArg{b.BaseOffset, b.Count}, pid: b.ProducerID})
				pos.Offset = b.NextOffset()
				continue
			}
		}
		if b.Control {
			skipped = append(skipped, skippedBatch{control: true, marker: b.Marker, offsets: batchOffsetsArg{b.BaseOffset, 1}})
			pos.Offset = b.NextOffset()
			continue
		}
		for k := 0; k < b.Records.Len(); k++ {
			rec := b.Records.At(k)
			off := b.BaseOffset + int64(k)
			if off < pos.Offset {
				continue
			}
			got = append(got, ConsumedRecord{TP: r.TP, Offset: off, Value: rec.Value, UID: rec.UID, Source: rec.Source})
		}
		pos.Offset = b.NextOffset()
		if c.ReadCommitted {
			w.checkDelivery(c, r.TP, b)
		} else if st := w.undecidedStatus(r.TP, b); st != StatusPlain {
			undecided = append(undecided, undecidedRead{b, st})
		}
	}
	if len(got) > 0 {
		w.changes.received(c)
	}
	c.Received = append(c.Received, got...)
	if len(got) == 0 && len(skipped) == 0 {
		e := w.emitTyped(EvConsume, c.Name, sayNothingNew).on(r.TP)
		e.arg, e.Rule = pos.Offset, typedRule(RuleReadBound, ruleSayStopHW, int32(r.HighWatermark))
		if c.ReadCommitted {
			e.x, e.Rule = 1, typedRule(RuleReadBound, ruleSayStopLSO, int32(r.LSO))
		}
		return
	}
	if len(got) > 0 {
		w.emit(EvConsume, c.Name, saysFetchReceives, isolation(c.ReadCommitted), r.TP, consumedRecords(got), skipped, num(pos.Offset)).on(r.TP)
	} else {
		w.emit(EvConsume, c.Name, saysFetchReceivesNothing, isolation(c.ReadCommitted), r.TP, skipped, num(pos.Offset)).on(r.TP)
	}
	for _, u := range undecided {
		w.noteUncommittedRead(c, r.TP, u)
	}
}

// commitSync is a plain OffsetCommit outside any transaction.
func (w *World) commitSync(c *Consumer, offsets []TPOffset) {
	if c.GroupID == "" {
		return
	}
	b := c.GroupBroker
	if b < 0 {
		if p := w.partition(w.OffsetsPartitionFor(c.GroupID)); p != nil {
			b = p.Leader
		}
	}
	if b < 0 {
		return
	}
	w.consumerSend(c, MsgOffsetCommit, b, &OffsetCommitRequest{GroupID: c.GroupID, Offsets: offsets}, nil)
}

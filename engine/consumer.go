package engine

import (
	"sort"
	"strings"
)

// Consumer is a KafkaConsumer: positions per partition, fetches with its
// isolation level, and the client-side filtering of aborted transactions
// (CompletedFetch, ref 4.4).
type Consumer struct {
	Name          string
	ReadCommitted bool
	GroupID       string
	InstanceID    string
	MemberID      string
	Topics        []string
	Positions     []TPOffset // -1 until known
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
func (w *World) Consumer(name string) *Consumer {
	for _, c := range w.Consumers {
		if c.Name == name {
			return c
		}
	}
	for _, pr := range w.Processors {
		if pr.Name == name {
			return pr.Consumer
		}
	}
	return nil
}

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
	for _, t := range w.Topics {
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

// poll starts a fetch on every assigned partition; with a group, positions
// that are not known yet come from OffsetFetch(requireStable) first.
func (w *World) poll(c *Consumer) {
	if c.Crashed || c.Paused {
		return
	}
	c.Polls++
	w.assign(c)
	var unknown []TP
	for _, pos := range c.Positions {
		if pos.Offset < 0 {
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
	for i := range c.Positions {
		pos := &c.Positions[i]
		if pos.Offset < 0 {
			pos.Offset = 0
		}
		if c.inFlight(MsgFetch, pos.TP) {
			continue
		}
		p := w.Partitions[pos.TP]
		if p == nil || p.Leader < 0 {
			continue
		}
		w.consumerSend(c, MsgFetch, p.Leader, &FetchRequest{TP: pos.TP, Offset: pos.Offset, ReadCommitted: c.ReadCommitted}, []TP{pos.TP})
	}
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
			w.emitRule(EvClientError, c.Name, "gets "+r.Code.String()+" from OffsetFetch: waits for the pending transaction and tries again", "ref 5.4").code(r.Code)
			if r.Code == NotCoordinator {
				c.GroupBroker = -1
			}
			return
		}
		for _, o := range r.Offsets {
			if pos := c.position(o.TP); pos != nil {
				pos.Offset = o.Offset
				if pos.Offset < 0 {
					pos.Offset = 0
				}
				w.emit(EvConsume, c.Name, "starts "+o.TP.String()+" at committed offset "+itoa(pos.Offset)).on(o.TP)
			}
		}
		w.poll(c)
	case *FetchResponse:
		w.onFetchResponse(c, r)
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
	var skipped []string
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
				skipped = append(skipped, b.Marker.String()+" marker at "+itoa(b.BaseOffset))
				pos.Offset = b.NextOffset()
				continue
			}
			if b.Transactional && abortedPids[b.ProducerID] {
				skipped = append(skipped, "aborted "+b.Offsets()+" (pid "+itoa(b.ProducerID)+")")
				pos.Offset = b.NextOffset()
				continue
			}
		}
		if b.Control {
			skipped = append(skipped, b.Marker.String()+" marker at "+itoa(b.BaseOffset))
			pos.Offset = b.NextOffset()
			continue
		}
		for k, rec := range b.Records {
			off := b.BaseOffset + int64(k)
			if off < pos.Offset {
				continue
			}
			got = append(got, ConsumedRecord{TP: r.TP, Offset: off, Value: rec.Value, UID: rec.UID, Source: rec.Source})
		}
		pos.Offset = b.NextOffset()
		w.checkDelivery(c, r.TP, b)
	}
	if len(got) > 0 {
		w.changes.received(c)
	}
	c.Received = append(c.Received, got...)
	if len(got) == 0 && len(skipped) == 0 {
		bound := "high watermark " + itoa(r.HighWatermark)
		if c.ReadCommitted {
			bound = "LSO " + itoa(r.LSO)
		}
		w.emitRule(EvConsume, c.Name, "("+c.Isolation()+") gets nothing new from "+r.TP.String()+" at "+itoa(pos.Offset), "reads stop at the "+bound).on(r.TP)
		return
	}
	text := "(" + c.Isolation() + ") "
	if len(got) > 0 {
		text += "receives " + r.TP.String() + " " + consumedText(got)
	} else {
		text += "receives nothing from " + r.TP.String()
	}
	if len(skipped) > 0 {
		text += "; skips " + strings.Join(skipped, ", ")
	}
	text += "; position " + itoa(pos.Offset)
	w.emit(EvConsume, c.Name, text).on(r.TP)
}

func consumedText(rs []ConsumedRecord) string {
	s := ""
	for i, r := range rs {
		if i > 0 {
			s += " "
		}
		s += itoa(r.Offset) + ":" + r.Value
	}
	return s
}

// commitSync is a plain OffsetCommit outside any transaction.
func (w *World) commitSync(c *Consumer, offsets []TPOffset) {
	if c.GroupID == "" {
		return
	}
	b := c.GroupBroker
	if b < 0 {
		if p := w.Partition(w.OffsetsPartitionFor(c.GroupID)); p != nil {
			b = p.Leader
		}
	}
	if b < 0 {
		return
	}
	w.consumerSend(c, MsgOffsetCommit, b, &OffsetCommitRequest{GroupID: c.GroupID, Offsets: offsets}, nil)
}

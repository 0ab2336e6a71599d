package engine

import "sort"

// Cause chains. World.Cause tells how a violation came about, oldest
// first: the sends whose data or decision the violation is about, the
// faults applied to those messages and to the actors that handled them,
// the teaching switches that were off, the decisions of partition leaders
// and coordinators that let it through, and the violation itself. It reads
// the history once, on demand (a learner asks about one violation); the
// per-frame MonitorStatus does not.

// CauseRole says what part a link plays in a cause chain.
type CauseRole uint8

// Cause roles.
const (
	CauseSend      CauseRole = iota // a message involved was sent
	CauseFault                      // a fault hit a message involved, or an actor that handled one
	CauseSwitch                     // a teaching switch was off (not a Kafka setting)
	CauseDecision                   // a broker, coordinator or client decided (sequence check, epoch check, LSO read, marker, fencing, timeout)
	CauseViolation                  // the violation
)

var causeRoleNames = [...]string{"send", "fault", "switch", "decision", "violation"}

func (r CauseRole) String() string {
	if int(r) < len(causeRoleNames) {
		return causeRoleNames[r]
	}
	return "role"
}

// CauseLink is one step of a cause chain.
type CauseLink struct {
	// Event is the index of the event in the history (EventAt), so a
	// view can highlight it and the message it names.
	Event int
	// Msg is the message the link is about (0: none).
	Msg  int64
	Role CauseRole
	// Kind and Fault are the event's.
	Kind  EventKind
	Fault FaultKind
	// Text is the link as a plain sentence.
	Text string
}

// causeBatchInvariant reports whether the violation is about a data batch
// that a Produce carried.
func causeBatchInvariant(name string) bool {
	switch name {
	case InvDuplicateRecord, InvDuplicateSequence, InvFencedWrite, InvUncommittedRead, InvAtomicVisibility:
		return true
	}
	return false
}

// rootMessage reports whether a message sent is one the violation is
// about: a Produce of the offending records, the markers and writes of
// the transaction, the offsets commits of the group, the message handled
// when it was found.
func rootMessage(v Violation, m *Message) bool {
	if m.ID == v.Msg {
		return true
	}
	switch b := m.Body.(type) {
	case *ProduceRequest:
		if len(b.Batches) == 0 {
			return false
		}
		bt := &b.Batches[0]
		if v.Name == InvOffsetsAtomic {
			for i := 0; i < bt.Records.Len(); i++ {
				if s := bt.Records.Source(i); s != nil && s.TP == v.TP && s.Offset == v.Offset {
					return true
				}
			}
			return false
		}
		if !causeBatchInvariant(v.Name) {
			return false
		}
		if v.Txn != 0 && bt.Txn == v.Txn && v.Name == InvAtomicVisibility {
			return true
		}
		if b.TP != v.TP {
			return false
		}
		if first := bt.Records.FirstUID(); v.UID > 0 && first > 0 {
			return first <= v.UID && v.UID < first+int64(bt.Records.Len())
		}
		return v.ProducerID >= 0 && bt.ProducerID == v.ProducerID && bt.ProducerEpoch == v.Epoch &&
			v.Seq >= 0 && bt.BaseSequence >= 0 && bt.BaseSequence <= v.Seq && v.Seq <= bt.LastSequence()
	case *WriteTxnMarkersRequest:
		return v.Name == InvAtomicVisibility && v.Txn != 0 && b.Txn == v.Txn
	case *TxnOffsetCommitRequest:
		return v.Name == InvOffsetsAtomic && b.GroupID == v.Group && offsetsOn(b.Offsets, v.TP)
	case *OffsetCommitRequest:
		return v.Name == InvOffsetsAtomic && b.GroupID == v.Group && offsetsOn(b.Offsets, v.TP)
	}
	return false
}

func offsetsOn(os []TPOffset, tp TP) bool {
	for _, o := range os {
		if o.TP == tp {
			return true
		}
	}
	return false
}

// decisionKind reports whether an event of this kind, following the
// delivery of a message involved, is a decision about it.
func decisionKind(k EventKind) bool {
	switch k {
	case EvSeqCheck, EvAppend, EvMarker, EvFence, EvEpoch, EvOffsets, EvConsume, EvInfo, EvClientError, EvHazard:
		return true
	}
	return false
}

// actorFault reports whether a fault hits an actor rather than a message.
func actorFault(k FaultKind) bool {
	switch k {
	case FaultCrash, FaultRestart, FaultPause, FaultResume, FaultRebalance, FaultOffline, FaultLeaderMove, FaultTruncate:
		return true
	}
	return false
}

// Cause is the chain of events that led to a violation (an entry of
// ViolationList or MonitorState.First), oldest first, ending with the
// violation's own event. It is nil for a violation this world did not
// record. It reads the history up to the violation a few times (about
// 10 to 25 ms over 80,000 events, BenchmarkCause100k): ask once per violation
// and keep the chain, never per frame.
func (w *World) Cause(v Violation) []CauseLink {
	end := v.Event
	if end < 0 || end >= w.events.len() || w.events.at(end).Kind != EvViolation {
		return nil
	}
	// Pass 1: the messages involved, their requests and responses (one
	// correlation id), and the actors that sent or received them.
	msgs := map[int64]bool{}
	corrs := map[int64]bool{}
	actors := map[string]bool{}
	txnIDs := map[string]bool{}
	first := end
	for i := 0; i < end; i++ {
		e := w.events.at(i)
		if e.Kind != EvSend || e.Message == nil || !rootMessage(v, e.Message) {
			continue
		}
		m := e.Message
		msgs[m.ID] = true
		if m.Corr != 0 {
			corrs[m.Corr] = true
		}
		actors[m.From], actors[m.To] = true, true
		if r, ok := m.Body.(*ProduceRequest); ok && r.TransactionalID != "" && v.Name == InvFencedWrite {
			txnIDs[r.TransactionalID] = true
		}
		if i < first {
			first = i
		}
	}
	if v.Consumer != "" {
		actors[v.Consumer] = true
	}
	// The message handled at the violation may have been sent before
	// every root (a response): include its request.
	var sendAt []int // the EvSend events of messages involved
	withPID := false // a batch involved has a producer id (dedup could decide)
	for i := 0; i < end; i++ {
		e := w.events.at(i)
		if e.Kind != EvSend || e.Message == nil {
			continue
		}
		m := e.Message
		if !msgs[m.ID] && m.Corr != 0 && corrs[m.Corr] && (actors[m.From] || actors[m.To]) {
			msgs[m.ID] = true
		}
		if msgs[m.ID] {
			if r, ok := m.Body.(*ProduceRequest); ok {
				for _, b := range r.Batches {
					withPID = withPID || b.ProducerID >= 0
				}
			}
			sendAt = append(sendAt, i)
			if i < first {
				first = i
			}
		}
	}
	var links []CauseLink
	add := func(i int, role CauseRole, text string) {
		e := w.events.at(i)
		links = append(links, CauseLink{Event: i, Msg: e.MsgID(), Role: role, Kind: e.Kind, Fault: e.Fault, Text: text})
	}
	// Pass 2: from the first send on, the sends, the faults on those
	// messages and the decisions taken on their delivery.
	lastSend := first
	if len(sendAt) > 0 {
		lastSend = sendAt[len(sendAt)-1]
	}
	window := false
	for i := first; i < end; i++ {
		e := w.events.at(i)
		if window && e.Kind == EvSend && e.Message != nil && e.Message.Kind == MsgAddPartitionsToTxn && !msgs[e.Message.ID] {
			// A leader asks the coordinator to verify a produce
			// involved (KIP-890): its answer decides the append.
			if r, ok := e.Message.Body.(*AddPartitionsToTxnRequest); ok && r.VerifyOnly {
				msgs[e.Message.ID] = true
				corrs[e.Message.Corr] = true
			}
		}
		if e.Kind == EvSend && e.Message != nil && !msgs[e.Message.ID] && e.Message.Corr != 0 && corrs[e.Message.Corr] && e.Message.Kind == MsgAddPartitionsToTxnResponse {
			msgs[e.Message.ID] = true
		}
		involved := e.Message != nil && msgs[e.Message.ID]
		switch {
		case e.Kind == EvDeliver:
			window = involved
			continue
		case e.Kind == EvAction || e.Kind == EvTimer && !actors[e.Actor]:
			window = false
		}
		switch {
		case involved && e.Kind == EvSend && (e.Message.Kind == MsgAddPartitionsToTxn || e.Message.Kind == MsgAddPartitionsToTxnResponse):
			// the verification exchange: its decisions are the links
		case involved && e.Kind == EvSend:
			add(i, CauseSend, sendSentence(e.Message))
		case involved && e.Kind == EvFault:
			add(i, CauseFault, faultSentence(&e))
		case involved && e.Kind == EvInfo && e.Message.To == e.Actor && e.Fault == FaultNone && !e.HasTP():
			add(i, CauseFault, e.Actor+" "+e.Unnumbered()) // held while its receiver is paused
		case e.Kind == EvFault && actorFault(e.Fault) && (actors[e.Actor] || e.HasTP() && e.TP == v.TP):
			add(i, CauseFault, faultSentence(&e))
		case window && decisionKind(e.Kind) && (!e.HasTP() || e.TP == v.TP):
			add(i, CauseDecision, decisionSentence(&e))
		case !window && i < lastSend && (e.Kind == EvTimer || e.Kind == EvClientError) && actors[e.Actor]:
			// a client's timeout or error between its sends: why it sent again
			add(i, CauseDecision, decisionSentence(&e))
		case e.Kind == EvFence && e.TxnID != "" && txnIDs[e.TxnID]:
			add(i, CauseDecision, decisionSentence(&e))
		}
	}
	// The decision being taken when the violation was found comes right
	// after it: the append or marker that the invariant checked first.
	if window || end > 0 && w.events.at(end-1).Kind == EvDeliver {
		for i := end + 1; i < w.events.len(); i++ {
			e := w.events.at(i)
			if e.Kind == EvDeliver || e.Kind == EvAction || e.Kind == EvTimer || e.Kind == EvSend {
				break
			}
			if (e.Kind == EvSeqCheck || e.Kind == EvAppend || e.Kind == EvMarker) && (!e.HasTP() || e.TP == v.TP) ||
				e.Kind == EvConsume && e.Actor == v.Consumer {
				add(i, CauseDecision, decisionSentence(&e))
			}
		}
	}
	// Faults on the actors before the first send (a pause that makes a
	// zombie), the fencing of its transactional id, and the teaching
	// switches off at the violation.
	seenFault := map[string]bool{}
	for i := first - 1; i >= 0; i-- {
		e := w.events.at(i)
		switch {
		case e.Kind == EvFault && actorFault(e.Fault) && actors[e.Actor]:
			k := e.Actor + "/" + e.Fault.String()
			if !seenFault[k] {
				seenFault[k] = true
				add(i, CauseFault, faultSentence(&e))
			}
		case e.Kind == EvFence && e.TxnID != "" && txnIDs[e.TxnID]:
			add(i, CauseDecision, decisionSentence(&e))
		}
	}
	for k, c := range w.switchesOffAt(end) {
		// Leaders deduplicate by producer id only: for batches without
		// one (idempotence off) the dedup switch decided nothing.
		if c >= 0 && switchMatters(ConfigKey(k), v.Name) && (ConfigKey(k) != ConfigTeachDedup || withPID) {
			add(c, CauseSwitch, "the teaching switch "+ConfigKey(k).String()+" is off (not a Kafka setting): "+switchOffSentence(ConfigKey(k)))
		}
	}
	// Oldest first; a decision taken right after the violation was found
	// (it is narrated once the checks ran) still comes before it.
	sort.SliceStable(links, func(i, j int) bool { return links[i].Event < links[j].Event })
	out := links[:0]
	for i, l := range links {
		if i > 0 && l.Event == links[i-1].Event {
			continue
		}
		out = append(out, l)
	}
	out = trimCause(out)
	ve := w.events.at(end)
	out = append(out, CauseLink{Event: end, Msg: v.Msg, Role: CauseViolation, Kind: EvViolation, Text: ve.Actor + ": " + v.Name + ": " + v.Text()})
	return out
}

// switchesOffAt is, per config key, the EvSwitch event that turned a
// teaching switch off and left it off at event end (-1: on).
func (w *World) switchesOffAt(end int) [configKeyCount]int {
	var off [configKeyCount]int
	for i := range off {
		off[i] = -1
	}
	for _, c := range w.switches {
		if c.Event >= end {
			break
		}
		if c.On {
			off[c.Key] = -1
		} else {
			off[c.Key] = c.Event
		}
	}
	return off
}

// switchMatters reports whether a teaching switch can let a violation of
// the invariant through.
func switchMatters(k ConfigKey, inv string) bool {
	switch k {
	case ConfigTeachDedup:
		return inv == InvDuplicateRecord || inv == InvDuplicateSequence || inv == InvOffsetsAtomic
	case ConfigTeachFencing:
		return inv == InvFencedWrite || inv == InvAtomicVisibility || inv == InvOffsetsAtomic || inv == InvUncommittedRead || inv == InvDuplicateRecord
	case ConfigTeachLSO:
		return inv == InvUncommittedRead
	}
	return false
}

func switchOffSentence(k ConfigKey) string {
	switch k {
	case ConfigTeachDedup:
		return "partition leaders do not check producer sequences, so a retried batch is appended again"
	case ConfigTeachFencing:
		return "brokers and coordinators take requests from fenced producer epochs"
	case ConfigTeachLSO:
		return "read_committed consumers read up to the high watermark, open transactions included"
	}
	return ""
}

// sendSentence says who sent what to whom, in Kafka's words.
func sendSentence(m *Message) string {
	return m.From + " sends " + m.Kind.String() + " to " + m.To + ": " + m.Brief()
}

func faultSentence(e *Event) string {
	m := e.Message
	if m == nil {
		return e.Actor + ": " + e.Text()
	}
	what := m.Kind.String() + " from " + m.From + " to " + m.To
	switch e.Fault {
	case FaultDropped:
		return "the network loses " + what
	case FaultDuplicated:
		return "the network delivers a second copy of " + what
	case FaultDelayed:
		return "the network holds back " + what
	case FaultReordered:
		return "the network delivers " + what + " out of order"
	case FaultLost:
		return what + " reaches " + m.To + ", which is down, and is lost"
	}
	return e.Actor + ": " + e.Unnumbered()
}

// decisionSentence is the decision with the rule that made it, in words.
func decisionSentence(e *Event) string {
	s := e.Actor + ": " + e.Unnumbered()
	if r := e.RuleWords(); r != "" {
		s += " (" + r + ")"
	}
	return s
}

// MaxCauseLinks bounds a cause chain, its violation included.
const MaxCauseLinks = 40

// trimCause keeps a long chain readable: of the faults that hit one actor
// the same way and of decisions told in the same words (a client retrying
// on a timer), only the newest stays; past MaxCauseLinks-1 links, the
// teaching switches and the first send stay with the newest links.
func trimCause(links []CauseLink) []CauseLink {
	type key struct {
		role CauseRole
		text string
	}
	seen := map[key]bool{}
	keep := make([]bool, len(links))
	for i := len(links) - 1; i >= 0; i-- {
		l := links[i]
		k := key{l.Role, l.Text}
		if l.Role == CauseSend || l.Role == CauseSwitch || !seen[k] {
			keep[i] = true
		}
		seen[k] = true
	}
	out := links[:0]
	for i, l := range links {
		if keep[i] {
			out = append(out, l)
		}
	}
	limit := MaxCauseLinks - 1
	if len(out) <= limit {
		return out
	}
	firstSend := -1
	var head []CauseLink
	for i, l := range out {
		if l.Role == CauseSwitch || l.Role == CauseSend && firstSend < 0 {
			if l.Role == CauseSend {
				firstSend = i
			}
			head = append(head, l)
		}
	}
	tail := out[len(out)-(limit-len(head)):]
	res := make([]CauseLink, 0, limit)
	for _, l := range head {
		if len(tail) > 0 && l.Event >= tail[0].Event {
			break
		}
		res = append(res, l)
	}
	return append(res, tail...)
}

package verify

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// Judging "expect event" lines. The simulation finds the events a line
// selects (script.Matching); each event's typed fields say what a broker
// run would show for it, where anything: a leader's decision on a batch is
// the Produce answer (and, when it appended, the batch in the log); a
// message between a client and a broker is that request or answer on the
// wire; a marker is the control batch at its offset; a coordinator's
// durable write is its record in __transaction_state; a client's error
// from a broker's answer is that answer. A kind of event with no broker
// counterpart (a client's own decision, the simulation's narration, a
// fault the file itself applies) stays simulation-only, with the kind
// named.

// claim is the broker fact one simulation event stands for.
type claim struct {
	// what the event says, in the broker's words (for the row).
	what string
	// check counts the broker run's instances of the fact (for log and
	// transaction-log facts 0 or 1) and shows what the broker has; why,
	// when set, is why it cannot be looked at.
	check func(scope int) (n int, shown, why string)
	// wire: the fact is a request or answer on the wire (not a log's or
	// the transaction log's content).
	wire bool
	// nth, when set, is which instance of the fact the event stands for
	// (else the event's own ordinal among its kind's, judgeEvent).
	nth int
	// fact, when set, is the fact's identity where what also says where
	// the simulation has it (a marker's offset): two events stand for one
	// fact when their keys are equal.
	fact string
	// ans, on an answer's claim, is the test check counts the broker
	// run's answers by; the simulation's answers are counted by it too
	// (simAnswers, unmetevent.go).
	ans *answerSpec
	// byKey: each instance of the fact in the simulation is an event whose
	// claim has the same key (a request, a batch, a marker, a record of
	// __transaction_state).
	byKey bool
}

// answerSpec: the answers to client ("" any of the file's) of key (< 0
// any) that pass pred; sent counts what the broker sent, else what the
// client got.
type answerSpec struct {
	client string
	key    kmsg.Key
	sent   bool
	pred   func(*obsAnswer) bool
}

// answers is the claim on the broker run of the answers spec selects.
func (d *driver) answers(what string, a *answerSpec) claim {
	return claim{what: what, wire: true, ans: a, check: func(scope int) (int, string, string) {
		return d.countAnswers(scope, a.client, a.key, a.sent, a.pred)
	}}
}

// key is the fact's identity (fact, else what).
func (c claim) key() string {
	if c.fact != "" {
		return c.fact
	}
	return c.what
}

// simOnlyEvent says why an event has no broker counterpart.
func simOnlyEvent(e *engine.Event) string {
	switch e.Kind {
	case engine.EvClientState:
		return "a Java producer's TransactionManager state change, client memory"
	case engine.EvConsume:
		return "what the Java consumer hands to the application; the broker run's consumer is compared by the expect consumer lines"
	case engine.EvInfo:
		return "the simulation's narration (kind info), no fact of its own"
	case engine.EvTimer:
		return "a timer of the simulation's virtual clock"
	case engine.EvHazard:
		return "the simulation naming a Kafka hazard; the facts it names are compared by the partition lines"
	case engine.EvSwitch:
		return "a teaching switch, which no broker has"
	case engine.EvFault:
		return "a fault the file itself applies; the broker run applies it on the wire, so seeing it there shows nothing of Kafka"
	case engine.EvFence:
		return "a fence decision, kept in coordinator or leader memory; its answer to the client is compared by the error events"
	case engine.EvEpoch:
		return "an epoch change in a client's or coordinator's memory; what reaches the broker is compared by the request and transaction-log events"
	case engine.EvViolation:
		return "the simulation's invariant monitor"
	case engine.EvOffsets:
		return "the group coordinator's and consumer's offset bookkeeping (kind offsets), no request or record of its own"
	}
	return ""
}

// claimOf is the broker fact event i of w stands for, or why it has none
// (simOnly), or why it is not compared yet (notYet).
func (d *driver) claimOf(w *engine.World, i int) (c claim, simOnly, notYet string) {
	e := w.EventAt(i)
	if e.Kind == engine.EvOffsets && e.Code != engine.None {
		// The group coordinator refusing offsets (or answering
		// UNSTABLE_OFFSET_COMMIT): its answer carries the code.
		return d.answerClaim("", "", e.Code, true), "", ""
	}
	if e.Kind == engine.EvEpoch {
		if c, ok := d.epochClaim(w, i); ok { // epochclaim.go
			return c, "", ""
		}
	}
	if c, ok := d.verifyClaim(w, i); ok { // verifyclaim.go
		return c, "", ""
	}
	if c, ok := d.replyClaim(w, i); ok { // replyclaim.go
		return c, "", ""
	}
	if c, ok := d.offsetsReplyClaim(w, i); ok {
		return c, "", ""
	}
	if c, ok := d.consumeClaim(w, i); ok { // consumeclaim.go
		return c, "", ""
	}
	if why := simOnlyEvent(&e); why != "" {
		return claim{}, why, ""
	}
	switch e.Kind {
	case engine.EvSeqCheck:
		return d.seqClaim(w, i, &e)
	case engine.EvAppend:
		return d.appendClaim(w, i, &e) // appendclaim.go
	case engine.EvMarker:
		t, _, off, ok := e.MarkerAppended()
		if !ok {
			return claim{}, "the leader refusing a marker answers the coordinator's WriteTxnMarkers, traffic between brokers the wire wrapper does not carry", ""
		}
		pid, epoch, _ := e.Producer()
		nth := 0
		if pl := w.Partition(e.TP); pl != nil {
			for _, b := range pl.Batches {
				if b.BaseOffset <= off && b.Control && b.Marker == t && b.ProducerID == pid && b.ProducerEpoch == epoch {
					nth++
				}
			}
		}
		return d.markerClaim(e.TP, off, t.String(), pid, epoch, nth), "", ""
	case engine.EvTxnState:
		return d.durableClaim(w, &e)
	case engine.EvTxnLog:
		// The write becomes durable later: the next durable transition of
		// the same id (one write of an id is pending at a time).
		for j := i + 1; j < w.EventCount(); j++ {
			n := w.EventAt(j)
			if n.Kind == engine.EvTxnState && n.TxnID == e.TxnID {
				if _, _, _, ok := n.Durable(); ok {
					return d.durableClaim(w, &n)
				}
			}
		}
		return claim{}, "", "the simulation's write is not durable yet"
	case engine.EvClientError:
		return d.clientErrorClaim(w, i, &e)
	case engine.EvSend, engine.EvDeliver:
		if e.Message == nil {
			return claim{}, "", "a send or delivery without a message"
		}
		return d.messageClaim(w, &e)
	}
	return claim{}, "", "an event of kind " + e.Kind.String() + " is not compared yet"
}

// seqClaim: a leader's decision on a produce batch.
func (d *driver) seqClaim(w *engine.World, i int, e *engine.Event) (claim, string, string) {
	pid, epoch, hasPID := e.Producer()
	if seq, n, off, ok := e.Accepted(); ok {
		return d.logClaim(e.TP, off, false, "", pid, epoch, seq, n), "", ""
	}
	if !hasPID {
		if e.Code != engine.None {
			// Verification failed: the produce is answered with the code.
			return d.produceAnswer(e.TP, -1, 0, -1, e.Code, true), "", ""
		}
		return claim{}, "a step of the leader before its decision (a verification under way, KIP-890); its outcome is the Produce answer", ""
	}
	seq := producedSeq(w, i, e.TP, pid, epoch)
	if e.Code != engine.None {
		return d.produceAnswer(e.TP, pid, epoch, seq, e.Code, true), "", ""
	}
	if e.Rule.Has(engine.RuleSeqDuplicate) {
		return d.produceAnswer(e.TP, pid, epoch, seq, engine.None, true), "", ""
	}
	return claim{}, "", "a leader decision of this kind is not compared yet"
}

// producedSeq is the base sequence of the Produce the leader decided on:
// the newest delivery to the leader of a batch of tp from pid and epoch
// before event i (-1 when none).
func producedSeq(w *engine.World, i int, tp engine.TP, pid int64, epoch int16) int32 {
	for j := i - 1; j >= 0; j-- {
		e := w.EventAt(j)
		if e.Kind != engine.EvDeliver || e.Message == nil {
			continue
		}
		if r, ok := e.Message.Body.(*engine.ProduceRequest); ok && r.TP == tp && len(r.Batches) > 0 &&
			r.Batches[0].ProducerID == pid && r.Batches[0].ProducerEpoch == epoch {
			return r.Batches[0].BaseSequence
		}
	}
	return -1
}

// logClaim: a batch (or a marker) at offset in tp's log.
func (d *driver) logClaim(tp engine.TP, off int64, control bool, marker string, pid int64, epoch int16, seq, count int32) claim {
	what := fmt.Sprintf("%s batch at %d pid=%d epoch=%d", tp, off, pid, epoch)
	if control {
		what = fmt.Sprintf("%s %s marker at %d pid=%d epoch=%d", tp, strings.ToLower(marker), off, pid, epoch)
	} else {
		what += fmt.Sprintf(" seq=%d count=%d", seq, count)
	}
	return claim{what: what, byKey: true, check: func(int) (int, string, string) {
		l, err := d.log(script.Partition{Topic: tp.Topic, N: tp.Partition})
		if err != nil {
			return 0, "", "fetch failed: " + err.Error()
		}
		for _, b := range l.Batches {
			if b.BaseOffset != off {
				continue
			}
			shown := fmt.Sprintf("batch at %d pid=%s epoch=%d seq=%d count=%d control=%v", b.BaseOffset, d.simPID(b.ProducerID), b.ProducerEpoch, b.BaseSequence, b.Records, b.Control)
			if b.Control {
				shown = fmt.Sprintf("%s marker at %d pid=%s epoch=%d", strings.ToLower(b.Marker), b.BaseOffset, d.simPID(b.ProducerID), b.ProducerEpoch)
			}
			ok := b.Control == control && d.simPID(b.ProducerID) == strconv.FormatInt(pid, 10) && b.ProducerEpoch == epoch
			if control {
				ok = ok && strings.EqualFold(b.Marker, marker)
			} else {
				ok = ok && b.BaseSequence == seq && int32(b.Records) == count
			}
			if ok {
				return 1, shown, ""
			}
			return 0, shown, ""
		}
		return 0, fmt.Sprintf("no batch at offset %d of %s", off, tp), ""
	}}
}

// markerClaim: the nth marker of its type from pid and epoch in tp's log
// (the simulation's is at off). The offset is not the fact: when one
// check of the coordinator ends several transactions at once (a timeout
// of two ids), the brokers' markers land in the order the coordinator's
// TransactionMarkerChannelManager sends them, which the simulation does
// not pin; the marker's type, producer and epoch are, and which of that
// producer's markers it is.
func (d *driver) markerClaim(tp engine.TP, off int64, marker string, pid int64, epoch int16, nth int) claim {
	what := fmt.Sprintf("%s %s marker pid=%d epoch=%d (its marker number %d of that producer and epoch; the simulation's at %d)", tp, strings.ToLower(marker), pid, epoch, nth, off)
	fact := fmt.Sprintf("%s %s marker pid=%d epoch=%d (its marker number %d of that producer and epoch)", tp, strings.ToLower(marker), pid, epoch, nth)
	return claim{what: what, fact: fact, byKey: true, check: func(int) (int, string, string) {
		l, err := d.log(script.Partition{Topic: tp.Topic, N: tp.Partition})
		if err != nil {
			return 0, "", "fetch failed: " + err.Error()
		}
		n, atOff := 0, fmt.Sprintf("no batch at offset %d of %s", off, tp)
		for _, b := range l.Batches {
			shown := fmt.Sprintf("%s marker at %d pid=%s epoch=%d", strings.ToLower(b.Marker), b.BaseOffset, d.simPID(b.ProducerID), b.ProducerEpoch)
			if b.BaseOffset == off {
				atOff = shown
				if !b.Control {
					atOff = fmt.Sprintf("batch at %d pid=%s epoch=%d (data)", b.BaseOffset, d.simPID(b.ProducerID), b.ProducerEpoch)
				}
			}
			if b.Control && strings.EqualFold(b.Marker, marker) && d.simPID(b.ProducerID) == strconv.FormatInt(pid, 10) && b.ProducerEpoch == epoch {
				if n++; n == nth {
					return 1, shown, ""
				}
			}
		}
		return 0, atOff, ""
	}}
}

// durableClaim: a coordinator's write, durable in __transaction_state.
func (d *driver) durableClaim(w *engine.World, e *engine.Event) (claim, string, string) {
	part, off, _, ok := e.Durable()
	if !ok {
		if _, to, ok := e.Change.Txn(); ok && to == engine.PrepareEpochFence {
			return claim{}, "PrepareEpochFence is a state in coordinator memory (TransactionMetadata.prepareFenceProducerEpoch), never written to __transaction_state", ""
		}
		return claim{}, "a coordinator state change with no record of its own (a load, a tombstone's effect), coordinator memory", ""
	}
	tsp := w.TxnStatePartition(part)
	if tsp == nil || off < 0 || off >= int64(len(tsp.Log)) {
		return claim{}, "", "the simulation's record is gone"
	}
	rec := tsp.Log[off]
	// The n-th record of the id with this state, pid and epoch: under the
	// classic protocol a producer's transactions share one epoch.
	n := 0
	for _, r := range tsp.Log[:off+1] {
		if r.TransactionalID == rec.TransactionalID && !r.Tombstone && r.State == rec.State && r.ProducerID == rec.ProducerID && r.ProducerEpoch == rec.ProducerEpoch {
			n++
		}
	}
	if rec.State == engine.Ongoing {
		return d.ongoingClaim(tsp.Log[:off+1], rec), "", ""
	}
	what := fmt.Sprintf("%s %s pid=%d epoch=%d in %s (record %d of these)", rec.TransactionalID, rec.State, rec.ProducerID, rec.ProducerEpoch, txnStateTopic, n)
	return claim{what: what, byKey: true, check: func(int) (int, string, string) {
		recs, err := d.txnLog()
		if err != nil {
			return 0, "", err.Error()
		}
		m := 0
		var mine []string
		for _, r := range recs {
			if r.TxnID != rec.TransactionalID || r.Tombstone {
				continue
			}
			mine = append(mine, fmt.Sprintf("%s pid=%s epoch=%d", r.State, d.simPID(r.PID), r.Epoch))
			if r.State == rec.State.String() && d.simPID(r.PID) == strconv.FormatInt(rec.ProducerID, 10) && r.Epoch == rec.ProducerEpoch {
				m++
			}
		}
		shown := "records " + strings.Join(mine, ", ")
		if len(mine) == 0 {
			shown = "no record of the id"
		}
		if m >= n {
			return 1, shown, ""
		}
		return 0, shown, ""
	}}, "", ""
}

// clientErrorClaim: a client's error is a broker's when the simulated
// client got it in a delivered answer.
func (d *driver) clientErrorClaim(w *engine.World, i int, e *engine.Event) (claim, string, string) {
	if e.Code == engine.None {
		return claim{}, "the Java client's own error or exception, not a broker's answer", ""
	}
	if _, ok := d.decls[e.Actor]; !ok {
		if _, ok := d.cdecls[e.Actor]; !ok {
			j := answerAt(w, i, e)
			if to := answeredTo(w, j); strings.HasPrefix(to, "broker-") {
				// A coordinator refusing a leader's request (the
				// verification of KIP-890): between brokers.
				return claim{}, "a broker's answer to " + to + " is traffic between brokers the wire wrapper does not carry; what the client got is compared by its own answer", ""
			}
			if j >= 0 {
				// A broker answering with the error: the answer it sends
				// next with the code (its kind, to its client).
				n := w.EventAt(j)
				if c, ok := d.answerClaimOf(w, &n, "the broker's answer: "); ok {
					return c, "", ""
				}
			}
			// To one of the file's clients, whichever asked.
			return d.answerClaim("", "", e.Code, true), "", ""
		}
	}
	// The client's error stands for the answers it got with the code so
	// far (one answer can surface as several errors: a failed send, then
	// the commit that fails on it).
	n := 0
	for j := i; j >= 0; j-- {
		m := w.EventAt(j)
		if m.Kind == engine.EvDeliver && m.Message != nil && m.Message.Kind.IsResponse() && m.Message.To == e.Actor && m.Message.Code() == e.Code {
			n++
		}
	}
	if n > 0 {
		c := d.answerClaim(e.Actor, "", e.Code, false)
		c.nth = n
		return c, "", ""
	}
	return claim{}, "the Java client's own error (no broker answer carried " + e.Code.String() + ")", ""
}

// messageClaim: a request or answer between a file's client and a broker.
func (d *driver) messageClaim(w *engine.World, e *engine.Event) (claim, string, string) {
	m := e.Message
	if why := d.skippedWhy(m); why != "" { // refused.go
		return claim{}, "", why
	}
	name := m.Kind.String()
	base, isResp := strings.CutSuffix(name, "Response")
	client := m.From
	if isResp {
		client = m.To
	}
	_, isProducer := d.decls[client]
	_, isConsumer := d.cdecls[client]
	// "expert" is the simulation's sender of injected batches; the
	// driver's expert client is observed too.
	if !isProducer && !isConsumer && client != "expert" {
		return claim{}, name + " between " + m.From + " and " + m.To + " is traffic the wire wrapper does not carry (it sits on the file's clients' connections)", ""
	}
	if _, ok := keys[base]; !ok {
		return claim{}, "", name + " has no wire mapping"
	}
	if !isResp {
		// A client's request: sent (the wrapper saw it) or delivered (it
		// reached the broker: not dropped).
		return d.requestClaim(client, base, m, e.Kind == engine.EvDeliver), "", ""
	}
	if r, ok := m.Body.(*engine.ProduceResponse); ok {
		c := d.produceAnswer(r.TP, -1, 0, -1, r.Code, e.Kind == engine.EvSend)
		if r.Code == engine.None && !r.Duplicate {
			c = d.answers(c.what+fmt.Sprintf(" baseOffset=%d", r.BaseOffset), &answerSpec{client, kmsg.Produce, e.Kind == engine.EvSend, func(x *obsAnswer) bool {
				return x.tp == d.name(r.TP.Topic) && x.part == r.TP.Partition && x.code == 0 && x.baseOffset == r.BaseOffset
			}})
		}
		return c, "", ""
	}
	code := m.Code()
	if r, ok := m.Body.(*engine.InitProducerIDResponse); ok && code == engine.None {
		what := fmt.Sprintf("InitProducerId answer to %s: pid=%d epoch=%d", client, r.ProducerID, r.ProducerEpoch)
		return d.answers(what, &answerSpec{client, kmsg.InitProducerID, e.Kind == engine.EvSend, func(x *obsAnswer) bool {
			return x.code == 0 && d.simPID(x.pid) == strconv.FormatInt(r.ProducerID, 10) && x.epoch == r.ProducerEpoch
		}}), "", ""
	}
	c := d.answerClaim(client, base, code, e.Kind == engine.EvSend)
	return c, "", ""
}

// produceAnswer: a Produce answer for tp (from pid at epoch with base
// sequence seq, where pid >= 0 and seq >= 0) with code. sent counts the
// answers the broker sent (lost ones and the answers to duplicates'
// copies too); else those the client got.
func (d *driver) produceAnswer(tp engine.TP, pid int64, epoch int16, seq int32, code engine.ErrorCode, sent bool) claim {
	what := fmt.Sprintf("Produce answer for %s with %s", tp, code)
	if pid >= 0 {
		what = fmt.Sprintf("Produce answer for %s pid=%d epoch=%d", tp, pid, epoch)
		if seq >= 0 {
			what += fmt.Sprintf(" seq=%d", seq)
		}
		what += " with " + code.String()
	}
	return d.answers(what, &answerSpec{"", kmsg.Produce, sent, func(x *obsAnswer) bool {
		if x.tp != d.name(tp.Topic) || x.part != tp.Partition || x.code != int16(code) {
			return false
		}
		if pid >= 0 && (d.simPID(x.pid) != strconv.FormatInt(pid, 10) || x.epoch != epoch) {
			return false
		}
		return seq < 0 || x.seq == seq
	}})
}

// answerClaim: an answer to client (of the request base, any when "")
// carrying code.
func (d *driver) answerClaim(client, base string, code engine.ErrorCode, sent bool) claim {
	kind := "an answer"
	key := kmsg.Key(-1)
	if base != "" {
		kind, key = base+" answer", keys[base]
	}
	to := client
	if to == "" {
		to = "a client"
	}
	what := fmt.Sprintf("%s to %s with %s", kind, to, code)
	return d.answers(what, &answerSpec{client, key, sent, func(x *obsAnswer) bool { return x.code == int16(code) }})
}

// requestClaim: a request of kind base from client, with the producer id,
// epoch (and for Produce, partition and base sequence) the simulation's
// carried. delivered excludes a request the wrapper dropped.
func (d *driver) requestClaim(client, base string, m *engine.Message, delivered bool) claim {
	key := keys[base]
	tp, pid, epoch, seq := requestOf(m)
	what := base + " from " + client
	if tp != nil {
		what += " for " + tp.String()
	}
	if pid >= 0 {
		what += fmt.Sprintf(" pid=%d epoch=%d", pid, epoch)
	}
	if seq >= 0 {
		what += fmt.Sprintf(" seq=%d", seq)
	}
	return claim{what: what, wire: true, byKey: true, check: func(scope int) (int, string, string) {
		n := 0
		var shown []string
		for _, o := range d.obs.exchanges() {
			if o.x.Resp != nil || o.x.Err != nil || o.x.Copy || o.client != client || kmsg.Key(o.x.Req.Key()) != key || (scope > 0 && o.line != scope) {
				continue
			}
			if delivered && o.x.Dropped {
				continue
			}
			for _, r := range requestFacts(o.x.Req, d.topicName) {
				if tp != nil && (r.tp != d.name(tp.Topic) || r.part != tp.Partition) {
					continue
				}
				shown = append(shown, r.String(d))
				if pid >= 0 && (d.simPID(r.pid) != strconv.FormatInt(pid, 10) || r.epoch != epoch) {
					continue
				}
				if seq >= 0 && r.seq != seq {
					continue
				}
				n++
			}
		}
		if len(shown) == 0 {
			return n, "no " + base + " from " + client, ""
		}
		return n, strings.Join(firstN(shown, 4), "; "), ""
	}}
}

// requestOf is what a request carries that its claims name: the
// partition (Produce), the producer id and epoch (-1 when none), and a
// Produce's base sequence (-1 when none).
func requestOf(m *engine.Message) (tp *engine.TP, pid int64, epoch int16, seq int32) {
	pid, seq = -1, -1
	switch b := m.Body.(type) {
	case *engine.ProduceRequest:
		tp = &b.TP
		if len(b.Batches) > 0 {
			pid, epoch = b.Batches[0].ProducerID, b.Batches[0].ProducerEpoch
			if pid >= 0 {
				seq = b.Batches[0].BaseSequence
			}
		}
	case *engine.InitProducerIDRequest:
		pid, epoch = b.ProducerID, b.ProducerEpoch
	case *engine.AddPartitionsToTxnRequest:
		pid, epoch = b.ProducerID, b.ProducerEpoch
	case *engine.AddOffsetsToTxnRequest:
		pid, epoch = b.ProducerID, b.ProducerEpoch
	case *engine.EndTxnRequest:
		pid, epoch = b.ProducerID, b.ProducerEpoch
	case *engine.TxnOffsetCommitRequest:
		pid, epoch = b.ProducerID, b.ProducerEpoch
	}
	return tp, pid, epoch, seq
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return append(slices.Clone(s[:n]), fmt.Sprintf("(%d more)", len(s)-n))
	}
	return s
}

// ongoingClaim: an Ongoing record. A client adds a transaction's
// partitions in as many AddPartitionsToTxn requests as it likes (the Java
// producer one per answer, franz-go several at once), each an Ongoing
// record; what the broker shows is the k-th transaction's run of Ongoing
// records, whose last holds the partitions the simulation's record has,
// at the same producer id and epoch.
func (d *driver) ongoingClaim(log []engine.TxnLogRecord, rec engine.TxnLogRecord) claim {
	k, prev := 0, engine.Dead
	for _, r := range log {
		if r.TransactionalID != rec.TransactionalID {
			continue
		}
		if r.State == engine.Ongoing && prev != engine.Ongoing {
			k++
		}
		prev = r.State
	}
	var want []string
	for _, tp := range rec.Partitions {
		want = append(want, tp.String())
	}
	what := fmt.Sprintf("%s Ongoing pid=%d epoch=%d partitions %s in %s (transaction %d)", rec.TransactionalID, rec.ProducerID, rec.ProducerEpoch, strings.Join(want, ","), txnStateTopic, k)
	return claim{what: what, byKey: true, check: func(int) (int, string, string) {
		recs, err := d.txnLog()
		if err != nil {
			return 0, "", err.Error()
		}
		runs, prev := 0, ""
		var last *txnRecord
		for i := range recs {
			r := &recs[i]
			if r.TxnID != rec.TransactionalID || r.Tombstone {
				continue
			}
			if r.State == "Ongoing" && prev != "Ongoing" {
				runs++
			}
			if r.State == "Ongoing" && runs == k {
				last = r
			}
			prev = r.State
		}
		if last == nil {
			return 0, fmt.Sprintf("%d transactions of the id in %s", runs, txnStateTopic), ""
		}
		shown := fmt.Sprintf("Ongoing pid=%s epoch=%d partitions %s", d.simPID(last.PID), last.Epoch, strings.Join(last.Partitions, ","))
		ok := d.simPID(last.PID) == strconv.FormatInt(rec.ProducerID, 10) && last.Epoch == rec.ProducerEpoch
		for _, p := range want {
			ok = ok && (slices.Contains(last.Partitions, p) || strings.HasPrefix(p, "__consumer_offsets") && hasPrefixIn(last.Partitions, "__consumer_offsets"))
		}
		if ok {
			return 1, shown, ""
		}
		return 0, shown, ""
	}}
}

func hasPrefixIn(s []string, prefix string) bool {
	for _, x := range s {
		if strings.HasPrefix(x, prefix) {
			return true
		}
	}
	return false
}

// answerAt is the answer the broker's error event i stands for: the
// first answer with its code the broker (the actor, or the broker a
// coordinator(B) actor names) sends after it (-1 if none follows).
func answerAt(w *engine.World, i int, e *engine.Event) int {
	from := e.Actor
	if in, ok := strings.CutPrefix(from, "coordinator("); ok {
		from = strings.TrimSuffix(in, ")")
	}
	for j := i + 1; j < w.EventCount(); j++ {
		n := w.EventAt(j)
		if m := n.Message; n.Kind == engine.EvSend && m != nil && m.Kind.IsResponse() && m.From == from && m.Code() == e.Code {
			return j
		}
	}
	return -1
}

// answeredTo is whom answer event j is sent to ("" for none).
func answeredTo(w *engine.World, j int) string {
	if j < 0 {
		return ""
	}
	return w.EventAt(j).Message.To
}

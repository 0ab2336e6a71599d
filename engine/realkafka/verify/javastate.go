package verify

import (
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine"
)

// "expect producer X state S" on the broker run. The state is the Java
// client's (TransactionManager.State), which the broker run's franz-go
// client does not keep; but the Java state follows from the file's calls
// and the answers the broker gave to them, and the broker run sees those
// answers on the wire. javaState replays the producer's calls and the
// broker's answers to its client, in the order they happened, through
// Java's handling of each answer (Kafka's TransactionManager: the
// TxnRequestHandler subclasses' handleResponse, and for Produce
// maybeTransitionToErrorState via Sender.failBatch). A broker answer that
// puts Java in another state than the simulation's is a difference.
//
// The table is written here rather than taken from the engine on purpose:
// the engine's client model is what is being checked.

// callMark is a file call of a producer on the broker run, placed between
// the observed exchanges: it started (or ended, end) before exchange at.
type callMark struct {
	client string
	m      engine.Method
	at     int
	end    bool
	line   int // the file line being played when it ran
}

// queuedCall is a file call of a producer the driver queued until the
// next quiet point; started once its worker runs it.
type queuedCall struct {
	client  string
	m       engine.Method
	started bool
}

// queueCall notes client's call m, queued now.
func (o *observer) queueCall(client string, m engine.Method) *queuedCall {
	q := &queuedCall{client: client, m: m}
	if o != nil {
		o.mu.Lock()
		o.queued = append(o.queued, q)
		o.mu.Unlock()
	}
	return q
}

// markCall notes that the queued call q starts now; the returned function
// notes its end.
func (o *observer) markCall(q *queuedCall) func() {
	if o == nil {
		return func() {}
	}
	note := func(end bool) {
		o.mu.Lock()
		q.started = true
		o.calls = append(o.calls, callMark{q.client, q.m, len(o.seen), end, int(o.line.Load())})
		o.mu.Unlock()
	}
	note(false)
	return func() { note(true) }
}

// callMarks are the calls run so far, and the calls of client still
// queued.
func (o *observer) callMarks(client string) ([]callMark, []engine.Method) {
	o.mu.Lock()
	defer o.mu.Unlock()
	var waiting []engine.Method
	for _, q := range o.queued {
		if !q.started && q.client == client {
			waiting = append(waiting, q.m)
		}
	}
	return slices.Clone(o.calls), waiting
}

// javaTM is the part of Java's TransactionManager the replay keeps.
type javaTM struct {
	state         string
	transactional bool
	tv2           bool
	bump          bool // epochBumpRequired
	started       bool // transactionStarted: a partition or offsets were added
	ended         bool // an EndTxn answer came during the current commit/abort
	bumping       bool // completeTransaction left INITIALIZING: InitProducerId(pid, epoch) next
	last          string
}

const (
	stUninitialized = "UNINITIALIZED"
	stInitializing  = "INITIALIZING"
	stReady         = "READY"
	stInTxn         = "IN_TRANSACTION"
	stCommitting    = "COMMITTING_TRANSACTION"
	stAborting      = "ABORTING_TRANSACTION"
	stAbortable     = "ABORTABLE_ERROR"
	stFatal         = "FATAL_ERROR"
)

func (t *javaTM) to(s, why string) {
	if t.state == stFatal {
		return // TransactionManager.isTransitionValid: nothing leaves FATAL_ERROR but close
	}
	t.state, t.last = s, why
}

// abortable is transitionToAbortableError: skipped while aborting.
func (t *javaTM) abortable(why string) {
	if t.state == stAborting || t.state == stFatal {
		return
	}
	t.to(stAbortable, why)
}

// abortableIfPossible is TxnRequestHandler.abortableErrorIfPossible: the
// coordinator of Kafka 4 supports InitProducerId v3+ (canBumpEpoch); under
// transaction.version 2 the bump comes with EndTxn v5, not from the client.
func (t *javaTM) abortableIfPossible(why string) {
	if !t.tv2 {
		t.bump = true
	}
	t.abortable(why)
}

// complete is completeTransaction.
func (t *javaTM) complete(why string) {
	if t.bump {
		t.to(stInitializing, why+", epochBumpRequired: InitProducerId next")
		t.bumping = true
	} else {
		t.to(stReady, why)
	}
	t.bump, t.started = false, false
}

func (t *javaTM) call(m engine.Method, end bool) error {
	if !t.transactional {
		return nil
	}
	if end {
		if t.bumping && t.state == stInitializing {
			return fmt.Errorf("%s ended without the InitProducerId of the epoch bump on the broker run (franz-go's), which the Java client sends after EndTxn (TransactionManager.beginCompletingTransaction)", m)
		}
		if (m == engine.CallCommitTransaction || m == engine.CallAbortTransaction) && (t.state == stCommitting || t.state == stAborting) && !t.ended {
			if t.started {
				// Java sends EndTxn here; no answer to it was seen.
				return fmt.Errorf("%s ended without an EndTxn answer on the broker run, where the Java client sends EndTxn", m)
			}
			// TransactionManager.nextRequest: no partition or offsets
			// added, the EndTxn is not sent.
			t.complete(m.String() + " with nothing added: completed without EndTxn (TransactionManager.nextRequest)")
			if t.bumping {
				// Java's call waits for the bump's InitProducerId,
				// which it sends at once; franz-go's call has ended.
				return fmt.Errorf("%s ended without the InitProducerId of the epoch bump on the broker run (franz-go's), which the Java client sends when it completes the transaction with nothing added (TransactionManager.nextRequest, completeTransaction)", m)
			}
		}
		return nil
	}
	switch m {
	case engine.CallInitTransactions:
		if t.state == stUninitialized {
			t.to(stInitializing, "initTransactions")
		}
	case engine.CallBeginTransaction:
		if t.state == stReady {
			t.to(stInTxn, "beginTransaction")
		}
	case engine.CallCommitTransaction:
		if t.state == stInTxn {
			t.ended = false
			t.to(stCommitting, "commitTransaction")
		}
	case engine.CallAbortTransaction:
		if t.state == stInTxn || t.state == stAbortable {
			t.ended = false
			t.to(stAborting, "abortTransaction")
		}
	}
	return nil
}

// retriable is Java's RetriableException for a code (kerr keeps the
// same classification, from the protocol's error table).
func retriable(code int16) bool {
	if code == kerr.ConcurrentTransactions.Code {
		return true // ConcurrentTransactionsException extends RetriableException; kerr says false
	}
	var ke *kerr.Error
	return errors.As(kerr.ErrorForCode(code), &ke) && ke.Retriable
}

func isCode(code int16, errs ...*kerr.Error) bool {
	for _, e := range errs {
		if e.Code == code {
			return true
		}
	}
	return false
}

// answer applies one broker answer to the producer's client.
func (t *javaTM) answer(a obsAnswer) error {
	name := errName(kerr.ErrorForCode(a.code))
	if a.code == 0 {
		name = "NONE"
	}
	why := func(handler string) string {
		return fmt.Sprintf("%s answered %s (TransactionManager.%s)", kafkaName(a.key), name, handler)
	}
	fenced := isCode(a.code, kerr.InvalidProducerEpoch, kerr.ProducerFenced)
	switch a.key {
	case kmsg.InitProducerID:
		if t.state != stInitializing {
			return fmt.Errorf("an InitProducerId answer in %s, where the Java client sends none", t.state)
		}
		h := "InitProducerIdHandler.handleResponse"
		switch {
		case a.code == 0:
			t.bump, t.bumping = false, false
			t.to(stReady, why(h))
		case retriable(a.code):
		case isCode(a.code, kerr.TransactionalIDAuthorizationFailed, kerr.ClusterAuthorizationFailed, kerr.TransactionAbortable):
			t.abortable(why(h))
		default: // fenced, and any other: fatalError
			t.to(stFatal, why(h))
		}
	case kmsg.EndTxn:
		if t.state != stCommitting && t.state != stAborting {
			return fmt.Errorf("an EndTxn answer in %s, where the Java client sends none", t.state)
		}
		h := "EndTxnHandler.handleResponse"
		switch {
		case a.code == 0:
			t.ended = true
			t.complete(why(h))
		case retriable(a.code):
		case fenced || isCode(a.code, kerr.TransactionalIDAuthorizationFailed, kerr.InvalidTxnState):
			t.ended = true
			t.to(stFatal, why(h))
		case isCode(a.code, kerr.UnknownProducerID, kerr.InvalidProducerIDMapping, kerr.TransactionAbortable):
			// Kafka 4.x differs here by transaction.version and by
			// whether the transaction is aborting: not read.
			return fmt.Errorf("EndTxn answered %s", name)
		default:
			t.ended = true
			t.to(stFatal, why(h))
		}
	case kmsg.AddPartitionsToTxn:
		h := "AddPartitionsToTxnHandler.handleResponse"
		switch {
		case a.code == 0:
			t.started = true
		case retriable(a.code) || isCode(a.code, kerr.ConcurrentTransactions, kerr.OperationNotAttempted):
		case fenced || isCode(a.code, kerr.TransactionalIDAuthorizationFailed, kerr.InvalidTxnState):
			t.to(stFatal, why(h))
		case isCode(a.code, kerr.UnknownProducerID, kerr.InvalidProducerIDMapping):
			t.abortableIfPossible(why(h))
		default: // TOPIC_AUTHORIZATION_FAILED, TRANSACTION_ABORTABLE, any other
			t.abortable(why(h))
		}
	case kmsg.AddOffsetsToTxn:
		h := "AddOffsetsToTxnHandler.handleResponse"
		switch {
		case a.code == 0:
			t.started = true
		case retriable(a.code):
		case isCode(a.code, kerr.UnknownProducerID, kerr.InvalidProducerIDMapping):
			t.abortableIfPossible(why(h))
		case isCode(a.code, kerr.GroupAuthorizationFailed, kerr.TransactionAbortable):
			t.abortable(why(h))
		default: // fenced, TRANSACTIONAL_ID_AUTHORIZATION_FAILED, INVALID_TXN_STATE, any other
			t.to(stFatal, why(h))
		}
	case kmsg.TxnOffsetCommit:
		h := "TxnOffsetCommitHandler.handleResponse"
		if t.tv2 {
			// KIP-890 part 2: sendOffsetsToTransaction sets
			// transactionStarted when it queues TxnOffsetCommit v5,
			// whatever the answer (v5 adds the offsets partition).
			t.started = true
		}
		switch {
		case a.code == 0:
		case retriable(a.code):
		case isCode(a.code, kerr.GroupAuthorizationFailed, kerr.FencedInstanceID, kerr.TransactionAbortable, kerr.UnknownMemberID, kerr.IllegalGeneration):
			t.abortable(why(h))
		default: // fenced, TRANSACTIONAL_ID_AUTHORIZATION_FAILED, any other
			t.to(stFatal, why(h))
		}
	case kmsg.Produce:
		h := "maybeTransitionToErrorState, from Sender.failBatch"
		switch {
		case a.code == 0 || a.code == kerr.DuplicateSequenceNumber.Code:
			if t.transactional && t.tv2 {
				t.started = true // the partition is added by the Produce (KIP-890)
			}
		case retriable(a.code):
			// Sender.canRetry: sent again. OUT_OF_ORDER_SEQUENCE_NUMBER
			// is retried only behind a failed batch
			// (TransactionManager.canRetry), which the replay does not see.
		case isCode(a.code, kerr.ClusterAuthorizationFailed, kerr.TransactionalIDAuthorizationFailed, kerr.ProducerFenced, kerr.UnsupportedVersion):
			t.to(stFatal, why(h))
		case t.transactional:
			if !t.tv2 && t.state != stCommitting && t.state != stAborting {
				t.bump = true
			}
			t.abortable(why(h))
		}
	}
	return nil
}

// javaState replays the producer name's calls and the broker's answers to
// it: the Java client's state, the answer or call that set it, or why it
// is not read.
func (d *driver) javaState(name string) (string, string, string) {
	o := d.obs
	if o == nil {
		return "", "", "no observation log"
	}
	restarts, why := d.producerRestarts(name)
	if why != "" {
		return "", "", why
	}
	fresh := func() *javaTM {
		return &javaTM{state: stUninitialized, transactional: d.decls[name].Config.TransactionalID != "", tv2: d.simTV >= 2, last: "no call yet"}
	}
	t := fresh()
	if !t.transactional {
		return "", "", "the state of a producer without transactional.id is not read from the wire yet"
	}
	// A restart is a new instance (a new TransactionManager): what ran
	// on a later file line is the new instance's.
	instance := func(line int) {
		for len(restarts) > 0 && line > restarts[0] {
			t, restarts = fresh(), restarts[1:]
		}
	}
	xs := o.exchanges()
	marks, waiting := o.callMarks(name)
	mi := 0
	apply := func(upto int) error {
		for ; mi < len(marks) && marks[mi].at <= upto; mi++ {
			if m := marks[mi]; m.client == name {
				instance(m.line)
				if err := t.call(m.m, m.end); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for i, x := range xs {
		if err := apply(i); err != nil {
			return "", "", err.Error()
		}
		if x.client != name || x.x.Resp == nil || x.x.Lost || x.x.Copy {
			continue
		}
		instance(x.line)
		for _, a := range answerFacts(x.x.Req, x.x.Resp, d.topicName) {
			if debug {
				fmt.Fprintf(os.Stderr, "javaState %s in %s: %s\n", name, t.state, a.String(d))
			}
			if err := t.answer(a); err != nil {
				return "", "", err.Error()
			}
		}
	}
	if err := apply(len(xs)); err != nil {
		return "", "", err.Error()
	}
	// Calls the driver holds until the next quiet point: beginTransaction
	// is the Java client's own (TransactionManager.beginTransaction sends
	// nothing); any other waits for the broker's answers.
	for _, m := range waiting {
		if m != engine.CallBeginTransaction {
			return "", "", m.String() + " waits on the broker run until the next quiet point"
		}
		if err := t.call(m, false); err != nil {
			return "", "", err.Error()
		}
	}
	return t.state, t.last, ""
}

// producerRestarts are the file lines before the one being judged that
// restart the producer; why is set when it was crashed and not restarted
// since (no instance to read).
func (d *driver) producerRestarts(name string) ([]int, string) {
	var lines []int
	crashed := 0
	for _, c := range d.cmds[:min(d.at+1, len(d.cmds))] {
		switch a := c.Action.(type) {
		case engine.Crash:
			if a.Target.Client == name {
				crashed = c.Line
			}
		case engine.Restart:
			if a.Target.Client == name {
				lines, crashed = append(lines, c.Line), 0
			}
		}
	}
	if crashed > 0 {
		return nil, fmt.Sprintf("line %d crashes %s, with no restart since: no instance whose state to read", crashed, name)
	}
	return lines, ""
}

// mirrorJavaState is javaState for a mirrored producer (mirror.go): its
// requests reach the broker when the simulation delivers them, and its
// Java client takes the answers when the simulation delivers those, so
// the replay follows the simulation's order of calls and taken answers,
// each answer the broker's to the same raw request.
func (d *driver) mirrorJavaState(name string, p *producer) (string, string, string) {
	fresh := func() *javaTM {
		return &javaTM{state: stUninitialized, transactional: d.decls[name].Config.TransactionalID != "", tv2: d.simTV >= 2, last: "no call yet"}
	}
	t := fresh()
	if !t.transactional {
		return "", "", "the state of a producer without transactional.id is not read from the wire yet"
	}
	for _, it := range p.mirror.log {
		switch {
		case it.restart:
			t = fresh()
		case it.answer == nil:
			if err := t.call(it.m, it.end); err != nil {
				return "", "", err.Error()
			}
		default:
			m := it.answer
			req, resp := p.mirror.reqs[m.Corr], p.mirror.answers[m.Corr]
			if req == nil {
				continue // FindCoordinator: kgo finds coordinators itself
			}
			if resp == nil {
				return "", "", "the broker did not answer " + m.Kind.String() + "'s request"
			}
			for _, a := range answerFacts(req, resp, d.topicName) {
				if err := t.answer(a); err != nil {
					return "", "", err.Error()
				}
			}
		}
	}
	return t.state, t.last, ""
}

package engine

import "fmt"

// ActionError is a semantic error of an action (the parser catches syntax).
type ActionError struct{ Msg string }

func (e *ActionError) Error() string { return e.Msg }

func errf(format string, args ...any) error { return &ActionError{Msg: fmt.Sprintf(format, args...)} }

// Apply runs one action and returns the events it caused. It is the only
// way state changes, as raft's Step.
func (w *World) Apply(a Action) ([]Event, error) {
	start, err := w.applyAction(a)
	if a == nil {
		return nil, err
	}
	return w.events.slice(start, w.events.len()), err
}

// ApplyCount is Apply for a caller that does not read the events: it
// returns how many the action caused, the last n of EventCount (read them
// with EventAt or EventsSince, if ever), without copying them out. With
// hundreds of clients one Run causes tens of thousands of events, and
// Apply's copy of them was a third of the bytes such a run allocated,
// most of them for callers that dropped the copy (a benchmark, a replay
// that only builds a world).
func (w *World) ApplyCount(a Action) (n int, err error) {
	start, err := w.applyAction(a)
	if a == nil {
		return 0, err
	}
	return w.events.len() - start, err
}

// applyAction is Apply without the copy of the events it returns (a search steps
// a world per move and reads none: see ApplyForSearch and ApplyCount); start is the
// index of the action's first event.
func (w *World) applyAction(a Action) (start int, err error) {
	if a == nil {
		return 0, errf("no action")
	}
	w.dropCancelled() // the queue's first item is a live one (see cancelTimer)
	w.beginChanges()
	w.applying++
	defer func() { w.applying-- }()
	start = w.events.len()
	w.emit(EvAction, "scenario", saysAction, a)
	if c := addressedClient(a); c != "" {
		// The client a call addresses acts even when it emits nothing
		// (a send queued behind a full pipeline).
		w.changes.actor(c)
	}
	w.beginAction(a)
	err = w.apply(a)
	if err == nil && !isSetup(a) {
		w.runClientsAfter(a)
		w.checkInvariants()
	}
	if berr := w.endAction(); err == nil {
		err = berr
	}
	return start, err
}

// isSetup reports whether a declares the cluster, a topic or a client:
// declarations run no client and check no invariant.
func isSetup(a Action) bool {
	switch a.(type) {
	case Brokers, SetConfig, CreateTopic, DeclareProducer, DeclareConsumer, DeclareProcessor:
		return true
	}
	return false
}

// addressedClient is the client an action calls or declares, if any.
func addressedClient(a Action) string {
	switch a := a.(type) {
	case DeclareProducer:
		return a.Name
	case DeclareConsumer:
		return a.Name
	case DeclareProcessor:
		return a.Name
	case Call:
		return a.Client
	case Send:
		return a.Client
	case SendOffsets:
		return a.Client
	case CommitSync:
		return a.Client
	case Pause:
		return a.Client
	case Resume:
		return a.Client
	}
	return ""
}

func (w *World) start() {
	if w.started {
		return
	}
	w.started = true
	w.setTimer(w.config.AbortCheckIntervalMs, Timer{Kind: TimerAbortCheck, Owner: "cluster"})
	w.setTimer(w.config.ExpiryCheckIntervalMs, Timer{Kind: TimerExpiryCheck, Owner: "cluster"})
}

// apply dispatches on the action's type.
func (w *World) apply(a Action) error {
	switch a := a.(type) {
	case Brokers:
		return w.applyBrokers(a)
	case SetConfig:
		return w.applyConfig(a)
	case CreateTopic:
		return w.createTopic(a)
	case DeclareProducer:
		return w.declareProducer(a)
	case DeclareConsumer:
		return w.declareConsumer(a)
	case DeclareProcessor:
		return w.declareProcessor(a)
	}
	w.start()
	switch a := a.(type) {
	case Call:
		return w.applyCall(a)
	case Send:
		return w.applySend(a)
	case SendOffsets:
		return w.applySendOffsets(a)
	case CommitSync:
		return w.applyCommitSync(a)
	case Step:
		w.applyStepN(a)
	case Deliver:
		return w.applyDeliver(a)
	case Run:
		w.applyRun(a)
	case Advance:
		w.applyAdvance(a)
	case Drop:
		return w.applyDrop(a)
	case Duplicate:
		return w.applyDuplicate(a)
	case Delay:
		return w.applyDelay(a)
	case Reorder:
		return w.applyReorder(a)
	case Crash:
		return w.applyCrash(a.Target)
	case Restart:
		return w.applyRestart(a.Target)
	case Pause:
		return w.pauseClient(a.Client, true)
	case Resume:
		return w.pauseClient(a.Client, false)
	case Rebalance:
		return w.applyRebalance(a)
	case InjectBatch:
		return w.injectBatch(a)
	case InjectMarker:
		return w.injectMarker(a)
	case InjectTxnState:
		return w.injectTxnState(a)
	case InjectInitProducerID:
		return w.injectInitProducerID(a)
	case InjectAddPartitions:
		return w.injectAddPartitions(a)
	case InjectAddOffsets:
		return w.injectAddOffsets(a)
	case InjectEndTxn:
		return w.injectEndTxn(a)
	default:
		return errf("unknown action %T", a)
	}
	return nil
}

// runClients runs every client's loop once, in declaration order.
func (w *World) runClients() {
	for _, p := range w.producers {
		w.runProducer(p)
	}
	for _, pr := range w.processors {
		w.runProducer(pr.Producer)
		w.runProcessor(pr)
		w.runProducer(pr.Producer)
	}
}

// Busy reports whether anything other than the periodic coordinator checks
// is scheduled.
func (w *World) Busy() bool {
	for i := range w.queue.len() {
		it := w.queue.at(i)
		if w.isCancelled(it) {
			continue
		}
		if it.Kind == itemDeliver {
			return true
		}
		if it.Timer.Kind != TimerAbortCheck && it.Timer.Kind != TimerExpiryCheck {
			return true
		}
	}
	return false
}

// Step takes the next scheduled item. It returns false when nothing is
// scheduled, or when the action being applied has reached a limit (Limits).
func (w *World) Step() bool {
	w.beginChanges()
	w.dropCancelled()
	if w.queue.len() == 0 || !w.withinBudget() {
		return false
	}
	w.start()
	var it item
	w.takeItem(&it)
	w.execute(&it)
	return true
}

func (w *World) execute(it *item) {
	if it.At > w.now {
		w.now = it.At
	}
	w.stepCount++
	w.countStep(it)
	owner := it.Timer.Owner
	if it.Kind == itemDeliver {
		owner = it.Msg.To
		w.changes.message(it.Msg.ID)
		w.deliver(it)
	} else {
		w.fire(it)
	}
	// A client acts only on what reaches it (a response or its own timer):
	// a step at a broker leaves every client as it was.
	w.runClient(owner)
	w.checkInvariants()
}

// runClient runs the loop of the client with this name, if it is one.
func (w *World) runClient(name string) {
	switch p, pr := w.namedProducer(name); {
	case pr != nil:
		w.runProducer(pr.Producer)
		w.runProcessor(pr)
		w.runProducer(pr.Producer)
	case p != nil:
		w.runProducer(p)
	}
}

func (w *World) deliver(it *item) {
	// A violation found while the message is handled names it.
	w.cur = it.Msg
	w.deliverMsg(it)
	w.cur = nil
}

func (w *World) deliverMsg(it *item) {
	m := it.Msg
	if id, ok := parseBrokerAddr(m.To); ok {
		if !w.brokerAlive(id) {
			w.event(EvFault, m.To).saying(m, sayLostFrom).fault(FaultLost)
			return
		}
		w.event(EvDeliver, m.To).saying(m, sayReceivesFrom)
		w.deliverToBroker(id, m)
		return
	}
	if p := w.producerByAddr(m.To, m.Kind); p != nil {
		if p.Crashed || p.Closed {
			w.event(EvFault, m.To).saying(m, sayLost).fault(FaultLost)
			return
		}
		if p.Paused {
			p.Deferred = append(p.Deferred, *it)
			w.event(EvInfo, m.To).saying(m, sayPaused)
			return
		}
		w.event(EvDeliver, m.To).saying(m, sayReceivesBody)
		w.onProducerMessage(p, m)
		return
	}
	if c := w.consumerByAddr(m.To, m.Kind); c != nil {
		if c.Crashed {
			w.event(EvFault, m.To).saying(m, sayLost).fault(FaultLost)
			return
		}
		if c.Paused {
			c.Deferred = append(c.Deferred, *it)
			return
		}
		w.event(EvDeliver, m.To).saying(m, sayReceives)
		w.onConsumerMessage(c, m)
		return
	}
	if m.To == ExpertAddr {
		// The expert actions (inject) have no client behind them; their
		// answers are only narrated, so a lesson can show what came back.
		w.event(EvDeliver, m.To).saying(m, sayReceivesBody)
	}
}

// producerByAddr routes a message for a client name: a processor's producer
// takes the producer-side responses, its consumer the rest.
func (w *World) producerByAddr(name string, kind MsgKind) *Producer {
	p, pr := w.namedProducer(name)
	if pr != nil && (kind == MsgFetchResponse || kind == MsgOffsetFetchResponse || kind == MsgOffsetCommitResponse || kind == MsgListOffsetsResponse ||
		kind == MsgFindCoordinatorResponse && pr.Producer.Offsets == nil && pr.Consumer.inFlight(MsgFindCoordinator, TP{})) {
		return nil
	}
	return p
}

func (w *World) consumerByAddr(name string, kind MsgKind) *Consumer { return w.namedConsumer(name) }

func (w *World) fire(it *item) {
	t := it.Timer
	switch t.Kind {
	case TimerTxnLogAppend:
		w.onTxnLogAppended(t)
	case TimerReplicate:
		w.onReplicate(t)
	case TimerAbortCheck:
		w.onAbortCheck()
	case TimerExpiryCheck:
		w.onExpiryCheck()
	case TimerLoadDone:
		w.onLoadDone(t)
	case TimerAddPartitionsRetry:
		w.onAddPartitionsRetry(t)
	case TimerRequestTimeout, TimerRetryBackoff:
		if _, ok := parseBrokerAddr(t.Owner); ok {
			w.onCoordinatorRequestTimeout(t)
			return
		}
		if p := w.producerByAddr(t.Owner, MsgProduceResponse); p != nil {
			if p.Paused {
				p.Deferred = append(p.Deferred, *it)
				return
			}
			if t.Kind == TimerRequestTimeout {
				w.onProducerTimeout(p, t.ID)
			}
			return
		}
		if c := w.Consumer(t.Owner); c != nil && t.Kind == TimerRequestTimeout {
			if c.Paused {
				c.Deferred = append(c.Deferred, *it)
				return
			}
			if _, ok := c.removeInFlight(t.ID); ok {
				w.emit(EvTimer, c.Name, saysRequestTimedOut)
			}
		}
	}
}

func (w *World) applyStepN(a Step) {
	n := a.N
	if n == 0 {
		n = 1
	}
	for i := int64(0); i < n; i++ {
		if !w.Step() {
			if w.queue.len() == 0 {
				w.emit(EvInfo, "scenario", saysNothingIsScheduled)
			}
			break // nothing scheduled, or stopped by a limit; Apply reports it
		}
	}
}

func (w *World) applyDeliver(a Deliver) error {
	i, err := w.selectMsg(a.Msg)
	if err != nil {
		return err
	}
	// Delivered as soon as the network allows: after one latency from
	// its sending, without waiting for a delay that a fault added.
	it := w.queue.removeAt(i)
	earliest := it.Msg.SentAt + w.config.LatencyMs
	if earliest < w.now {
		earliest = w.now
	}
	if earliest < it.At {
		it.At = earliest
	}
	w.execute(&it)
	return nil
}

func (w *World) applyRun(a Run) {
	max := a.Max
	if max == 0 {
		max = DefaultRunMax
	}
	n := int64(0)
	for w.Busy() && n < max && w.Step() {
		n++
	}
	if w.Busy() && n == max {
		w.emit(EvInfo, "scenario", saysRunStoppedAfterMaxSteps, num(max))
	}
}

func (w *World) applyAdvance(a Advance) {
	until := w.now + a.Ms
	for w.queue.len() > 0 && w.queue.at(0).At <= until {
		if !w.Step() {
			return // stopped by a limit; Apply reports it
		}
	}
	w.now = until
	w.emitTyped(EvInfo, "clock", sayAdvanced).arg = w.now
}

// selectMsg finds the queue slot of the in-flight message a selector
// picks; the earliest match in delivery order wins.
func (w *World) selectMsg(s Selector) (int, error) {
	best := -1
	for i := range w.queue.len() {
		it := w.queue.at(i)
		if it.Kind == itemDeliver && s.matches(it.Msg) && (best < 0 || it.less(w.queue.at(best))) {
			best = i
		}
	}
	if best < 0 {
		return 0, errf("no message in flight matches %q", s.String())
	}
	return best, nil
}

// InFlight lists the messages on the network in delivery order.
func (w *World) InFlight() []*Message {
	var out []*Message
	for _, it := range w.queue.sorted() {
		if it.Kind == itemDeliver {
			out = append(out, it.Msg)
		}
	}
	return out
}

package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// KV is a key=value option of an action.
type KV struct{ Key, Value string }

// Action is one line of the scenario language, already split into words:
// the verb, the client it addresses (for client calls and declarations),
// positional arguments and options. Its String is the canonical text.
type Action struct {
	Verb  string
	Actor string
	Args  []string
	Opts  []KV
}

// Opt returns an option's value.
func (a Action) Opt(key string) (string, bool) {
	for _, kv := range a.Opts {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return "", false
}

func quoteWord(s string) string {
	if s == "" || strings.ContainsAny(s, " \t#\"") {
		return strconv.Quote(s)
	}
	return s
}

// String is the action's canonical one-line form.
func (a Action) String() string {
	var parts []string
	switch {
	case isDeclVerb(a.Verb):
		parts = append(parts, a.Verb, a.Actor)
	case a.Actor != "":
		parts = append(parts, a.Actor, a.Verb)
	default:
		parts = append(parts, a.Verb)
	}
	for _, x := range a.Args {
		parts = append(parts, quoteWord(x))
	}
	for _, kv := range a.Opts {
		parts = append(parts, kv.Key+"="+quoteWord(kv.Value))
	}
	return strings.Join(parts, " ")
}

func isDeclVerb(v string) bool { return v == "producer" || v == "consumer" || v == "processor" }

// ActionError is a semantic error of an action (the parser catches syntax).
type ActionError struct{ Msg string }

func (e *ActionError) Error() string { return e.Msg }

func errf(format string, args ...any) error { return &ActionError{Msg: fmt.Sprintf(format, args...)} }

// Apply runs one action and returns the events it caused. It is the only
// way state changes, as raft's Step.
func (w *World) Apply(a Action) ([]Event, error) {
	start := len(w.Events)
	if a.Verb != "expect" {
		w.emit(EvAction, "scenario", a.String())
	}
	w.beginAction(a)
	err := w.apply(a)
	if err == nil && !isSetupVerb(a.Verb) {
		w.runClients()
		w.checkInvariants()
	}
	if berr := w.endAction(); err == nil {
		err = berr
	}
	return w.Events[start:], err
}

func isSetupVerb(v string) bool {
	return v == "brokers" || v == "config" || v == "topic" || isDeclVerb(v)
}

func (w *World) start() {
	if w.Started {
		return
	}
	w.Started = true
	w.setTimer(w.Config.AbortCheckIntervalMs, Timer{Kind: TimerAbortCheck, Owner: "cluster"})
	w.setTimer(w.Config.ExpiryCheckIntervalMs, Timer{Kind: TimerExpiryCheck, Owner: "cluster"})
}

func (w *World) apply(a Action) error {
	switch a.Verb {
	case "brokers", "config", "topic", "producer", "consumer", "processor":
		return w.applySetup(a)
	case "step", "deliver", "run", "advance":
		w.start()
		return w.applyStep(a)
	case "drop", "duplicate", "delay", "reorder", "crash", "restart", "pause", "resume", "rebalance":
		w.start()
		return w.applyFault(a)
	case "inject":
		w.start()
		return w.applyInject(a)
	case "expect":
		return errf("expect is evaluated with World.Expect, not applied")
	}
	if a.Actor == "" {
		return errf("unknown verb %q", a.Verb)
	}
	w.start()
	return w.applyCall(a)
}

func atoi64(s, what string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, errf("%s must be a whole number, got %q", what, s)
	}
	return n, nil
}

func optInt(a Action, key string, def int64) (int64, error) {
	v, ok := a.Opt(key)
	if !ok {
		return def, nil
	}
	return atoi64(v, key)
}

// runClients runs every client's loop once, in declaration order.
func (w *World) runClients() {
	for _, p := range w.Producers {
		w.runProducer(p)
	}
	for _, pr := range w.Processors {
		w.runProducer(pr.Producer)
		w.runProcessor(pr)
		w.runProducer(pr.Producer)
	}
}

// Busy reports whether anything other than the periodic coordinator checks
// is scheduled.
func (w *World) Busy() bool {
	for i := range w.Queue {
		it := &w.Queue[i]
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
	if len(w.Queue) == 0 || !w.withinBudget() {
		return false
	}
	w.start()
	it := w.Queue.pop()
	w.execute(it)
	return true
}

func (w *World) execute(it item) {
	if it.At > w.Now {
		w.Now = it.At
	}
	w.StepCount++
	w.countStep(&it)
	owner := it.Timer.Owner
	if it.Kind == itemDeliver {
		owner = it.Msg.To
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
	for _, p := range w.Producers {
		if p.Name == name {
			w.runProducer(p)
			return
		}
	}
	for _, pr := range w.Processors {
		if pr.Name == name {
			w.runProducer(pr.Producer)
			w.runProcessor(pr)
			w.runProducer(pr.Producer)
			return
		}
	}
}

func (w *World) deliver(it item) {
	m := it.Msg
	if id, ok := parseBrokerAddr(m.To); ok {
		if !w.brokerAlive(id) {
			w.emit(EvFault, m.To, "is down: "+m.Name()+" "+m.Kind.String()+" from "+m.From+" is lost").about(m)
			return
		}
		w.emit(EvDeliver, m.To, "receives "+m.Name()+" "+m.Kind.String()+" from "+m.From).about(m)
		w.deliverToBroker(id, m)
		return
	}
	if p := w.producerByAddr(m.To, m.Kind); p != nil {
		if p.Crashed || p.Closed {
			w.emit(EvFault, m.To, "is down: "+m.Name()+" "+m.Kind.String()+" is lost").about(m)
			return
		}
		if p.Paused {
			p.Deferred = append(p.Deferred, it)
			w.emit(EvInfo, m.To, "is paused: "+m.Name()+" "+m.Kind.String()+" waits in its socket buffer").about(m)
			return
		}
		w.emit(EvDeliver, m.To, "receives "+m.Name()+" "+m.Kind.String()+" "+m.Body.describe()).about(m)
		w.onProducerMessage(p, m)
		return
	}
	if c := w.consumerByAddr(m.To, m.Kind); c != nil {
		if c.Crashed {
			w.emit(EvFault, m.To, "is down: "+m.Name()+" "+m.Kind.String()+" is lost").about(m)
			return
		}
		if c.Paused {
			c.Deferred = append(c.Deferred, it)
			return
		}
		w.emit(EvDeliver, m.To, "receives "+m.Name()+" "+m.Kind.String()).about(m)
		w.onConsumerMessage(c, m)
		return
	}
	if m.To == ExpertAddr {
		// The expert actions (inject) have no client behind them; their
		// answers are only narrated, so a lesson can show what came back.
		w.emit(EvDeliver, m.To, "receives "+m.Name()+" "+m.Kind.String()+" "+m.Body.describe()).about(m)
	}
}

// producerByAddr routes a message for a client name: a processor's producer
// takes the producer-side responses, its consumer the rest.
func (w *World) producerByAddr(name string, kind MsgKind) *Producer {
	for _, p := range w.Producers {
		if p.Name == name {
			return p
		}
	}
	for _, pr := range w.Processors {
		if pr.Name == name && kind != MsgFetchResponse && kind != MsgOffsetFetchResponse && kind != MsgOffsetCommitResponse &&
			!(kind == MsgFindCoordinatorResponse && pr.Producer.Offsets == nil && pr.Consumer.inFlight(MsgFindCoordinator, TP{})) {
			return pr.Producer
		}
	}
	return nil
}

func (w *World) consumerByAddr(name string, kind MsgKind) *Consumer {
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

func (w *World) fire(it item) {
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
	case TimerRequestTimeout, TimerRetryBackoff:
		if _, ok := parseBrokerAddr(t.Owner); ok {
			w.onCoordinatorRequestTimeout(t)
			return
		}
		if p := w.producerByAddr(t.Owner, MsgProduceResponse); p != nil {
			if p.Paused {
				p.Deferred = append(p.Deferred, it)
				return
			}
			if t.Kind == TimerRequestTimeout {
				w.onProducerTimeout(p, t.ID)
			}
			return
		}
		if c := w.Consumer(t.Owner); c != nil && t.Kind == TimerRequestTimeout {
			if c.Paused {
				c.Deferred = append(c.Deferred, it)
				return
			}
			if _, ok := c.removeInFlight(t.ID); ok {
				w.emit(EvTimer, c.Name, "request timed out")
			}
		}
	}
}

func (w *World) applyStep(a Action) error {
	switch a.Verb {
	case "step":
		n := int64(1)
		if len(a.Args) > 0 {
			v, err := atoi64(a.Args[0], "step count")
			if err != nil {
				return err
			}
			n = v
		}
		for i := int64(0); i < n; i++ {
			if !w.Step() {
				if len(w.Queue) == 0 {
					w.emit(EvInfo, "scenario", "nothing is scheduled")
				}
				break
			}
		}
	case "deliver":
		i, err := w.selectMsg(a.Args, a.Opts)
		if err != nil {
			return err
		}
		// Delivered as soon as the network allows: after one latency from
		// its sending, without waiting for a delay that a fault added.
		it := w.Queue.removeAt(i)
		earliest := it.Msg.SentAt + w.Config.LatencyMs
		if earliest < w.Now {
			earliest = w.Now
		}
		if earliest < it.At {
			it.At = earliest
		}
		w.execute(it)
	case "run":
		max, err := optInt(a, "max", 100000)
		if err != nil {
			return err
		}
		n := int64(0)
		for w.Busy() && n < max && w.Step() {
			n++
		}
		if w.Busy() && n == max {
			w.emit(EvInfo, "scenario", "run stopped after max="+itoa(max)+" steps; the system is not quiet")
		}
	case "advance":
		if len(a.Args) == 0 {
			return errf("advance needs a number of milliseconds")
		}
		ms, err := atoi64(a.Args[0], "advance")
		if err != nil {
			return err
		}
		if ms < 0 {
			return errf("advance needs a positive number of milliseconds")
		}
		until := w.Now + ms
		for len(w.Queue) > 0 && w.Queue[0].At <= until {
			if !w.Step() {
				return nil // stopped by a limit; Apply reports it
			}
		}
		w.Now = until
		w.emit(EvInfo, "clock", "advanced to t="+itoa(w.Now))
	}
	return nil
}

// FindMessage finds the in-flight message a selector names: an id (m12),
// or the oldest message of a kind that matches the filters to=, from= and
// partition=.
func (w *World) FindMessage(sel string, filters []KV) (*Message, error) {
	i, err := w.selectMsg([]string{sel}, filters)
	if err != nil {
		return nil, err
	}
	return w.Queue[i].Msg, nil
}

// selectMsg finds an in-flight message by id (m12) or by kind with filters
// to=, from=, partition=; the earliest match in delivery order wins.
func (w *World) selectMsg(args []string, opts []KV) (int, error) {
	if len(args) == 0 {
		return 0, errf("expected a message: an id like m12 or a kind like ProduceResponse")
	}
	sel := args[0]
	best := -1
	match := func(i int) bool {
		it := &w.Queue[i]
		if it.Kind != itemDeliver {
			return false
		}
		m := it.Msg
		if strings.HasPrefix(sel, "m") {
			if _, err := strconv.Atoi(sel[1:]); err == nil {
				return m.Name() == sel
			}
		}
		if m.Kind.String() != sel {
			return false
		}
		for _, kv := range opts {
			switch kv.Key {
			case "to":
				if m.To != kv.Value {
					return false
				}
			case "from":
				if m.From != kv.Value {
					return false
				}
			case "partition":
				if !strings.Contains(" "+m.Body.describe()+" ", " "+kv.Value+" ") && !strings.Contains(m.Body.describe(), kv.Value+"=") && !strings.Contains(m.Body.describe(), "["+kv.Value) && !strings.Contains(m.Body.describe(), ","+kv.Value) {
					return false
				}
			}
		}
		return true
	}
	for i := range w.Queue {
		if match(i) && (best < 0 || w.Queue[i].less(&w.Queue[best])) {
			best = i
		}
	}
	if best < 0 {
		return 0, errf("no message in flight matches %q", strings.TrimSpace(sel+" "+kvText(opts)))
	}
	return best, nil
}

func kvText(opts []KV) string {
	var s []string
	for _, kv := range opts {
		s = append(s, kv.Key+"="+kv.Value)
	}
	return strings.Join(s, " ")
}

// InFlight lists the messages on the network in delivery order.
func (w *World) InFlight() []*Message {
	var out []*Message
	for _, it := range w.Queue.sorted() {
		if it.Kind == itemDeliver {
			out = append(out, it.Msg)
		}
	}
	return out
}

package engine

import "slices"

// Clients are found by name on every delivery, timer and call, so the
// lookup must not cost a walk over every client: with hundreds of
// producers that walk made each step linear in their number. Names are
// unique over producers, consumers and processors (nameTaken), and clients
// are only ever added, so an index that follows the three lists is enough.

type clientKind uint8

const (
	clientProducer clientKind = iota + 1
	clientConsumer
	clientProcessor
)

// clientRef is where a named client is: its kind and its position in
// w.Producers, w.Consumers or w.Processors.
type clientRef struct {
	Kind clientKind
	I    int32
}

// clientNames is the name index and how much of each list it covers.
// The index is by the name's hash (hashIndex), to positions in refs: a
// map of the names was scanned by every collection.
type clientNames struct {
	m                 hashIndex[string]
	refs              []clientRef
	prods, cons, proc int
	// recent holds the names looked up lately, found or not, in their
	// nameSlot: a step looks up one of a few names, and
	// comparing one (most times the same string, which compares by its
	// pointer) costs less than hashing it for the map. Indexing new
	// clients clears it.
	recent [nameCache]recentClient
}

type recentClient struct {
	name string
	ref  clientRef
	ok   bool
}

// clone copies the index (its size is the number of clients, not history).
func (n clientNames) clone() clientNames {
	c := n
	c.m = n.m.clone()
	c.refs = append([]clientRef(nil), n.refs...)
	return c
}

// clientName is the name of the client ref points at.
func (w *World) clientName(ref clientRef) string {
	switch ref.Kind {
	case clientProducer:
		return w.producers[ref.I].Name
	case clientConsumer:
		return w.consumers[ref.I].Name
	}
	return w.processors[ref.I].Name
}

// indexClient adds a client to the name index; a name declared again
// points at the later client, as a map's write would.
func (w *World) indexClient(name string, ref clientRef) {
	n := &w.names
	keyAt := func(i int32) string { return w.clientName(n.refs[i]) }
	h := nameHash(name)
	if i, ok := n.m.get(h, name, keyAt); ok {
		n.refs[i] = ref
		return
	}
	n.m.put(h, name, int32(len(n.refs)), keyAt)
	n.refs = append(n.refs, ref)
}

// client finds a client by name, first indexing the clients declared since
// the last lookup.
func (w *World) client(name string) (clientRef, bool) {
	n := &w.names
	if n.prods < len(w.producers) || n.cons < len(w.consumers) || n.proc < len(w.processors) {
		for ; n.prods < len(w.producers); n.prods++ {
			w.indexClient(w.producers[n.prods].Name, clientRef{Kind: clientProducer, I: int32(n.prods)})
		}
		for ; n.cons < len(w.consumers); n.cons++ {
			w.indexClient(w.consumers[n.cons].Name, clientRef{Kind: clientConsumer, I: int32(n.cons)})
		}
		for ; n.proc < len(w.processors); n.proc++ {
			w.indexClient(w.processors[n.proc].Name, clientRef{Kind: clientProcessor, I: int32(n.proc)})
		}
		n.recent = [nameCache]recentClient{}
	}
	c := &n.recent[nameSlot(name, 0)]
	if c.name == name && c.name != "" {
		return c.ref, c.ok
	}
	r, ok := w.lookupClient(name)
	if name != "" {
		*c = recentClient{name: name, ref: r, ok: ok}
	}
	return r, ok
}

// lookupClient is client's look-up in the index.
func (w *World) lookupClient(name string) (clientRef, bool) {
	n := &w.names
	i, ok := n.m.get(nameHash(name), name, func(i int32) string { return w.clientName(n.refs[i]) })
	if !ok {
		return clientRef{}, false
	}
	return n.refs[i], true
}

// namedProducer is the producer client with this name: a producer, or a
// processor's producer (which carries the processor's name).
func (w *World) namedProducer(name string) (*Producer, *Processor) {
	r, _ := w.client(name)
	switch r.Kind {
	case clientProducer:
		return w.producers[r.I], nil
	case clientProcessor:
		pr := w.processors[r.I]
		return pr.Producer, pr
	}
	return nil, nil
}

// namedConsumer is the consumer with this name: a consumer, or a
// processor's consumer.
func (w *World) namedConsumer(name string) *Consumer {
	r, _ := w.client(name)
	switch r.Kind {
	case clientConsumer:
		return w.consumers[r.I]
	case clientProcessor:
		return w.processors[r.I].Consumer
	}
	return nil
}

// runClientsAfter runs the client loops that an action may have given
// something to do, in the order runClients uses. A producer acts only on
// what reaches it: a call on it, a response or a timer of its own (each
// step runs the client it reached, see execute), the end of its retry
// backoff, or a fault, which can change what every client sees (leaders,
// live brokers, a paused client resumed). So after a call only its own
// producer runs, after the stepping actions only the producers whose
// backoff ends at the time they stopped, and after faults, injections and
// any action not listed here every client. Processors always run: their
// loop moves one stage per run, so each action gives every processor its
// turn (there are few of them). Running every producer after every action
// made a run with n producers cost n times its number of actions.
func (w *World) runClientsAfter(a Action) {
	switch a.(type) {
	case Step, Deliver, Run, Advance:
		w.runBackoffDue()
	case Call, Send, SendOffsets, CommitSync:
		if r, ok := w.client(addressedClient(a)); ok && r.Kind == clientProducer {
			w.runProducer(w.producers[r.I])
		}
	default:
		// Drop, Duplicate, Delay, Reorder, Crash, Restart, Pause, Resume,
		// Rebalance and the Inject actions.
		w.runClients()
		return
	}
	for _, pr := range w.processors {
		w.runProducer(pr.Producer)
		w.runProcessor(pr)
		w.runProducer(pr.Producer)
	}
}

// runBackoffDue runs, in declaration order, the producers whose retry
// backoff ends now while their backoff timer, due at this very time, is
// still queued behind the step that ended the action: they may send now,
// as they would after any other action. Such timers are at the top of the
// heap (nothing queued is earlier than now), so the walk visits only them.
func (w *World) runBackoffDue() {
	var due []int32
	var walk func(i int)
	walk = func(i int) {
		if i >= w.queue.len() || w.queue.at(i).At > w.now {
			return
		}
		if it := w.queue.at(i); it.Kind == itemTimer && it.Timer.Kind == TimerRetryBackoff {
			if r, ok := w.client(it.Timer.Owner); ok && r.Kind == clientProducer {
				due = append(due, r.I)
			}
		}
		walk(2*i + 1)
		walk(2*i + 2)
	}
	walk(0)
	slices.Sort(due)
	for k, i := range due {
		if k == 0 || i != due[k-1] {
			w.runProducer(w.producers[i])
		}
	}
}

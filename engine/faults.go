package engine

func (w *World) applyFault(a Action) error {
	switch a.Verb {
	case "drop", "duplicate", "delay":
		i, err := w.selectMsg(a.Args, a.Opts)
		if err != nil {
			return err
		}
		m := w.Queue[i].Msg
		switch a.Verb {
		case "drop":
			w.Queue.removeAt(i)
			w.emit(EvFault, "network", "drops "+m.Summary()).about(m)
		case "duplicate":
			w.nextMsg++
			cp := *m
			cp.ID = w.nextMsg
			w.schedule(w.Queue[i].At, item{Kind: itemDeliver, Msg: &cp})
			w.emit(EvFault, "network", "duplicates "+m.Name()+" as "+cp.Name()+" "+m.Kind.String()).about(&cp)
		case "delay":
			if len(a.Args) < 2 {
				return errf("delay needs a message and a number of milliseconds")
			}
			ms, err := atoi64(a.Args[1], "delay")
			if err != nil || ms < 0 {
				return errf("delay needs a positive number of milliseconds")
			}
			it := w.Queue.removeAt(i)
			w.schedule(it.At+ms, it)
			w.emit(EvFault, "network", "delays "+m.Name()+" "+m.Kind.String()+" by "+itoa(ms)+" ms").about(m)
		}
	case "reorder":
		if len(a.Args) != 2 {
			return errf("reorder needs two messages")
		}
		i, err := w.selectMsg(a.Args[:1], nil)
		if err != nil {
			return err
		}
		j, err := w.selectMsg(a.Args[1:], nil)
		if err != nil {
			return err
		}
		if i == j {
			return errf("reorder needs two different messages")
		}
		// Swap the two messages between their delivery slots. Slots keep
		// their (time, seq), so the heap order is untouched.
		mx, my := w.Queue[i].Msg, w.Queue[j].Msg
		w.Queue[i].Msg, w.Queue[j].Msg = my, mx
		w.emit(EvFault, "network", "swaps "+mx.Name()+" and "+my.Name()+": they arrive in the other order")
	case "crash", "restart":
		if len(a.Args) != 1 {
			return errf("%s needs broker-N or a client name", a.Verb)
		}
		if id, ok := parseBrokerAddr(a.Args[0]); ok {
			if w.broker(id) == nil {
				return errf("there is no %s", a.Args[0])
			}
			if a.Verb == "crash" {
				w.crashBroker(id)
			} else {
				w.restartBroker(id)
			}
			return nil
		}
		if a.Verb == "crash" {
			return w.crashClient(a.Args[0])
		}
		return w.restartClient(a.Args[0])
	case "pause", "resume":
		if len(a.Args) != 1 {
			return errf("%s needs a client name", a.Verb)
		}
		return w.pauseClient(a.Args[0], a.Verb == "pause")
	case "rebalance":
		if len(a.Args) != 1 {
			return errf("rebalance needs a group")
		}
		g, ok := w.Groups[a.Args[0]]
		if !ok {
			return errf("unknown group %q", a.Args[0])
		}
		g.Generation++
		w.emit(EvFault, "group("+g.ID+")", "rebalances: generation "+itoa(int64(g.Generation)))
	}
	return nil
}

func (w *World) crashBroker(id int) {
	b := w.broker(id)
	if !b.Alive {
		w.emit(EvInfo, brokerAddr(id), "is already down")
		return
	}
	b.Alive = false
	addr := brokerAddr(id)
	w.emit(EvFault, addr, "crashes")
	// Its timers and parked produces die with it.
	for i := 0; i < len(w.Queue); i++ {
		if it := &w.Queue[i]; it.Kind == itemTimer && it.Timer.Owner == addr {
			w.Queue.removeAt(i)
			i = -1
		}
	}
	kept := w.Parked[:0:0]
	for _, pk := range w.Parked {
		if pk.Msg.To != addr {
			kept = append(kept, pk)
		}
	}
	w.Parked = kept
	// Answers waiting in its purgatory are never sent.
	held := w.Held[:0:0]
	for _, h := range w.Held {
		if h.From != addr {
			held = append(held, h)
		}
	}
	w.Held = held
	for _, tp := range w.allPartitions() {
		p := w.Partitions[tp]
		if p.Leader != id {
			continue
		}
		nl := w.firstAlive(p.Replicas)
		p.Leader = nl
		if nl < 0 {
			w.emit(EvFault, addr, tp.String()+" is offline: no live replica")
			continue
		}
		p.LeaderEpoch++
		w.emit(EvFault, addr, tp.String()+" leadership moves to "+brokerAddr(nl)+" (leader epoch "+itoa(int64(p.LeaderEpoch))+")")
		w.truncateTo(p, p.HW)
	}
	for _, pn := range w.sortedTxnParts() {
		t := w.TxnParts[pn]
		if t.Leader != id {
			continue
		}
		t.Meta = map[string]TxnMetadata{}
		t.Writes = nil
		t.Markers = map[string]*markerJob{}
		nl := w.firstAlive(t.Replicas)
		t.Leader = nl
		if nl < 0 {
			w.emit(EvFault, addr, t.name()+" is offline: no transaction coordinator for its ids")
			continue
		}
		w.electCoordinator(t)
	}
}

func (w *World) electCoordinator(t *TxnStatePartition) {
	t.CoordEpoch++
	t.Loading = true
	w.emitRule(EvFault, t.addr(), "becomes coordinator for "+t.name()+" with coordinator epoch "+itoa(int64(t.CoordEpoch))+"; loading (COORDINATOR_LOAD_IN_PROGRESS meanwhile)", "ref 3.9")
	w.setTimer(w.Config.LatencyMs, Timer{Kind: TimerLoadDone, Owner: t.addr(), TP: TP{Topic: TxnStateTopic, Partition: t.Partition}})
}

func (w *World) allPartitions() []TP {
	tps := make([]TP, 0, len(w.Partitions))
	for tp := range w.Partitions {
		tps = append(tps, tp)
	}
	sortTPs(tps)
	return tps
}

func (w *World) restartBroker(id int) {
	b := w.broker(id)
	if b.Alive {
		w.emit(EvInfo, brokerAddr(id), "is already up")
		return
	}
	b.Alive = true
	w.emit(EvFault, brokerAddr(id), "restarts")
	for _, tp := range w.allPartitions() {
		p := w.Partitions[tp]
		if p.Leader < 0 && containsInt(p.Replicas, id) {
			p.Leader = id
			p.LeaderEpoch++
			w.emit(EvFault, brokerAddr(id), tp.String()+" is back online with "+brokerAddr(id)+" as leader")
			w.markDirty(tp)
			w.resendWaitingMarkers(tp)
		}
	}
	for _, pn := range w.sortedTxnParts() {
		t := w.TxnParts[pn]
		if t.Leader < 0 && containsInt(t.Replicas, id) {
			t.Leader = id
			w.electCoordinator(t)
		}
	}
}

func containsInt(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func (w *World) dropTimersOf(name string) {
	for i := 0; i < len(w.Queue); i++ {
		if it := &w.Queue[i]; it.Kind == itemTimer && it.Timer.Owner == name {
			w.Queue.removeAt(i)
			i = -1
		}
	}
}

func (w *World) crashClient(name string) error {
	p := w.Producer(name)
	c := w.Consumer(name)
	if p == nil && c == nil {
		return errf("unknown client %q", name)
	}
	w.dropTimersOf(name)
	if p != nil {
		p.Crashed = true
		p.InFlight = nil
		p.Deferred = nil
	}
	if c != nil {
		c.Crashed = true
		c.InFlight = nil
		c.Deferred = nil
	}
	w.emit(EvFault, name, "crashes: everything in its memory is gone")
	return nil
}

func (w *World) restartClient(name string) error {
	if pr := w.Processor(name); pr != nil {
		np := w.newProducer(name, pr.Producer.Config)
		np.Incarnation = pr.Producer.Incarnation + 1
		pr.Producer = np
		c := &Consumer{Name: name, ReadCommitted: true, GroupID: pr.Consumer.GroupID, Topics: pr.Consumer.Topics, GroupBroker: -1}
		c.MemberID = w.joinGroup(c.GroupID, name, "")
		pr.Consumer = c
		pr.Stage = procIdle
		pr.Consumed = 0
		w.emit(EvFault, name, "restarts as a new instance")
		return nil
	}
	for i, p := range w.Producers {
		if p.Name == name {
			np := w.newProducer(name, p.Config)
			np.ConfigError = p.ConfigError
			np.Incarnation = p.Incarnation + 1
			np.Acked = p.Acked
			w.Producers[i] = np
			w.emit(EvFault, name, "restarts as a new instance (UNINITIALIZED, no producer id)")
			return nil
		}
	}
	for i, c := range w.Consumers {
		if c.Name == name {
			nc := &Consumer{Name: name, ReadCommitted: c.ReadCommitted, GroupID: c.GroupID, InstanceID: c.InstanceID, Topics: c.Topics, GroupBroker: -1, Received: c.Received}
			if nc.GroupID != "" {
				nc.MemberID = w.joinGroup(nc.GroupID, name, nc.InstanceID)
			}
			w.Consumers[i] = nc
			w.emit(EvFault, name, "restarts as a new instance")
			return nil
		}
	}
	return errf("unknown client %q", name)
}

func (w *World) pauseClient(name string, pause bool) error {
	p := w.Producer(name)
	c := w.Consumer(name)
	if p == nil && c == nil {
		return errf("unknown client %q", name)
	}
	if pause {
		if p != nil {
			p.Paused = true
		}
		if c != nil {
			c.Paused = true
		}
		w.emit(EvFault, name, "pauses (a long GC pause: it neither sends nor reads)")
		return nil
	}
	var deferred []item
	if p != nil {
		p.Paused = false
		deferred = append(deferred, p.Deferred...)
		p.Deferred = nil
	}
	if c != nil {
		c.Paused = false
		deferred = append(deferred, c.Deferred...)
		c.Deferred = nil
	}
	w.emit(EvFault, name, "resumes after its pause, unaware that time has passed")
	for _, it := range deferred {
		w.schedule(w.Now, it)
	}
	return nil
}

// applyInject runs the expert actions: a hand-made batch or marker sent
// straight to a partition leader.
func (w *World) applyInject(a Action) error {
	if len(a.Args) < 2 {
		return errf("inject needs batch, marker or txnstate and a target")
	}
	if a.Args[0] == "txnstate" {
		return w.injectTxnState(a)
	}
	tp, ok := ParseTP(a.Args[1])
	if !ok {
		return errf("%q is not a partition like t-0", a.Args[1])
	}
	p := w.Partition(tp)
	if p == nil {
		return errf("unknown partition %s", tp)
	}
	if p.Leader < 0 {
		return errf("%s is offline", tp)
	}
	pid, err := optInt(a, "pid", NoProducerID)
	if err != nil {
		return err
	}
	epoch, err := optInt(a, "epoch", 0)
	if err != nil {
		return err
	}
	flag := func(name string) bool {
		for _, x := range a.Args[2:] {
			if x == name {
				return true
			}
		}
		v, ok := a.Opt(name)
		return ok && v == "true"
	}
	switch a.Args[0] {
	case "batch":
		seq, err := optInt(a, "seq", int64(NoSequence))
		if err != nil {
			return err
		}
		defCount := int64(1)
		if v, ok := a.Opt("values"); ok {
			defCount = int64(len(splitComma(v)))
		}
		count, err := optInt(a, "count", defCount)
		if err != nil || count < 1 {
			return errf("count must be at least 1")
		}
		copies, err := optInt(a, "copies", 1)
		if err != nil || copies < 1 {
			return errf("copies must be at least 1")
		}
		var vals []string
		if v, ok := a.Opt("values"); ok {
			vals = splitComma(v)
		}
		recs := make([]Record, count)
		for i := range recs {
			w.nextUID++
			recs[i] = Record{Value: "x" + itoa(int64(i)), UID: w.nextUID}
			if i < len(vals) {
				recs[i].Value = vals[i]
			}
		}
		b := Batch{ProducerID: pid, ProducerEpoch: int16(epoch), BaseSequence: int32(seq), Count: int32(count), Records: recs, Transactional: flag("transactional"), Control: flag("control")}
		batches := make([]Batch, copies)
		for i := range batches {
			batches[i] = b
		}
		req := &ProduceRequest{TP: tp, Acks: -1, Batches: batches}
		if b.Transactional {
			req.TransactionalID = w.transactionalIDOf(pid)
		}
		w.send(MsgProduce, ExpertAddr, brokerAddr(p.Leader), w.newCorr(), req)
	case "marker":
		res, _ := a.Opt("result")
		var mt MarkerType
		switch res {
		case "commit":
			mt = MarkerCommit
		case "abort":
			mt = MarkerAbort
		default:
			return errf("marker needs result=commit or result=abort")
		}
		ce, err := optInt(a, "coordinatorEpoch", 0)
		if err != nil {
			return err
		}
		w.send(MsgWriteTxnMarkers, ExpertAddr, brokerAddr(p.Leader), w.newCorr(), &WriteTxnMarkersRequest{ProducerID: pid, ProducerEpoch: int16(epoch),
			CoordinatorEpoch: int32(ce), Result: mt, Partitions: []TP{tp}, CoordPartition: -1})
	default:
		return errf("inject needs batch or marker, got %q", a.Args[0])
	}
	return nil
}

// ExpertAddr is the network address of the expert actions: injected batches
// and markers come from it and their answers go back to it.
const ExpertAddr = "expert"

// transactionalIDOf finds the transactional.id the coordinators hold for a
// producer id. A transactional produce carries its transactional.id, which
// the leader needs for KIP-890 verification (ref 2.2 step 1); an injected
// batch stands in for that producer, so it carries the id that owns the pid.
func (w *World) transactionalIDOf(pid int64) string {
	for _, pn := range w.sortedTxnParts() {
		t := w.TxnParts[pn]
		for _, id := range sortedKeys(t.Meta) {
			if t.Meta[id].ProducerID == pid {
				return id
			}
		}
	}
	return ""
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}

// injectTxnState is an operator's hand-written __transaction_state record:
// the coordinator's metadata for an id is set as if it had been loaded from
// the log. It lets a lesson start where real clients would need thousands of
// round trips, such as an epoch near exhaustion (ref 7.S28).
func (w *World) injectTxnState(a Action) error {
	id := a.Args[1]
	pid, err := optInt(a, "pid", -1)
	if err != nil || pid < 0 {
		return errf("inject txnstate needs pid=N")
	}
	epoch, err := optInt(a, "epoch", -1)
	if err != nil || epoch < 0 || epoch > 32767 {
		return errf("inject txnstate needs epoch=0..32767")
	}
	name, _ := a.Opt("state")
	st, ok := TxnStateByName(name)
	if !ok || (st != Empty && st != CompleteCommit && st != CompleteAbort) {
		return errf("inject txnstate needs state=Empty, CompleteCommit or CompleteAbort")
	}
	t := w.txnPart(w.TxnPartitionFor(id))
	if t.Leader < 0 || t.Loading {
		return errf("%s has no coordinator now", t.name())
	}
	if m, ok := t.Meta[id]; ok && m.HasPending {
		return errf("%s has a transition in progress", id)
	}
	timeout := int64(60000)
	if m, ok := t.Meta[id]; ok {
		timeout = m.TimeoutMs
	}
	meta := TxnMetadata{TransactionalID: id, ProducerID: pid, PrevProducerID: NoProducerID, NextProducerID: NoProducerID,
		ProducerEpoch: int16(epoch), LastProducerEpoch: NoProducerEpoch, TimeoutMs: timeout, State: st, StartTs: -1, LastUpdateTs: w.Now}
	t.Meta[id] = meta
	t.Log = append(t.Log, TxnLogRecord{Offset: int64(len(t.Log)), TransactionalID: id, ProducerID: pid, PrevProducerID: NoProducerID,
		ProducerEpoch: int16(epoch), TimeoutMs: timeout, State: st, StartTs: -1, LastUpdateTs: w.Now, CoordEpoch: t.CoordEpoch})
	if w.nextPIDBlk <= pid {
		// Keep later allocations from handing out this pid again.
		w.nextPIDBlk = (pid/ProducerIDBlockSize + 1) * ProducerIDBlockSize
	}
	w.emit(EvTxnLog, w.coordActor(t), "operator writes "+id+" "+st.String()+" pid="+itoa(pid)+" epoch="+itoa(epoch)+" to "+t.name())
	return nil
}

package engine

// Faults: the network loses, repeats, delays and reorders messages; brokers
// and clients crash, restart and pause.

func (w *World) applyDrop(a Drop) error {
	i, err := w.selectMsg(a.Msg)
	if err != nil {
		return err
	}
	m := w.queue.at(i).Msg
	w.queue.removeAt(i)
	w.emitFault(FaultDropped, "network", m, 0)
	return nil
}

func (w *World) applyDuplicate(a Duplicate) error {
	i, err := w.selectMsg(a.Msg)
	if err != nil {
		return err
	}
	m := w.queue.at(i).Msg
	w.nextMsg++
	cp := *m
	cp.ID = w.nextMsg
	w.schedule(w.queue.at(i).At, item{Kind: itemDeliver, Msg: &cp})
	w.emitFault(FaultDuplicated, "network", &cp, saysDuplicatesAs, msgName(m.ID), msgName(cp.ID), m.Kind)
	return nil
}

func (w *World) applyDelay(a Delay) error {
	i, err := w.selectMsg(a.Msg)
	if err != nil {
		return err
	}
	it := w.queue.removeAt(i)
	m := it.Msg
	w.schedule(it.At+a.Ms, it)
	e := w.emitFault(FaultDelayed, "network", m, 0)
	e.say, e.arg = sayDelayed, a.Ms
	return nil
}

func (w *World) applyReorder(a Reorder) error {
	i, err := w.selectMsg(a.First)
	if err != nil {
		return err
	}
	j, err := w.selectMsg(a.Second)
	if err != nil {
		return err
	}
	if i == j {
		return errf("reorder needs two different messages: both selectors pick %s", w.queue.at(i).Msg.Name())
	}
	// Swap the two messages between their delivery slots. Slots keep
	// their (time, seq), so the heap order is untouched.
	mx, my := w.queue.at(i).Msg, w.queue.at(j).Msg
	w.queue.at(i).Msg, w.queue.at(j).Msg = my, mx
	w.changes.message(my.ID)
	w.emitFault(FaultReordered, "network", mx, saysSwapsAndTheyArriveIn, msgName(mx.ID), msgName(my.ID))
	return nil
}

func (w *World) applyCrash(t Target) error {
	if t.Broker > 0 {
		if w.broker(t.Broker) == nil {
			return errf("there is no %s", brokerAddr(t.Broker))
		}
		w.crashBroker(t.Broker)
		return nil
	}
	return w.crashClient(t.Client)
}

func (w *World) applyRestart(t Target) error {
	if t.Broker > 0 {
		if w.broker(t.Broker) == nil {
			return errf("there is no %s", brokerAddr(t.Broker))
		}
		w.restartBroker(t.Broker)
		return nil
	}
	return w.restartClient(t.Client)
}

func (w *World) applyRebalance(a Rebalance) error {
	g, ok := w.groups[a.Group]
	if !ok {
		return errf("unknown group %q", a.Group)
	}
	g.Generation++
	w.changes.group(g.ID)
	w.emit(EvFault, "group("+g.ID+")", saysRebalancesGeneration, num(int64(g.Generation))).fault(FaultRebalance)
	return nil
}

func (w *World) crashBroker(id int) {
	b := w.broker(id)
	if !b.Alive {
		w.emit(EvInfo, brokerAddr(id), saysIsAlreadyDown)
		return
	}
	b.Alive = false
	addr := brokerAddr(id)
	w.emit(EvFault, addr, saysCrashes).fault(FaultCrash)
	// Its timers and parked produces die with it.
	for i := 0; i < w.queue.len(); i++ {
		if it := w.queue.at(i); it.Kind == itemTimer && it.Timer.Owner == addr {
			w.queue.removeAt(i)
			i = -1
		}
	}
	kept := w.parked[:0:0]
	for _, pk := range w.parked {
		if pk.Msg.To != addr {
			kept = append(kept, pk)
		}
	}
	w.parked = kept
	// Answers waiting in its purgatory are never sent.
	held := w.held[:0:0]
	for _, h := range w.held {
		if h.From != addr {
			held = append(held, h)
		}
	}
	w.held = held
	for _, tp := range w.allPartitions() {
		p := w.partitions[tp]
		if p.Leader != id {
			continue
		}
		nl := w.firstAlive(p.Replicas)
		w.changes.partition(p)
		p.Leader = nl
		if nl < 0 {
			w.emit(EvFault, addr, saysIsOfflineNoLiveReplica, tp).fault(FaultOffline).on(tp)
			continue
		}
		p.LeaderEpoch++
		w.emit(EvFault, addr, saysLeadershipMovesToLeaderEpoch, tp, brokerName(nl), num(int64(p.LeaderEpoch))).fault(FaultLeaderMove).on(tp)
		w.truncateTo(p, p.HW)
	}
	for _, pn := range w.sortedTxnParts() {
		t := w.txnParts[pn]
		if t.Leader != id {
			continue
		}
		w.changes.txnIDsOf(t.Meta)
		t.Meta = map[string]TxnMetadata{}
		t.Writes = nil
		t.Markers = map[string]*markerJob{}
		nl := w.firstAlive(t.Replicas)
		t.Leader = nl
		if nl < 0 {
			w.emit(EvFault, addr, saysIsOfflineNoTransactionCoordinator, txnPart(t.Partition)).fault(FaultOffline)
			continue
		}
		w.electCoordinator(t)
	}
}

func (w *World) electCoordinator(t *TxnStatePartition) {
	t.CoordEpoch++
	t.Loading = true
	w.emitRule(EvFault, t.addr(), cite(RuleCoordinatorLoad), saysBecomesCoordinatorForWithCoordinator, txnPart(t.Partition), num(int64(t.CoordEpoch))).fault(FaultLeaderMove).code(CoordinatorLoadInProgress)
	w.setTimer(w.config.LatencyMs, Timer{Kind: TimerLoadDone, Owner: t.addr(), TP: TP{Topic: TxnStateTopic, Partition: t.Partition}})
}

func (w *World) allPartitions() []TP {
	tps := make([]TP, 0, len(w.partitions))
	for tp := range w.partitions {
		tps = append(tps, tp)
	}
	sortTPs(tps)
	return tps
}

func (w *World) restartBroker(id int) {
	b := w.broker(id)
	if b.Alive {
		w.emit(EvInfo, brokerAddr(id), saysIsAlreadyUp)
		return
	}
	b.Alive = true
	w.emit(EvFault, brokerAddr(id), saysRestarts).fault(FaultRestart)
	for _, tp := range w.allPartitions() {
		p := w.partitions[tp]
		if p.Leader < 0 && containsInt(p.Replicas, id) {
			w.changes.partition(p)
			p.Leader = id
			p.LeaderEpoch++
			w.emit(EvFault, brokerAddr(id), saysIsBackOnlineWithAs, tp, brokerName(id)).fault(FaultLeaderMove).on(tp)
			w.markDirty(tp)
			w.resendWaitingMarkers(tp)
		}
	}
	for _, pn := range w.sortedTxnParts() {
		t := w.txnParts[pn]
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
	for i := 0; i < w.queue.len(); i++ {
		if it := w.queue.at(i); it.Kind == itemTimer && it.Timer.Owner == name {
			w.queue.removeAt(i)
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
	w.emit(EvFault, name, saysCrashesEverythingInItsMemory).fault(FaultCrash)
	return nil
}

func (w *World) restartClient(name string) error {
	if pr := w.Processor(name); pr != nil {
		np := w.newProducer(name, pr.Producer.Config)
		np.Incarnation = pr.Producer.Incarnation + 1
		pr.Producer = np
		c := &Consumer{Name: name, ReadCommitted: true, OffsetReset: pr.Consumer.OffsetReset, GroupID: pr.Consumer.GroupID, Topics: pr.Consumer.Topics, GroupBroker: -1}
		c.MemberID = w.joinGroup(c.GroupID, name, "")
		pr.Consumer = c
		pr.Stage = procIdle
		pr.Consumed = 0
		w.emit(EvFault, name, saysRestartsAsANewInstance).fault(FaultRestart)
		return nil
	}
	// The new instance takes the old one's place in its list, where the
	// name index points.
	r, _ := w.client(name)
	switch r.Kind {
	case clientProducer:
		p := w.producers[r.I]
		np := w.newProducer(name, p.Config)
		np.ConfigError = p.ConfigError
		np.Incarnation = p.Incarnation + 1
		np.LastAcked, np.Acks = p.LastAcked, p.Acks
		w.producers[r.I] = np
		w.emit(EvFault, name, saysRestartsUninitialized).fault(FaultRestart)
		return nil
	case clientConsumer:
		c := w.consumers[r.I]
		nc := &Consumer{Name: name, ReadCommitted: c.ReadCommitted, OffsetReset: c.OffsetReset, GroupID: c.GroupID, InstanceID: c.InstanceID, Topics: c.Topics, GroupBroker: -1, Received: c.Received}
		if nc.GroupID != "" {
			nc.MemberID = w.joinGroup(nc.GroupID, name, nc.InstanceID)
		}
		w.consumers[r.I] = nc
		w.emit(EvFault, name, saysRestartsAsANewInstance).fault(FaultRestart)
		return nil
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
		w.emit(EvFault, name, saysPausesALongGcPause).fault(FaultPause)
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
	w.emit(EvFault, name, saysResumesAfterItsPauseUnaware).fault(FaultResume)
	for _, it := range deferred {
		w.schedule(w.now, it)
	}
	return nil
}

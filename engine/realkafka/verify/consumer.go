package verify

// crashConsumer ends a consumer's instance. kgo's Close leaves the group
// (LeaveGroup), where a crashed Java consumer stays a member until its
// session times out (session.timeout.ms, 45 s by default) and the group
// then rebalances without it. The facts a file compares (what the next
// instance reads, the committed offsets) are the same either way once the
// session has expired; the explicit leave makes that immediate instead of
// 45 s of real time. The group's generation and members, which would
// differ, are not compared.
func (d *driver) crashConsumer(name string) {
	d.flush(nil)
	cs := d.consumerOf(name)
	if cs.cl != nil {
		cs.cl.Close()
		cs.cl = nil
	}
	cs.crashed = true
}

// restartConsumer is a new instance with the same configuration: it joins
// the group again on its first poll and starts at the committed offsets
// (or where auto.offset.reset says). What the old instance handed out
// stays in values and offsets, as the simulation's consumer keeps them.
func (d *driver) restartConsumer(name string) {
	cs := d.consumerOf(name)
	cs.crashed, cs.lastErr = false, nil
	for tp := range cs.pos {
		delete(cs.pos, tp)
	}
}

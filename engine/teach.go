package engine

// Teaching switches. Each turns off one of Kafka's safeguards so that a
// learner can watch the guarantee it gives break; none is a Kafka setting.
// They are cluster config keys of the scenario language (SetConfig with
// ConfigTeachDedup, ConfigTeachFencing, ConfigTeachLSO) and may be set at
// any time, before or in the middle of a run:
//
//	config eoslab.broker.dedup=false   the partition leader skips the producer
//	                                   state's duplicate and sequence checks
//	                                   (rows 1, 3 and 5-8 of ref 2.3): a
//	                                   retried batch is appended again.
//	config eoslab.epoch.fencing=false  partition leaders, the transaction
//	                                   coordinator and the group coordinator
//	                                   stop refusing older producer epochs: a
//	                                   zombie's write is accepted.
//	config eoslab.lso=false            read_committed fetches read up to the
//	                                   high watermark instead of the LSO: open
//	                                   transactions' data is returned.
//
// eoslab.epoch.fencing=false lets an older epoch through every check that
// refuses one for being older: the partition leader's (ref 2.3 row 2 and
// the TV2 checks before and after the implicit add), the transaction
// coordinator's for AddPartitionsToTxn, AddOffsetsToTxn, verification and
// EndTxn (TV1 and TV2), and the group coordinator's for TxnOffsetCommit. A
// newer epoch than the current one is refused as ever, and InitProducerId
// keeps its rules: fencing itself (the epoch bump) still happens.
//
// A change is an EvSwitch event; every decision taken differently because a
// switch is off says so in its rule (teachRule). With every switch on (the
// default) the engine behaves exactly as without them.

// Teaching is the state of the teaching switches. The zero value is
// Kafka's behaviour: each field says that a safeguard is OFF.
type Teaching struct {
	NoDedup   bool // eoslab.broker.dedup=false
	NoFencing bool // eoslab.epoch.fencing=false
	NoLSO     bool // eoslab.lso=false
}

// Any reports whether some safeguard is off.
func (t Teaching) Any() bool { return t.NoDedup || t.NoFencing || t.NoLSO }

// TeachingSwitch is one switch as the sandbox lists it.
type TeachingSwitch struct {
	Key ConfigKey // ConfigTeachDedup, ConfigTeachFencing or ConfigTeachLSO
	On  bool      // true: Kafka's behaviour
	// Guards is what the safeguard promises, in a learner's words.
	Guards string
}

// TeachingSwitches lists the switches and their state, in ConfigKeys order.
func (w *World) TeachingSwitches() []TeachingSwitch {
	t := w.config.Teach
	return []TeachingSwitch{
		{Key: ConfigTeachDedup, On: !t.NoDedup, Guards: "the partition leader drops a retried batch it already has (producer id and sequence numbers)"},
		{Key: ConfigTeachFencing, On: !t.NoFencing, Guards: "brokers and coordinators refuse a producer whose epoch was fenced by a newer instance"},
		{Key: ConfigTeachLSO, On: !t.NoLSO, Guards: "read_committed consumers read only below the last stable offset"},
	}
}

// SetTeaching is the action that turns a switch on (Kafka) or off.
func SetTeaching(k ConfigKey, on bool) SetConfig {
	v := int64(0)
	if on {
		v = 1
	}
	return SetConfig{Settings: []Setting{{Key: k, Value: v}}}
}

// teachRule is the rule part every decision taken because switch k is off
// carries, and what Kafka would have done instead (more, nil for
// nothing).
func teachRule(k ConfigKey, more arg) Rule {
	if more == nil {
		more = (*note)(nil)
	}
	return because(RuleTeachingSwitch, saysTeachingSwitchFalseNotA, k, more)
}

func (w *World) setTeaching(k ConfigKey, on bool) {
	t := &w.config.Teach
	var f *bool
	switch k {
	case ConfigTeachDedup:
		f = &t.NoDedup
	case ConfigTeachFencing:
		f = &t.NoFencing
	case ConfigTeachLSO:
		f = &t.NoLSO
	}
	if *f == !on {
		return
	}
	*f = !on
	text := saysSwitchBackOn
	rule := because(RuleTeachingSwitch, saysEoslabTeachingSwitchNotA)
	if !on {
		text = saysSwitchOff
		rule = teachRule(k, nil)
	}
	e := w.emitRule(EvSwitch, "cluster", rule, text, k)
	w.switches = append(w.switches[:len(w.switches):len(w.switches)], switchChange{Event: int(e.Seq), Key: k, On: on})
}

// switchChange is one EvSwitch event: which switch went on or off.
type switchChange struct {
	Event int
	Key   ConfigKey
	On    bool
}

// SwitchChangeAt reports, for an EvSwitch event, the switch it changed and
// whether it turned it on; ok is false for any other event.
func (w *World) SwitchChangeAt(event int) (k ConfigKey, on, ok bool) {
	for _, c := range w.switches {
		if c.Event == event {
			return c.Key, c.On, true
		}
	}
	return 0, false, false
}

// acceptFencedEpoch is where a coordinator would refuse a request of an
// older producer epoch than the current one (PRODUCER_FENCED or
// INVALID_PRODUCER_EPOCH). It reports whether the teaching switch
// eoslab.epoch.fencing=false lets it through, and narrates that it does.
// A newer epoch than the current one is not a fenced producer: it is
// refused as ever.
func (w *World) acceptFencedEpoch(actor, txnID string, epoch, current int16, what arg) bool {
	if !w.config.Teach.NoFencing || epoch >= current {
		return false
	}
	w.emitRule(EvFence, actor, teachRule(ConfigTeachFencing, sub(saysKafkaRefusesAnOlderEpoch)), saysTakesOfAtFencedEpoch, what, quoted(txnID), num(int64(epoch)), num(int64(current))).txn(txnID)
	return true
}

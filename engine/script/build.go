package script

import "github.com/eoslab/eoslab/engine"

// The builders turn a checked line into the engine's typed action. They run
// only after every word has passed its check, so the conversions here cannot
// fail: a number is a number in range, a partition is TOPIC-N of a declared
// topic. This is where the scenario's text stops; the engine gets values.

// num reads a checked whole number.
func num(s string) int64 {
	n, _ := parseInt(s)
	return n
}

// toTP reads a checked partition.
func toTP(s string) engine.TP {
	topic, n, _ := splitTP(s)
	return engine.TP{Topic: topic, Partition: int32(n)}
}

// selectorOf reads a checked message word: m12 or a kind. Filters are added
// as they are read.
func selectorOf(w string) engine.Selector {
	if isMessageID(w) {
		return engine.Selector{ID: num(w[1:])}
	}
	k, _ := engine.MsgKindByName(w)
	return engine.Selector{Kind: k}
}

// target reads crash's and restart's word: broker-N or a client.
func target(w string) engine.Target {
	if isBrokerName(w) {
		return engine.Target{Broker: int(num(w[len("broker-"):]))}
	}
	return engine.Target{Client: w}
}

// offsets reads the TP=OFFSET options of the line, in order.
func (p *pctx) offsets() []engine.TPOffset {
	var out []engine.TPOffset
	for _, o := range p.keyedOpts() {
		out = append(out, engine.TPOffset{TP: toTP(o.Key), Offset: num(o.Value)})
	}
	return out
}

// optNum returns a numeric option, or def when it is not written.
func (p *pctx) optNum(key string, def int64) int64 {
	if v, ok := p.opt(key); ok {
		return num(v)
	}
	return def
}

// optStr returns an option, or "" when it is not written.
func (p *pctx) optStr(key string) string {
	v, _ := p.opt(key)
	return v
}

// pidEpoch reads the pid= and epoch= options, -1 (none) when not written.
func (p *pctx) pidEpoch() (int64, int16) {
	return p.optNum("pid", engine.NoProducerID), int16(p.optNum("epoch", int64(engine.NoProducerEpoch)))
}

// wordsOf hands an expect line's words to buildExpect: all its options,
// message filters (to=, from=, partition=) included.
func wordsOf(p *pctx) *expectWords { return &expectWords{Args: p.args, Opts: p.raw} }

// ---- Setup.

func buildBrokers(p *pctx) engine.Action { return engine.Brokers{N: int(num(p.args[0]))} }

// configKeys and producerKeys find the engine's setting for a key word.
var (
	configKeys   = map[string]engine.ConfigKey{}
	producerKeys = map[string]engine.ProducerKey{}
)

func init() {
	for _, k := range engine.ConfigKeys() {
		configKeys[k.String()] = k
	}
	for _, k := range engine.ProducerKeys() {
		producerKeys[k.String()] = k
	}
}

func buildConfig(p *pctx) engine.Action {
	var a engine.SetConfig
	for _, o := range p.opts {
		k := configKeys[o.Key]
		v := int64(0)
		switch {
		case k.Boolean() && o.Value == "true":
			v = 1
		case !k.Boolean():
			v = num(o.Value)
		}
		a.Settings = append(a.Settings, engine.Setting{Key: k, Value: v})
	}
	return a
}

func buildTopic(p *pctx) engine.Action {
	return engine.CreateTopic{Name: p.args[0], Partitions: int32(p.optNum("partitions", 0)), RF: int(p.optNum("rf", 0))}
}

func buildProducer(p *pctx) engine.Action {
	a := engine.DeclareProducer{Name: p.actor, Config: engine.DefaultProducerConfig()}
	c := &a.Config
	for _, o := range p.opts {
		k := producerKeys[o.Key]
		a.Set = a.Set.With(k)
		switch k {
		case engine.ProducerTransactionalID:
			c.TransactionalID = o.Value
		case engine.ProducerIdempotence:
			c.Idempotence = o.Value == "true"
		case engine.ProducerAcks:
			c.Acks = -1
			if o.Value != "all" {
				c.Acks = int8(num(o.Value))
			}
		case engine.ProducerRetries:
			c.Retries = num(o.Value)
		case engine.ProducerMaxInFlight:
			c.MaxInFlight = int(num(o.Value))
		case engine.ProducerTxnTimeoutMs:
			c.TxnTimeoutMs = num(o.Value)
		case engine.ProducerRequestTimeoutMs:
			c.RequestTimeoutMs = num(o.Value)
		case engine.ProducerRetryBackoffMs:
			c.RetryBackoffMs = num(o.Value)
		case engine.ProducerDeliveryTimeoutMs:
			c.DeliveryTimeoutMs = num(o.Value)
		}
	}
	return a
}

func buildConsumer(p *pctx) engine.Action {
	a := engine.DeclareConsumer{Name: p.actor, GroupID: p.optStr("group.id"), InstanceID: p.optStr("group.instance.id")}
	switch p.optStr("isolation.level") {
	case "read_committed":
		a.Isolation = engine.ReadCommitted
	case "read_uncommitted":
		a.Isolation = engine.ReadUncommitted
	}
	if v, ok := p.opt("topics"); ok {
		a.Topics = splitList(v)
	}
	if v, ok := p.opt("auto.offset.reset"); ok {
		a.OffsetReset, _ = engine.OffsetResetByName(v) // the parser checked it
		a.ResetSet = true
	}
	return a
}

var offsetsModes = map[string]engine.OffsetsMode{
	engine.OffsetsInTransaction.String(): engine.OffsetsInTransaction,
	engine.OffsetsBefore.String():        engine.OffsetsBefore,
	engine.OffsetsAfter.String():         engine.OffsetsAfter,
}

func buildProcessor(p *pctx) engine.Action {
	return engine.DeclareProcessor{Name: p.actor, Input: p.optStr("input"), Output: p.optStr("output"),
		GroupID: p.optStr("group.id"), TransactionalID: p.optStr("transactional.id"), Offsets: offsetsModes[p.optStr("offsets")]}
}

// ---- Client calls.

func buildCall(m engine.Method) func(p *pctx) engine.Action {
	return func(p *pctx) engine.Action { return engine.Call{Client: p.actor, Method: m} }
}

func buildSend(p *pctx) engine.Action {
	return engine.Send{Client: p.actor, TP: toTP(p.args[0]), Values: p.args[1:]}
}

func buildSendOffsets(p *pctx) engine.Action {
	return engine.SendOffsets{Client: p.actor, Group: p.args[0], Offsets: p.offsets(),
		Generation: int32(p.optNum("generation", -1)), Member: p.optStr("member"), Instance: p.optStr("instance"),
		Consumer: p.optStr("consumer")}
}

func buildCommitSync(p *pctx) engine.Action {
	return engine.CommitSync{Client: p.actor, Offsets: p.offsets()}
}

// ---- Time, delivery and faults.

func buildStep(p *pctx) engine.Action {
	if len(p.args) == 0 {
		return engine.Step{}
	}
	return engine.Step{N: num(p.args[0])}
}

func buildDeliver(p *pctx) engine.Action   { return engine.Deliver{Msg: p.sels[0]} }
func buildRun(p *pctx) engine.Action       { return engine.Run{Max: p.optNum("max", 0)} }
func buildAdvance(p *pctx) engine.Action   { return engine.Advance{Ms: num(p.args[0])} }
func buildDrop(p *pctx) engine.Action      { return engine.Drop{Msg: p.sels[0]} }
func buildDuplicate(p *pctx) engine.Action { return engine.Duplicate{Msg: p.sels[0]} }
func buildDelay(p *pctx) engine.Action     { return engine.Delay{Msg: p.sels[0], Ms: num(p.args[1])} }
func buildReorder(p *pctx) engine.Action   { return engine.Reorder{First: p.sels[0], Second: p.sels[1]} }
func buildCrash(p *pctx) engine.Action     { return engine.Crash{Target: target(p.args[0])} }
func buildRestart(p *pctx) engine.Action   { return engine.Restart{Target: target(p.args[0])} }
func buildPause(p *pctx) engine.Action     { return engine.Pause{Client: p.args[0]} }
func buildResume(p *pctx) engine.Action    { return engine.Resume{Client: p.args[0]} }
func buildRebalance(p *pctx) engine.Action { return engine.Rebalance{Group: p.args[0]} }

// ---- Expert actions.

func buildInjectBatch(p *pctx) engine.Action {
	pid, epoch := p.pidEpoch()
	a := engine.InjectBatch{TP: toTP(p.args[1]), ProducerID: pid, Epoch: epoch, Seq: int32(p.optNum("seq", -1)),
		Count: int32(p.optNum("count", 0)), Copies: int32(p.optNum("copies", 0))}
	if v, ok := p.opt("values"); ok {
		a.Values = splitList(v)
	}
	for _, flag := range p.args[2:] {
		switch flag {
		case "transactional":
			a.Transactional = true
		case "control":
			a.Control = true
		}
	}
	return a
}

func markerResult(s string) engine.MarkerType {
	if s == "commit" {
		return engine.MarkerCommit
	}
	return engine.MarkerAbort
}

func buildInjectMarker(p *pctx) engine.Action {
	pid, epoch := p.pidEpoch()
	return engine.InjectMarker{TP: toTP(p.args[1]), ProducerID: pid, Epoch: epoch, Result: markerResult(p.optStr("result")),
		CoordinatorEpoch: int32(p.optNum("coordinatorEpoch", 0))}
}

func buildInjectTxnState(p *pctx) engine.Action {
	pid, epoch := p.pidEpoch()
	st, _ := engine.TxnStateByName(p.optStr("state"))
	return engine.InjectTxnState{TransactionalID: p.args[1], ProducerID: pid, Epoch: epoch, State: st}
}

func buildInjectInitProducerID(p *pctx) engine.Action {
	pid, epoch := p.pidEpoch()
	return engine.InjectInitProducerID{TransactionalID: p.args[1], ProducerID: pid, Epoch: epoch,
		TimeoutMs: p.optNum("timeout", engine.DefaultInjectTimeoutMs)}
}

func buildInjectAddPartitions(p *pctx) engine.Action {
	pid, epoch := p.pidEpoch()
	a := engine.InjectAddPartitions{TransactionalID: p.args[1], ProducerID: pid, Epoch: epoch}
	for _, s := range splitList(p.optStr("partitions")) {
		a.Partitions = append(a.Partitions, toTP(s))
	}
	return a
}

func buildInjectAddOffsets(p *pctx) engine.Action {
	pid, epoch := p.pidEpoch()
	return engine.InjectAddOffsets{TransactionalID: p.args[1], ProducerID: pid, Epoch: epoch, Group: p.optStr("group")}
}

func buildInjectEndTxn(p *pctx) engine.Action {
	pid, epoch := p.pidEpoch()
	return engine.InjectEndTxn{TransactionalID: p.args[1], ProducerID: pid, Epoch: epoch, Commit: p.optStr("result") == "commit"}
}

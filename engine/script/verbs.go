package script

import "github.com/eoslab/eoslab/engine"

// The verb tables. Usage strings are the ones the doc shows; messages quote
// them, with NAME replaced by the client's name for calls.

var (
	argN   = func(c check) arg { return arg{name: "N", check: c} }
	argTP  = arg{name: "TP", check: tp}
	argMsg = arg{name: "MSG", check: messageWord, msg: true}
)

// setupForms declare the cluster, topics and clients. They may appear
// anywhere, but a name must be declared before it is used.
var setupForms = []*form{
	{verb: "brokers", usage: "brokers N", need: "the number of brokers",
		args: []arg{argN(intIn(1, maxBrokers))}, min: 1,
		rule: brokersRule, declare: declareBrokers, build: buildBrokers},
	{verb: "config", usage: "config KEY=VALUE...", need: "only KEY=VALUE settings", optMin: 1,
		opts: clusterOpts, rule: fixedOptsRule, declare: declareConfig, build: buildConfig},
	{verb: "topic", usage: "topic NAME [partitions=N] [rf=N]", need: "a topic name",
		args: []arg{{name: "NAME", check: topicNew}}, min: 1, named: true,
		opts: []opt{
			{key: "partitions", ph: "N", check: intIn(1, maxPartitions)},
			{key: "rf", ph: "N", check: replicationFactor},
		},
		declare: declareTopic, salvage: declareTopic, build: buildTopic},
	{verb: "producer", usage: "producer NAME [KEY=VALUE...]", need: "a name",
		args: []arg{{name: "NAME", check: clientNew}}, min: 1, named: true, client: true,
		opts: producerOpts, declare: declareClient(Producer), salvage: declareClient(Producer), build: buildProducer},
	{verb: "consumer", usage: "consumer NAME [KEY=VALUE...]", need: "a name",
		args: []arg{{name: "NAME", check: clientNew}}, min: 1, named: true, client: true,
		opts: consumerOpts, declare: declareClient(Consumer), salvage: declareClient(Consumer), build: buildConsumer},
	{verb: "processor", need: "a name",
		usage: "processor NAME input=TOPIC output=TOPIC group.id=G transactional.id=ID [offsets=transaction|before|after]",
		args:  []arg{{name: "NAME", check: clientNew}}, min: 1, named: true, client: true,
		opts: []opt{
			{key: "input", ph: "TOPIC", required: true, check: topicRef},
			{key: "output", ph: "TOPIC", required: true, check: topicRef},
			{key: "group.id", ph: "G", required: true, check: nonEmpty},
			{key: "transactional.id", ph: "ID", required: true, check: nonEmpty},
			{key: "offsets", ph: "transaction|before|after", check: oneOf("transaction", "before", "after")},
		},
		declare: declareClient(Processor), salvage: declareClient(Processor), build: buildProcessor},
}

// clusterOpts are the keys of "config": broker settings (ref 0.1) and the
// simulation's own latency.ms. The names are the engine's (engine.ConfigKey).
var clusterOpts = []opt{
	{key: engine.ConfigTransactionVersion.String(), ph: "1|2", check: transactionVersion},
	{key: engine.ConfigVerification.String(), ph: "true|false", check: boolean},
	{key: engine.ConfigTxnMaxTimeoutMs.String(), ph: "MS", check: intIn(1, maxInt32)},
	{key: engine.ConfigTxnIDExpirationMs.String(), ph: "MS", check: intIn(1, maxInt32)},
	{key: engine.ConfigProducerIDExpirationMs.String(), ph: "MS", check: intIn(1, maxInt32)},
	{key: engine.ConfigLatencyMs.String(), ph: "MS", check: intIn(1, maxInt32)},
	{key: engine.ConfigTxnStatePartitions.String(), ph: "N", check: intIn(1, maxInternal), fixed: true},
	{key: engine.ConfigOffsetsPartitions.String(), ph: "N", check: intIn(1, maxInternal), fixed: true},
	{key: engine.ConfigAbortCheckIntervalMs.String(), ph: "MS", check: intIn(1, maxInt32)},
	// Teaching switches: not Kafka settings (engine/teach.go).
	{key: engine.ConfigTeachDedup.String(), ph: "true|false", check: boolean},
	{key: engine.ConfigTeachFencing.String(), ph: "true|false", check: boolean},
	{key: engine.ConfigTeachLSO.String(), ph: "true|false", check: boolean},
}

// producerOpts are Java ProducerConfig keys. Combinations Java refuses when
// the producer is built (acks=1 with idempotence) are not parse errors: the
// engine reports Kafka's ConfigException, which a lesson may want to show.
// The names are the engine's (engine.ProducerKey).
var producerOpts = []opt{
	{key: engine.ProducerTransactionalID.String(), ph: "ID", check: nonEmpty},
	{key: engine.ProducerIdempotence.String(), ph: "true|false", check: boolean},
	{key: engine.ProducerAcks.String(), ph: "0|1|all|-1", check: oneOf("0", "1", "all", "-1")},
	{key: engine.ProducerRetries.String(), ph: "N", check: intIn(0, maxInt32)},
	{key: engine.ProducerMaxInFlight.String(), ph: "N", check: intIn(1, maxInt32)},
	// Any int: the broker answers INVALID_TRANSACTION_TIMEOUT for <= 0 or
	// above transaction.max.timeout.ms (ref 0.1), and a lesson may show that.
	{key: engine.ProducerTxnTimeoutMs.String(), ph: "MS", check: intIn(-1<<31, maxInt32)},
	{key: engine.ProducerRequestTimeoutMs.String(), ph: "MS", check: intIn(1, maxInt32)},
	{key: engine.ProducerRetryBackoffMs.String(), ph: "MS", check: intIn(1, maxInt32)},
	{key: engine.ProducerDeliveryTimeoutMs.String(), ph: "MS", check: intIn(0, maxInt32)},
}

// consumerOpts are Java ConsumerConfig keys, plus topics, the subscription.
var consumerOpts = []opt{
	{key: "isolation.level", ph: "read_committed|read_uncommitted", check: oneOf("read_committed", "read_uncommitted")},
	{key: "group.id", ph: "G", check: nonEmpty},
	{key: "topics", ph: "t,u", check: listOf("topics", topicRef)},
	{key: "group.instance.id", ph: "ID", check: nonEmpty},
	{key: "auto.offset.reset", ph: "latest|earliest|none", check: oneOf("latest", "earliest", "none")},
}

var producerOnly = []ClientKind{Producer}

// callForms are the client calls, keyed by Java method name.
var callForms = map[string]*form{}

// noArgs is a call without arguments, named as the engine names it.
func noArgs(m engine.Method, on ...ClientKind) *form {
	return &form{verb: m.String(), on: on, usage: "NAME " + m.String(), need: "no arguments", build: buildCall(m)}
}

var callList = []*form{
	noArgs(engine.CallInitTransactions, Producer),
	noArgs(engine.CallBeginTransaction, Producer),
	{verb: "send", on: producerOnly, usage: "NAME send TP VALUE...", need: "a partition and at least one value",
		args: []arg{argTP}, min: 1, rest: &arg{name: "VALUE", check: value}, restMin: 1, build: buildSend},
	{verb: "sendOffsetsToTransaction", on: producerOnly, need: "a group and at least one TP=OFFSET",
		usage: "NAME sendOffsetsToTransaction GROUP TP=OFFSET... [generation=N] [member=ID] [instance=ID] [consumer=NAME]",
		args:  []arg{{name: "GROUP", check: nonEmpty}}, min: 1,
		keyed: &keyedOpt{ph: "TP=OFFSET", key: tp, val: intIn(0, 1<<63-1), min: 1},
		opts: []opt{
			{key: "generation", ph: "N", check: intIn(-1, maxInt32)},
			{key: "member", ph: "ID", check: nonEmpty},
			{key: "instance", ph: "ID", check: nonEmpty},
			{key: "consumer", ph: "NAME", check: clientOf(Consumer)},
		},
		declare: declareOffsetsGroup, build: buildSendOffsets},
	noArgs(engine.CallCommitTransaction, Producer),
	noArgs(engine.CallAbortTransaction, Producer),
	noArgs(engine.CallFlush, Producer),
	noArgs(engine.CallClose, Producer),
	noArgs(engine.CallPoll, Consumer),
	{verb: "commitSync", on: []ClientKind{Consumer}, usage: "NAME commitSync TP=OFFSET...",
		need:  "at least one TP=OFFSET",
		keyed: &keyedOpt{ph: "TP=OFFSET", key: tp, val: intIn(0, 1<<63-1), min: 1}, build: buildCommitSync},
	noArgs(engine.CallProcess, Processor),
}

// stepForms move time and deliver messages.
var stepForms = []*form{
	{verb: "step", usage: "step [N]", need: "at most one number",
		args: []arg{argN(intIn(1, maxSteps))}, build: buildStep},
	{verb: "deliver", usage: "deliver MSG", need: "one message", args: []arg{argMsg}, min: 1, build: buildDeliver},
	{verb: "run", usage: "run [max=N]", need: "no arguments",
		opts: []opt{{key: "max", ph: "N", check: intIn(1, maxSteps)}}, build: buildRun},
	{verb: "advance", usage: "advance MS", need: "a number of milliseconds",
		args: []arg{{name: "MS", check: intIn(0, maxInt32)}}, min: 1, build: buildAdvance},
}

// faultForms break things on purpose.
var faultForms = []*form{
	{verb: "drop", usage: "drop MSG", need: "one message", args: []arg{argMsg}, min: 1, build: buildDrop},
	{verb: "duplicate", usage: "duplicate MSG", need: "one message", args: []arg{argMsg}, min: 1, build: buildDuplicate},
	{verb: "delay", usage: "delay MSG MS", need: "a message and a number of milliseconds",
		args: []arg{argMsg, {name: "MS", check: intIn(1, maxInt32)}}, min: 2, build: buildDelay},
	{verb: "reorder", usage: "reorder MSG MSG", need: "two messages",
		args: []arg{argMsg, argMsg}, min: 2, rule: reorderRule, build: buildReorder},
	{verb: "crash", usage: "crash broker-N|NAME", need: "a broker or a client",
		args: []arg{{name: "broker-N|NAME", check: brokerOrClient}}, min: 1, build: buildCrash},
	{verb: "restart", usage: "restart broker-N|NAME", need: "a broker or a client",
		args: []arg{{name: "broker-N|NAME", check: brokerOrClient}}, min: 1, build: buildRestart},
	{verb: "pause", usage: "pause NAME", need: "a client", args: []arg{{name: "NAME", check: anyClient}}, min: 1, build: buildPause},
	{verb: "resume", usage: "resume NAME", need: "a client", args: []arg{{name: "NAME", check: anyClient}}, min: 1, build: buildResume},
	{verb: "rebalance", usage: "rebalance GROUP", need: "a group",
		args: []arg{{name: "GROUP", check: memberGroupRef}}, min: 1, build: buildRebalance},
}

// Fields of the expert actions. Producer id, epoch and sequence -1 mean
// "none", as in a batch from a plain producer.
var (
	optPid   = opt{key: "pid", ph: "N", required: true, check: intIn(-1, 1<<63-1)}
	optEpoch = opt{key: "epoch", ph: "N", required: true, check: intIn(-1, 1<<15-1)}
	// An operator may send any transactional id, one no client uses (ref
	// 7.S21), so it need not be declared.
	argTxnID = arg{name: "ID", check: nonEmpty}
)

// coordinatorRequest is an inject form for a request to a transactional
// id's coordinator: "inject KIND ID ...", KIND being the Kafka request name.
func coordinatorRequest(kind engine.MsgKind, usage string, build func(p *pctx) engine.Action, opts ...opt) *form {
	return &form{verb: "inject", usage: usage, need: "a transactional id",
		args: []arg{{lit: kind.String(), role: "kind", name: kind.String()}, argTxnID}, min: 2,
		opts: opts, declare: declareInjectedTxnID, build: build}
}

// injectForms write raw batches and markers to a partition, as a buggy or
// malicious client could, and send coordinator requests with explicit
// fields, as an operator's tool could, for expert lessons.
var injectForms = []*form{
	{verb: "inject", usage: "inject batch TP pid=N epoch=N seq=N [count=N] [transactional] [control] [copies=N] [values=a,b]",
		need: "a partition",
		args: []arg{{lit: "batch", role: "kind", name: "batch"}, argTP}, min: 2,
		rest: &arg{name: "transactional|control", check: oneOf("transactional", "control")},
		opts: []opt{
			optPid,
			optEpoch,
			{key: "seq", ph: "N", required: true, check: intIn(-1, maxInt32)},
			{key: "count", ph: "N", check: intIn(1, maxRecords)},
			{key: "copies", ph: "N", check: intIn(1, maxRecords)},
			{key: "values", ph: "a,b", check: listOf("values", value)},
		},
		rule: injectBatchRule, build: buildInjectBatch},
	{verb: "inject", usage: "inject marker TP pid=N epoch=N result=commit|abort [coordinatorEpoch=N]",
		need: "a partition",
		args: []arg{{lit: "marker", role: "kind", name: "marker"}, argTP}, min: 2,
		opts: []opt{
			optPid,
			optEpoch,
			{key: "result", ph: "commit|abort", required: true, check: oneOf("commit", "abort")},
			{key: "coordinatorEpoch", ph: "N", check: intIn(0, maxInt32)},
		},
		build: buildInjectMarker},
	{verb: "inject", usage: "inject txnstate ID pid=N epoch=N state=Empty|CompleteCommit|CompleteAbort",
		need: "a transactional id",
		args: []arg{{lit: "txnstate", role: "kind", name: "txnstate"}, whoTxn}, min: 2,
		opts: []opt{
			{key: "pid", ph: "N", required: true, check: intIn(0, 1<<63-1)},
			{key: "epoch", ph: "N", required: true, check: intIn(0, 1<<15-1)},
			{key: "state", ph: "Empty|CompleteCommit|CompleteAbort", required: true, check: oneOf("Empty", "CompleteCommit", "CompleteAbort")},
		},
		build: buildInjectTxnState},
	// pid and epoch are optional here: InitProducerId without them is a
	// new instance's (-1, -1), and giving only one of them is a request
	// the coordinator refuses (ref 3.4 step 4). Any timeout may be sent:
	// the coordinator answers INVALID_TRANSACTION_TIMEOUT (step 3).
	coordinatorRequest(engine.MsgInitProducerID, "inject InitProducerId ID [pid=N] [epoch=N] [timeout=MS]", buildInjectInitProducerID,
		opt{key: "pid", ph: "N", check: optPid.check}, opt{key: "epoch", ph: "N", check: optEpoch.check},
		opt{key: "timeout", ph: "MS", check: intIn(-1<<31, maxInt32)}),
	coordinatorRequest(engine.MsgAddPartitionsToTxn, "inject AddPartitionsToTxn ID pid=N epoch=N partitions=TP,TP", buildInjectAddPartitions,
		optPid, optEpoch, opt{key: "partitions", ph: "TP,TP", required: true, check: listOf("partitions", tpOrInternal)}),
	coordinatorRequest(engine.MsgAddOffsetsToTxn, "inject AddOffsetsToTxn ID pid=N epoch=N group=G", buildInjectAddOffsets,
		optPid, optEpoch, opt{key: "group", ph: "G", required: true, check: nonEmpty}),
	coordinatorRequest(engine.MsgEndTxn, "inject EndTxn ID pid=N epoch=N result=commit|abort", buildInjectEndTxn,
		optPid, optEpoch, opt{key: "result", ph: "commit|abort", required: true, check: oneOf("commit", "abort")}),
}

// verbForms maps every verb that starts a line to its forms (several for
// expect and inject, told apart by their literal words).
var verbForms = map[string][]*form{}

// verbOrder is every line-starting verb in table order, for suggestions.
var verbOrder []string

// callOrder is every call in table order, for suggestions.
var callOrder []string

func init() {
	add := func(kind CommandKind, forms []*form) {
		for _, f := range forms {
			f.kind = kind
			if verbForms[f.verb] == nil {
				verbOrder = append(verbOrder, f.verb)
			}
			verbForms[f.verb] = append(verbForms[f.verb], f)
		}
	}
	add(Setup, setupForms)
	add(Step, stepForms)
	add(Fault, faultForms)
	add(Inject, injectForms)
	add(Expect, expectForms)
	for _, f := range callList {
		f.kind = Call
		callForms[f.verb] = f
		callOrder = append(callOrder, f.verb)
	}
}

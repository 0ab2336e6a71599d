package script

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
		rule: brokersRule, declare: declareBrokers},
	{verb: "config", usage: "config KEY=VALUE...", need: "only KEY=VALUE settings", optMin: 1,
		opts: clusterOpts, rule: fixedOptsRule, declare: declareConfig},
	{verb: "topic", usage: "topic NAME [partitions=N] [rf=N]", need: "a topic name",
		args: []arg{{name: "NAME", check: topicNew}}, min: 1, named: true,
		opts: []opt{
			{key: "partitions", ph: "N", check: intIn(1, maxPartitions)},
			{key: "rf", ph: "N", check: replicationFactor},
		},
		declare: declareTopic, salvage: declareTopic},
	{verb: "producer", usage: "producer NAME [KEY=VALUE...]", need: "a name",
		args: []arg{{name: "NAME", check: clientNew}}, min: 1, named: true, client: true,
		opts: producerOpts, declare: declareClient(Producer), salvage: declareClient(Producer)},
	{verb: "consumer", usage: "consumer NAME [KEY=VALUE...]", need: "a name",
		args: []arg{{name: "NAME", check: clientNew}}, min: 1, named: true, client: true,
		opts: consumerOpts, declare: declareClient(Consumer), salvage: declareClient(Consumer)},
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
		declare: declareClient(Processor), salvage: declareClient(Processor)},
}

// clusterOpts are the keys of "config": broker settings (ref 0.1) and the
// simulation's own (latency.ms, seed).
var clusterOpts = []opt{
	{key: "transaction.version", ph: "1", check: transactionVersion},
	{key: "transaction.partition.verification.enable", ph: "true|false", check: boolean},
	{key: "transaction.max.timeout.ms", ph: "MS", check: intIn(1, maxInt32)},
	{key: "transactional.id.expiration.ms", ph: "MS", check: intIn(1, maxInt32)},
	{key: "producer.id.expiration.ms", ph: "MS", check: intIn(1, maxInt32)},
	{key: "latency.ms", ph: "MS", check: intIn(1, maxInt32)},
	{key: "transaction.state.log.num.partitions", ph: "N", check: intIn(1, maxInternal), fixed: true},
	{key: "offsets.topic.num.partitions", ph: "N", check: intIn(1, maxInternal), fixed: true},
	{key: "transaction.abort.timed.out.transaction.cleanup.interval.ms", ph: "MS", check: intIn(1, maxInt32)},
	{key: "seed", ph: "N", check: intIn(-1<<63, 1<<63-1), fixed: true},
}

// producerOpts are Java ProducerConfig keys. Combinations Java refuses when
// the producer is built (acks=1 with idempotence) are not parse errors: the
// engine reports Kafka's ConfigException, which a lesson may want to show.
var producerOpts = []opt{
	{key: "transactional.id", ph: "ID", check: nonEmpty},
	{key: "enable.idempotence", ph: "true|false", check: boolean},
	{key: "acks", ph: "0|1|all|-1", check: oneOf("0", "1", "all", "-1")},
	{key: "retries", ph: "N", check: intIn(0, maxInt32)},
	{key: "max.in.flight.requests.per.connection", ph: "N", check: intIn(1, maxInt32)},
	// Any int: the broker answers INVALID_TRANSACTION_TIMEOUT for <= 0 or
	// above transaction.max.timeout.ms (ref 0.1), and a lesson may show that.
	{key: "transaction.timeout.ms", ph: "MS", check: intIn(-1<<31, maxInt32)},
	{key: "request.timeout.ms", ph: "MS", check: intIn(1, maxInt32)},
	{key: "retry.backoff.ms", ph: "MS", check: intIn(1, maxInt32)},
	{key: "delivery.timeout.ms", ph: "MS", check: intIn(0, maxInt32)},
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

var callList = []*form{
	{verb: "initTransactions", on: producerOnly, usage: "NAME initTransactions", need: "no arguments"},
	{verb: "beginTransaction", on: producerOnly, usage: "NAME beginTransaction", need: "no arguments"},
	{verb: "send", on: producerOnly, usage: "NAME send TP VALUE...", need: "a partition and at least one value",
		args: []arg{argTP}, min: 1, rest: &arg{name: "VALUE", check: value}, restMin: 1},
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
		declare: declareOffsetsGroup},
	{verb: "commitTransaction", on: producerOnly, usage: "NAME commitTransaction", need: "no arguments"},
	{verb: "abortTransaction", on: producerOnly, usage: "NAME abortTransaction", need: "no arguments"},
	{verb: "flush", on: producerOnly, usage: "NAME flush", need: "no arguments"},
	{verb: "close", on: producerOnly, usage: "NAME close", need: "no arguments"},
	{verb: "poll", on: []ClientKind{Consumer}, usage: "NAME poll", need: "no arguments"},
	{verb: "commitSync", on: []ClientKind{Consumer}, usage: "NAME commitSync TP=OFFSET...",
		need:  "at least one TP=OFFSET",
		keyed: &keyedOpt{ph: "TP=OFFSET", key: tp, val: intIn(0, 1<<63-1), min: 1}},
	{verb: "process", on: []ClientKind{Processor}, usage: "NAME process", need: "no arguments"},
}

// stepForms move time and deliver messages.
var stepForms = []*form{
	{verb: "step", usage: "step [N]", need: "at most one number",
		args: []arg{argN(intIn(1, maxSteps))}},
	{verb: "deliver", usage: "deliver MSG", need: "one message", args: []arg{argMsg}, min: 1},
	{verb: "run", usage: "run [max=N]", need: "no arguments",
		opts: []opt{{key: "max", ph: "N", check: intIn(1, maxSteps)}}},
	{verb: "advance", usage: "advance MS", need: "a number of milliseconds",
		args: []arg{{name: "MS", check: intIn(0, maxInt32)}}, min: 1},
}

// faultForms break things on purpose.
var faultForms = []*form{
	{verb: "drop", usage: "drop MSG", need: "one message", args: []arg{argMsg}, min: 1},
	{verb: "duplicate", usage: "duplicate MSG", need: "one message", args: []arg{argMsg}, min: 1},
	{verb: "delay", usage: "delay MSG MS", need: "a message and a number of milliseconds",
		args: []arg{argMsg, {name: "MS", check: intIn(1, maxInt32)}}, min: 2},
	{verb: "reorder", usage: "reorder MSG MSG", need: "two messages",
		args: []arg{argMsg, argMsg}, min: 2, rule: reorderRule},
	{verb: "crash", usage: "crash broker-N|NAME", need: "a broker or a client",
		args: []arg{{name: "broker-N|NAME", check: brokerOrClient}}, min: 1},
	{verb: "restart", usage: "restart broker-N|NAME", need: "a broker or a client",
		args: []arg{{name: "broker-N|NAME", check: brokerOrClient}}, min: 1},
	{verb: "pause", usage: "pause NAME", need: "a client", args: []arg{{name: "NAME", check: anyClient}}, min: 1},
	{verb: "resume", usage: "resume NAME", need: "a client", args: []arg{{name: "NAME", check: anyClient}}, min: 1},
	{verb: "rebalance", usage: "rebalance GROUP", need: "a group",
		args: []arg{{name: "GROUP", check: memberGroupRef}}, min: 1},
}

// injectForms write raw batches and markers to a partition, as a buggy or
// malicious client could, for expert lessons.
var injectForms = []*form{
	{verb: "inject", usage: "inject batch TP pid=N epoch=N seq=N [count=N] [transactional] [control] [copies=N] [values=a,b]",
		need: "a partition",
		args: []arg{{lit: "batch", role: "kind", name: "batch"}, argTP}, min: 2,
		rest: &arg{name: "transactional|control", check: oneOf("transactional", "control")},
		opts: []opt{
			{key: "pid", ph: "N", required: true, check: intIn(-1, 1<<63-1)},
			{key: "epoch", ph: "N", required: true, check: intIn(-1, 1<<15-1)},
			{key: "seq", ph: "N", required: true, check: intIn(-1, maxInt32)},
			{key: "count", ph: "N", check: intIn(1, maxRecords)},
			{key: "copies", ph: "N", check: intIn(1, maxRecords)},
			{key: "values", ph: "a,b", check: listOf("values", value)},
		},
		rule: injectBatchRule},
	{verb: "inject", usage: "inject marker TP pid=N epoch=N result=commit|abort [coordinatorEpoch=N]",
		need: "a partition",
		args: []arg{{lit: "marker", role: "kind", name: "marker"}, argTP}, min: 2,
		opts: []opt{
			{key: "pid", ph: "N", required: true, check: intIn(-1, 1<<63-1)},
			{key: "epoch", ph: "N", required: true, check: intIn(-1, 1<<15-1)},
			{key: "result", ph: "commit|abort", required: true, check: oneOf("commit", "abort")},
			{key: "coordinatorEpoch", ph: "N", check: intIn(0, maxInt32)},
		}},
	{verb: "inject", usage: "inject txnstate ID pid=N epoch=N state=Empty|CompleteCommit|CompleteAbort",
		need: "a transactional id",
		args: []arg{{lit: "txnstate", role: "kind", name: "txnstate"}, whoTxn}, min: 2,
		opts: []opt{
			{key: "pid", ph: "N", required: true, check: intIn(0, 1<<63-1)},
			{key: "epoch", ph: "N", required: true, check: intIn(0, 1<<15-1)},
			{key: "state", ph: "Empty|CompleteCommit|CompleteAbort", required: true, check: oneOf("Empty", "CompleteCommit", "CompleteAbort")},
		}},
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

package script

// The expect table. An expectation is "expect SUBJECT WHO FIELD VALUE...":
// the subject and field are literal words that select the form, so each row
// below is one thing a lesson can assert. A failed expectation is a run-time
// result (exit code 1), never a parse error; parsing only checks that the
// expectation can be evaluated.

var (
	offsetN = arg{name: "N", check: intIn(0, 1<<63-1)}
	pidN    = intIn(-1, 1<<63-1)
	epochN  = intIn(-1, 1<<15-1)
	seqN    = intIn(-1, maxInt32)
)

// expectOn builds one row: "expect SUBJECT WHO FIELD more...".
func expectOn(subject string, who arg, field, usage, need string, more []arg, opts ...opt) *form {
	args := append([]arg{
		{lit: subject, role: "subject", name: subject},
		who,
		{lit: field, role: "field", name: field},
	}, more...)
	return &form{verb: "expect", usage: usage, need: need, args: args, min: len(args), opts: opts}
}

var (
	whoTP = arg{name: "TP", check: tp}
	// A processor holds a transactional producer and a consumer; expect
	// producer P and expect consumer P look inside it.
	whoProducer = arg{name: "NAME", check: clientOf(Producer, Processor)}
	whoConsumer = arg{name: "NAME", check: clientOf(Consumer, Processor)}
	whoTxn      = arg{name: "ID", check: txnIDRef}
	whoGroup    = arg{name: "GROUP", check: groupRef}
)

func partitionNumber(field string) *form {
	return expectOn("partition", whoTP, field, "expect partition TP "+field+" N",
		"a partition and an offset", []arg{offsetN})
}

var expectForms = []*form{
	partitionNumber("leo"),
	partitionNumber("hw"),
	partitionNumber("lso"),
	partitionNumber("logstart"),
	expectOn("partition", whoTP, "batch",
		"expect partition TP batch OFFSET [pid=N] [epoch=N] [seq=A..B] [count=N] [txn=yes|no] [status=committed|aborted|open|plain] [values=a,b]",
		"a partition and the batch's base offset", []arg{{name: "OFFSET", check: intIn(0, 1<<63-1)}},
		opt{key: "pid", ph: "N", check: pidN},
		opt{key: "epoch", ph: "N", check: epochN},
		opt{key: "seq", ph: "A..B", check: seqRange},
		opt{key: "count", ph: "N", check: intIn(1, maxInt32)},
		opt{key: "txn", ph: "yes|no", check: oneOf("yes", "no")},
		opt{key: "status", ph: "committed|aborted|open|plain", check: oneOf("committed", "aborted", "open", "plain")},
		opt{key: "values", ph: "a,b", check: listOf("values", value)}),
	expectOn("partition", whoTP, "marker",
		"expect partition TP marker OFFSET commit|abort [pid=N] [epoch=N] [coordinatorEpoch=N]",
		"a partition, the marker's offset and commit or abort",
		[]arg{{name: "OFFSET", check: intIn(0, 1<<63-1)}, {name: "commit|abort", check: oneOf("commit", "abort")}},
		opt{key: "pid", ph: "N", check: pidN},
		opt{key: "epoch", ph: "N", check: epochN},
		opt{key: "coordinatorEpoch", ph: "N", check: intIn(0, maxInt32)}),
	expectOn("partition", whoTP, "aborted",
		"expect partition TP aborted pid=N first=N last=N [lso=N]",
		"a partition", nil,
		opt{key: "pid", ph: "N", required: true, check: pidN},
		opt{key: "first", ph: "N", required: true, check: intIn(0, 1<<63-1)},
		opt{key: "last", ph: "N", required: true, check: intIn(0, 1<<63-1)},
		opt{key: "lso", ph: "N", check: intIn(0, 1<<63-1)}),
	expectOn("partition", whoTP, "producer",
		"expect partition TP producer PID [epoch=N] [lastseq=N] [cached=N] [txnfirst=N]",
		"a partition and a producer id", []arg{{name: "PID", check: intIn(0, 1<<63-1)}},
		opt{key: "epoch", ph: "N", check: epochN},
		opt{key: "lastseq", ph: "N", check: seqN},
		// Kafka keeps metadata for the last 5 batches (NUM_BATCHES_TO_RETAIN, ref 0.1).
		opt{key: "cached", ph: "N", check: intIn(0, 5)},
		opt{key: "txnfirst", ph: "N", check: intIn(-1, 1<<63-1)},
		opt{key: "coordinatorEpoch", ph: "N", check: intIn(-1, maxInt32)}),
	expectOn("partition", whoTP, "records", "expect partition TP records N",
		"a partition and a number of records", []arg{offsetN}),

	expectOn("producer", whoProducer, "state", "expect producer NAME state STATE",
		"a producer and a state", []arg{{name: "STATE", check: oneOf(producerStates...)}}),
	expectOn("producer", whoProducer, "error", "expect producer NAME error ERROR|none",
		"a producer and an error name or none", []arg{{name: "ERROR", check: errorName}}),
	expectOn("producer", whoProducer, "pid", "expect producer NAME pid N",
		"a producer and a producer id", []arg{{name: "N", check: pidN}}),
	expectOn("producer", whoProducer, "epoch", "expect producer NAME epoch N",
		"a producer and an epoch", []arg{{name: "N", check: epochN}}),
	expectOn("producer", whoProducer, "idempotent", "expect producer NAME idempotent true|false",
		"a producer and true or false", []arg{{name: "true|false", check: boolean}}),
	expectOn("producer", whoProducer, "nextseq", "expect producer NAME nextseq TP N",
		"a producer, a partition and a sequence number", []arg{argTP, {name: "N", check: intIn(0, maxInt32)}}),
	expectOn("producer", whoProducer, "offset", "expect producer NAME offset N",
		"a producer and an offset", []arg{{name: "N", check: intIn(-1, 1<<63-1)}}),

	expectOn("txn", whoTxn, "state", "expect txn ID state STATE",
		"a transactional id and a state", []arg{{name: "STATE", check: oneOf(txnStates...)}}),
	expectOn("txn", whoTxn, "epoch", "expect txn ID epoch N",
		"a transactional id and an epoch", []arg{{name: "N", check: epochN}}),
	expectOn("txn", whoTxn, "pid", "expect txn ID pid N",
		"a transactional id and a producer id", []arg{{name: "N", check: pidN}}),
	expectOn("txn", whoTxn, "partitions", "expect txn ID partitions TP,TP|none",
		"a transactional id and a list of partitions or none",
		[]arg{{name: "TP,TP", check: orNone(listOf("partitions", tpOrInternal))}}),
	expectOn("txn", whoTxn, "coordinator", "expect txn ID coordinator __transaction_state-N",
		"a transactional id and a partition of __transaction_state",
		[]arg{{name: "__transaction_state-N", check: coordinatorPartition}}),

	expectOn("consumer", whoConsumer, "values", "expect consumer NAME values v1,v2|none",
		"a consumer and a list of values or none", []arg{{name: "v1,v2", check: orNone(listOf("values", value))}}),
	expectOn("consumer", whoConsumer, "offsets", "expect consumer NAME offsets 0,1,2|none",
		"a consumer and a list of offsets or none",
		[]arg{{name: "0,1,2", check: orNone(listOf("offsets", intIn(0, 1<<63-1)))}}),
	expectOn("consumer", whoConsumer, "position", "expect consumer NAME position TP N",
		"a consumer, a partition and an offset", []arg{argTP, offsetN}),
	expectOn("consumer", whoConsumer, "error", "expect consumer NAME error ERROR|none",
		"a consumer and an error name or none", []arg{{name: "ERROR", check: errorName}}),

	expectOn("group", whoGroup, "offset", "expect group GROUP offset TP N|none",
		"a group, a partition and an offset or none", []arg{argTP, {name: "N", check: orNone(intIn(0, 1<<63-1))}}),
	expectOn("group", whoGroup, "pending", "expect group GROUP pending TP N|none",
		"a group, a partition and an offset or none", []arg{argTP, {name: "N", check: orNone(intIn(0, 1<<63-1))}}),
	expectOn("group", whoGroup, "generation", "expect group GROUP generation N",
		"a group and a generation", []arg{{name: "N", check: intIn(0, maxInt32)}}),

	{verb: "expect", usage: "expect violation NAME", need: "an invariant name",
		args: []arg{{lit: "violation", role: "subject", name: "violation"}, {name: "NAME", check: invariantName}}, min: 2},
	{verb: "expect", usage: "expect violations none", need: "the word none",
		args: []arg{{lit: "violations", role: "subject", name: "violations"}, {name: "none", check: oneOf("none")}}, min: 2},
	{verb: "expect", usage: `expect event "TEXT"`, need: "one text (quote it if it has spaces)",
		args: []arg{{lit: "event", role: "subject", name: "event"}, {name: `"TEXT"`, check: nonEmpty}}, min: 2},
}

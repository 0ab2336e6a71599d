package script

import (
	"strings"

	"github.com/eoslab/eoslab/engine"
)

// The expect table. An expectation is "expect SUBJECT WHO FIELD VALUE...":
// the subject and field are literal words that select the form, so each row
// below is one thing a lesson can assert. A failed expectation is a run-time
// result (exit code 1), never a parse error; parsing only checks that the
// expectation can be evaluated, and builds its typed form (expectation.go)
// with buildExpect.

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
	// lastProducerEpoch lives only in the coordinator's memory (ref 3.2):
	// -1 except after an InitProducerId that bumped an expected epoch.
	expectOn("txn", whoTxn, "lastProducerEpoch", "expect txn ID lastProducerEpoch N",
		"a transactional id and an epoch", []arg{{name: "N", check: epochN}}),

	// The records the coordinator wrote to __transaction_state (ref 3.2).
	expectOn("txnlog", whoTxn, "states", "expect txnlog ID states STATE,STATE|none",
		"a transactional id and a list of states or none",
		[]arg{{name: "STATE,STATE", check: orNone(listOf("states", txnLogState))}}),
	expectOn("txnlog", whoTxn, "record",
		"expect txnlog ID record OFFSET|last [state=STATE] [pid=N] [prevPid=N] [epoch=N] [partitions=TP,TP|none] [timeout=MS] [coordinatorEpoch=N]",
		"a transactional id and an offset or last", []arg{{name: "OFFSET|last", check: offsetOrLast}},
		opt{key: "state", ph: "STATE", check: txnLogState},
		opt{key: "pid", ph: "N", check: pidN},
		opt{key: "prevPid", ph: "N", check: pidN},
		opt{key: "epoch", ph: "N", check: epochN},
		opt{key: "partitions", ph: "TP,TP|none", check: orNone(listOf("partitions", tpOrInternal))},
		opt{key: "timeout", ph: "MS", check: intIn(-1<<31, maxInt32)},
		opt{key: "coordinatorEpoch", ph: "N", check: intIn(0, maxInt32)}),

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

	{verb: "expect", need: "one message",
		usage: "expect response MSG [error=ERROR] [baseOffset=N] [pid=N] [epoch=N]",
		args:  []arg{{lit: "response", role: "subject", name: "response"}, {name: "MSG", check: responseWord, msg: true}}, min: 2,
		opts: []opt{
			{key: "error", ph: "ERROR", check: errorName},
			{key: "baseOffset", ph: "N", check: intIn(-1, 1<<63-1)},
			{key: "pid", ph: "N", check: pidN},
			{key: "epoch", ph: "N", check: epochN},
		},
		rule: responseRule},
	// What exactly-once costs, counted by the engine from its typed history:
	// requests (each one round trip) and transaction markers.
	{verb: "expect", usage: "expect requests N [kind=KIND] [from=NAME] [txn=ID]", need: "a number of requests",
		args: []arg{{lit: "requests", role: "subject", name: "requests"}, {name: "N", check: intIn(0, maxInt32)}}, min: 2,
		opts: []opt{
			{key: "kind", ph: "KIND", check: requestKind},
			{key: "from", ph: "NAME", check: endpoint},
			{key: "txn", ph: "ID", check: txnIDRef},
		}},
	{verb: "expect", usage: "expect markers N [txn=ID]", need: "a number of markers",
		args: []arg{{lit: "markers", role: "subject", name: "markers"}, {name: "N", check: intIn(0, maxInt32)}}, min: 2,
		opts: []opt{{key: "txn", ph: "ID", check: txnIDRef}}},
	{verb: "expect", usage: "expect violation NAME", need: "an invariant name",
		args: []arg{{lit: "violation", role: "subject", name: "violation"}, {name: "NAME", check: invariantName}}, min: 2},
	{verb: "expect", usage: "expect violations none", need: "the word none",
		args: []arg{{lit: "violations", role: "subject", name: "violations"}, {name: "none", check: oneOf("none")}}, min: 2},
	{verb: "expect", need: "one text (quote it if it has spaces)",
		usage: `expect event ["TEXT"] [kind=KIND] [actor=NAME] [msg=MSG] [error=ERROR] [tp=TP] [txn=ID] [pid=N] [epoch=N] [reason=REASON] [rule=TEXT] [count=N] [in=last] [t=A..B]`,
		args:  []arg{{lit: "event", role: "subject", name: "event"}, {name: `"TEXT"`, check: nonEmpty}}, min: 1,
		opts: append(append(append([]opt(nil), eventFilters...), opt{key: "count", ph: "N", check: eventCount}), eventScope...),
		rule: eventRule},
	{verb: "expect", need: "one text (quote it if it has spaces)",
		usage: `expect no event ["TEXT"] [kind=KIND] [actor=NAME] [msg=MSG] [error=ERROR] [tp=TP] [txn=ID] [pid=N] [epoch=N] [reason=REASON] [rule=TEXT] [in=last] [t=A..B]`,
		args: []arg{{lit: "no", role: "subject", name: "no"}, {lit: "event", role: "subject", name: "event"},
			{name: `"TEXT"`, check: nonEmpty}}, min: 2,
		opts: append(append([]opt(nil), eventFilters...), eventScope...),
		rule: eventRule},
}

// eventFilters narrow the events an event check looks at, by what the
// engine records as fields; eventScope narrows them by when they happened.
var (
	eventFilters = []opt{
		{key: "kind", ph: "KIND", check: oneOf(eventKinds...)},
		{key: "actor", ph: "NAME", check: actorWord},
		{key: "msg", ph: "MSG", check: messageWord},
		{key: "error", ph: "ERROR", check: errorName},
		{key: "code", ph: "ERROR", check: errorName},
		{key: "tp", ph: "TP", check: tp},
		{key: "txn", ph: "ID", check: txnIDRef},
		{key: "pid", ph: "N", check: pidN},
		{key: "epoch", ph: "N", check: epochN},
		{key: "reason", ph: "REASON", check: reasonCode},
		{key: "rule", ph: "TEXT", check: nonEmpty},
	}
	eventScope = []opt{
		{key: "in", ph: "last", check: oneOf("last")},
		{key: "t", ph: "A..B", check: timeWindow},
	}
)

// txnLogState accepts a state a __transaction_state record can hold: one of
// the coordinator states (Dead and PrepareEpochFence are never written, ref
// 3.3, but naming them is not wrong), or tombstone for an expired id.
var txnLogState = oneOf(append(append([]string(nil), txnStates...), "tombstone")...)

// offsetOrLast accepts an offset of __transaction_state or the word last.
func offsetOrLast(p *pctx, s string) string {
	if s == "last" || intIn(0, 1<<63-1)(p, s) == "" {
		return ""
	}
	return "expected an offset of the transaction log, or last"
}

// eventCount accepts how many events must match. None is its own form, so
// that "no such event" reads as such.
func eventCount(p *pctx, s string) string {
	if s == "0" {
		return "to say there is none, write \"expect no event ...\""
	}
	return intIn(1, maxInt32)(p, s)
}

// timeWindow accepts a span of virtual time as the transcript's t= counts
// it: A..B, both ends included, or A.. for everything from A on.
func timeWindow(_ *pctx, s string) string {
	const want = "expected a time window like 100..250 or 100.. (virtual milliseconds, both ends included)"
	a, b, ok := strings.Cut(s, "..")
	from, okA := parseInt(a)
	if !ok || !okA || from < 0 {
		return want
	}
	if b == "" {
		return ""
	}
	to, okB := parseInt(b)
	switch {
	case !okB:
		return want
	case to < from:
		return "the window ends before it starts"
	}
	return ""
}

// actorWord accepts who acted, as events name them: a broker, a client, a
// transaction coordinator, a group coordinator, a partition leader's
// decision (the partition), the network, the expert actions or the clock.
// A check for the absence of events must not pass because of a typo, so
// the name is checked against the declarations.
func actorWord(p *pctx, s string) string {
	switch {
	case s == "network" || s == "expert" || s == "clock":
		return ""
	case isBrokerName(s):
		return brokerOrClient(p, s)
	case p.d.clients[s].line > 0:
		return ""
	}
	if b, ok := strings.CutPrefix(s, "coordinator("); ok && strings.HasSuffix(b, ")") {
		return brokerOrClient(p, strings.TrimSuffix(b, ")"))
	}
	if g, ok := strings.CutPrefix(s, "group("); ok && strings.HasSuffix(g, ")") {
		return groupRef(p, strings.TrimSuffix(g, ")"))
	}
	if topic, _, ok := splitTP(s); ok && (p.d.topics[topic].line > 0 || topic == txnStateTopic || topic == offsetsTopic) {
		return tpOrInternal(p, s)
	}
	return "expected who acted, as the transcript names it: broker-N, a client, coordinator(broker-N), group(G), a partition, network, expert or clock" +
		didYouMean(s, few(p.d.clients))
}

// requestKinds are the message kinds that are requests.
var requestKinds = func() []string {
	var out []string
	for _, k := range messageKinds {
		if !strings.HasSuffix(k, "Response") {
			out = append(out, k)
		}
	}
	return out
}()

// requestKind accepts a request kind: requests counts requests, and each
// has one answer.
func requestKind(_ *pctx, s string) string {
	if contains(requestKinds, s) {
		return ""
	}
	if contains(messageKinds, s) {
		return s + " is a response; requests counts requests (each has one answer): " + strings.TrimSuffix(s, "Response")
	}
	return "expected a request kind like Produce or EndTxn" + didYouMean(s, requestKinds)
}

// responseKinds are the message kinds that answer a request.
var responseKinds = func() []string {
	var out []string
	for _, k := range messageKinds {
		if strings.HasSuffix(k, "Response") {
			out = append(out, k)
		}
	}
	return out
}()

// responseWord accepts what names a delivered response: its id (or the id
// of the request it answers), or a response kind.
func responseWord(p *pctx, s string) string {
	if isMessageID(s) || contains(responseKinds, s) {
		return messageWord(p, s)
	}
	return "expected a message id like m12 or a response kind like ProduceResponse" + didYouMean(s, responseKinds)
}

// Which responses carry which fields (ref 2.2, 3.4, 6): a base offset only
// answers a Produce, a producer id and epoch an InitProducerId or an EndTxn
// v5 (TV2; an EndTxn v4 answer has none, which the check reports), and the
// responses below are about no partition.
var (
	noPartitionResponses = []string{"FindCoordinatorResponse", "InitProducerIdResponse", "AddOffsetsToTxnResponse",
		"EndTxnResponse", "OffsetFetchResponse"}
	responseFieldOf = map[string][]string{"baseOffset": {"ProduceResponse"}, "pid": {"InitProducerIdResponse", "EndTxnResponse"},
		"epoch": {"InitProducerIdResponse", "EndTxnResponse"}}
)

// responseRule refuses fields and filters the selected kind cannot have.
// A message id is only known at run time; the check then reports it.
func responseRule(p *pctx) string {
	kind := p.args[1]
	if isMessageID(kind) {
		return ""
	}
	for _, kv := range p.raw {
		if want, ok := responseFieldOf[kv.Key]; ok && !contains(want, kind) {
			return kv.Key + "= is a field of " + strings.Join(want, " or ") + ", not of " + kind
		}
		if kv.Key == "partition" && contains(noPartitionResponses, kind) {
			return kind + " is about no partition; partition= cannot narrow it"
		}
	}
	return ""
}

// eventRule: an event check needs something to look for.
func eventRule(p *pctx) string {
	if len(p.args) > 0 && p.args[len(p.args)-1] != "event" {
		return "" // a text
	}
	for _, o := range eventFilters {
		if _, ok := p.opt(o.key); ok {
			return ""
		}
	}
	return "give a text or a filter (kind=, actor=, msg=, error=, tp=, txn=, pid=, epoch=, reason=, rule=): \"" + p.f.usage + "\""
}

// expectWords are an expect line's positional words after "expect" and its
// key=value words, as the parser accepted them.
type expectWords struct {
	Args []string
	Opts []kv
}

// Opt returns the value of the option key (the parser rejects a key given
// twice).
func (w *expectWords) Opt(key string) (string, bool) {
	for _, o := range w.Opts {
		if o.Key == key {
			return o.Value, true
		}
	}
	return "", false
}

// buildExpect turns an expect line the parser accepted into its typed form.
// The words are known to be valid, so it reads them without checking.
func buildExpect(c *expectWords) Expectation {
	a := c.Args
	num := func(s string) int64 { n, _ := parseInt(s); return n }
	optInt := func(key string) Opt[int64] {
		if v, ok := c.Opt(key); ok {
			return some(num(v))
		}
		return Opt[int64]{}
	}
	optStr := func(key string) Opt[string] {
		if v, ok := c.Opt(key); ok {
			return some(v)
		}
		return Opt[string]{}
	}
	opt := func(key string) string { v, _ := c.Opt(key); return v }
	switch a[0] {
	case "partition":
		return buildPartition(c, num, optInt)
	case "producer":
		x := ProducerCheck{Name: a[1], Field: ClientField(indexOf(clientFieldWords[:], a[2]))}
		switch x.Field {
		case ClientState:
			x.State = a[3]
		case ClientError:
			x.Error = clientError(a[3])
		case ClientIdempotent:
			x.Bool = a[3] == "true"
		case ClientNextSeq:
			x.TP, x.N = partitionOf(a[3]), num(a[4])
		default:
			x.N = num(a[3])
		}
		return x
	case "consumer":
		x := ConsumerCheck{Name: a[1], Field: ClientField(indexOf(clientFieldWords[:], a[2]))}
		switch x.Field {
		case ClientValues:
			x.Values = noneList(a[3])
		case ClientOffsets:
			for _, s := range noneList(a[3]) {
				x.Offsets = append(x.Offsets, num(s))
			}
		case ClientPosition:
			x.TP, x.N = partitionOf(a[3]), num(a[4])
		case ClientError:
			x.Error = clientError(a[3])
		}
		return x
	case "txn":
		x := TxnCheck{ID: a[1], Field: TxnField(indexOf(txnFieldWords[:], a[2]))}
		switch x.Field {
		case TxnStateField:
			x.State = a[3]
		case TxnPartitions:
			x.Partitions = partitionsOf(a[3])
		case TxnCoordinator:
			x.Coordinator = partitionOf(a[3])
		default:
			x.N = num(a[3])
		}
		return x
	case "txnlog":
		x := TxnLogCheck{ID: a[1]}
		if a[2] == "states" {
			x.Field, x.States = TxnLogStates, noneList(a[3])
			return x
		}
		x.Field = TxnLogRecord
		if a[3] != "last" {
			x.Offset = some(num(a[3]))
		}
		x.State, x.PID, x.PrevPID, x.Epoch = optStr("state"), optInt("pid"), optInt("prevPid"), optInt("epoch")
		x.Timeout, x.CoordinatorEpoch = optInt("timeout"), optInt("coordinatorEpoch")
		if v, ok := c.Opt("partitions"); ok {
			x.Partitions = some(partitionsOf(v))
		}
		return x
	case "group":
		x := GroupCheck{Group: a[1], Field: GroupField(indexOf(groupFieldWords[:], a[2]))}
		v := a[len(a)-1]
		if x.Field != GroupGeneration {
			x.TP = partitionOf(a[3])
		}
		if v != "none" {
			x.N = some(num(v))
		}
		return x
	case "requests":
		return RequestsCheck{N: num(a[1]), Kind: opt("kind"), From: opt("from"), TxnID: opt("txn")}
	case "markers":
		return MarkersCheck{N: num(a[1]), TxnID: opt("txn")}
	case "violation":
		return ViolationCheck{Name: a[1]}
	case "violations":
		return ViolationCheck{}
	case "event", "no":
		x := EventCheck{No: a[0] == "no", Kind: opt("kind"), Actor: opt("actor"), TxnID: opt("txn"), PID: optInt("pid"), Epoch: optInt("epoch"), Rule: opt("rule"), Count: optInt("count")}
		if v, ok := c.Opt("tp"); ok {
			x.TP = some(partitionOf(v))
		}
		if v, ok := c.Opt("reason"); ok {
			x.Reason, _ = engine.ReasonByCode(v)
		}
		if v, ok := c.Opt("code"); ok {
			x.Error = wireError(v)
		}
		if t := a[len(a)-1]; t != "event" {
			x.Text = t
		}
		if v, ok := c.Opt("msg"); ok {
			x.Msg = some(messageRefOf(v))
		}
		if v, ok := c.Opt("error"); ok {
			x.Error = wireError(v)
		}
		x.InLast = opt("in") == "last"
		if v, ok := c.Opt("t"); ok {
			from, to, _ := strings.Cut(v, "..")
			x.Window = some(Window{From: num(from), To: num(to), Open: to == ""})
		}
		return x
	case "response":
		x := ResponseCheck{Msg: messageRefOf(a[1]), To: opt("to"), From: opt("from"),
			BaseOffset: optInt("baseOffset"), PID: optInt("pid"), Epoch: optInt("epoch")}
		if v, ok := c.Opt("partition"); ok {
			x.Partition = some(partitionOf(v))
		}
		if v, ok := c.Opt("error"); ok {
			x.Error = some(wireError(v))
		}
		return x
	}
	return nil
}

func buildPartition(c *expectWords, num func(string) int64, optInt func(string) Opt[int64]) Expectation {
	a := c.Args
	tp := partitionOf(a[1])
	switch a[2] {
	case "batch", "marker":
		x := BatchCheck{TP: tp, Offset: num(a[3]), PID: optInt("pid"), Epoch: optInt("epoch"), Count: optInt("count"),
			CoordinatorEpoch: optInt("coordinatorEpoch")}
		if a[2] == "marker" {
			x.Marker = some(MarkerCommit)
			if a[4] == "abort" {
				x.Marker.V = MarkerAbort
			}
		}
		if v, ok := c.Opt("seq"); ok {
			first, last, isRange := strings.Cut(v, "..")
			x.Seq = some(SeqRange{First: int32(num(first)), Last: int32(num(last)), Range: isRange})
		}
		if v, ok := c.Opt("txn"); ok {
			x.Txn = some(v == "yes")
		}
		if v, ok := c.Opt("status"); ok {
			x.Status = some(v)
		}
		if v, ok := c.Opt("values"); ok {
			x.Values = splitList(v)
		}
		return x
	case "aborted":
		return AbortedCheck{TP: tp, PID: optInt("pid").V, First: optInt("first").V, Last: optInt("last").V, LSO: optInt("lso")}
	case "producer":
		return ProducerStateCheck{TP: tp, PID: num(a[3]), Epoch: optInt("epoch"), LastSeq: optInt("lastseq"), Cached: optInt("cached"),
			TxnFirst: optInt("txnfirst"), CoordinatorEpoch: optInt("coordinatorEpoch")}
	}
	return PartitionCheck{TP: tp, Field: PartitionField(indexOf(partitionFieldWords[:], a[2])), N: num(a[3])}
}

func indexOf(words []string, w string) int {
	for i, x := range words {
		if x == w {
			return i
		}
	}
	return -1
}

// noneList reads "a,b" or "none" (an empty list).
func noneList(s string) []string {
	if s == "none" {
		return []string{}
	}
	return splitList(s)
}

func partitionsOf(s string) []Partition {
	out := []Partition{}
	for _, w := range noneList(s) {
		out = append(out, partitionOf(w))
	}
	return out
}

// errorBase is an error name without the code the engine prints after it:
// PRODUCER_FENCED(90) is PRODUCER_FENCED.
func errorBase(s string) string {
	if i := strings.IndexByte(s, '('); i > 0 {
		return s[:i]
	}
	return s
}

// clientError reads a client's last error: a name, or none for no error
// (NONE says the same).
func clientError(s string) string {
	if s == "NONE" || s == "none" {
		return "none"
	}
	return errorBase(s)
}

// wireError reads the error a response or event carries: NONE when there
// is none (none says the same).
func wireError(s string) string {
	if s == "none" {
		return "NONE"
	}
	return errorBase(s)
}

package engine

import (
	"strconv"
	"strings"
)

// Action is one line of the scenario language as data: one Go type per verb
// family, with typed fields. engine/script parses a line once into one of
// these, and checks there everything the text alone decides: the syntax, the
// value ranges (partitions 1 to 64, latency.ms at least 1, ...) and the names
// the line uses against the scenario's declarations. The engine trusts those
// and checks only what depends on the world when the action is applied: that
// a client, topic, partition, group or broker exists, and that the cluster's
// shape is still open. The engine never reads scenario text.
//
// String is the line's canonical text. The transcript shows it after
// "scenario:", and it parses back to the same action.
type Action interface {
	String() string
	isAction()
}

// quote renders a word in double quotes the way the scenario language reads
// them back: inside quotes only \" and \\ are escapes.
func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// word renders a positional word, quoted when it would otherwise read
// differently: empty, or holding a blank, '#', '"' or '=' (an unquoted
// key=value word is an option).
func word(s string) string {
	if s == "" || hasByte(s, " \t#\"=") {
		return quote(s)
	}
	return s
}

// opt renders " key=value", quoting a value that is empty or holds a blank,
// '#' or '"'.
func opt(key, value string) string {
	if value == "" || hasByte(value, " \t#\"") {
		value = quote(value)
	}
	return " " + key + "=" + value
}

// hasByte reports whether s holds any of the ASCII bytes in set.
func hasByte(s, set string) bool {
	for i := 0; i < len(s); i++ {
		for j := 0; j < len(set); j++ {
			if s[i] == set[j] {
				return true
			}
		}
	}
	return false
}

func optInt(key string, n int64) string { return " " + key + "=" + strconv.FormatInt(n, 10) }

func optBool(key string, b bool) string { return " " + key + "=" + strconv.FormatBool(b) }

// list renders a comma-separated list option value.
func list[T any](xs []T, str func(T) string) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = str(x)
	}
	return strings.Join(s, ",")
}

func tpString(tp TP) string { return tp.String() }

func offsetWords(offs []TPOffset) string {
	var b strings.Builder
	for _, o := range offs {
		b.WriteString(optInt(o.TP.String(), o.Offset))
	}
	return b.String()
}

// ---- Setup: the cluster, topics and clients.

// Brokers is "brokers N".
type Brokers struct{ N int }

// ConfigKey is a cluster setting of "config": a broker setting (ref 0.1) or
// the simulation's latency.ms.
type ConfigKey uint8

// Cluster settings, by their Kafka names (see configKeyNames).
const (
	ConfigTransactionVersion ConfigKey = iota
	ConfigVerification
	ConfigTxnMaxTimeoutMs
	ConfigTxnIDExpirationMs
	ConfigProducerIDExpirationMs
	ConfigLatencyMs
	ConfigTxnStatePartitions
	ConfigOffsetsPartitions
	ConfigAbortCheckIntervalMs
	configKeyCount
)

var configKeyNames = [configKeyCount]string{
	"transaction.version",
	"transaction.partition.verification.enable",
	"transaction.max.timeout.ms",
	"transactional.id.expiration.ms",
	"producer.id.expiration.ms",
	"latency.ms",
	"transaction.state.log.num.partitions",
	"offsets.topic.num.partitions",
	"transaction.abort.timed.out.transaction.cleanup.interval.ms",
}

func (k ConfigKey) String() string { return configKeyNames[k] }

// Boolean reports whether the setting is true|false rather than a number.
func (k ConfigKey) Boolean() bool { return k == ConfigVerification }

// ConfigKeys lists the cluster settings in their canonical order.
func ConfigKeys() []ConfigKey {
	out := make([]ConfigKey, configKeyCount)
	for i := range out {
		out[i] = ConfigKey(i)
	}
	return out
}

// Setting is one KEY=VALUE of "config". A Boolean setting holds 1 for true
// and 0 for false.
type Setting struct {
	Key   ConfigKey
	Value int64
}

func (s Setting) String() string {
	if s.Key.Boolean() {
		return s.Key.String() + "=" + strconv.FormatBool(s.Value != 0)
	}
	return s.Key.String() + "=" + strconv.FormatInt(s.Value, 10)
}

// SetConfig is "config KEY=VALUE...": the settings in the order written.
type SetConfig struct{ Settings []Setting }

// CreateTopic is "topic NAME [partitions=N] [rf=N]". Zero means not written:
// Kafka's default of 1.
type CreateTopic struct {
	Name       string
	Partitions int32
	RF         int
}

// ProducerKey is a Java ProducerConfig key the language accepts.
type ProducerKey uint8

// Producer settings, by their Java names (see producerKeyNames).
const (
	ProducerTransactionalID ProducerKey = iota
	ProducerIdempotence
	ProducerAcks
	ProducerRetries
	ProducerMaxInFlight
	ProducerTxnTimeoutMs
	ProducerRequestTimeoutMs
	ProducerRetryBackoffMs
	ProducerDeliveryTimeoutMs
	producerKeyCount
)

var producerKeyNames = [producerKeyCount]string{
	"transactional.id",
	"enable.idempotence",
	"acks",
	"retries",
	"max.in.flight.requests.per.connection",
	"transaction.timeout.ms",
	"request.timeout.ms",
	"retry.backoff.ms",
	"delivery.timeout.ms",
}

func (k ProducerKey) String() string { return producerKeyNames[k] }

// ProducerKeys lists the producer settings in their canonical order.
func ProducerKeys() []ProducerKey {
	out := make([]ProducerKey, producerKeyCount)
	for i := range out {
		out[i] = ProducerKey(i)
	}
	return out
}

// ProducerKeySet is a set of producer settings.
type ProducerKeySet uint16

// Has reports whether k is in the set.
func (s ProducerKeySet) Has(k ProducerKey) bool { return s&(1<<k) != 0 }

// With returns the set with k added.
func (s ProducerKeySet) With(k ProducerKey) ProducerKeySet { return s | 1<<k }

// DeclareProducer is "producer NAME [KEY=VALUE...]". Config is Kafka's
// defaults with the written settings applied; Set says which were written,
// which matters to Java's validation: acks=1 left to its default and acks
// written are judged differently (ref 1.1).
type DeclareProducer struct {
	Name   string
	Config ProducerConfig
	Set    ProducerKeySet
}

func (c ProducerConfig) value(k ProducerKey) string {
	switch k {
	case ProducerTransactionalID:
		return c.TransactionalID
	case ProducerIdempotence:
		return strconv.FormatBool(c.Idempotence)
	case ProducerAcks:
		if c.Acks == -1 {
			return "all"
		}
		return strconv.Itoa(int(c.Acks))
	case ProducerRetries:
		return itoa(c.Retries)
	case ProducerMaxInFlight:
		return strconv.Itoa(c.MaxInFlight)
	case ProducerTxnTimeoutMs:
		return itoa(c.TxnTimeoutMs)
	case ProducerRequestTimeoutMs:
		return itoa(c.RequestTimeoutMs)
	case ProducerRetryBackoffMs:
		return itoa(c.RetryBackoffMs)
	case ProducerDeliveryTimeoutMs:
		return itoa(c.DeliveryTimeoutMs)
	}
	return ""
}

// Isolation is a consumer's isolation.level as written.
type Isolation uint8

// IsolationDefault is a declaration that does not write isolation.level:
// Kafka's default, read_uncommitted.
const (
	IsolationDefault Isolation = iota
	ReadUncommitted
	ReadCommitted
)

func (i Isolation) String() string {
	switch i {
	case ReadUncommitted:
		return "read_uncommitted"
	case ReadCommitted:
		return "read_committed"
	}
	return ""
}

// DeclareConsumer is "consumer NAME [KEY=VALUE...]". Empty strings and nil
// Topics are settings not written (Topics nil: every topic that is not
// internal).
type DeclareConsumer struct {
	Name       string
	Isolation  Isolation
	GroupID    string
	Topics     []string
	InstanceID string
}

// DeclareProcessor is "processor NAME input=TOPIC output=TOPIC group.id=G
// transactional.id=ID [offsets=transaction|before|after]".
type DeclareProcessor struct {
	Name            string
	Input, Output   string
	GroupID         string
	TransactionalID string
	Offsets         OffsetsMode
}

// ---- Client calls: the Java API.

// Method is a client call without arguments, by its Java name.
type Method uint8

// Calls without arguments.
const (
	CallInitTransactions Method = iota
	CallBeginTransaction
	CallCommitTransaction
	CallAbortTransaction
	CallFlush
	CallClose
	CallPoll
	CallProcess
	methodCount
)

var methodNames = [methodCount]string{"initTransactions", "beginTransaction", "commitTransaction",
	"abortTransaction", "flush", "close", "poll", "process"}

func (m Method) String() string { return methodNames[m] }

// Methods lists the calls without arguments.
func Methods() []Method {
	out := make([]Method, methodCount)
	for i := range out {
		out[i] = Method(i)
	}
	return out
}

// Call is "NAME METHOD" for a call without arguments.
type Call struct {
	Client string
	Method Method
}

// Send is "NAME send TP VALUE...": one batch of records.
type Send struct {
	Client string
	TP     TP
	Values []string
}

// SendOffsets is "NAME sendOffsetsToTransaction GROUP TP=OFFSET...
// [generation=N] [member=ID] [instance=ID] [consumer=NAME]". Generation -1
// and empty strings are settings not written; Consumer takes the group
// metadata from that consumer (KIP-447), and the written ones override it.
type SendOffsets struct {
	Client     string
	Group      string
	Offsets    []TPOffset
	Generation int32
	Member     string
	Instance   string
	Consumer   string
}

// CommitSync is "NAME commitSync TP=OFFSET...".
type CommitSync struct {
	Client  string
	Offsets []TPOffset
}

// ---- Time and delivery.

// Step is "step [N]"; N 0 is not written: one step.
type Step struct{ N int64 }

// Deliver is "deliver MSG".
type Deliver struct{ Msg Selector }

// Run is "run [max=N]"; Max 0 is not written: DefaultRunMax.
type Run struct{ Max int64 }

// DefaultRunMax bounds a run that does not say max=.
const DefaultRunMax = 100000

// Advance is "advance MS".
type Advance struct{ Ms int64 }

// ---- Faults.

// Drop is "drop MSG".
type Drop struct{ Msg Selector }

// Duplicate is "duplicate MSG".
type Duplicate struct{ Msg Selector }

// Delay is "delay MSG MS".
type Delay struct {
	Msg Selector
	Ms  int64
}

// Reorder is "reorder MSG MSG": each selector with its own filters.
type Reorder struct{ First, Second Selector }

// Target is what crash and restart act on: broker-N when Broker > 0, else
// the client named Client.
type Target struct {
	Broker int
	Client string
}

func (t Target) String() string {
	if t.Broker > 0 {
		return brokerAddr(t.Broker)
	}
	return word(t.Client)
}

// Crash is "crash broker-N|NAME".
type Crash struct{ Target Target }

// Restart is "restart broker-N|NAME".
type Restart struct{ Target Target }

// Pause is "pause NAME".
type Pause struct{ Client string }

// Resume is "resume NAME".
type Resume struct{ Client string }

// Rebalance is "rebalance GROUP".
type Rebalance struct{ Group string }

// ---- Expert actions: what no well-behaved client would send.

// InjectBatch is "inject batch TP pid=N epoch=N seq=N [count=N]
// [transactional] [control] [copies=N] [values=a,b]". Count and Copies 0
// and Values nil are not written: count defaults to the number of values,
// else 1; copies to 1.
type InjectBatch struct {
	TP            TP
	ProducerID    int64
	Epoch         int16
	Seq           int32
	Count         int32
	Copies        int32
	Values        []string
	Transactional bool
	Control       bool
}

// InjectMarker is "inject marker TP pid=N epoch=N result=commit|abort
// [coordinatorEpoch=N]" (coordinatorEpoch 0 when not written).
type InjectMarker struct {
	TP               TP
	ProducerID       int64
	Epoch            int16
	Result           MarkerType
	CoordinatorEpoch int32
}

// InjectTxnState is "inject txnstate ID pid=N epoch=N state=STATE".
type InjectTxnState struct {
	TransactionalID string
	ProducerID      int64
	Epoch           int16
	State           TxnState
}

// InjectInitProducerID is "inject InitProducerId ID [pid=N] [epoch=N]
// [timeout=MS]": pid and epoch -1 (none) and timeout 60000 (the producer's
// default transaction.timeout.ms) when not written.
type InjectInitProducerID struct {
	TransactionalID string
	ProducerID      int64
	Epoch           int16
	TimeoutMs       int64
}

// InjectAddPartitions is "inject AddPartitionsToTxn ID pid=N epoch=N
// partitions=TP,TP".
type InjectAddPartitions struct {
	TransactionalID string
	ProducerID      int64
	Epoch           int16
	Partitions      []TP
}

// InjectAddOffsets is "inject AddOffsetsToTxn ID pid=N epoch=N group=G".
type InjectAddOffsets struct {
	TransactionalID string
	ProducerID      int64
	Epoch           int16
	Group           string
}

// InjectEndTxn is "inject EndTxn ID pid=N epoch=N result=commit|abort".
type InjectEndTxn struct {
	TransactionalID string
	ProducerID      int64
	Epoch           int16
	Commit          bool
}

// DefaultInjectTimeoutMs is the timeout of an injected InitProducerId that
// does not give one: the producer's default transaction.timeout.ms.
const DefaultInjectTimeoutMs = 60000

// ---- Message selectors.

// Selector picks an in-flight message: by id (ID > 0, as m12), or the
// oldest message of Kind, in delivery order, that passes the filters that
// are set. Filters compare the message's fields, never its text.
type Selector struct {
	ID           int64
	Kind         MsgKind
	From, To     string // a client, broker-N or "expert"; "" matches any
	Partition    TP     // with HasPartition: a partition the message is about
	HasPartition bool
}

// head is the selector's first word: m12 or the kind.
func (s Selector) head() string {
	if s.ID > 0 {
		return "m" + itoa(s.ID)
	}
	return s.Kind.String()
}

// filters renders the filters as option words, each with a leading blank.
func (s Selector) filters() string {
	if s.ID > 0 {
		return ""
	}
	var b strings.Builder
	if s.To != "" {
		b.WriteString(opt("to", s.To))
	}
	if s.From != "" {
		b.WriteString(opt("from", s.From))
	}
	if s.HasPartition {
		b.WriteString(opt("partition", s.Partition.String()))
	}
	return b.String()
}

func (s Selector) String() string { return s.head() + s.filters() }

// matches reports whether m passes the selector.
func (s Selector) matches(m *Message) bool {
	if s.ID > 0 {
		return m.ID == s.ID
	}
	return m.Kind == s.Kind && (s.To == "" || m.To == s.To) && (s.From == "" || m.From == s.From) &&
		(!s.HasPartition || m.AboutPartition(s.Partition))
}

// ---- Canonical text.

func (a Brokers) String() string { return "brokers " + strconv.Itoa(a.N) }

func (a SetConfig) String() string {
	var b strings.Builder
	b.WriteString("config")
	for _, s := range a.Settings {
		b.WriteString(" " + s.String())
	}
	return b.String()
}

func (a CreateTopic) String() string {
	s := "topic " + word(a.Name)
	if a.Partitions != 0 {
		s += optInt("partitions", int64(a.Partitions))
	}
	if a.RF != 0 {
		s += optInt("rf", int64(a.RF))
	}
	return s
}

func (a DeclareProducer) String() string {
	var b strings.Builder
	b.WriteString("producer " + word(a.Name))
	for _, k := range ProducerKeys() {
		if a.Set.Has(k) {
			b.WriteString(opt(k.String(), a.Config.value(k)))
		}
	}
	return b.String()
}

func (a DeclareConsumer) String() string {
	s := "consumer " + word(a.Name)
	if a.Isolation != IsolationDefault {
		s += opt("isolation.level", a.Isolation.String())
	}
	if a.GroupID != "" {
		s += opt("group.id", a.GroupID)
	}
	if a.Topics != nil {
		s += opt("topics", strings.Join(a.Topics, ","))
	}
	if a.InstanceID != "" {
		s += opt("group.instance.id", a.InstanceID)
	}
	return s
}

func (a DeclareProcessor) String() string {
	s := "processor " + word(a.Name) + opt("input", a.Input) + opt("output", a.Output) +
		opt("group.id", a.GroupID) + opt("transactional.id", a.TransactionalID)
	if a.Offsets != OffsetsInTransaction {
		s += opt("offsets", a.Offsets.String())
	}
	return s
}

func (a Call) String() string { return word(a.Client) + " " + a.Method.String() }

func (a Send) String() string {
	var b strings.Builder
	b.WriteString(word(a.Client) + " send " + a.TP.String())
	for _, v := range a.Values {
		b.WriteString(" " + word(v))
	}
	return b.String()
}

func (a SendOffsets) String() string {
	s := word(a.Client) + " sendOffsetsToTransaction " + word(a.Group) + offsetWords(a.Offsets)
	if a.Generation != -1 {
		s += optInt("generation", int64(a.Generation))
	}
	if a.Member != "" {
		s += opt("member", a.Member)
	}
	if a.Instance != "" {
		s += opt("instance", a.Instance)
	}
	if a.Consumer != "" {
		s += opt("consumer", a.Consumer)
	}
	return s
}

func (a CommitSync) String() string {
	return word(a.Client) + " commitSync" + offsetWords(a.Offsets)
}

func (a Step) String() string {
	if a.N == 0 {
		return "step"
	}
	return "step " + itoa(a.N)
}

func (a Deliver) String() string { return "deliver " + a.Msg.String() }

func (a Run) String() string {
	if a.Max == 0 {
		return "run"
	}
	return "run" + optInt("max", a.Max)
}

func (a Advance) String() string { return "advance " + itoa(a.Ms) }

func (a Drop) String() string      { return "drop " + a.Msg.String() }
func (a Duplicate) String() string { return "duplicate " + a.Msg.String() }

// String puts the filters after the milliseconds, where they still narrow
// the kind: "delay Produce 5000 partition=t-0".
func (a Delay) String() string { return "delay " + a.Msg.head() + " " + itoa(a.Ms) + a.Msg.filters() }

func (a Reorder) String() string { return "reorder " + a.First.String() + " " + a.Second.String() }
func (a Crash) String() string   { return "crash " + a.Target.String() }
func (a Restart) String() string { return "restart " + a.Target.String() }
func (a Pause) String() string   { return "pause " + word(a.Client) }
func (a Resume) String() string  { return "resume " + word(a.Client) }

func (a Rebalance) String() string { return "rebalance " + word(a.Group) }

func pidEpochWords(pid int64, epoch int16) string {
	return optInt("pid", pid) + optInt("epoch", int64(epoch))
}

func (a InjectBatch) String() string {
	s := "inject batch " + a.TP.String()
	if a.Transactional {
		s += " transactional"
	}
	if a.Control {
		s += " control"
	}
	s += pidEpochWords(a.ProducerID, a.Epoch) + optInt("seq", int64(a.Seq))
	if a.Count != 0 {
		s += optInt("count", int64(a.Count))
	}
	if a.Copies != 0 {
		s += optInt("copies", int64(a.Copies))
	}
	if a.Values != nil {
		s += opt("values", strings.Join(a.Values, ","))
	}
	return s
}

func resultWord(commit bool) string {
	if commit {
		return "commit"
	}
	return "abort"
}

func (a InjectMarker) String() string {
	return "inject marker " + a.TP.String() + pidEpochWords(a.ProducerID, a.Epoch) +
		opt("result", resultWord(a.Result == MarkerCommit)) + optInt("coordinatorEpoch", int64(a.CoordinatorEpoch))
}

func (a InjectTxnState) String() string {
	return "inject txnstate " + word(a.TransactionalID) + pidEpochWords(a.ProducerID, a.Epoch) + opt("state", a.State.String())
}

func (a InjectInitProducerID) String() string {
	return "inject " + MsgInitProducerID.String() + " " + word(a.TransactionalID) +
		pidEpochWords(a.ProducerID, a.Epoch) + optInt("timeout", a.TimeoutMs)
}

func (a InjectAddPartitions) String() string {
	return "inject " + MsgAddPartitionsToTxn.String() + " " + word(a.TransactionalID) +
		pidEpochWords(a.ProducerID, a.Epoch) + opt("partitions", list(a.Partitions, tpString))
}

func (a InjectAddOffsets) String() string {
	return "inject " + MsgAddOffsetsToTxn.String() + " " + word(a.TransactionalID) +
		pidEpochWords(a.ProducerID, a.Epoch) + opt("group", a.Group)
}

func (a InjectEndTxn) String() string {
	return "inject " + MsgEndTxn.String() + " " + word(a.TransactionalID) +
		pidEpochWords(a.ProducerID, a.Epoch) + opt("result", resultWord(a.Commit))
}

func (Brokers) isAction()              {}
func (SetConfig) isAction()            {}
func (CreateTopic) isAction()          {}
func (DeclareProducer) isAction()      {}
func (DeclareConsumer) isAction()      {}
func (DeclareProcessor) isAction()     {}
func (Call) isAction()                 {}
func (Send) isAction()                 {}
func (SendOffsets) isAction()          {}
func (CommitSync) isAction()           {}
func (Step) isAction()                 {}
func (Deliver) isAction()              {}
func (Run) isAction()                  {}
func (Advance) isAction()              {}
func (Drop) isAction()                 {}
func (Duplicate) isAction()            {}
func (Delay) isAction()                {}
func (Reorder) isAction()              {}
func (Crash) isAction()                {}
func (Restart) isAction()              {}
func (Pause) isAction()                {}
func (Resume) isAction()               {}
func (Rebalance) isAction()            {}
func (InjectBatch) isAction()          {}
func (InjectMarker) isAction()         {}
func (InjectTxnState) isAction()       {}
func (InjectInitProducerID) isAction() {}
func (InjectAddPartitions) isAction()  {}
func (InjectAddOffsets) isAction()     {}
func (InjectEndTxn) isAction()         {}

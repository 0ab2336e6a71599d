package engine

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
	// Teaching switches (teach.go): not Kafka settings. Each turns off
	// one of Kafka's safeguards so that a learner can watch the guarantee
	// it gives break. They are true (Kafka's behaviour) by default.
	ConfigTeachDedup   // eoslab.broker.dedup
	ConfigTeachFencing // eoslab.epoch.fencing
	ConfigTeachLSO     // eoslab.lso
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
	"eoslab.broker.dedup",
	"eoslab.epoch.fencing",
	"eoslab.lso",
}

func (k ConfigKey) String() string { return configKeyNames[k] }

// Boolean reports whether the setting is true|false rather than a number.
func (k ConfigKey) Boolean() bool { return k == ConfigVerification || k.Teaching() }

// Teaching reports whether the setting is one of eoslab's teaching
// switches (eoslab.*), which are not Kafka settings (teach.go).
func (k ConfigKey) Teaching() bool {
	return k == ConfigTeachDedup || k == ConfigTeachFencing || k == ConfigTeachLSO
}

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
	// OffsetReset is auto.offset.reset; ResetSet says it was written (the
	// default, latest, may also be written out).
	OffsetReset OffsetReset
	ResetSet    bool
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

// matches reports whether m passes the selector.
func (s Selector) matches(m *Message) bool {
	if s.ID > 0 {
		return m.ID == s.ID
	}
	return m.Kind == s.Kind && (s.To == "" || m.To == s.To) && (s.From == "" || m.From == s.From) &&
		(!s.HasPartition || m.AboutPartition(s.Partition))
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

package engine

import "math"

// Config holds cluster-wide settings. DefaultConfig gives Kafka's defaults
// (ref 0.1) and the simulation's own (latency).
type Config struct {
	Brokers                int
	LatencyMs              int64
	TxnStatePartitions     int32
	OffsetsPartitions      int32
	TransactionVersion     int // the finalized feature transaction.version: 1 = KIP-98 + KIP-890 part 1, 2 = KIP-890 part 2 (ref 6)
	Verification           bool
	TxnMaxTimeoutMs        int64
	TxnIDExpirationMs      int64
	ProducerIDExpirationMs int64
	AbortCheckIntervalMs   int64
	ExpiryCheckIntervalMs  int64
	CheckInvariants        bool
	Limits                 Limits // bounds on one action's work and a world's history
	// TV2 is the Kafka 4 release whose TV2 details the simulation follows
	// where releases differ (tv2.go).
	TV2 TV2Release
	// Teach holds the teaching switches (teach.go): not Kafka settings.
	// The zero value is Kafka's behaviour.
	Teach Teaching
}

// DefaultConfig is Kafka's defaults plus a 1 ms network.
func DefaultConfig() Config {
	return Config{
		Brokers:                3,
		LatencyMs:              1,
		TxnStatePartitions:     50,
		OffsetsPartitions:      50,
		TransactionVersion:     1,
		Verification:           true,
		TxnMaxTimeoutMs:        900000,
		TxnIDExpirationMs:      604800000,
		ProducerIDExpirationMs: 86400000,
		AbortCheckIntervalMs:   10000,
		ExpiryCheckIntervalMs:  3600000,
		CheckInvariants:        true,
		Limits:                 DefaultLimits(),
		TV2:                    Kafka431(),
	}
}

// Broker is one broker of the cluster. It holds the block of producer ids it
// took from the controller (ref 0.1: blocks of 1000).
type Broker struct {
	ID      int
	Alive   bool
	PIDNext int64
	PIDEnd  int64
}

// Topic is a declared topic.
type Topic struct {
	Name       string
	Partitions int32
	RF         int
}

// World is the whole simulated system. All state is plain values reachable
// from here; Clone copies it, so a view can go back any number of steps.
//
// The event history is a field apart from the rest (worldState, whose
// fields are the World's): a search's copy into a pooled world that
// holds a quiet history like its source's keeps its own (cloneInto), and
// copying the history's struct, a third of the World, was a thirtieth of
// the search.
type World struct {
	worldState
	events eventLog
}

type worldState struct {
	config     Config
	now        int64
	stepCount  int
	started    bool // the first non-setup action ran; cluster shape is fixed
	brokers    []Broker
	topics     []Topic
	partitions map[TP]*PartitionLog
	txnParts   map[int32]*TxnStatePartition
	groups     map[string]*Group
	producers  []*Producer
	consumers  []*Consumer
	processors []*Processor
	queue      queue // deliveries and timers; cancelled request timeouts linger unseen (cancelTimer)
	violations []Violation
	// nextTxnDeadline is a lower bound of the deadlines of Ongoing
	// transactions: the timed-out transaction check skips its scan before it.
	nextTxnDeadline int64
	// held holds acks=all answers until their writes are replicated.
	held []heldResponse
	// parked holds produces and TxnOffsetCommits waiting for KIP-890
	// verification.
	parked []parkedRequest

	seq        int64
	nextMsg    int64
	nextCorr   int64
	nextUID    int64
	nextTxn    int64
	nextPIDBlk int64
	nextMember int64
	dirty      []TP
	act        actionBudget // the work of the action being applied
	// changes is what the current Apply or Step touched (Changes);
	// applying is set while an Apply runs, so that the Steps it takes add
	// to its change set instead of starting their own.
	changes  ChangeSet
	applying int
	names    clientNames
	// timeouts is where each queued request timeout is, and cancelled
	// how many are marked cancelled but still queued (see cancelTimer).
	timeouts  timeoutIndex
	cancelled int

	// Invariant bookkeeping that grows with history, kept in persistent
	// vectors so that a snapshot copies a pointer, not the history
	// (design: a snapshot costs the same at step 10 and step 100,000).
	//
	// txnOutcomes holds, per transaction instance (indexed by its id), the
	// marker result it got last plus one (0: none yet). A transaction may
	// gain a partition after its markers (a delayed produce without
	// KIP-890 verification), so an entry is never known to be dead.
	txnOutcomes pvec[int8]
	// outputs counts, per processor output topic and input partition, the
	// committed (or plain) output records made from each input offset
	// (see offsets.go).
	outputs map[outputKey]pvec[int32]
	// monitors counts the violations of each invariant (monitors.go), in
	// the order of InvariantNames.
	monitors [invariantCount]monitorCount
	// cost counts the requests sent and the markers appended (cost.go).
	cost costCounters
	// cur is the message being delivered (nil between deliveries): a
	// violation found while handling it names it (Violation.Msg).
	cur *Message
	// heldViols are the violations an append found while its event is still
	// to be logged (holdViolations): the log reads cause, then effect.
	// Empty between actions.
	heldViols []heldViolation
	holding   bool
	// switches lists the teaching switch changes (teach.go), oldest
	// first; appended to with a full slice expression, so a snapshot may
	// share it.
	switches []switchChange
}

// New makes an empty world with the given configuration.
func New(cfg Config) *World {
	w := &World{worldState: worldState{
		config:          cfg,
		partitions:      map[TP]*PartitionLog{},
		txnParts:        map[int32]*TxnStatePartition{},
		groups:          map[string]*Group{},
		nextPIDBlk:      1000,
		nextTxnDeadline: math.MaxInt64,
	}}
	w.setBrokers(cfg.Brokers)
	return w
}

func (w *World) setBrokers(n int) {
	w.config.Brokers = n
	w.brokers = w.brokers[:0]
	for i := 1; i <= n; i++ {
		w.brokers = append(w.brokers, Broker{ID: i, Alive: true})
	}
}

func (w *World) broker(id int) *Broker {
	if id < 1 || id > len(w.brokers) {
		return nil
	}
	return &w.brokers[id-1]
}

func (w *World) brokerAlive(id int) bool {
	b := w.broker(id)
	return b != nil && b.Alive
}

// replicasFor places a partition's replicas on consecutive brokers, starting
// at a position derived from the topic name and partition, so leaders spread
// over the cluster deterministically.
func (w *World) replicasFor(topic string, p int32, rf int) []int {
	n := len(w.brokers)
	if rf > n {
		rf = n
	}
	start := int((int64(KafkaAbs(JavaStringHash(topic))) + int64(p)) % int64(n))
	out := make([]int, rf)
	for i := range out {
		out[i] = (start+i)%n + 1
	}
	return out
}

func (w *World) firstAlive(replicas []int) int {
	for _, r := range replicas {
		if w.brokerAlive(r) {
			return r
		}
	}
	return -1
}

// Topic returns a declared topic.
func (w *World) Topic(name string) (Topic, bool) {
	for _, t := range w.topics {
		if t.Name == name {
			return t, true
		}
	}
	return Topic{}, false
}

// SortedPartitions lists the user topics' partitions in name order.
func (w *World) SortedPartitions() []TP {
	var out []TP
	for tp := range w.partitions {
		out = append(out, tp)
	}
	sortTPs(out)
	return out
}

// partition returns a partition's log, creating internal-topic partitions on
// first use.
func (w *World) partition(tp TP) *PartitionLog {
	if p, ok := w.partitions[tp]; ok {
		return p
	}
	if tp.Topic == OffsetsTopic && tp.Partition >= 0 && tp.Partition < w.config.OffsetsPartitions {
		return w.createPartition(tp, 3)
	}
	return nil
}

func (w *World) createPartition(tp TP, rf int) *PartitionLog {
	reps := w.replicasFor(tp.Topic, tp.Partition, rf)
	p := &PartitionLog{TP: tp, Replicas: reps, Leader: w.firstAlive(reps), Producers: map[int64]ProducerStateEntry{}}
	w.partitions[tp] = p
	return p
}

// OffsetsPartitionFor is __consumer_offsets-N for a group (ref 3.5).
func (w *World) OffsetsPartitionFor(group string) TP {
	return TP{Topic: OffsetsTopic, Partition: PartitionFor(group, w.config.OffsetsPartitions)}
}

// TxnPartitionFor is the __transaction_state partition number for an id (ref 3.1).
func (w *World) TxnPartitionFor(txnID string) int32 {
	return PartitionFor(txnID, w.config.TxnStatePartitions)
}

func (w *World) newCorr() int64 { w.nextCorr++; return w.nextCorr }

func (w *World) markDirty(tp TP) {
	for _, d := range w.dirty {
		if d == tp {
			return
		}
	}
	w.dirty = append(w.dirty, tp)
}

// AllProducers lists every producer client in declaration order, the
// processors' producers last. A processor's producer carries the processor's
// name.
func (w *World) AllProducers() []*Producer {
	out := append([]*Producer(nil), w.producers...)
	for _, pr := range w.processors {
		out = append(out, pr.Producer)
	}
	return out
}

// AllConsumers lists every consumer in declaration order, the processors'
// consumers last, under the processors' names.
func (w *World) AllConsumers() []*Consumer {
	out := append([]*Consumer(nil), w.consumers...)
	for _, pr := range w.processors {
		out = append(out, pr.Consumer)
	}
	return out
}

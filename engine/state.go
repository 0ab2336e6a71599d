package engine

// The JSON form of the world: what `eoslab run --json` prints after the
// events. Field names follow Kafka's (producerId, producerEpoch, baseSequence).

// StateDump is the final state of a run.
type StateDump struct {
	Type  string `json:"type"`
	Time  int64  `json:"time"`
	Steps int    `json:"steps"`
	// TransactionVersion is the cluster's finalized transaction.version
	// at the end of the run: 1 (KIP-98 with KIP-890 part 1) or 2 (KIP-890
	// part 2, Kafka 4's default).
	TransactionVersion int             `json:"transactionVersion"`
	Partitions         []PartitionDump `json:"partitions"`
	Producers          []ProducerDump  `json:"producers"`
	Coordinators       []TxnMetaDump   `json:"transactions"`
	TxnLog             []TxnLogDump    `json:"transactionLog"`
	Consumers          []ConsumerDump  `json:"consumers"`
	Groups             []GroupDump     `json:"groups"`
	Violations         []Violation     `json:"violations"`
	InFlight           []string        `json:"inFlight"`
}

// PartitionDump is one partition with its batches.
type PartitionDump struct {
	Partition        string              `json:"partition"`
	Leader           int                 `json:"leader"`
	LogEndOffset     int64               `json:"logEndOffset"`
	HighWatermark    int64               `json:"highWatermark"`
	LastStableOffset int64               `json:"lastStableOffset"`
	Batches          []BatchDump         `json:"batches"`
	ProducerStates   []ProducerStateDump `json:"producerStates"`
	AbortedIndex     []AbortedTxn        `json:"abortedIndex"`
}

// BatchDump is one record batch.
type BatchDump struct {
	BaseOffset       int64    `json:"baseOffset"`
	LastOffset       int64    `json:"lastOffset"`
	ProducerID       int64    `json:"producerId"`
	ProducerEpoch    int16    `json:"producerEpoch"`
	BaseSequence     int32    `json:"baseSequence"`
	RecordCount      int32    `json:"recordCount"`
	IsTransactional  bool     `json:"isTransactional"`
	IsControl        bool     `json:"isControl"`
	ControlType      string   `json:"controlType,omitempty"`
	CoordinatorEpoch *int32   `json:"coordinatorEpoch,omitempty"`
	Status           string   `json:"status"`
	Values           []string `json:"values,omitempty"`
}

// ProducerStateDump is a leader's entry for one producer id.
type ProducerStateDump struct {
	ProducerID            int64           `json:"producerId"`
	ProducerEpoch         int16           `json:"producerEpoch"`
	CoordinatorEpoch      int32           `json:"coordinatorEpoch"`
	CurrentTxnFirstOffset int64           `json:"currentTxnFirstOffset"`
	CachedBatches         []BatchMetadata `json:"cachedBatches"`
}

// ProducerDump is one producer client.
type ProducerDump struct {
	Name            string `json:"name"`
	TransactionalID string `json:"transactionalId,omitempty"`
	Idempotent      bool   `json:"idempotent"`
	ProducerID      int64  `json:"producerId"`
	ProducerEpoch   int16  `json:"producerEpoch"`
	State           string `json:"state"`
	LastError       string `json:"lastError,omitempty"`
	Paused          bool   `json:"paused,omitempty"`
	Crashed         bool   `json:"crashed,omitempty"`
	// TransactionVersion is the version a transactional producer speaks
	// (1 or 2), learned at initTransactions and when a transaction ends;
	// absent for a producer without transactional.id.
	TransactionVersion int `json:"transactionVersion,omitempty"`
}

// TxnMetaDump is the coordinator's metadata for one transactional id.
type TxnMetaDump struct {
	TransactionalID  string `json:"transactionalId"`
	Partition        string `json:"coordinatorPartition"`
	Broker           int    `json:"broker"`
	CoordinatorEpoch int32  `json:"coordinatorEpoch"`
	ProducerID       int64  `json:"producerId"`
	ProducerEpoch    int16  `json:"producerEpoch"`
	// LastProducerEpoch is the epoch before the last bump, kept in memory
	// only (TransactionMetadata.lastProducerEpoch, ref 3.2, 3.4): -1 except
	// after an InitProducerId that bumped an expected epoch (KIP-360) and,
	// under transaction.version=2, after an EndTxn or a fence (ref 6).
	LastProducerEpoch int16    `json:"lastProducerEpoch"`
	State             string   `json:"state"`
	Partitions        []string `json:"partitions"`
	TimeoutMs         int64    `json:"transactionTimeoutMs"`
}

// TxnLogDump is one record of __transaction_state (TransactionLogValue,
// ref 3.2), as the coordinator wrote it. lastProducerEpoch is not a field:
// Kafka does not persist it.
type TxnLogDump struct {
	Partition        string   `json:"partition"`
	Offset           int64    `json:"offset"`
	TransactionalID  string   `json:"transactionalId"`
	Tombstone        bool     `json:"tombstone,omitempty"`
	ProducerID       int64    `json:"producerId"`
	PrevProducerID   int64    `json:"previousProducerId"`
	ProducerEpoch    int16    `json:"producerEpoch"`
	State            string   `json:"state,omitempty"`
	Partitions       []string `json:"partitions"`
	TimeoutMs        int64    `json:"transactionTimeoutMs"`
	CoordinatorEpoch int32    `json:"coordinatorEpoch"`
}

// ConsumerDump is one consumer.
type ConsumerDump struct {
	Name      string           `json:"name"`
	Isolation string           `json:"isolationLevel"`
	Group     string           `json:"groupId,omitempty"`
	Received  []ConsumedRecord `json:"received"`
	Positions []TPOffset       `json:"positions"`
}

// GroupDump is one consumer group at its coordinator.
type GroupDump struct {
	GroupID    string     `json:"groupId"`
	Generation int32      `json:"generation"`
	Committed  []TPOffset `json:"committed"`
	Pending    []TPOffset `json:"pending"`
}

// State builds the JSON dump of the world.
func (w *World) State() StateDump {
	s := StateDump{Type: "state", Time: w.now, Steps: w.stepCount, TransactionVersion: w.config.TransactionVersion, Violations: w.violations}
	if s.Violations == nil {
		s.Violations = []Violation{}
	}
	for _, tp := range w.allPartitions() {
		p := w.partitions[tp]
		pd := PartitionDump{Partition: tp.String(), Leader: p.Leader, LogEndOffset: p.LEO, HighWatermark: p.HW, LastStableOffset: p.LastStableOffset(),
			Batches: []BatchDump{}, ProducerStates: []ProducerStateDump{}, AbortedIndex: append([]AbortedTxn{}, p.Aborted...)}
		for i := range p.Batches {
			b := &p.Batches[i]
			bd := BatchDump{BaseOffset: b.BaseOffset, LastOffset: b.LastOffset(), ProducerID: b.ProducerID, ProducerEpoch: b.ProducerEpoch,
				BaseSequence: b.BaseSequence, RecordCount: b.Count, IsTransactional: b.Transactional, IsControl: b.Control, Status: p.Status(b).String()}
			if b.Control {
				ce := b.CoordinatorEpoch
				bd.ControlType = b.Marker.String()
				bd.CoordinatorEpoch = &ce
			} else {
				bd.Values = b.Values()
			}
			pd.Batches = append(pd.Batches, bd)
		}
		for _, pid := range sortedIDs(p.Producers) {
			e := p.Producers[pid]
			pd.ProducerStates = append(pd.ProducerStates, ProducerStateDump{ProducerID: pid, ProducerEpoch: e.ProducerEpoch, CoordinatorEpoch: e.CoordinatorEpoch,
				CurrentTxnFirstOffset: e.CurrentTxnFirstOffset, CachedBatches: append([]BatchMetadata{}, e.Cached()...)})
		}
		s.Partitions = append(s.Partitions, pd)
	}
	add := func(p *Producer) {
		d := ProducerDump{Name: p.Name, TransactionalID: p.Config.TransactionalID, Idempotent: p.Config.Idempotence && p.ConfigError == nil,
			ProducerID: p.ProducerID, ProducerEpoch: p.Epoch, State: p.State.String(), Paused: p.Paused, Crashed: p.Crashed}
		if p.LastError != None {
			d.LastError = p.LastError.String()
		}
		if p.transactional() {
			d.TransactionVersion = 1
			if p.TV2 {
				d.TransactionVersion = 2
			}
		}
		s.Producers = append(s.Producers, d)
	}
	for _, p := range w.AllProducers() {
		add(p)
	}
	for _, pn := range w.sortedTxnParts() {
		t := w.txnParts[pn]
		for _, id := range sortedKeys(t.Meta) {
			m := t.Meta[id]
			d := TxnMetaDump{TransactionalID: id, Partition: t.name(), Broker: t.Leader, CoordinatorEpoch: t.CoordEpoch, ProducerID: m.ProducerID,
				ProducerEpoch: m.ProducerEpoch, LastProducerEpoch: m.LastProducerEpoch, State: m.State.String(), Partitions: tpStrings(m.Partitions), TimeoutMs: m.TimeoutMs}
			s.Coordinators = append(s.Coordinators, d)
		}
		for _, r := range t.Log {
			d := TxnLogDump{Partition: t.name(), Offset: r.Offset, TransactionalID: r.TransactionalID, Tombstone: r.Tombstone, ProducerID: r.ProducerID,
				PrevProducerID: r.PrevProducerID, ProducerEpoch: r.ProducerEpoch, Partitions: tpStrings(r.Partitions), TimeoutMs: r.TimeoutMs, CoordinatorEpoch: r.CoordEpoch}
			if !r.Tombstone {
				d.State = r.State.String()
			}
			s.TxnLog = append(s.TxnLog, d)
		}
	}
	if s.TxnLog == nil {
		s.TxnLog = []TxnLogDump{}
	}
	addC := func(c *Consumer) {
		d := ConsumerDump{Name: c.Name, Isolation: c.Isolation(), Group: c.GroupID, Received: append([]ConsumedRecord{}, c.Received...), Positions: append([]TPOffset{}, c.Positions...)}
		s.Consumers = append(s.Consumers, d)
	}
	for _, c := range w.AllConsumers() {
		addC(c)
	}
	for _, gid := range sortedKeys(w.groups) {
		g := w.groups[gid]
		d := GroupDump{GroupID: gid, Generation: g.Generation, Committed: []TPOffset{}, Pending: []TPOffset{}}
		for _, tp := range sortedTPKeys(g.Committed) {
			d.Committed = append(d.Committed, TPOffset{TP: tp, Offset: g.Committed[tp].Offset})
		}
		for _, pid := range sortedIDs(g.Pending) {
			for _, tp := range sortedTPKeys(g.Pending[pid]) {
				d.Pending = append(d.Pending, TPOffset{TP: tp, Offset: g.Pending[pid][tp].Offset})
			}
		}
		s.Groups = append(s.Groups, d)
	}
	for _, m := range w.InFlight() {
		s.InFlight = append(s.InFlight, m.Summary())
	}
	if s.InFlight == nil {
		s.InFlight = []string{}
	}
	return s
}

// tpStrings renders partitions for JSON: never null, an empty list when none.
func tpStrings(tps []TP) []string {
	out := make([]string, len(tps))
	for i, tp := range tps {
		out[i] = tp.String()
	}
	return out
}

func sortedTPKeys(m map[TP]CommittedOffset) []TP {
	out := make([]TP, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sortTPs(out)
	return out
}

// MarshalText lets TP be a JSON string ("t-0").
func (tp TP) MarshalText() ([]byte, error) { return []byte(tp.String()), nil }

// MarshalText renders a kind by name in JSON.
func (k EventKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

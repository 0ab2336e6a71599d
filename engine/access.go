package engine

// Read access to the world's state. The state is the engine's own: its
// fields are unexported, changes go through Apply (or the two methods
// made for a caller's copy, CloneForTrial and SetTransactionVersion), and
// what these return is a copy, or a slice capped at its length so that an
// append by the caller copies it rather than writing into the world.

// Config is the cluster's configuration, as a copy.
func (w *World) Config() Config { return w.config }

// Now is the virtual time in milliseconds.
func (w *World) Now() int64 { return w.now }

// StepCount is how many scheduler steps have run.
func (w *World) StepCount() int { return w.stepCount }

// Started reports whether the first non-setup action ran (the cluster's
// shape is then fixed).
func (w *World) Started() bool { return w.started }

// Brokers are the cluster's brokers, as a copy.
func (w *World) Brokers() []Broker { return append([]Broker(nil), w.brokers...) }

// Topics are the declared topics, as a copy.
func (w *World) Topics() []Topic { return append([]Topic(nil), w.topics...) }

// Partition is the log of one partition, nil if it does not exist. It is
// the world's own: read it, never change it.
func (w *World) Partition(tp TP) *PartitionLog { return w.partitions[tp] }

// TxnStatePartition is one __transaction_state partition, nil if none has
// been used. It is the world's own: read it, never change it.
func (w *World) TxnStatePartition(n int32) *TxnStatePartition { return w.txnParts[n] }

// TxnStatePartitions are the __transaction_state partitions in use, in
// number order.
func (w *World) TxnStatePartitions() []int32 {
	out := make([]int32, 0, len(w.txnParts))
	for n := range w.txnParts {
		out = append(out, n)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// Group is a consumer group's coordinator state, nil if it does not exist.
// It is the world's own: read it, never change it.
func (w *World) Group(id string) *Group { return w.groups[id] }

// Producers are the declared producers (processors' not included), as a
// copy of the list.
func (w *World) Producers() []*Producer { return append([]*Producer(nil), w.producers...) }

// Consumers are the declared consumers (processors' not included), as a
// copy of the list.
func (w *World) Consumers() []*Consumer { return append([]*Consumer(nil), w.consumers...) }

// Processors are the declared processors, as a copy of the list.
func (w *World) Processors() []*Processor { return append([]*Processor(nil), w.processors...) }

// EventsSince is a copy of the events from the i-th on (EventAt and
// EventCount read one at a time without copying).
func (w *World) EventsSince(i int) []Event {
	return w.events.slice(min(max(i, 0), w.events.len()), w.events.len())
}

// Violations are the invariant violations so far, capped at their length.
func (w *World) Violations() []Violation { return w.violations[:len(w.violations):len(w.violations)] }

// PartitionLogs is every partition's log by partition, the world's own
// map: read it, never change it (SortedPartitions gives the order).
func (w *World) PartitionLogs() map[TP]*PartitionLog { return w.partitions }

// TxnStateLogs is every __transaction_state partition in use by number,
// the world's own map: read it, never change it.
func (w *World) TxnStateLogs() map[int32]*TxnStatePartition { return w.txnParts }

// Groups is every consumer group by id, the world's own map: read it,
// never change it (GroupIDs gives the order).
func (w *World) Groups() map[string]*Group { return w.groups }

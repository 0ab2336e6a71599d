package engine

// Setup: the cluster, topics and clients. The values arrive checked (see
// Action); what is checked here depends on the world: a name already taken,
// a topic that does not exist, a cluster whose shape is already fixed.

func (w *World) applyBrokers(a Brokers) error {
	if w.started || len(w.partitions) > 0 || len(w.producers) > 0 {
		return errf("brokers must come before topics and clients")
	}
	w.setBrokers(a.N)
	return nil
}

func (w *World) applyConfig(a SetConfig) error {
	for _, s := range a.Settings {
		if err := w.setConfig(s); err != nil {
			return err
		}
	}
	return nil
}

func (w *World) setConfig(s Setting) error {
	switch s.Key {
	case ConfigTransactionVersion:
		w.config.TransactionVersion = int(s.Value)
	case ConfigVerification:
		w.config.Verification = s.Value != 0
	case ConfigTxnMaxTimeoutMs:
		w.config.TxnMaxTimeoutMs = s.Value
	case ConfigTxnIDExpirationMs:
		w.config.TxnIDExpirationMs = s.Value
	case ConfigProducerIDExpirationMs:
		w.config.ProducerIDExpirationMs = s.Value
	case ConfigLatencyMs:
		w.config.LatencyMs = s.Value
	case ConfigAbortCheckIntervalMs:
		w.config.AbortCheckIntervalMs = s.Value
	case ConfigTeachDedup, ConfigTeachFencing, ConfigTeachLSO:
		w.setTeaching(s.Key, s.Value != 0)
	case ConfigTxnStatePartitions, ConfigOffsetsPartitions:
		// Coordinators are placed by hashing into these partitions, so
		// their number is fixed once a client may have used them.
		if w.started || len(w.txnParts) > 0 || len(w.groups) > 0 {
			return errf("%s must be set before any client", s.Key)
		}
		if s.Key == ConfigTxnStatePartitions {
			w.config.TxnStatePartitions = int32(s.Value)
		} else {
			w.config.OffsetsPartitions = int32(s.Value)
		}
	default:
		return errf("unknown cluster config %d", s.Key)
	}
	return nil
}

func (w *World) createTopic(a CreateTopic) error {
	if _, ok := w.Topic(a.Name); ok {
		return errf("topic %s already exists", a.Name)
	}
	parts, rf := a.Partitions, a.RF
	if parts == 0 {
		parts = 1
	}
	if rf == 0 {
		rf = 1
	}
	w.topics = append(w.topics, Topic{Name: a.Name, Partitions: parts, RF: rf})
	for p := int32(0); p < parts; p++ {
		w.createPartition(TP{Topic: a.Name, Partition: p}, rf)
	}
	return nil
}

func (w *World) nameTaken(name string) bool {
	return w.Producer(name) != nil || w.Consumer(name) != nil || w.Processor(name) != nil
}

// validateIdempotence is Java's postProcessAndValidateIdempotenceConfigs
// (ref 1.1): a setting that conflicts with idempotence turns idempotence off
// when it was left at its default, and fails construction with a
// ConfigException when enable.idempotence=true was written. It returns the
// config to use and the exception, or nil.
func validateIdempotence(c ProducerConfig, set ProducerKeySet) (ProducerConfig, *note) {
	conflict := saysNone
	switch {
	case set.Has(ProducerAcks) && c.Acks != -1:
		conflict = saysAcksMustBeAll
	case set.Has(ProducerRetries) && c.Retries <= 0:
		conflict = saysRetriesMustBePositive
	case set.Has(ProducerMaxInFlight) && c.MaxInFlight > MaxInFlightIdempotent:
		conflict = saysMaxInFlightAtMost5
	}
	if c.Idempotence && conflict != saysNone {
		if set.Has(ProducerIdempotence) {
			return c, newNote(saysConfigConflict, []arg{sub(conflict)})
		}
		c.Idempotence = false
	}
	if c.TransactionalID != "" && !c.Idempotence {
		return c, newNote(saysConfigNeedsIdempotence, nil)
	}
	return c, nil
}

func (w *World) declareProducer(a DeclareProducer) error {
	if w.nameTaken(a.Name) {
		return errf("%s is already declared", a.Name)
	}
	cfg, cfgErr := validateIdempotence(a.Config, a.Set)
	p := w.newProducer(a.Name, cfg)
	p.ConfigError = cfgErr
	w.producers = append(w.producers, p)
	if cfgErr != nil {
		p.LastError = errConfig
		w.emitRule(EvClientError, p.Name, cite(RuleIdempotenceConfig), saysConstructionFails, cfgErr).code(errConfig)
	} else if !cfg.Idempotence {
		w.emitRule(EvInfo, p.Name, cite(RuleIdempotenceConfig), saysIsNotIdempotentNoProducer)
	}
	return nil
}

func (w *World) newProducer(name string, cfg ProducerConfig) *Producer {
	return &Producer{Name: name, Config: cfg, ProducerID: NoProducerID, Epoch: NoProducerEpoch, CoordBroker: -1, GroupCoord: -1}
}

func (w *World) declareConsumer(a DeclareConsumer) error {
	if w.nameTaken(a.Name) {
		return errf("%s is already declared", a.Name)
	}
	for _, t := range a.Topics {
		if _, ok := w.Topic(t); !ok {
			return errf("unknown topic %q", t)
		}
	}
	c := &Consumer{Name: a.Name, GroupBroker: -1, ReadCommitted: a.Isolation == ReadCommitted, OffsetReset: a.OffsetReset,
		GroupID: a.GroupID, InstanceID: a.InstanceID, Topics: append([]string(nil), a.Topics...)}
	if c.GroupID != "" {
		c.MemberID = w.joinGroup(c.GroupID, c.Name, c.InstanceID)
	}
	w.consumers = append(w.consumers, c)
	return nil
}

func (w *World) declareProcessor(a DeclareProcessor) error {
	if w.nameTaken(a.Name) {
		return errf("%s is already declared", a.Name)
	}
	for _, t := range []string{a.Input, a.Output} {
		if _, ok := w.Topic(t); !ok {
			return errf("unknown topic %q", t)
		}
	}
	// Its producer has Kafka's defaults and the transactional.id, which
	// idempotence (on by default) accepts, so it always constructs.
	cfg := DefaultProducerConfig()
	cfg.TransactionalID = a.TransactionalID
	pr := &Processor{Name: a.Name, Input: a.Input, Output: a.Output, Mode: a.Offsets}
	pr.Producer = w.newProducer(a.Name, cfg)
	// The processor's consumer starts a partition with no committed offset
	// at the beginning, as Kafka Streams configures its consumers
	// (StreamsConfig: auto.offset.reset=earliest).
	pr.Consumer = &Consumer{Name: a.Name, ReadCommitted: true, OffsetReset: ResetEarliest, GroupID: a.GroupID, Topics: []string{pr.Input}, GroupBroker: -1}
	pr.Consumer.MemberID = w.joinGroup(a.GroupID, a.Name, "")
	w.processors = append(w.processors, pr)
	return nil
}

// Client calls. A call names a declared client; the engine checks that it
// exists and is of the kind that has the call.

// producerOf returns the producer (or processor's producer) named name.
func (w *World) producerOf(name string) (*Producer, error) {
	if p := w.Producer(name); p != nil {
		return p, nil
	}
	if w.Consumer(name) != nil {
		return nil, errf("%s is not a producer", name)
	}
	return nil, errf("unknown client %q", name)
}

// consumerOf returns the consumer (or processor's consumer) named name.
func (w *World) consumerOf(name string) (*Consumer, error) {
	if c := w.Consumer(name); c != nil {
		return c, nil
	}
	if w.Producer(name) != nil {
		return nil, errf("%s is not a consumer", name)
	}
	return nil, errf("unknown client %q", name)
}

func (w *World) applyCall(a Call) error {
	switch a.Method {
	case CallPoll:
		c, err := w.consumerOf(a.Client)
		if err != nil {
			return err
		}
		w.poll(c)
		return nil
	case CallProcess:
		pr := w.Processor(a.Client)
		if pr == nil {
			if w.Producer(a.Client) == nil && w.Consumer(a.Client) == nil {
				return errf("unknown client %q", a.Client)
			}
			return errf("%s is not a processor", a.Client)
		}
		w.process(pr)
		return nil
	}
	p, err := w.producerOf(a.Client)
	if err != nil {
		return err
	}
	switch a.Method {
	case CallInitTransactions:
		w.callInitTransactions(p)
	case CallBeginTransaction:
		w.callBegin(p)
	case CallCommitTransaction:
		w.callEnd(p, true)
	case CallAbortTransaction:
		w.callEnd(p, false)
	case CallFlush:
	case CallClose:
		p.Closed = true
		w.emit(EvClientState, p.Name, saysClosed)
	default:
		return errf("unknown call %d", a.Method)
	}
	return nil
}

func (w *World) applySend(a Send) error {
	p, err := w.producerOf(a.Client)
	if err != nil {
		return err
	}
	tp, err := w.declaredTP(a.TP)
	if err != nil {
		return err
	}
	sends := p.Sends
	w.sendRecords(p, tp, NewRecords(a.Values...))
	if p.Sends != sends { // the records are the accumulator's last batch, numbered
		w.events.sendRecords(p.Queue[len(p.Queue)-1].Records)
	}
	return nil
}

// declaredTP is tp with the topic's declared name, or an error unless tp is
// a partition of an existing topic. The declared name, not the parser's
// slice of the action's text: a TP lives on in requests and logs, and would
// keep the whole line alive.
func (w *World) declaredTP(tp TP) (TP, error) {
	t, ok := w.Topic(tp.Topic)
	if !ok {
		return tp, errf("unknown topic %q", tp.Topic)
	}
	if tp.Partition < 0 || tp.Partition >= t.Partitions {
		return tp, errf("%s has %d partitions", t.Name, t.Partitions)
	}
	tp.Topic = t.Name
	return tp, nil
}

// declaredOffsets is a copy of offs with the topics' declared names, or an
// error unless every partition exists.
func (w *World) declaredOffsets(offs []TPOffset) ([]TPOffset, error) {
	if len(offs) == 0 {
		return nil, nil
	}
	out := make([]TPOffset, len(offs))
	for i, o := range offs {
		tp, err := w.declaredTP(o.TP)
		if err != nil {
			return nil, err
		}
		out[i] = TPOffset{TP: tp, Offset: o.Offset}
	}
	return out, nil
}

func (w *World) applyCommitSync(a CommitSync) error {
	c, err := w.consumerOf(a.Client)
	if err != nil {
		return err
	}
	offs, err := w.declaredOffsets(a.Offsets)
	if err != nil {
		return err
	}
	w.commitSync(c, offs)
	return nil
}

func (w *World) applySendOffsets(a SendOffsets) error {
	p, err := w.producerOf(a.Client)
	if err != nil {
		return err
	}
	offs, err := w.declaredOffsets(a.Offsets)
	if err != nil {
		return err
	}
	job := &OffsetsJob{Group: a.Group, Generation: -1, Offsets: offs}
	if a.Consumer != "" {
		// consumer.groupMetadata() (KIP-447): the member, instance and
		// generation the consumer holds now.
		c := w.Consumer(a.Consumer)
		if c == nil {
			return errf("unknown consumer %q", a.Consumer)
		}
		job.Member = c.MemberID
		job.Instance = c.InstanceID
		job.Generation = w.group(c.GroupID).Generation
	}
	if a.Generation != -1 {
		job.Generation = a.Generation
	}
	if a.Member != "" {
		job.Member = a.Member
	}
	if a.Instance != "" {
		job.Instance = a.Instance
	}
	w.callSendOffsets(p, job)
	return nil
}

// SetTransactionVersion sets the finalized feature transaction.version as
// a config line does, without narrating it: for a run that pins the
// version before its first action (eoslab run --kafka 3|4).
func (w *World) SetTransactionVersion(v int) {
	w.config.TransactionVersion = v
}

package engine

import (
	"strconv"
	"strings"
)

func parseBool(v, key string) (bool, error) {
	switch v {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, errf("%s must be true or false, got %q", key, v)
}

func (w *World) applySetup(a Action) error {
	switch a.Verb {
	case "brokers":
		if w.Started || len(w.Partitions) > 0 || len(w.Producers) > 0 {
			return errf("brokers must come before topics and clients")
		}
		if len(a.Args) != 1 {
			return errf("brokers needs a number")
		}
		n, err := atoi64(a.Args[0], "brokers")
		if err != nil || n < 1 || n > 9 {
			return errf("brokers must be 1 to 9")
		}
		w.setBrokers(int(n))
	case "config":
		for _, kv := range a.Opts {
			if err := w.setConfig(kv); err != nil {
				return err
			}
		}
	case "topic":
		return w.createTopic(a)
	case "producer":
		return w.declareProducer(a)
	case "consumer":
		return w.declareConsumer(a)
	case "processor":
		return w.declareProcessor(a)
	}
	return nil
}

func (w *World) setConfig(kv KV) error {
	num := func() (int64, error) { return atoi64(kv.Value, kv.Key) }
	switch kv.Key {
	case "transaction.version":
		if kv.Value != "1" {
			return errf("transaction.version=%s: only 1 (KIP-98 with KIP-890 part 1) is simulated so far; 2 is planned", kv.Value)
		}
	case "transaction.partition.verification.enable":
		b, err := parseBool(kv.Value, kv.Key)
		if err != nil {
			return err
		}
		w.Config.Verification = b
	case "transaction.max.timeout.ms":
		n, err := num()
		w.Config.TxnMaxTimeoutMs = n
		return err
	case "transactional.id.expiration.ms":
		n, err := num()
		w.Config.TxnIDExpirationMs = n
		return err
	case "producer.id.expiration.ms":
		n, err := num()
		w.Config.ProducerIDExpirationMs = n
		return err
	case "latency.ms":
		n, err := num()
		if err == nil && n < 1 {
			return errf("latency.ms must be at least 1")
		}
		w.Config.LatencyMs = n
		return err
	case "transaction.abort.timed.out.transaction.cleanup.interval.ms":
		n, err := num()
		if err == nil && n < 1 {
			return errf("%s must be at least 1", kv.Key)
		}
		w.Config.AbortCheckIntervalMs = n
		return err
	case "transaction.state.log.num.partitions", "offsets.topic.num.partitions":
		if w.Started || len(w.TxnParts) > 0 || len(w.Groups) > 0 {
			return errf("%s must be set before any client", kv.Key)
		}
		n, err := num()
		if err != nil || n < 1 || n > 1000 {
			return errf("%s must be 1 to 1000", kv.Key)
		}
		if kv.Key == "transaction.state.log.num.partitions" {
			w.Config.TxnStatePartitions = int32(n)
		} else {
			w.Config.OffsetsPartitions = int32(n)
		}
	case "seed":
		n, err := num()
		w.Config.Seed = n
		return err
	default:
		return errf("unknown cluster config %q", kv.Key)
	}
	return nil
}

func (w *World) createTopic(a Action) error {
	if len(a.Args) != 1 {
		return errf("topic needs a name")
	}
	name := a.Args[0]
	if _, ok := w.Topic(name); ok {
		return errf("topic %s already exists", name)
	}
	if strings.HasPrefix(name, "__") {
		return errf("topic names starting with __ are internal")
	}
	parts, err := optInt(a, "partitions", 1)
	if err != nil {
		return err
	}
	rf, err := optInt(a, "rf", 1)
	if err != nil {
		return err
	}
	if parts < 1 || parts > 64 {
		return errf("partitions must be 1 to 64")
	}
	if rf < 1 || int(rf) > len(w.Brokers) {
		return errf("rf must be 1 to the number of brokers (%d)", len(w.Brokers))
	}
	w.Topics = append(w.Topics, Topic{Name: name, Partitions: int32(parts), RF: int(rf)})
	for p := int32(0); p < int32(parts); p++ {
		w.createPartition(TP{Topic: name, Partition: p}, int(rf))
	}
	return nil
}

func (w *World) nameTaken(name string) bool {
	return w.Producer(name) != nil || w.Consumer(name) != nil || w.Processor(name) != nil
}

// buildProducerConfig applies postProcessAndValidateIdempotenceConfigs (ref 1.1).
func buildProducerConfig(opts []KV) (ProducerConfig, string, error) {
	c := DefaultProducerConfig()
	acksSet, retriesSet, inflightSet := false, false, false
	for _, kv := range opts {
		var err error
		switch kv.Key {
		case "transactional.id":
			c.TransactionalID = kv.Value
		case "enable.idempotence":
			c.Idempotence, err = parseBool(kv.Value, kv.Key)
			c.IdempotenceExplicit = true
		case "acks":
			acksSet = true
			switch kv.Value {
			case "0":
				c.Acks = 0
			case "1":
				c.Acks = 1
			case "all", "-1":
				c.Acks = -1
			default:
				err = errf("acks must be 0, 1, all or -1, got %q", kv.Value)
			}
		case "retries":
			retriesSet = true
			c.Retries, err = atoi64(kv.Value, kv.Key)
		case "max.in.flight.requests.per.connection":
			inflightSet = true
			var n int64
			n, err = atoi64(kv.Value, kv.Key)
			c.MaxInFlight = int(n)
			if err == nil && n < 1 {
				err = errf("max.in.flight.requests.per.connection must be at least 1")
			}
		case "transaction.timeout.ms":
			c.TxnTimeoutMs, err = atoi64(kv.Value, kv.Key)
		case "request.timeout.ms":
			c.RequestTimeoutMs, err = atoi64(kv.Value, kv.Key)
			if err == nil && c.RequestTimeoutMs < 1 {
				err = errf("request.timeout.ms must be at least 1")
			}
		case "retry.backoff.ms":
			c.RetryBackoffMs, err = atoi64(kv.Value, kv.Key)
			if err == nil && c.RetryBackoffMs < 1 {
				err = errf("retry.backoff.ms must be at least 1")
			}
		case "delivery.timeout.ms":
			c.DeliveryTimeoutMs, err = atoi64(kv.Value, kv.Key)
		default:
			err = errf("unknown producer config %q", kv.Key)
		}
		if err != nil {
			return c, "", err
		}
	}
	conflict := ""
	switch {
	case acksSet && c.Acks != -1:
		conflict = "acks must be all"
	case retriesSet && c.Retries <= 0:
		conflict = "retries must be greater than 0"
	case inflightSet && c.MaxInFlight > MaxInFlightIdempotent:
		conflict = "max.in.flight.requests.per.connection must be at most 5"
	}
	if c.Idempotence && conflict != "" {
		if c.IdempotenceExplicit {
			return c, "ConfigException: enable.idempotence=true but " + conflict, nil
		}
		c.Idempotence = false
	}
	if c.TransactionalID != "" && !c.Idempotence {
		return c, "ConfigException: transactional.id needs idempotence, which is disabled", nil
	}
	return c, "", nil
}

func (w *World) declareProducer(a Action) error {
	if w.nameTaken(a.Actor) {
		return errf("%s is already declared", a.Actor)
	}
	cfg, cfgErr, err := buildProducerConfig(a.Opts)
	if err != nil {
		return err
	}
	p := w.newProducer(a.Actor, cfg)
	p.ConfigError = cfgErr
	w.Producers = append(w.Producers, p)
	if cfgErr != "" {
		p.LastError = errConfig
		p.ErrorText = cfgErr
		w.emitRule(EvClientError, p.Name, "construction fails: "+cfgErr, "ref 1.1")
	} else if !cfg.Idempotence {
		w.emitRule(EvInfo, p.Name, "is not idempotent: no producer id, no sequence numbers", "ref 1.1")
	}
	return nil
}

func (w *World) newProducer(name string, cfg ProducerConfig) *Producer {
	return &Producer{Name: name, Config: cfg, ProducerID: NoProducerID, Epoch: NoProducerEpoch, CoordBroker: -1, GroupCoord: -1}
}

func (w *World) declareConsumer(a Action) error {
	if w.nameTaken(a.Actor) {
		return errf("%s is already declared", a.Actor)
	}
	c := &Consumer{Name: a.Actor, GroupBroker: -1}
	for _, kv := range a.Opts {
		switch kv.Key {
		case "isolation.level":
			switch kv.Value {
			case "read_committed":
				c.ReadCommitted = true
			case "read_uncommitted":
			default:
				return errf("isolation.level must be read_committed or read_uncommitted, got %q", kv.Value)
			}
		case "auto.offset.reset":
			r, ok := OffsetResetByName(kv.Value)
			if !ok {
				return errf("auto.offset.reset must be latest, earliest or none, got %q", kv.Value)
			}
			c.OffsetReset = r
		case "group.id":
			c.GroupID = kv.Value
		case "group.instance.id":
			c.InstanceID = kv.Value
		case "topics":
			for _, t := range strings.Split(kv.Value, ",") {
				if _, ok := w.Topic(t); !ok {
					return errf("unknown topic %q", t)
				}
				c.Topics = append(c.Topics, t)
			}
		default:
			return errf("unknown consumer config %q", kv.Key)
		}
	}
	if c.GroupID != "" {
		c.MemberID = w.joinGroup(c.GroupID, c.Name, c.InstanceID)
	}
	w.Consumers = append(w.Consumers, c)
	return nil
}

func (w *World) declareProcessor(a Action) error {
	if w.nameTaken(a.Actor) {
		return errf("%s is already declared", a.Actor)
	}
	pr := &Processor{Name: a.Actor}
	var pcfg []KV
	group, txnID := "", ""
	for _, kv := range a.Opts {
		switch kv.Key {
		case "input":
			pr.Input = kv.Value
		case "output":
			pr.Output = kv.Value
		case "group.id":
			group = kv.Value
		case "transactional.id":
			txnID = kv.Value
			pcfg = append(pcfg, kv)
		case "offsets":
			switch kv.Value {
			case "transaction":
				pr.Mode = OffsetsInTransaction
			case "before":
				pr.Mode = OffsetsBefore
			case "after":
				pr.Mode = OffsetsAfter
			default:
				return errf("offsets must be transaction, before or after, got %q", kv.Value)
			}
		default:
			pcfg = append(pcfg, kv)
		}
	}
	if pr.Input == "" || pr.Output == "" || group == "" || txnID == "" {
		return errf("processor needs input=, output=, group.id= and transactional.id=")
	}
	for _, t := range []string{pr.Input, pr.Output} {
		if _, ok := w.Topic(t); !ok {
			return errf("unknown topic %q", t)
		}
	}
	cfg, cfgErr, err := buildProducerConfig(pcfg)
	if err != nil {
		return err
	}
	if cfgErr != "" {
		return errf("%s", cfgErr)
	}
	pr.Producer = w.newProducer(a.Actor, cfg)
	// The processor's consumer starts a partition with no committed offset
	// at the beginning, as Kafka Streams configures its consumers
	// (StreamsConfig: auto.offset.reset=earliest).
	pr.Consumer = &Consumer{Name: a.Actor, ReadCommitted: true, OffsetReset: ResetEarliest, GroupID: group, Topics: []string{pr.Input}, GroupBroker: -1}
	pr.Consumer.MemberID = w.joinGroup(group, a.Actor, "")
	w.Processors = append(w.Processors, pr)
	return nil
}

func (w *World) applyCall(a Action) error {
	p := w.Producer(a.Actor)
	c := w.Consumer(a.Actor)
	pr := w.Processor(a.Actor)
	if p == nil && c == nil {
		return errf("unknown client %q", a.Actor)
	}
	needP := func() error {
		if p == nil || (pr != nil && a.Verb != "process") && false {
			return errf("%s is not a producer", a.Actor)
		}
		if p == nil {
			return errf("%s is not a producer", a.Actor)
		}
		return nil
	}
	switch a.Verb {
	case "initTransactions", "beginTransaction", "commitTransaction", "abortTransaction", "flush", "close", "send", "sendOffsetsToTransaction":
		if err := needP(); err != nil {
			return err
		}
	}
	switch a.Verb {
	case "initTransactions":
		w.callInitTransactions(p)
	case "beginTransaction":
		w.callBegin(p)
	case "commitTransaction":
		w.callEnd(p, true)
	case "abortTransaction":
		w.callEnd(p, false)
	case "flush":
	case "close":
		p.Closed = true
		w.emit(EvClientState, p.Name, "closed")
	case "send":
		if len(a.Args) < 2 {
			return errf("send needs a partition and at least one value")
		}
		tp, err := w.userTP(a.Args[0])
		if err != nil {
			return err
		}
		recs := make([]Record, len(a.Args)-1)
		for i, v := range a.Args[1:] {
			recs[i] = Record{Value: v}
		}
		w.sendRecords(p, tp, recs)
	case "sendOffsetsToTransaction":
		return w.callSendOffsetsAction(p, a)
	case "poll":
		if c == nil {
			return errf("%s is not a consumer", a.Actor)
		}
		w.poll(c)
	case "commitSync":
		if c == nil {
			return errf("%s is not a consumer", a.Actor)
		}
		words := append([]string(nil), a.Args...)
		for _, kv := range a.Opts {
			words = append(words, kv.Key+"="+kv.Value)
		}
		offs, err := w.parseOffsets(words)
		if err != nil {
			return err
		}
		w.commitSync(c, offs)
	case "process":
		if pr == nil {
			return errf("%s is not a processor", a.Actor)
		}
		w.process(pr)
	default:
		return errf("unknown call %q", a.Verb)
	}
	return nil
}

func (w *World) userTP(s string) (TP, error) {
	tp, ok := ParseTP(s)
	if !ok {
		return tp, errf("%q is not a partition like t-0", s)
	}
	t, ok := w.Topic(tp.Topic)
	if !ok {
		return tp, errf("unknown topic %q", tp.Topic)
	}
	if tp.Partition >= t.Partitions {
		return tp, errf("%s has %d partitions", t.Name, t.Partitions)
	}
	return tp, nil
}

func (w *World) parseOffsets(args []string) ([]TPOffset, error) {
	var out []TPOffset
	for _, s := range args {
		i := strings.IndexByte(s, '=')
		if i < 0 {
			return nil, errf("expected TP=OFFSET, got %q", s)
		}
		tp, err := w.userTP(s[:i])
		if err != nil {
			return nil, err
		}
		n, err := strconv.ParseInt(s[i+1:], 10, 64)
		if err != nil || n < 0 {
			return nil, errf("offset in %q must be a whole number", s)
		}
		out = append(out, TPOffset{TP: tp, Offset: n})
	}
	return out, nil
}

func (w *World) callSendOffsetsAction(p *Producer, a Action) error {
	if len(a.Args) < 1 {
		return errf("sendOffsetsToTransaction needs a group")
	}
	var rest []string
	for _, x := range a.Args[1:] {
		rest = append(rest, x)
	}
	job := &OffsetsJob{Group: a.Args[0], Generation: -1}
	for _, kv := range a.Opts {
		switch kv.Key {
		case "generation":
			n, err := atoi64(kv.Value, "generation")
			if err != nil {
				return err
			}
			job.Generation = int32(n)
		case "member":
			job.Member = kv.Value
		case "instance":
			job.Instance = kv.Value
		case "consumer":
			c := w.Consumer(kv.Value)
			if c == nil {
				return errf("unknown consumer %q", kv.Value)
			}
			job.Member = c.MemberID
			job.Instance = c.InstanceID
			job.Generation = w.group(c.GroupID).Generation
		default:
			if tp, err := w.userTP(kv.Key); err == nil {
				n, err := atoi64(kv.Value, "offset")
				if err != nil {
					return err
				}
				job.Offsets = append(job.Offsets, TPOffset{TP: tp, Offset: n})
				continue
			}
			return errf("unknown option %q", kv.Key)
		}
	}
	offs, err := w.parseOffsets(rest)
	if err != nil {
		return err
	}
	job.Offsets = append(job.Offsets, offs...)
	if len(job.Offsets) == 0 {
		return errf("sendOffsetsToTransaction needs at least one TP=OFFSET")
	}
	w.callSendOffsets(p, job)
	return nil
}

package engine

import (
	"strconv"
	"strings"
)

// The canonical text of the actions: each String prints the action back as
// the scenario line that parses to it. Options are printed in one fixed
// order, and only those the line wrote (or, where noted, always).

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
	if a.ResetSet {
		s += opt("auto.offset.reset", a.OffsetReset.String())
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

// value renders one setting of the config as the language writes it.
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

func (s Setting) String() string {
	if s.Key.Boolean() {
		return s.Key.String() + "=" + strconv.FormatBool(s.Value != 0)
	}
	return s.Key.String() + "=" + strconv.FormatInt(s.Value, 10)
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

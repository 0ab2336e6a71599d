package engine

import (
	"strconv"
	"strings"
)

// Expect evaluates an `expect` line against the current state. It returns
// whether it holds and, when it does not, what was found instead. err is for
// expectations that cannot be evaluated at all (unknown partition, client).
func (w *World) Expect(a ExpectArgs) (bool, string, error) {
	if len(a.Args) < 1 {
		return false, "", errf("expect needs a subject")
	}
	args := a.Args[1:]
	switch a.Args[0] {
	case "partition":
		return w.expectPartition(args, a.Opts)
	case "producer":
		return w.expectProducer(args, a.Opts)
	case "txn":
		return w.expectTxn(args)
	case "consumer":
		return w.expectConsumer(args)
	case "group":
		return w.expectGroup(args)
	case "violation":
		if len(args) != 1 {
			return false, "", errf("expect violation needs an invariant name")
		}
		var names []string
		for _, v := range w.Violations {
			if v.Name == args[0] {
				return true, "", nil
			}
			names = append(names, v.Name)
		}
		return false, "violations: " + orNone(strings.Join(names, ",")), nil
	case "violations":
		if len(w.Violations) == 0 {
			return true, "", nil
		}
		return false, w.Violations[0].Name + ": " + w.Violations[0].Text, nil
	case "event":
		if len(args) < 1 {
			return false, "", errf("expect event needs a text")
		}
		want := strings.Join(args, " ")
		for i := range w.Events {
			// The rule is part of the event (its canonical line shows it in
			// brackets), so a lesson can assert why as well as what.
			if e := &w.Events[i]; e.Kind != EvAction && (strings.Contains(e.Text, want) || strings.Contains(e.Rule, want)) {
				return true, "", nil
			}
		}
		return false, "no event contains it", nil
	}
	return false, "", errf("unknown expect subject %q", a.Args[0])
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func eq(got, want string) (bool, string, error) { return got == want, got, nil }

func field(args []string, n int, what string) error {
	if len(args) < n {
		return errf("expect %s needs %d more words", what, n-len(args))
	}
	return nil
}

func (w *World) expectPartition(args []string, opts []KV) (bool, string, error) {
	if err := field(args, 2, "partition"); err != nil {
		return false, "", err
	}
	tp, ok := ParseTP(args[0])
	if !ok {
		return false, "", errf("%q is not a partition", args[0])
	}
	p := w.peekPartition(tp)
	if p == nil {
		return false, "", errf("unknown partition %s", args[0])
	}
	val := func() string {
		if len(args) > 2 {
			return args[2]
		}
		return ""
	}
	switch args[1] {
	case "leo":
		return eq(itoa(p.LEO), val())
	case "hw":
		return eq(itoa(p.HW), val())
	case "lso":
		return eq(itoa(p.LastStableOffset()), val())
	case "logstart":
		return eq(itoa(p.LogStartOffset), val())
	case "records":
		n := 0
		for i := range p.Batches {
			if !p.Batches[i].Control {
				n += int(p.Batches[i].Count)
			}
		}
		return eq(strconv.Itoa(n), val())
	case "batch", "marker":
		off, err := atoi64(val(), "offset")
		if err != nil {
			return false, "", err
		}
		b, ok := p.BatchAt(off)
		if !ok {
			return false, "no batch at offset " + itoa(off) + " (LEO " + itoa(p.LEO) + ")", nil
		}
		got := BatchFields(p, b)
		want := opts
		if args[1] == "marker" {
			if len(args) < 4 {
				return false, "", errf("expect partition TP marker OFFSET commit|abort")
			}
			want = append([]KV{{"kind", strings.ToUpper(args[3])}}, opts...)
		}
		return matchFields(got, want)
	case "aborted":
		for _, ab := range p.Aborted {
			got := []KV{{"pid", itoa(ab.ProducerID)}, {"first", itoa(ab.FirstOffset)}, {"last", itoa(ab.LastOffset)}, {"lso", itoa(ab.LastStableOffset)}}
			if ok, _, _ := matchFields(got, opts); ok {
				return true, "", nil
			}
		}
		var s []string
		for _, ab := range p.Aborted {
			s = append(s, "pid="+itoa(ab.ProducerID)+" first="+itoa(ab.FirstOffset)+" last="+itoa(ab.LastOffset)+" lso="+itoa(ab.LastStableOffset))
		}
		return false, "aborted index: " + orNone(strings.Join(s, "; ")), nil
	case "producer":
		pid, err := atoi64(val(), "pid")
		if err != nil {
			return false, "", err
		}
		e, ok := p.Producers[pid]
		if !ok {
			return false, "no producer state for pid " + itoa(pid), nil
		}
		got := []KV{{"epoch", itoa(int64(e.ProducerEpoch))}, {"lastseq", itoa(int64(e.LastSeq()))}, {"cached", strconv.Itoa(e.NumCached)},
			{"txnfirst", itoa(e.CurrentTxnFirstOffset)}, {"coordinatorEpoch", itoa(int64(e.CoordinatorEpoch))}}
		return matchFields(got, opts)
	}
	return false, "", errf("unknown partition field %q", args[1])
}

// BatchFields is a batch described as fields, as expectations and the JSON
// state name them.
func BatchFields(p *PartitionLog, b *Batch) []KV {
	kind := "data"
	if b.Control {
		kind = b.Marker.String()
	}
	txn := "no"
	if b.Transactional {
		txn = "yes"
	}
	f := []KV{{"kind", kind}, {"offset", itoa(b.BaseOffset)}, {"pid", itoa(b.ProducerID)}, {"epoch", itoa(int64(b.ProducerEpoch))},
		{"seq", b.Seqs()}, {"count", itoa(int64(b.Count))}, {"txn", txn}, {"status", p.Status(b).String()}}
	if b.Control {
		f = append(f, KV{"coordinatorEpoch", itoa(int64(b.CoordinatorEpoch))})
	} else {
		f = append(f, KV{"values", strings.Join(b.Values(), ",")})
	}
	return f
}

func matchFields(got, want []KV) (bool, string, error) {
	var parts []string
	for _, kv := range got {
		parts = append(parts, kv.Key+"="+kv.Value)
	}
	found := strings.Join(parts, " ")
	for _, wkv := range want {
		ok := false
		known := false
		for _, g := range got {
			if g.Key == wkv.Key {
				known = true
				ok = g.Value == wkv.Value
			}
		}
		if !known {
			return false, "", errf("unknown field %q (fields: %s)", wkv.Key, keysOf(got))
		}
		if !ok {
			return false, found, nil
		}
	}
	return true, found, nil
}

func keysOf(kvs []KV) string {
	var s []string
	for _, kv := range kvs {
		s = append(s, kv.Key)
	}
	return strings.Join(s, ", ")
}

func (w *World) expectProducer(args []string, opts []KV) (bool, string, error) {
	if err := field(args, 2, "producer"); err != nil {
		return false, "", err
	}
	p := w.Producer(args[0])
	if p == nil {
		return false, "", errf("unknown producer %q", args[0])
	}
	val := ""
	if len(args) > 2 {
		val = args[2]
	}
	switch args[1] {
	case "state":
		return eq(p.State.String(), val)
	case "error":
		got := "none"
		if p.LastError != None {
			got = p.LastError.Name()
		}
		want := val
		if c, ok := ErrorByName(val); ok {
			want = c.Name()
		}
		return eq(got, want)
	case "pid":
		return eq(itoa(p.ProducerID), val)
	case "epoch":
		return eq(itoa(int64(p.Epoch)), val)
	case "idempotent":
		return eq(strconv.FormatBool(p.Config.Idempotence && p.ConfigError == ""), val)
	case "nextseq":
		if len(args) < 4 {
			return false, "", errf("expect producer NAME nextseq TP N")
		}
		tp, _ := ParseTP(args[2])
		return eq(itoa(int64(p.part(tp).NextSeq)), args[3])
	case "offset":
		if len(p.Acked) == 0 {
			return false, "nothing acknowledged", nil
		}
		return eq(itoa(p.Acked[len(p.Acked)-1].BaseOffset), val)
	}
	return false, "", errf("unknown producer field %q", args[1])
}

// txnMeta looks an id up without creating anything: Expect is read-only.
func (w *World) txnMeta(id string) (TxnMetadata, *TxnStatePartition, bool) {
	p := w.TxnPartitionFor(id)
	t, ok := w.TxnParts[p]
	if !ok {
		reps := w.replicasFor(TxnStateTopic, p, 3)
		t = &TxnStatePartition{Partition: p, Replicas: reps, Leader: w.firstAlive(reps)}
	}
	m, ok := t.Meta[id]
	return m, t, ok
}

// peekPartition is Partition without creating an internal partition on
// first use: an untouched __consumer_offsets partition reads as empty.
func (w *World) peekPartition(tp TP) *PartitionLog {
	if p, ok := w.Partitions[tp]; ok {
		return p
	}
	if tp.Topic == OffsetsTopic && tp.Partition >= 0 && tp.Partition < w.Config.OffsetsPartitions {
		return &PartitionLog{TP: tp, Leader: -1, Producers: map[int64]ProducerStateEntry{}}
	}
	return nil
}

func (w *World) expectTxn(args []string) (bool, string, error) {
	if err := field(args, 3, "txn"); err != nil {
		return false, "", err
	}
	m, t, ok := w.txnMeta(args[0])
	if args[1] == "coordinator" {
		return eq(t.name(), args[2])
	}
	if !ok {
		if t.Loading {
			return false, "coordinator is loading", nil
		}
		return false, "no metadata for " + args[0], nil
	}
	switch args[1] {
	case "state":
		return eq(m.State.String(), args[2])
	case "epoch":
		return eq(itoa(int64(m.ProducerEpoch)), args[2])
	case "pid":
		return eq(itoa(m.ProducerID), args[2])
	case "partitions":
		got := "none"
		if len(m.Partitions) > 0 {
			got = strings.Trim(tpList(m.Partitions), "[]")
		}
		return eq(got, args[2])
	}
	return false, "", errf("unknown txn field %q", args[1])
}

func (w *World) expectConsumer(args []string) (bool, string, error) {
	if err := field(args, 2, "consumer"); err != nil {
		return false, "", err
	}
	c := w.Consumer(args[0])
	if c == nil {
		return false, "", errf("unknown consumer %q", args[0])
	}
	val := ""
	if len(args) > 2 {
		val = args[2]
	}
	switch args[1] {
	case "values", "offsets":
		var s []string
		for _, r := range c.Received {
			if args[1] == "values" {
				s = append(s, r.Value)
			} else {
				s = append(s, itoa(r.Offset))
			}
		}
		return eq(orNone(strings.Join(s, ",")), val)
	case "position":
		if len(args) < 4 {
			return false, "", errf("expect consumer NAME position TP N")
		}
		tp, _ := ParseTP(args[2])
		pos := c.position(tp)
		if pos == nil {
			return false, "not assigned", nil
		}
		return eq(itoa(pos.Offset), args[3])
	case "error":
		got := "none"
		if c.LastError != None {
			got = c.LastError.Name()
		}
		want := val
		if code, ok := ErrorByName(val); ok {
			want = code.Name()
		}
		return eq(got, want)
	}
	return false, "", errf("unknown consumer field %q", args[1])
}

func (w *World) expectGroup(args []string) (bool, string, error) {
	if err := field(args, 2, "group"); err != nil {
		return false, "", err
	}
	g, ok := w.Groups[args[0]]
	if !ok {
		return false, "no group " + args[0], nil
	}
	switch args[1] {
	case "generation":
		if len(args) < 3 {
			return false, "", errf("expect group G generation N")
		}
		return eq(itoa(int64(g.Generation)), args[2])
	case "offset", "pending":
		if len(args) < 4 {
			return false, "", errf("expect group G %s TP N", args[1])
		}
		tp, _ := ParseTP(args[2])
		got := "none"
		if args[1] == "offset" {
			if c, ok := g.Committed[tp]; ok {
				got = itoa(c.Offset)
			}
		} else {
			for _, pid := range sortedIDs(g.Pending) {
				if c, ok := g.Pending[pid][tp]; ok {
					got = itoa(c.Offset)
				}
			}
		}
		return eq(got, args[3])
	}
	return false, "", errf("unknown group field %q", args[1])
}

// Package inspect reads the transaction state of a real Kafka cluster for
// `eoslab inspect`: the coordinator's transactions (KIP-664's
// ListTransactions and DescribeTransactions), the producers each partition
// leader keeps (DescribeProducers), the high watermark and the last stable
// offset (ListOffsets under both isolation levels) and one partition's log
// with its batch headers and control records (a raw Fetch, as
// realkafka.FetchLog reads it). From these it names the hanging
// transactions with the rules of Kafka's own
// org.apache.kafka.tools.TransactionsCommand (find-hanging).
//
// It only reads: every request it sends is a Describe, a List, Metadata or
// a Fetch. The abort it suggests is a kafka-transactions.sh command for
// the user to run.
package inspect

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/eoslab/eoslab/engine/realkafka"
)

// TP is a topic partition.
type TP struct {
	Topic     string
	Partition int32
}

func (tp TP) String() string { return fmt.Sprintf("%s-%d", tp.Topic, tp.Partition) }

// Txn is one transactional id as its coordinator describes it.
type Txn struct {
	ID          string
	Coordinator int32
	State       string
	ProducerID  int64
	Epoch       int16
	TimeoutMs   int32
	// StartMs is when the transaction began (ms since the epoch); -1 when
	// none is open.
	StartMs    int64
	Partitions []TP
	Err        string
}

// Open is whether the coordinator has the transaction in progress: it has
// partitions that may still get data or wait for markers.
func (t Txn) Open() bool {
	switch t.State {
	case "Ongoing", "PrepareCommit", "PrepareAbort", "PrepareEpochFence":
		return true
	}
	return false
}

// Producer is one entry of a partition leader's producer state.
type Producer struct {
	ProducerID       int64
	Epoch            int16
	LastSequence     int32
	LastTimestampMs  int64
	CoordinatorEpoch int32
	// TxnStart is the first offset of the producer's open transaction on
	// this partition, -1 when it has none.
	TxnStart int64
}

// Partition is one partition's offsets and producers.
type Partition struct {
	TP
	Leader    int32
	HW        int64 // ListOffsets latest, read_uncommitted
	LSO       int64 // ListOffsets latest, read_committed
	Producers []Producer
	Err       string
}

// Holder is the producer whose open transaction starts at the LSO: the one
// that keeps read_committed consumers from reading past it. nil when the
// LSO is the high watermark.
func (p Partition) Holder() *Producer {
	if p.LSO < 0 || p.LSO >= p.HW {
		return nil
	}
	for i := range p.Producers {
		if p.Producers[i].TxnStart == p.LSO {
			return &p.Producers[i]
		}
	}
	return nil
}

// Snapshot is the cluster at one moment, as inspect shows it.
type Snapshot struct {
	Bootstrap  string
	TakenMs    int64
	Brokers    []int32
	Txns       []Txn
	Partitions []Partition
	// LogOf is the partition whose log Log is; Log is nil when no
	// partition was chosen or the fetch failed (LogErr).
	LogOf   TP
	Log     *realkafka.Log
	LogErr  string
	Hanging []Hanging
	// Problems are the requests that failed (an ACL, a broker that did not
	// answer), in words.
	Problems []string
}

// Options say what to read.
type Options struct {
	Bootstrap string   // the address the user gave, for the commands shown
	Topics    []string // none: every topic but the internal ones
	TxnIDs    []string // none: every transactional id the coordinators list
	// Log is the partition whose log to read; Topic "" picks one: the
	// first that a hanging transaction holds, else the first whose LSO an
	// open transaction holds, else the first partition.
	Log TP
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Collect reads one snapshot. adm and cl are clients of the cluster (cl
// for the raw Fetch). An error is a cluster that did not answer at all;
// partial failures are the snapshot's Problems.
func Collect(ctx context.Context, cl *kgo.Client, o Options) (*Snapshot, error) {
	adm := kadm.NewClient(cl)
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	s := &Snapshot{Bootstrap: o.Bootstrap}
	brokers, err := adm.ListBrokers(ctx)
	if err != nil {
		return nil, err
	}
	for _, b := range brokers {
		s.Brokers = append(s.Brokers, b.NodeID)
	}
	topics := o.Topics
	if len(topics) == 0 {
		td, err := adm.ListTopics(ctx)
		if err != nil {
			return nil, err
		}
		topics = td.Names()
	}
	sort.Strings(topics)

	var (
		wg                    sync.WaitGroup
		mu                    sync.Mutex
		ends, lsos            kadm.ListedOffsets
		producers             kadm.DescribedProducersTopics
		listed                kadm.ListedTransactions
		endErr, lsoErr, prErr error
		listErr               error
		parts                 = map[TP]*Partition{}
		problems              []string
		addProblem            = func(p string) { mu.Lock(); problems = append(problems, p); mu.Unlock() }
		td                    kadm.TopicDetails
		tdErr                 error
	)
	run := func(f func()) { wg.Add(1); go func() { defer wg.Done(); f() }() }
	if len(topics) > 0 {
		// kadm reads an empty list as every topic, internal ones too.
		run(func() { td, tdErr = adm.ListTopics(ctx, topics...) })
		run(func() { ends, endErr = adm.ListEndOffsets(ctx, topics...) })
		run(func() { lsos, lsoErr = adm.ListCommittedOffsets(ctx, topics...) })
		run(func() { producers, prErr = adm.DescribeProducers(ctx, topicsSet(topics)) })
	}
	run(func() { listed, listErr = adm.ListTransactions(ctx, nil, nil) })
	wg.Wait()
	for _, e := range []error{tdErr, endErr, lsoErr, prErr, listErr} {
		if isGone(e) {
			return nil, e
		}
	}
	if tdErr != nil {
		addProblem("Metadata: " + tdErr.Error())
	}
	for _, t := range td.Sorted() {
		if t.Err != nil {
			addProblem(fmt.Sprintf("Metadata %s: %v", t.Topic, t.Err))
			continue
		}
		for _, p := range t.Partitions.Sorted() {
			tp := TP{t.Topic, p.Partition}
			parts[tp] = &Partition{TP: tp, Leader: p.Leader, HW: -1, LSO: -1}
		}
	}
	offsets := func(lo kadm.ListedOffsets, err error, what string, set func(*Partition, int64)) {
		if err != nil {
			addProblem(what + ": " + err.Error())
		}
		lo.Each(func(l kadm.ListedOffset) {
			p := parts[TP{l.Topic, l.Partition}]
			if p == nil {
				return
			}
			if l.Err != nil {
				p.Err = fmt.Sprintf("%s: %v", what, l.Err)
				return
			}
			set(p, l.Offset)
		})
	}
	offsets(ends, endErr, "ListOffsets read_uncommitted", func(p *Partition, o int64) { p.HW = o })
	offsets(lsos, lsoErr, "ListOffsets read_committed", func(p *Partition, o int64) { p.LSO = o })
	if prErr != nil {
		addProblem("DescribeProducers: " + prErr.Error())
	}
	fillProducers(parts, producers)
	for _, tp := range sortedTPs(parts) {
		s.Partitions = append(s.Partitions, *parts[tp])
	}

	if listErr != nil {
		addProblem("ListTransactions: " + listErr.Error())
	}
	var ids []string
	for id := range listed {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	if toDescribe := describeSet(ids, listed, s.Partitions, o.TxnIDs); len(toDescribe) > 0 {
		desc, err := adm.DescribeTransactions(ctx, toDescribe...)
		if isGone(err) {
			return nil, err
		}
		if err != nil {
			addProblem("DescribeTransactions: " + err.Error())
		}
		for _, id := range ids {
			l := listed[id]
			t := Txn{ID: id, Coordinator: l.Coordinator, State: l.State, ProducerID: l.ProducerID, Epoch: -1, StartMs: -1}
			if d, ok := desc[id]; ok {
				if d.Err != nil {
					t.Err = d.Err.Error()
				} else {
					t.State, t.ProducerID, t.Epoch, t.TimeoutMs, t.StartMs = d.State, d.ProducerID, d.ProducerEpoch, d.TimeoutMillis, d.StartTimestamp
					d.Topics.Each(func(tp string, p int32) { t.Partitions = append(t.Partitions, TP{tp, p}) })
					sortTPs(t.Partitions)
				}
			}
			s.Txns = append(s.Txns, t)
		}
	}

	s.TakenMs = now().UnixMilli()
	s.Hanging = FindHanging(s)
	if len(s.Hanging) > 0 {
		s.Hanging = confirm(ctx, adm, s)
	}
	s.LogOf = o.Log
	if s.LogOf.Topic == "" {
		s.LogOf = chooseLog(s)
	}
	if s.LogOf.Topic != "" {
		l, err := realkafka.FetchLog(ctx, cl, s.LogOf.Topic, s.LogOf.Partition)
		if isGone(err) {
			return nil, err
		}
		if err != nil {
			s.LogErr = err.Error()
		} else {
			s.Log = &l
		}
	}
	s.Txns = filterTxns(s.Txns, o.TxnIDs)
	sort.Strings(problems)
	s.Problems = problems
	return s, nil
}

// confirm asks the leaders again about the partitions FindHanging named:
// a transaction that completed between DescribeProducers and
// DescribeTransactions has its markers written by the time the
// coordinator says so, so its partitions no longer show it open. What is
// still open at the same offset is hanging.
func confirm(ctx context.Context, adm *kadm.Client, s *Snapshot) []Hanging {
	set := kadm.TopicsSet{}
	for _, h := range s.Hanging {
		if h.Rule == RuleNoCoordinatorTxn {
			set.Add(h.TP.Topic, h.TP.Partition)
		}
	}
	if len(set) == 0 {
		return s.Hanging
	}
	again, err := adm.DescribeProducers(ctx, set)
	if err != nil {
		return s.Hanging
	}
	still := map[TP]map[int64]int64{}
	again.EachPartition(func(p kadm.DescribedProducersPartition) {
		m := map[int64]int64{}
		p.ActiveProducers.Each(func(d kadm.DescribedProducer) { m[d.ProducerID] = d.CurrentTxnStartOffset })
		still[TP{p.Topic, p.Partition}] = m
	})
	var out []Hanging
	for _, h := range s.Hanging {
		if h.Rule == RuleNoCoordinatorTxn {
			if off, ok := still[h.TP][h.ProducerID]; !ok || off != h.StartOffset {
				continue
			}
		}
		out = append(out, h)
	}
	return out
}

// maxDescribed is how many transactional ids Collect describes at most
// besides the ones that matter; past it, a big cluster's finished ones are
// shown as ListTransactions lists them (state and producer id).
const maxDescribed = 500

// describeSet is the ids to DescribeTransactions: every listed id on a
// cluster of up to maxDescribed, else the open ones, the ones asked for
// and those whose producer has a transaction open on a partition.
func describeSet(ids []string, listed kadm.ListedTransactions, parts []Partition, asked []string) []string {
	if len(ids) <= maxDescribed {
		return ids
	}
	want := map[string]bool{}
	for _, id := range asked {
		want[id] = true
	}
	open := map[int64]bool{}
	for _, p := range parts {
		for _, pr := range p.Producers {
			if pr.TxnStart >= 0 {
				open[pr.ProducerID] = true
			}
		}
	}
	var out []string
	for _, id := range ids {
		l := listed[id]
		if want[id] || open[l.ProducerID] || (Txn{State: l.State}).Open() {
			out = append(out, id)
		}
	}
	return out
}

func fillProducers(parts map[TP]*Partition, producers kadm.DescribedProducersTopics) {
	producers.EachPartition(func(dp kadm.DescribedProducersPartition) {
		p := parts[TP{dp.Topic, dp.Partition}]
		if p == nil {
			return
		}
		if dp.Err != nil {
			p.Err = "DescribeProducers: " + dp.Err.Error()
			return
		}
		dp.ActiveProducers.Each(func(d kadm.DescribedProducer) {
			p.Producers = append(p.Producers, Producer{
				ProducerID: d.ProducerID, Epoch: d.ProducerEpoch, LastSequence: d.LastSequence,
				LastTimestampMs: d.LastTimestamp, CoordinatorEpoch: d.CoordinatorEpoch, TxnStart: d.CurrentTxnStartOffset,
			})
		})
		sort.Slice(p.Producers, func(i, j int) bool { return p.Producers[i].ProducerID < p.Producers[j].ProducerID })
	})
}

func chooseLog(s *Snapshot) TP {
	if len(s.Hanging) > 0 {
		return s.Hanging[0].TP
	}
	for _, p := range s.Partitions {
		if p.Holder() != nil {
			return p.TP
		}
	}
	if len(s.Partitions) > 0 {
		return s.Partitions[0].TP
	}
	return TP{}
}

func filterTxns(txns []Txn, ids []string) []Txn {
	if len(ids) == 0 {
		return txns
	}
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	var out []Txn
	for _, t := range txns {
		if want[t.ID] {
			out = append(out, t)
		}
	}
	return out
}

func topicsSet(topics []string) kadm.TopicsSet {
	s := kadm.TopicsSet{}
	for _, t := range topics {
		s[t] = map[int32]struct{}{}
	}
	return s
}

func sortedTPs(m map[TP]*Partition) []TP {
	out := make([]TP, 0, len(m))
	for tp := range m {
		out = append(out, tp)
	}
	sortTPs(out)
	return out
}

func sortTPs(tps []TP) {
	sort.Slice(tps, func(i, j int) bool {
		if tps[i].Topic != tps[j].Topic {
			return tps[i].Topic < tps[j].Topic
		}
		return tps[i].Partition < tps[j].Partition
	})
}

// isGone is an error that says the cluster did not answer (rather than
// answered with an error): the request's context ended, or every broker
// refused the connection.
func isGone(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "connection refused") || strings.Contains(msg, "unable to dial") ||
		strings.Contains(msg, "broken pipe") || strings.Contains(msg, "connection reset") || errors.Is(err, kgo.ErrClientClosed)
}

// Unreachable is the one line a user reads when the cluster did not
// answer.
func Unreachable(bootstrap string, err error) string {
	return fmt.Sprintf("the cluster at %s did not answer (%v); is it running?", bootstrap, err)
}

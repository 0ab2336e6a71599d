package verify

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine/realkafka/wire"
	"github.com/eoslab/eoslab/engine/script"
)

// The broker run's observation log: what the broker showed while the file
// played, beyond the state verify reads at an expect line. Every request a
// file's client wrote and every answer the broker gave it (seen by the
// wire wrapper, tagged with the file line being played), and the records
// the transaction coordinators wrote to __transaction_state during the
// run (read back with a consumer of the internal topic, decoded per
// Kafka's TransactionLogKey and TransactionLogValue message specs, as
// kmsg.TxnMetadataKey and kmsg.TxnMetadataValue). The event and monitor
// checks judge the simulation's facts against it.

// txnStateTopic is Kafka's transaction log (Topic.TRANSACTION_STATE_TOPIC_NAME).
const txnStateTopic = "__transaction_state"

type observer struct {
	line atomic.Int64 // the file line being played

	mu   sync.Mutex
	seen []observed

	// The transaction log: where this file's run started reading, the
	// consumer reading it and the records read so far (this run's ids).
	txnStart map[int32]int64
	txnCl    *kgo.Client
	txnNext  map[int32]int64
	txn      []txnRecord

	ids map[[16]byte]string // topic ids of the run (wirefacts.go)

	calls  []callMark    // the producers' calls among seen (javastate.go)
	queued []*queuedCall // the producers' calls queued so far
}

// observed is one exchange a client of the file had with the broker.
type observed struct {
	line   int
	client string
	x      wire.Exchange
}

// txnRecord is one __transaction_state record of a transactional id.
type txnRecord struct {
	Partition  int32
	Offset     int64
	TxnID      string
	Tombstone  bool
	State      string // kmsg.TransactionState's name: Empty, Ongoing, ...
	PID        int64
	PrevPID    int64 // PreviousProducerId (tagged, version 1), -1 when absent
	Epoch      int16
	Partitions []string // topic-partition, the run's prefix stripped
}

// newObserver notes where the transaction log ends before the file plays.
func (d *driver) newObserver() *observer {
	o := &observer{txnStart: map[int32]int64{}, txnNext: map[int32]int64{}}
	ctx, cancel := context.WithTimeout(d.ctx, 15*time.Second)
	defer cancel()
	ends, err := d.adm.ListEndOffsets(ctx, txnStateTopic)
	if err == nil {
		ends.Each(func(e kadm.ListedOffset) {
			if e.Err == nil {
				o.txnStart[e.Partition] = e.Offset
			}
		})
	}
	return o
}

// watch records the exchanges of the client name's connections.
func (d *driver) watch(name string, w *worker) {
	f := w.faults()
	if f.Observe != nil {
		return
	}
	o := d.obs
	f.Observe = func(x wire.Exchange) {
		if o != nil {
			o.mu.Lock()
			o.seen = append(o.seen, observed{line: int(o.line.Load()), client: name, x: x})
			o.mu.Unlock()
		}
		d.afterConcurrent(x)
	}
}

// afterConcurrent holds an InitProducerId answer of
// CONCURRENT_TRANSACTIONS(51) from the client until the coordinator has
// finished the transaction it is ending (at most concurrentBound): the
// Java client retries after retry.backoff.ms (100 ms), franz-go after
// 20 ms (kgo.ConcurrentTransactionsBackoff, in doWithConcurrentTransactions,
// pkg/kgo/txn.go), and whether that retry finds the markers written
// depends on the broker's load. Held, the client's retry comes after
// the transaction completed, as the simulation's does: one retry, not
// one or two.
func (d *driver) afterConcurrent(x wire.Exchange) {
	resp, ok := x.Resp.(*kmsg.InitProducerIDResponse)
	req, rok := x.Req.(*kmsg.InitProducerIDRequest)
	if !ok || !rok || x.Lost || x.Copy || req.TransactionalID == nil || resp.ErrorCode != kerr.ConcurrentTransactions.Code {
		return
	}
	d.awaitAborts(d.ctx, []string{*req.TransactionalID}, concurrentBound)
}

// concurrentBound is the longest an InitProducerId answer of
// CONCURRENT_TRANSACTIONS is held.
const concurrentBound = 10 * time.Second

// exchanges is a copy of what was observed so far.
func (o *observer) exchanges() []observed {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]observed(nil), o.seen...)
}

func (o *observer) close() {
	if o != nil && o.txnCl != nil {
		o.txnCl.Close()
	}
}

// txnLog reads the transaction log up to its end now and returns this
// run's records, oldest first per partition.
func (d *driver) txnLog() ([]txnRecord, error) {
	o := d.obs
	ctx, cancel := context.WithTimeout(d.ctx, 20*time.Second)
	defer cancel()
	want := map[int32]int64{}
	// On a new cluster the transaction log is created by the first
	// FindCoordinator; the client's metadata may not know it for a moment.
	for len(want) == 0 {
		ends, err := d.adm.ListEndOffsets(ctx, txnStateTopic)
		if err != nil {
			return nil, err
		}
		ends.Each(func(e kadm.ListedOffset) {
			if e.Err == nil {
				want[e.Partition] = e.Offset
			}
		})
		if len(want) > 0 {
			break
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%s has no partition with a leader", txnStateTopic)
		case <-time.After(200 * time.Millisecond):
		}
	}
	if o.txnCl == nil {
		parts := map[int32]kgo.Offset{}
		for p := range want {
			parts[p] = kgo.NewOffset().At(o.txnStart[p])
			o.txnNext[p] = o.txnStart[p]
		}
		cl, err := kgo.NewClient(kgo.SeedBrokers(d.seed...), kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{txnStateTopic: parts}))
		if err != nil {
			return nil, err
		}
		o.txnCl = cl
	}
	behind := func() bool {
		for p, end := range want {
			if o.txnNext[p] < end {
				return true
			}
		}
		return false
	}
	for behind() {
		fs := o.txnCl.PollFetches(ctx)
		if ctx.Err() != nil {
			return o.txn, fmt.Errorf("reading %s: %w", txnStateTopic, ctx.Err())
		}
		fs.EachRecord(func(r *kgo.Record) {
			o.txnNext[r.Partition] = r.Offset + 1
			rec, ok, err := decodeTxnRecord(r.Key, r.Value)
			if err != nil || !ok || !strings.HasPrefix(rec.TxnID, d.prefix) {
				return
			}
			rec.Partition, rec.Offset = r.Partition, r.Offset
			rec.TxnID = strings.TrimPrefix(rec.TxnID, d.prefix)
			for i, tp := range rec.Partitions {
				rec.Partitions[i] = strings.TrimPrefix(tp, d.prefix)
			}
			o.txn = append(o.txn, rec)
		})
	}
	return o.txn, nil
}

// decodeTxnRecord decodes a __transaction_state record (Kafka's
// TransactionLog.readTxnRecordKey and readTxnRecordValue): the key is
// TransactionLogKey (version 0: the transactional id), the value
// TransactionLogValue (version 0, or 1 with KIP-890's tagged fields), or
// null for a tombstone. ok is false for a key of another version, which
// the coordinator skips too.
func decodeTxnRecord(key, value []byte) (txnRecord, bool, error) {
	var k kmsg.TxnMetadataKey
	if err := k.ReadFrom(key); err != nil {
		return txnRecord{}, false, fmt.Errorf("TransactionLogKey: %w", err)
	}
	if k.Version != 0 {
		return txnRecord{}, false, nil
	}
	rec := txnRecord{TxnID: k.TransactionalID}
	if value == nil {
		rec.Tombstone = true
		return rec, true, nil
	}
	var v kmsg.TxnMetadataValue
	if err := v.ReadFrom(value); err != nil {
		return txnRecord{}, false, fmt.Errorf("TransactionLogValue: %w", err)
	}
	rec.State, rec.PID, rec.PrevPID, rec.Epoch = v.State.String(), v.ProducerID, v.PreviousProducerID, v.ProducerEpoch
	for _, t := range v.Topics {
		for _, p := range t.Partitions {
			rec.Partitions = append(rec.Partitions, t.Topic+"-"+strconv.Itoa(int(p)))
		}
	}
	sort.Strings(rec.Partitions)
	return rec, true, nil
}

// pending judges "expect group G pending TP N|none" with OffsetFetch
// RequireStable=true (KIP-447): the group coordinator answers
// UNSTABLE_OFFSET_COMMIT for a partition with pending transactional
// offsets (OffsetMetadataManager.fetchOffsets, hasPendingTransactionalOffsets).
// The broker shows whether offsets are pending, not their value.
func (d *driver) pending(x script.GroupCheck) (bool, string, string) {
	ctx, cancel := context.WithTimeout(d.ctx, 30*time.Second)
	defer cancel()
	req := kmsg.NewPtrOffsetFetchRequest()
	req.RequireStable = true
	g := kmsg.NewOffsetFetchRequestGroup()
	g.Group = d.prefix + x.Group
	t := kmsg.NewOffsetFetchRequestGroupTopic()
	t.Topic, t.Partitions = d.name(x.TP.Topic), []int32{x.TP.N}
	g.Topics = append(g.Topics, t)
	req.Groups = append(req.Groups, g)
	resp, err := req.RequestWith(ctx, d.raw)
	if err != nil {
		return false, "", "OffsetFetch failed: " + err.Error()
	}
	code := int16(-1)
	for _, rg := range resp.Groups {
		if rg.ErrorCode != 0 {
			return false, "", "OffsetFetch answered " + errName(kerr.ErrorForCode(rg.ErrorCode))
		}
		for _, rt := range rg.Topics {
			for _, rp := range rt.Partitions {
				if rt.Topic == d.name(x.TP.Topic) && rp.Partition == x.TP.N {
					code = rp.ErrorCode
				}
			}
		}
	}
	if code < 0 {
		return false, "", "OffsetFetch did not answer for the partition"
	}
	unstable := code == kerr.UnstableOffsetCommit.Code
	fact := "OffsetFetch(requireStable) " + errName(kerr.ErrorForCode(code))
	if x.N.Set {
		return unstable, fact + " (pending offsets are shown, not their value)", ""
	}
	return !unstable, fact, ""
}

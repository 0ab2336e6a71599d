package brokertest

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/eoslab/eoslab/engine/realkafka"
	"github.com/eoslab/eoslab/engine/realkafka/inspect"
)

// TestInspectSnapshot makes a cluster with one open, one committed and
// one hanging transaction and checks that inspect's snapshot names each.
//
// The hanging one is the hanging transaction KIP-890 part 1 exists to
// stop: a transactional batch the broker appends although the
// transaction's coordinator never added the partition (classically a
// Produce delayed in the network that lands after its transaction ended).
// The test sends it as raw kmsg requests, InitProducerId then Produce
// with no AddPartitionsToTxn, to a broker that runs with
// transaction.partition.verification.enable=false, as every broker did
// before 3.6. The cluster is the test's own (it ends with the broker
// stopped under inspect, the second half of the test) on the classic
// protocol (transaction.version=0), where the clients send
// AddPartitionsToTxn themselves: under transaction.version=2 the broker
// adds the partition as part of that verification, which is off here.
func TestInspectSnapshot(t *testing.T) {
	opts := profile
	opts.TransactionVersion = 0
	opts.Extra = append(append([]string{}, opts.Extra...), "transaction.partition.verification.enable=false")
	c, stop := ownCluster(t, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	boot := c.Bootstrap()
	cl, err := kgo.NewClient(kgo.SeedBrokers(boot))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	var b [4]byte
	rand.Read(b[:])
	name := "eoslab-inspect-" + hex.EncodeToString(b[:])
	if r, err := adm.CreateTopic(ctx, 2, 1, nil, name); err != nil || r.Err != nil {
		t.Fatalf("create topic: %v %v", err, r.Err)
	}
	id := func(s string) string { return name + "-" + s }

	// Committed: data and a COMMIT marker on partition 0.
	done := txnClient(t, boot, name, id("done"))
	if err := done.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	produce(t, ctx, done, 0, "committed")
	if err := done.EndTransaction(ctx, kgo.TryCommit); err != nil {
		t.Fatal(err)
	}
	// EndTxn is answered once the coordinator has logged PrepareCommit;
	// the marker is written after (TransactionMarkerChannelManager), and
	// on a loaded machine the open transaction's data could land before
	// it: wait, within a bound, for the marker (the end offset past it).
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		ends, err := adm.ListEndOffsets(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		if e, ok := ends.Lookup(name, 0); ok && e.Err == nil && e.Offset >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the committed transaction's marker is not on %s-0 after 30 s: %+v", name, ends)
		}
	}
	// Open: data on partition 0, no end (a minute's timeout).
	open := txnClient(t, boot, name, id("open"))
	if err := open.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	produce(t, ctx, open, 0, "open")
	// Hanging: a transactional batch on partition 1 its coordinator never
	// heard of.
	// Produce v12+ is for transaction.version=2's clients; a 3.x client's
	// versions, as the producer whose batch hung was.
	old, err := kgo.NewClient(kgo.SeedBrokers(boot), kgo.MaxVersions(kversion.V3_7_0()))
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	pid, epoch := hang(t, ctx, old, id("ghost"), name, 1)

	var s *inspect.Snapshot
	// The coordinator's CompleteCommit follows the markers, and a loaded
	// machine may take a while: wait, within a bound, for the cluster to
	// settle into what the checks below expect, then check every fact.
	settled := func(s *inspect.Snapshot) bool {
		return txn(s, id("done")).State == "CompleteCommit" && txn(s, id("open")).State == "Ongoing" &&
			len(s.Partitions) == 2 && s.Partitions[0].HW == 3 && s.Partitions[1].HW == 1
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		s, err = inspect.Collect(ctx, cl, inspect.Options{Bootstrap: boot, Topics: []string{name}})
		if err != nil {
			t.Fatal(err)
		}
		if settled(s) || time.Now().After(deadline) {
			break
		}
	}
	text := inspect.Text(s)
	if d := txn(s, id("done")); d.State != "CompleteCommit" || d.Open() {
		t.Errorf("committed transaction: %+v, want CompleteCommit\n%s", d, text)
	}
	if o := txn(s, id("open")); o.State != "Ongoing" || len(o.Partitions) != 1 || o.Partitions[0] != (inspect.TP{Topic: name, Partition: 0}) {
		t.Errorf("open transaction: %+v, want Ongoing on %s-0\n%s", o, name, text)
	}
	if len(s.Hanging) != 1 {
		t.Fatalf("hanging = %+v, want exactly the ghost's\n%s", s.Hanging, text)
	}
	h := s.Hanging[0]
	if h.Rule != inspect.RuleNoCoordinatorTxn || h.TP != (inspect.TP{Topic: name, Partition: 1}) || h.ProducerID != pid || h.Epoch != epoch || h.StartOffset != 0 || h.TxnID != id("ghost") {
		t.Errorf("hanging = %+v, want pid %d epoch %d on %s-1 from offset 0, txid %s", h, pid, epoch, name, id("ghost"))
	}
	want := fmt.Sprintf("kafka-transactions.sh --bootstrap-server %s abort --topic %s --partition 1 --start-offset 0", boot, name)
	if len(h.Commands) != 1 || h.Commands[0] != want {
		t.Errorf("abort command %q, want %q", h.Commands, want)
	}
	for _, p := range s.Partitions {
		hold := p.Holder()
		switch p.Partition {
		case 0: // committed data, its marker, the open transaction's data
			if p.HW != 3 || p.LSO != 2 || hold == nil || hold.ProducerID != txn(s, id("open")).ProducerID {
				t.Errorf("%s: HW %d LSO %d holder %+v, want 3, 2 and the open transaction's producer", p.TP, p.HW, p.LSO, hold)
			}
		case 1:
			if p.HW != 1 || p.LSO != 0 || hold == nil || hold.ProducerID != pid {
				t.Errorf("%s: HW %d LSO %d holder %+v, want 1, 0 and pid %d", p.TP, p.HW, p.LSO, hold, pid)
			}
		}
	}
	if s.LogOf != h.TP || s.Log == nil || len(s.Log.Batches) != 1 || !s.Log.Batches[0].Transactional || s.Log.Batches[0].ProducerID != pid {
		t.Errorf("log of %v: %+v, want the hanging partition with its one transactional batch", s.LogOf, s.Log)
	}
	// The log of partition 0: data, COMMIT marker, open data.
	s0, err := inspect.Collect(ctx, cl, inspect.Options{Bootstrap: boot, Topics: []string{name}, Log: inspect.TP{Topic: name, Partition: 0}})
	if err != nil {
		t.Fatal(err)
	}
	if l := s0.Log; l == nil || len(l.Batches) != 3 || l.Batches[1].Marker != "COMMIT" || !l.Batches[1].Control {
		t.Errorf("log of %s-0: %+v, want data, a COMMIT marker, data", name, l)
	}
	words := strings.Join(strings.Fields(text+inspect.Text(s0)), " ")
	for _, w := range []string{id("done") + " CompleteCommit", id("open") + " Ongoing", "(" + id("ghost") + ")", "state Empty", want, "marker COMMIT"} {
		if !strings.Contains(words, w) {
			t.Errorf("the snapshot text does not say %q:\n%s", w, text)
		}
	}
	t.Logf("snapshot:\n%s", text)

	// The broker goes away mid-session: Collect says so within its
	// context's bound, and says which cluster.
	open.Close()
	done.Close()
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	gone, cancel2 := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel2()
	if _, err := inspect.Collect(gone, cl, inspect.Options{Bootstrap: boot, Topics: []string{name}}); err == nil {
		t.Fatal("Collect on a stopped cluster returned no error")
	} else if msg := inspect.Unreachable(boot, err); !strings.Contains(msg, "did not answer") {
		t.Errorf("message for a stopped cluster = %q", msg)
	}
}

// ownCluster starts a cluster of the test's own (in a directory of its
// own) for a test that stops it under a client: stop stops it once, and
// the test's cleanup stops it if the test did not.
func ownCluster(t *testing.T, opts realkafka.Options) (*realkafka.Cluster, func() error) {
	t.Helper()
	opts.Dir = t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c, err := realkafka.Start(ctx, opts, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	stop := sync.OnceValue(c.Stop)
	t.Cleanup(func() { stop() })
	return c, stop
}

func txn(s *inspect.Snapshot, id string) inspect.Txn {
	for _, t := range s.Txns {
		if t.ID == id {
			return t
		}
	}
	return inspect.Txn{}
}

func txnClient(t *testing.T, boot, topic, id string) *kgo.Client {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(boot), kgo.TransactionalID(id), kgo.TransactionTimeout(time.Minute),
		kgo.DefaultProduceTopic(topic), kgo.ProducerLinger(0), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return cl
}

func produce(t *testing.T, ctx context.Context, cl *kgo.Client, p int32, v string) {
	t.Helper()
	if err := cl.ProduceSync(ctx, &kgo.Record{Partition: p, Value: []byte(v)}).FirstErr(); err != nil {
		t.Fatal(err)
	}
}

// hang gets a producer id for txid and writes one transactional batch to
// topic-p with raw requests, without AddPartitionsToTxn.
func hang(t *testing.T, ctx context.Context, cl *kgo.Client, txid, topic string, p int32) (int64, int16) {
	t.Helper()
	init := kmsg.NewPtrInitProducerIDRequest()
	init.TransactionalID = kmsg.StringPtr(txid)
	init.TransactionTimeoutMillis = 60000
	r, err := init.RequestWith(ctx, cl)
	if err == nil {
		err = kerr.ErrorForCode(r.ErrorCode)
	}
	if err != nil {
		t.Fatal("InitProducerId:", err)
	}
	req := kmsg.NewPtrProduceRequest()
	req.TransactionID = kmsg.StringPtr(txid)
	req.Acks = -1
	req.TimeoutMillis = 30000
	td, err := kadm.NewClient(cl).ListTopics(ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	rt := kmsg.NewProduceRequestTopic()
	rt.Topic, rt.TopicID = topic, td[topic].ID // Produce v13+ names the topic by id (KIP-516)
	rp := kmsg.NewProduceRequestTopicPartition()
	rp.Partition = p
	rp.Records = txnBatch(r.ProducerID, r.ProducerEpoch, []byte("hanging"))
	rt.Partitions = append(rt.Partitions, rp)
	req.Topics = append(req.Topics, rt)
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		t.Fatal("Produce:", err)
	}
	for _, rt := range resp.Topics {
		for _, rp := range rt.Partitions {
			if err := kerr.ErrorForCode(rp.ErrorCode); err != nil {
				t.Fatalf("Produce to %s-%d: %v (is transaction.partition.verification.enable off?)", topic, p, err)
			}
		}
	}
	return r.ProducerID, r.ProducerEpoch
}

// txnBatch is a RecordBatch v2 of one record with the transactional bit
// (org.apache.kafka.common.record.DefaultRecordBatch: the CRC-32C covers
// the bytes from the attributes on).
func txnBatch(pid int64, epoch int16, value []byte) []byte {
	rec := kmsg.Record{Value: value}
	body := rec.AppendTo(nil)
	rec.Length = int32(len(body) - 1) // Length 0 took one varint byte
	body = rec.AppendTo(nil)
	now := time.Now().UnixMilli()
	rb := kmsg.RecordBatch{
		PartitionLeaderEpoch: -1, Magic: 2, Attributes: 0x10,
		FirstTimestamp: now, MaxTimestamp: now,
		ProducerID: pid, ProducerEpoch: epoch, FirstSequence: 0, NumRecords: 1, Records: body,
	}
	out := rb.AppendTo(nil)
	binary.BigEndian.PutUint32(out[8:], uint32(len(out)-12))
	binary.BigEndian.PutUint32(out[17:], crc32.Checksum(out[21:], crc32.MakeTable(crc32.Castagnoli)))
	return out
}

package brokertest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine/realkafka"
	"github.com/eoslab/eoslab/engine/realkafka/wire"
)

// topic creates a topic of one partition with a name of its own and
// deletes it when the test ends.
func topic(t *testing.T, adm *kadm.Client) string {
	t.Helper()
	var b [4]byte
	rand.Read(b[:])
	name := "eoslab-test-" + hex.EncodeToString(b[:])
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := adm.CreateTopic(ctx, 1, 1, nil, name)
	if err == nil {
		err = r.Err
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		adm.DeleteTopics(ctx, name)
	})
	return name
}

func admin(t *testing.T) *kadm.Client {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(cluster.Bootstrap()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return kadm.NewClient(cl)
}

// TestLostProduceResponse: the broker writes the batch, its response is
// lost on the wire and the connection fails; kgo sends the batch again on
// a new connection. With idempotence the broker recognises the producer
// id, epoch and sequence and the log holds one record; without it, two
// (the duplicate a lost ACK makes).
func TestLostProduceResponse(t *testing.T) {
	adm := admin(t)
	for _, idempotent := range []bool{true, false} {
		name := topic(t, adm)
		f := &wire.Faults{}
		f.Add(wire.Rule{Key: kmsg.Produce, Dir: wire.Response, Action: wire.Drop})
		opts := []kgo.Opt{
			kgo.SeedBrokers(cluster.Bootstrap()), kgo.Dialer(f.Dialer(nil)),
			kgo.DefaultProduceTopic(name), kgo.ProducerLinger(0),
			kgo.RecordPartitioner(kgo.ManualPartitioner()),
		}
		if !idempotent {
			opts = append(opts, kgo.DisableIdempotentWrite(), kgo.RequiredAcks(kgo.AllISRAcks()))
		}
		cl, err := kgo.NewClient(opts...)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		err = cl.ProduceSync(ctx, &kgo.Record{Value: []byte("v"), Partition: 0}).FirstErr()
		cl.Close()
		if err != nil {
			cancel()
			t.Fatalf("idempotent=%v: produce through a lost response: %v", idempotent, err)
		}
		if ev := f.Events(); len(ev) != 1 || ev[0].Key != kmsg.Produce || ev[0].Dir != wire.Response {
			t.Fatalf("idempotent=%v: faults applied %v, want one lost Produce response", idempotent, ev)
		}
		raw, err := kgo.NewClient(kgo.SeedBrokers(cluster.Bootstrap()))
		if err != nil {
			t.Fatal(err)
		}
		log, err := realkafka.FetchLog(ctx, raw, name, 0)
		raw.Close()
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		records := 0
		for _, b := range log.Batches {
			records += b.Records
		}
		want := 1
		if !idempotent {
			want = 2
		}
		if records != want || log.HighWatermark != int64(want) {
			t.Errorf("idempotent=%v: log holds %d records (high watermark %d), want %d; batches %+v", idempotent, records, log.HighWatermark, want, log.Batches)
		}
		if idempotent && (log.Batches[0].ProducerID < 0 || log.Batches[0].BaseSequence != 0) {
			t.Errorf("idempotent batch header %+v, want a producer id and base sequence 0", log.Batches[0])
		}
	}
}

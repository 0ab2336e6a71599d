package brokertest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/eoslab/eoslab/engine/realkafka/inspect"
)

// manyPartitions is a topic of 1,000 partitions, each with an idempotent
// producer's state, made once for the benchmarks.
var manyPartitions = sync.OnceValues(func() (string, error) {
	cl, err := kgo.NewClient(kgo.SeedBrokers(cluster.Bootstrap()))
	if err != nil {
		return "", err
	}
	defer cl.Close()
	var b [4]byte
	rand.Read(b[:])
	name := "eoslab-bench-" + hex.EncodeToString(b[:])
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if r, err := kadm.NewClient(cl).CreateTopic(ctx, 1000, 1, nil, name); err != nil || r.Err != nil {
		if err == nil {
			err = r.Err
		}
		return "", err
	}
	pr, err := kgo.NewClient(kgo.SeedBrokers(cluster.Bootstrap()), kgo.DefaultProduceTopic(name),
		kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.ProducerLinger(0))
	if err != nil {
		return "", err
	}
	defer pr.Close()
	var recs []*kgo.Record
	for p := int32(0); p < 1000; p++ {
		recs = append(recs, &kgo.Record{Partition: p, Value: []byte("v")})
	}
	return name, pr.ProduceSync(ctx, recs...).FirstErr()
})

func benchTopic(b *testing.B) string {
	name, err := manyPartitions()
	if err != nil {
		b.Fatal(err)
	}
	return name
}

// BenchmarkInspectRefresh1000 is one refresh of inspect over 1,000
// partitions that each have a producer's state: DescribeProducers,
// ListOffsets twice, Metadata, ListTransactions and the log of one
// partition, on a client that is already connected (the TUI's timer).
func BenchmarkInspectRefresh1000(b *testing.B) {
	name := benchTopic(b)
	cl, err := kgo.NewClient(kgo.SeedBrokers(cluster.Bootstrap()))
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close()
	ctx := context.Background()
	o := inspect.Options{Bootstrap: cluster.Bootstrap(), Topics: []string{name}, Log: inspect.TP{Topic: name}}
	check := func(s *inspect.Snapshot) {
		n := 0
		for _, p := range s.Partitions {
			n += len(p.Producers)
		}
		if len(s.Partitions) != 1000 || n < 1000 {
			b.Fatalf("%d partitions with %d producers, want 1000 and 1000", len(s.Partitions), n)
		}
	}
	s, err := inspect.Collect(ctx, cl, o)
	if err != nil {
		b.Fatal(err)
	}
	check(s)
	for b.Loop() {
		if _, err := inspect.Collect(ctx, cl, o); err != nil {
			b.Fatal(err)
		}
	}
	reportMillis(b)
}

// BenchmarkInspectFirstSnapshot is the first screen's snapshot: a new
// client (bootstrap, ApiVersions, Metadata) and one Collect over every
// topic, as `eoslab inspect` starts.
func BenchmarkInspectFirstSnapshot(b *testing.B) {
	benchTopic(b)
	ctx := context.Background()
	for b.Loop() {
		cl, err := kgo.NewClient(kgo.SeedBrokers(cluster.Bootstrap()))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := inspect.Collect(ctx, cl, inspect.Options{Bootstrap: cluster.Bootstrap()}); err != nil {
			b.Fatal(err)
		}
		cl.Close()
	}
	reportMillis(b)
}

// reportMillis reports ms/op in place of ns/op: the targets (1 s,
// 500 ms) are in milliseconds, and CI prints the figure.
func reportMillis(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed())/float64(b.N)/float64(time.Millisecond), "ms/op")
	b.ReportMetric(0, "ns/op") // 0 removes the built-in metric (testing.B.ReportMetric)
}

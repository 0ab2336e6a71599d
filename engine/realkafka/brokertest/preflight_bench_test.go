package brokertest

import (
	"context"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/eoslab/eoslab/engine/realkafka/preflight"
)

// BenchmarkPreflight is what inspect and live add before they start: a
// new client (its first connection included) and every read-only check
// live needs.
func BenchmarkPreflight(b *testing.B) {
	for b.Loop() {
		cl, err := kgo.NewClient(kgo.SeedBrokers(cluster.Bootstrap()))
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		r, err := preflight.Run(ctx, cl, preflight.Need{Prefix: "eoslab-verify-", Topics: []string{"__consumer_offsets"}})
		cancel()
		cl.Close()
		if err != nil || !r.OK() {
			b.Fatalf("%v\n%s", err, r.Text())
		}
	}
}

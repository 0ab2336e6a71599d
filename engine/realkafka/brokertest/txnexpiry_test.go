package brokertest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eoslab/eoslab/engine/realkafka"
	"github.com/eoslab/eoslab/engine/realkafka/verify"
)

// idExpiry commits once, idles a week (the id expires: Kafka's default
// transactional.id.expiration.ms is 7 days), and asks InitProducerId again
// from a new instance: the coordinator, having forgotten the id, gives a
// new producer id at epoch 0.
const idExpiry = `topic t
producer a transactional.id=tx-a
producer b transactional.id=tx-a
a initTransactions
run
a beginTransaction
a send t-0 v0
a commitTransaction
run
expect txn tx-a state CompleteCommit
expect txn tx-a pid 1000
advance 608400000
b initTransactions
run
expect producer b pid 1001
expect producer b epoch 0
expect txn tx-a pid 1001
`

// TestVerifyTxnIDExpiryNotPlayed: on the test's cluster (Kafka's default
// expiration, a static setting) the expiry is not played, and the rows
// after it say which setting and value stopped it.
func TestVerifyTxnIDExpiryNotPlayed(t *testing.T) {
	s, out := verifyScenario(t, "idexpiry.scn", idExpiry)
	if s.Count(verify.Agree) != 2 || s.Count(verify.NotPlayed) != 3 || s.ExitCode() != 0 {
		t.Errorf("want 2 agree, 3 not played:\n%s", out)
	}
	if !strings.Contains(out, "the cluster's transactional.id.expiration.ms is 604800000 (a static setting)") {
		t.Errorf("no row names the setting and its value:\n%s", out)
	}
}

// TestVerifyTxnIDExpiry: on a cluster started with
// transactional.id.expiration.ms=5000 the driver waits for the broker's
// expiry, so the new instance's pid and epoch are compared, and the rows
// say time was scaled. It starts a cluster of its own (the setting is
// static), so it runs with EOSLAB_KAFKA_EXPIRY=1, or where TestSecured
// runs (EOSLAB_KAFKA_SECURED=1: .ci/run sets it for one cluster).
func TestVerifyTxnIDExpiry(t *testing.T) {
	if os.Getenv("EOSLAB_KAFKA_EXPIRY") != "1" && os.Getenv("EOSLAB_KAFKA_SECURED") != "1" {
		t.Skip("EOSLAB_KAFKA_EXPIRY=1 runs it: it starts a cluster of its own with transactional.id.expiration.ms=5000")
	}
	opts := profile
	opts.Dir = t.TempDir()
	opts.Extra = []string{"transactional.id.expiration.ms=5000"}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	c, err := realkafka.Start(ctx, opts, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	file := filepath.Join(t.TempDir(), "idexpiry.scn")
	if err := os.WriteFile(file, []byte(idExpiry), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	s, err := verify.Run(ctx, verify.Options{Brokers: c.Bootstrap(), Files: []string{file}}, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if s.Count(verify.Agree) != 5 || len(s.Rows) != 5 || s.ExitCode() != 0 {
		t.Errorf("want 5 agree of 5:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "the cluster runs with transactional.id.expiration.ms=5000") {
		t.Errorf("no row says time was scaled:\n%s", out.String())
	}
}

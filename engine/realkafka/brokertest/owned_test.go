package brokertest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine/realkafka"
	"github.com/eoslab/eoslab/engine/realkafka/verify"
	"github.com/eoslab/eoslab/engine/realkafka/wire"
)

// TestOwnedCluster starts a cluster of three nodes, as `eoslab kafka up
// --brokers 3` does, and breaks it through the control socket verify
// --cluster-dir uses: a broker crashed and restarted, and a
// WriteTxnMarkers lost between the coordinator and a partition leader.
//
// It starts three more JVMs (about a minute on two cores), so it runs
// only with EOSLAB_KAFKA_OWNED=1 (.ci/run sets it once).
func TestOwnedCluster(t *testing.T) {
	if os.Getenv("EOSLAB_KAFKA_OWNED") != "1" {
		t.Skip("a cluster of three nodes: set EOSLAB_KAFKA_OWNED=1 to run it")
	}
	dir, err := os.MkdirTemp("", "eoslab-owned-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	opts := profile
	opts.Dir, opts.Brokers = dir, 3
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	c, err := realkafka.Start(ctx, opts, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	if err := c.ServeControl(); err != nil {
		t.Fatal(err)
	}
	ctl, err := realkafka.DialControl(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ctl.Close()
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(ctl.State.Bootstrap, ",")...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)

	t.Run("crash and restart", func(t *testing.T) { crashRestart(ctx, t, ctl, cl, adm) })
	t.Run("marker dropped between brokers", func(t *testing.T) { markerDropped(ctx, t, ctl, cl, adm) })
	t.Run("marker held between brokers", func(t *testing.T) { markerHeld(ctx, t, ctl, cl, adm) })
	t.Run("requests between brokers logged", func(t *testing.T) { markersLogged(ctx, t, ctl, cl, adm) })
	t.Run("followers held, then the leader crashes", func(t *testing.T) { followersHeld(ctx, t, c) })
}

// markersLogged: broker 3's proxy logs the coordinator's WriteTxnMarkers
// to it with the sender's client id (TransactionMarkerChannelManager's
// "broker-N-txn-marker-sender", N the coordinator) and the marker's
// producer id, which is what verify --cluster-dir counts for expect
// requests.
func markersLogged(ctx context.Context, t *testing.T, ctl *realkafka.Control, cl *kgo.Client, adm *kadm.Client) {
	if err := ctl.ClearFaults(); err != nil {
		t.Fatal(err)
	}
	topic := "owned-count"
	createPlaced(ctx, t, cl, adm, topic, 3, 1, 2)
	txid := awayFrom3(ctx, t, adm, "owned-count")
	coord := adm.FindTxnCoordinators(ctx, txid)[txid].NodeID
	_, base, err := ctl.Requests(3, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	commitOne(ctx, t, ctl, txid, topic)
	committed(ctx, t, cl, adm, topic, txid)
	ps, err := adm.DescribeProducers(ctx, kadm.TopicsSet{topic: {0: {}}})
	if err != nil {
		t.Fatal(err)
	}
	var pid int64 = -1
	ps.EachProducer(func(p kadm.DescribedProducer) { pid = p.ProducerID })
	sent, _, err := ctl.Requests(3, base)
	if err != nil {
		t.Fatal(err)
	}
	var markers []wire.Sent
	for _, s := range sent {
		if s.Key == kmsg.WriteTxnMarkers {
			markers = append(markers, s)
		}
	}
	want := fmt.Sprintf("broker-%d-txn-marker-sender", coord)
	if len(markers) != 1 || markers[0].ClientID != want || len(markers[0].PIDs) != 1 || markers[0].PIDs[0] != pid {
		t.Fatalf("WriteTxnMarkers logged on the way to broker 3: %+v; want one from %s for producer %d", markers, want, pid)
	}
}

// followersHeld plays acks1-loss-leader-crash.scn: the followers' fetches
// are held at the leader's proxy while the simulation's followers have
// not fetched, so the acks=1 record acknowledged there is lost with the
// leader's crash, and the acks=all one, parked until its retry, is
// written once. Before, each of those lines was not played.
func followersHeld(ctx context.Context, t *testing.T, c *realkafka.Cluster) {
	var out strings.Builder
	s, err := verify.Run(ctx, verify.Options{Brokers: c.Bootstrap(), Owner: c,
		Files: []string{filepath.Join("..", "..", "testdata", "scenarios", "acks1-loss-leader-crash.scn")}}, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if s.Count(verify.Agree) != 11 || s.Count(verify.Differ) != 0 {
		t.Errorf("want 11 agree, none differing:\n%s", out.String())
	}
}

// createPlaced creates a one-partition topic with the given replicas
// (the first is the preferred leader) and waits for its leader.
func createPlaced(ctx context.Context, t *testing.T, cl *kgo.Client, adm *kadm.Client, topic string, replicas ...int32) {
	t.Helper()
	req := kmsg.NewPtrCreateTopicsRequest()
	req.TimeoutMillis = 30000
	rt := kmsg.NewCreateTopicsRequestTopic()
	rt.Topic, rt.NumPartitions, rt.ReplicationFactor = topic, -1, -1
	ra := kmsg.NewCreateTopicsRequestTopicReplicaAssignment()
	ra.Partition, ra.Replicas = 0, replicas
	rt.ReplicaAssignment = append(rt.ReplicaAssignment, ra)
	req.Topics = append(req.Topics, rt)
	resp, err := req.RequestWith(ctx, cl)
	if err != nil || resp.Topics[0].ErrorCode != 0 {
		t.Fatalf("create %s: %v %+v", topic, err, resp)
	}
	waitFor(t, fmt.Sprintf("%s led by %d", topic, replicas[0]), func() bool { return leaderOf(ctx, adm, topic) == replicas[0] })
}

func leaderOf(ctx context.Context, adm *kadm.Client, topic string) int32 {
	td, err := adm.ListTopics(ctx, topic)
	if err != nil || len(td[topic].Partitions) == 0 {
		return -2
	}
	return td[topic].Partitions[0].Leader
}

// waitFor polls cond (bounded at 60 s: a bound on a broker's progress,
// not a latency the test asserts).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	end := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(end) {
			t.Fatalf("%s: not within 60 s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func crashRestart(ctx context.Context, t *testing.T, ctl *realkafka.Control, cl *kgo.Client, adm *kadm.Client) {
	topic := "owned-crash"
	createPlaced(ctx, t, cl, adm, topic, 2, 3, 1)
	p, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(ctl.State.Bootstrap, ",")...), kgo.RequiredAcks(kgo.AllISRAcks()))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.ProduceSync(ctx, &kgo.Record{Topic: topic, Value: []byte("before")}).FirstErr(); err != nil {
		t.Fatal(err)
	}
	if err := ctl.Crash(2); err != nil {
		t.Fatal(err)
	}
	if n := ctl.Nodes()[1]; !n.Crashed {
		t.Fatalf("node 2 after Crash: %+v, want crashed", n)
	}
	// The controller fences the dead broker and moves the leadership to
	// the next replica in sync, as the simulation's failover does.
	waitFor(t, "the leadership leaves broker 2", func() bool { return leaderOf(ctx, adm, topic) == 3 })
	if err := p.ProduceSync(ctx, &kgo.Record{Topic: topic, Value: []byte("during")}).FirstErr(); err != nil {
		t.Fatal(err)
	}
	if err := ctl.Crash(2); err == nil {
		t.Fatal("a second Crash of a node that is down: want an error")
	}
	if err := ctl.Restart(ctx, 2); err != nil {
		t.Fatal(err)
	}
	// Restart returns once broker 2 is back in the ISR; the leadership
	// stays with broker 3 (auto.leader.rebalance.enable=false).
	td, err := adm.ListTopics(ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	part := td[topic].Partitions[0]
	if len(part.ISR) != 3 || part.Leader != 3 {
		t.Fatalf("after Restart: leader %d ISR %v, want leader 3 and all three in sync", part.Leader, part.ISR)
	}
	if n := ctl.Nodes()[1]; n.Crashed || n.PID == 0 {
		t.Fatalf("node 2 after Restart: %+v", n)
	}
	log, err := realkafka.FetchLog(ctx, cl, topic, 0)
	if err != nil {
		t.Fatal(err)
	}
	if log.HighWatermark != 2 {
		t.Fatalf("high watermark %d after the restart, want 2 (both acknowledged records kept)", log.HighWatermark)
	}
}

func markerDropped(ctx context.Context, t *testing.T, ctl *realkafka.Control, cl *kgo.Client, adm *kadm.Client) {
	topic := "owned-marker"
	createPlaced(ctx, t, cl, adm, topic, 3, 1, 2)
	txid := awayFrom3(ctx, t, adm, "owned-marker")
	if err := ctl.Fault(3, realkafka.FaultSpec{Key: int16(kmsg.WriteTxnMarkers), Dir: int(wire.Request), Action: int(wire.Drop), Times: -1}); err != nil {
		t.Fatal(err)
	}
	commitOne(ctx, t, ctl, txid, topic)
	drops := func() int {
		evs, err := ctl.FaultEvents(3)
		if err != nil {
			t.Fatal(err)
		}
		return len(evs)
	}
	// The coordinator sends again after each loss
	// (TransactionMarkerRequestCompletionHandler re-queues a disconnected
	// send): two losses show it retrying.
	waitFor(t, "two WriteTxnMarkers lost on the way to broker 3", func() bool { return drops() >= 2 })
	inPrepare(ctx, t, cl, adm, topic, txid, "the markers lost")
	if err := ctl.ClearFaults(); err != nil {
		t.Fatal(err)
	}
	// The next resend gets through: the marker lands at offset 1.
	committed(ctx, t, cl, adm, topic, txid)
}

// markerHeld: a Hold rule on broker 3's proxy keeps the coordinator's
// WriteTxnMarkers there, so the partition's LSO stays at the open
// transaction and the coordinator in PrepareCommit; released, the same
// frame goes on and the coordinator takes its answer (CompleteCommit
// with the rule still installed: a resend after a disconnect or a
// mismatched correlation id would be held again).
func markerHeld(ctx context.Context, t *testing.T, ctl *realkafka.Control, cl *kgo.Client, adm *kadm.Client) {
	if err := ctl.ClearFaults(); err != nil {
		t.Fatal(err)
	}
	topic := "owned-hold"
	createPlaced(ctx, t, cl, adm, topic, 3, 1, 2)
	txid := awayFrom3(ctx, t, adm, "owned-hold")
	defer ctl.ClearFaults()
	if err := ctl.Fault(3, realkafka.FaultSpec{Key: int16(kmsg.WriteTxnMarkers), Dir: int(wire.Request), Action: int(wire.Hold), Times: -1}); err != nil {
		t.Fatal(err)
	}
	commitOne(ctx, t, ctl, txid, topic)
	var held []wire.Held
	waitFor(t, "a WriteTxnMarkers held on the way to broker 3", func() bool {
		hs, err := ctl.Held(3)
		if err != nil {
			t.Fatal(err)
		}
		held = hs
		return len(hs) > 0
	})
	if len(held) != 1 || held[0].Key != kmsg.WriteTxnMarkers || held[0].Dir != wire.Request {
		t.Fatalf("held %+v, want one WriteTxnMarkers request", held)
	}
	inPrepare(ctx, t, cl, adm, topic, txid, "the marker held")
	if ok, err := ctl.Release(3, wire.Request, held[0].CorrID, false); err != nil || !ok {
		t.Fatalf("release of correlation id %d: %v %v", held[0].CorrID, ok, err)
	}
	// With the Hold rule still installed.
	committed(ctx, t, cl, adm, topic, txid)
	if hs, err := ctl.Held(3); err != nil || len(hs) != 0 {
		t.Fatalf("after the release: held %+v (%v), want nothing (no resend)", hs, err)
	}
	if err := ctl.ReleaseHolds(3); err != nil {
		t.Fatal(err)
	}
}

// awayFrom3 is a transactional id (base-N) whose coordinator is not
// broker 3, so the markers to a partition led by broker 3 travel between
// two brokers.
func awayFrom3(ctx context.Context, t *testing.T, adm *kadm.Client, base string) string {
	for i := 0; i < 100; i++ {
		id := fmt.Sprintf("%s-%d", base, i)
		r := adm.FindTxnCoordinators(ctx, id)
		if rc, ok := r[id]; ok && rc.Err == nil && rc.NodeID != 3 {
			return id
		}
	}
	t.Fatal("no transactional id with a coordinator other than broker 3")
	return ""
}

// commitOne commits a transaction of one record to topic as txid; the
// coordinator answers EndTxn once PrepareCommit is durable, before the
// markers are written.
func commitOne(ctx context.Context, t *testing.T, ctl *realkafka.Control, txid, topic string) {
	p, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(ctl.State.Bootstrap, ",")...), kgo.TransactionalID(txid), kgo.DefaultProduceTopic(topic))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	if err := p.ProduceSync(ctx, &kgo.Record{Value: []byte("v0")}).FirstErr(); err != nil {
		t.Fatal(err)
	}
	if err := p.EndTransaction(ctx, kgo.TryCommit); err != nil {
		t.Fatal(err)
	}
}

// inPrepare checks the point between PrepareCommit and the markers: the
// partition's LSO at the open transaction (0) below the high watermark
// (1), the coordinator in PrepareCommit.
func inPrepare(ctx context.Context, t *testing.T, cl *kgo.Client, adm *kadm.Client, topic, txid, with string) {
	t.Helper()
	log, err := realkafka.FetchLog(ctx, cl, topic, 0)
	if err != nil {
		t.Fatal(err)
	}
	if log.LastStable != 0 || log.HighWatermark != 1 {
		t.Fatalf("with %s: LSO %d, high watermark %d; want the LSO held at the open transaction (0) below the high watermark (1)", with, log.LastStable, log.HighWatermark)
	}
	ts, err := adm.DescribeTransactions(ctx, txid)
	if err != nil {
		t.Fatal(err)
	}
	if st := ts[txid].State; st != "PrepareCommit" {
		t.Fatalf("transaction state %s with %s, want PrepareCommit", st, with)
	}
}

// committed waits for the marker at offset 1 (the LSO at 2) and for
// CompleteCommit.
func committed(ctx context.Context, t *testing.T, cl *kgo.Client, adm *kadm.Client, topic, txid string) {
	t.Helper()
	waitFor(t, "the LSO passes the marker", func() bool {
		l, err := realkafka.FetchLog(ctx, cl, topic, 0)
		return err == nil && l.LastStable == 2
	})
	waitFor(t, "CompleteCommit", func() bool {
		ts, err := adm.DescribeTransactions(ctx, txid)
		return err == nil && ts[txid].State == "CompleteCommit"
	})
}

package brokertest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/eoslab/eoslab/assets"
	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/realkafka"
	"github.com/eoslab/eoslab/engine/realkafka/conn"
	"github.com/eoslab/eoslab/engine/realkafka/live"
	"github.com/eoslab/eoslab/engine/realkafka/verify"
	"github.com/eoslab/eoslab/engine/script"
)

// liveOptions are live's options for the cluster at boot.
func liveOptions(t *testing.T, boot string) live.Options {
	t.Helper()
	c, err := conn.Flags{Brokers: boot}.Build(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(boot))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tv, err := realkafka.TransactionVersion(ctx, kadm.NewClient(cl))
	if err != nil {
		t.Fatal(err)
	}
	return live.Options{Conn: c, TV: tv, Known: assets.KafkaKnownDifferences}
}

// TestLiveSessionAgrees plays lessons step by step on the broker and on
// the simulation: after each step every partition's log (batch headers,
// producer ids mapped to the simulation's, epochs, transactional and
// control bits, markers), its high watermark and its LSO are the
// simulation's, wherever the simulation is quiet; no fact differs unless
// known; a checkpoint's reveal carries a verdict.
func TestLiveSessionAgrees(t *testing.T) {
	o := liveOptions(t, cluster.Bootstrap())
	for _, name := range []string{"lost-ack", "zombie", "abort"} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			s, err := live.Open(ctx, o, name)
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				if err := s.Close(); err != nil {
					t.Error(err)
				}
			}()
			l := s.Lesson()
			r := script.NewRunner()
			simTV := 1
			if o.TV >= 2 {
				simTV = 2
			}
			r.PinTransactionVersion(simTV)
			for _, c := range l.Setup {
				r.Exec(c)
			}
			compared, reveals := 0, 0
			for i, st := range l.Steps {
				snap, err := s.Step(i)
				if err != nil {
					t.Fatalf("step %d: %v", i+1, err)
				}
				for _, c := range st.Commands {
					r.Exec(c)
				}
				for _, f := range snap.Facts {
					if f.Verdict == verify.Differ && !f.Known {
						t.Errorf("step %d: %s: %s", i+1, f.Expect, f.Words)
					}
				}
				if snap.Reveal != nil {
					reveals++
				}
				if (snap.Reveal != nil) != (i > 0 && l.Steps[i-1].Ask != nil) {
					t.Errorf("step %d: reveal %v, the step before asks: %v", i+1, snap.Reveal, l.Steps[i-1].Ask != nil)
				}
				if !snap.Played || r.World.Busy() {
					continue
				}
				compared++
				for _, msg := range compareLogs(r.World, snap) {
					t.Errorf("step %d (%s): %s", i+1, st.Title, msg)
				}
			}
			if compared == 0 || reveals == 0 {
				t.Errorf("%d steps compared, %d reveals", compared, reveals)
			}
			again, err := s.Step(0)
			if err != nil || again.Step != 0 {
				t.Errorf("step 1 again: %v %v", again, err)
			}
		})
	}
}

// compareLogs is what differs between the simulation's partitions and the
// snapshot's.
func compareLogs(w *engine.World, snap *live.Snapshot) []string {
	var out []string
	byTP := map[engine.TP]live.Partition{}
	for _, p := range snap.Partitions {
		byTP[engine.TP{Topic: p.Topic, Partition: p.Partition}] = p
	}
	for tp, pl := range w.PartitionLogs() {
		if pl.IsInternal() {
			continue
		}
		kp, ok := byTP[tp]
		if !ok {
			out = append(out, fmt.Sprintf("%s: not on the cluster", tp))
			continue
		}
		if kp.HW != pl.HW || kp.LSO != pl.LastStableOffset() {
			out = append(out, fmt.Sprintf("%s: HW %d LSO %d, simulation HW %d LSO %d", tp, kp.HW, kp.LSO, pl.HW, pl.LastStableOffset()))
		}
		if len(kp.Log.Batches) != len(pl.Batches) || len(kp.Batches) != len(pl.Batches) {
			out = append(out, fmt.Sprintf("%s: %d batches, simulation %d", tp, len(kp.Log.Batches), len(pl.Batches)))
			continue
		}
		for j, kb := range kp.Log.Batches {
			sb := pl.Batches[j]
			if j < len(kp.Batches) && !sb.Control {
				fate := map[engine.BatchStatus]live.Fate{engine.StatusPlain: live.FatePlain, engine.StatusOpen: live.FateOpen,
					engine.StatusCommitted: live.FateCommitted, engine.StatusAborted: live.FateAborted}[pl.Status(&sb)]
				if kp.Batches[j].Fate != fate {
					out = append(out, fmt.Sprintf("%s batch %d: fate %d on Kafka, %d in the simulation", tp, j, kp.Batches[j].Fate, fate))
				}
			}
			pid := kb.ProducerID
			if pid >= 0 {
				pid, _ = snap.SimPID(pid)
			}
			marker := ""
			if sb.Control {
				marker = strings.ToUpper(sb.Marker.String())
			}
			got := fmt.Sprintf("offset %d pid %d epoch %d records %d txn %v control %v %s", kb.BaseOffset, pid, kb.ProducerEpoch, kb.Records, kb.Transactional, kb.Control, kb.Marker)
			want := fmt.Sprintf("offset %d pid %d epoch %d records %d txn %v control %v %s", sb.BaseOffset, sb.ProducerID, sb.ProducerEpoch, sb.Count, sb.Transactional, sb.Control, marker)
			if sb.ProducerID < 0 {
				got = strings.Replace(got, fmt.Sprintf("epoch %d", kb.ProducerEpoch), "epoch -", 1)
				want = strings.Replace(want, fmt.Sprintf("epoch %d", sb.ProducerEpoch), "epoch -", 1)
			}
			if got != want {
				out = append(out, fmt.Sprintf("%s batch %d: Kafka %s; simulation %s", tp, j, got, want))
			}
		}
	}
	return out
}

// TestLiveSessionClusterStops: a cluster stopped mid-session is a message
// from Step, not a crash, and Close returns.
func TestLiveSessionClusterStops(t *testing.T) {
	c, stop := ownCluster(t, profile)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	s, err := live.Open(ctx, liveOptions(t, c.Bootstrap()), "lost-ack")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Step(0); err != nil {
		t.Fatal(err)
	}
	stop()
	_, err = s.Step(1)
	if err == nil || !strings.Contains(err.Error(), "did not answer") {
		t.Fatalf("step 2 on a stopped cluster: %v", err)
	}
	if _, again := s.Step(2); again == nil || again.Error() != err.Error() {
		t.Errorf("step 3 after: %v", again)
	}
	s.Close()
}

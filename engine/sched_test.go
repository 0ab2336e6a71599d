package engine

import (
	"math/rand"
	"sort"
	"testing"
)

// TestCancelledTimeoutsAreInvisible drives the queue with random timers,
// cancellations (by the index, and by the scan for keys queued twice),
// removals by owner (a crash), pops and clones, and checks every pop and
// Busy against a plain list that removes at once: the order items come out
// in must not show that cancelled timeouts linger in the heap.
func TestCancelledTimeoutsAreInvisible(t *testing.T) {
	t.Parallel()
	for seed := int64(1); seed <= 40; seed++ {
		r := rand.New(rand.NewSource(seed))
		w := New(DefaultConfig())
		// Two clients and a broker, whose timeouts the index finds, and
		// a name it does not know, whose timeouts only the scan finds.
		applyAll(t, w, DeclareProducer{Name: "a", Config: DefaultProducerConfig()}, DeclareConsumer{Name: "b"})
		var ref []item // the reference: every live item, unordered
		owners := []string{"a", "b", "broker-1", "c"}
		var corr int64
		for op := 0; op < 3000; op++ {
			switch k := r.Intn(100); {
			case k < 40:
				corr++
				id := corr
				if r.Intn(20) == 0 && corr > 1 {
					id = corr - 1 // a key queued twice
				}
				kind := TimerRequestTimeout
				switch r.Intn(6) {
				case 0:
					kind = TimerRetryBackoff
				case 1, 2:
					kind = TimerAbortCheck // periodic: Busy ignores it
				}
				tm := Timer{Kind: kind, Owner: owners[r.Intn(len(owners))], ID: id}
				after := int64(r.Intn(3000))
				w.setTimer(after, tm)
				ref = append(ref, item{At: w.now + after, Seq: w.seq, Kind: itemTimer, Timer: tm})
			case k < 75 && corr > 0:
				tm := Timer{Kind: TimerRequestTimeout, Owner: owners[r.Intn(len(owners))], ID: 1 + r.Int63n(corr)}
				w.cancelTimer(tm.Kind, tm.Owner, tm.ID)
				kept := ref[:0]
				for _, it := range ref {
					if it.Timer != tm {
						kept = append(kept, it)
					}
				}
				ref = kept
			case k < 77:
				o := owners[r.Intn(len(owners))]
				w.dropTimersOf(o)
				kept := ref[:0]
				for _, it := range ref {
					if it.Timer.Owner != o {
						kept = append(kept, it)
					}
				}
				ref = kept
			case k < 80:
				w = w.Clone()
			default:
				w.dropCancelled()
				sort.Slice(ref, func(i, j int) bool { return ref[i].less(&ref[j]) })
				if len(ref) == 0 {
					if w.queue.len() != 0 {
						t.Fatalf("seed %d op %d: the queue holds %d items, want none", seed, op, w.queue.len())
					}
					continue
				}
				busy := false
				for _, it := range ref {
					busy = busy || it.Timer.Kind != TimerAbortCheck && it.Timer.Kind != TimerExpiryCheck
				}
				if w.Busy() != busy {
					t.Fatalf("seed %d op %d: Busy %v, want %v", seed, op, w.Busy(), busy)
				}
				got := w.popItem()
				if got.Seq != ref[0].Seq || got.Timer != ref[0].Timer {
					t.Fatalf("seed %d op %d: popped %+v, want %+v", seed, op, got, ref[0])
				}
				w.now = got.At
				ref = ref[1:]
			}
		}
	}
}

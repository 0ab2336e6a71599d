package engine

import (
	"fmt"
	"strings"
	"testing"
)

// TestSwarmLiveness: after a swarm run, heal the cluster (every broker up,
// every client resumed), let time pass, and no live producer may be left
// with transactional requests queued and none in flight, or half-way
// through ending a transaction. The invariants say nothing wrong was
// written; this says the producer's request queue (TransactionManager's
// pendingRequests) always drains.
func TestSwarmLiveness(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version, share int) {
		swarmLiveness(t, version, share)
	})
}

func swarmLiveness(t *testing.T, version, share int) {
	seeds := int64(swarmScale(200))
	if testing.Short() || raceEnabled {
		seeds = min(seeds, 40)
	}
	seeds = max(seeds/int64(share), 1)
	for seed := int64(1); seed <= seeds; seed++ {
		w, log := runSwarm(safeSetup, seed, 300, version)
		var heal []Action
		for _, b := range w.brokers {
			if !b.Alive {
				heal = append(heal, Restart{Target: Target{Broker: b.ID}})
			}
		}
		for _, name := range append(append(append([]string{}, safeSetup.producers...), safeSetup.consumers...), safeSetup.procs...) {
			heal = append(heal, Resume{Client: name})
		}
		for i := 0; i < 6; i++ {
			heal = append(heal, Advance{Ms: 70000}, Run{Max: 5000})
		}
		for _, a := range heal {
			w.Apply(a)
			log = append(log, a.String())
		}
		all := append([]*Producer(nil), w.producers...)
		for _, pr := range w.processors {
			all = append(all, pr.Producer)
		}
		for _, p := range all {
			if p.Crashed || p.Closed || p.State == FatalError {
				continue
			}
			stuck := ""
			switch {
			case len(p.Pending) > 0 && p.TxnCorr == 0:
				stuck = fmt.Sprintf("%d requests queued (head %v) and none in flight", len(p.Pending), p.Pending[0].Kind)
			case p.State == CommittingTransaction || p.State == AbortingTransaction || p.State == Initializing:
				stuck = "still " + p.State.String()
			}
			if stuck != "" {
				t.Fatalf("seed %d: %s is stuck: %s\nreplay (scenario):\n%s", seed, p.Name, stuck, strings.Join(log, "\n"))
			}
		}
	}
}

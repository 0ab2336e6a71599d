package engine

import (
	"flag"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// The swarm: seeded random client calls and faults, invariants checked after
// every step. With every safeguard on, no run may report a violation; with
// one safeguard off, the swarm must find the matching violation. A failure
// prints the seed and the action list, which replays as a scenario file.
// Kafka's own TV1 hazards (KAFKA HAZARD events) are not violations.
//
// go test runs seeds 1..1000. The long run (about 3 CPU-minutes):
//
//	go test ./engine -run 'TestSwarmSafeguardsOn$' -swarm.seeds 20000 -timeout 60m
//
// and one seed alone: -swarm.first 5481 -swarm.seeds 1.

var (
	swarmSeeds   = flag.Int("swarm.seeds", 1000, "number of swarm seeds")
	swarmFirst   = flag.Int("swarm.first", 1, "first swarm seed (with -swarm.seeds N: seeds first..first+N-1)")
	swarmActions = flag.Int("swarm.actions", 500, "random actions per seed")
)

type swarmSetup struct {
	name      string
	setup     []string
	want      string // the violation this safeguard-off setup must produce ("" = none allowed)
	producers []string
	txnal     []string
	consumers []string
	procs     []string
}

var safeSetup = swarmSetup{
	name: "safeguards on",
	setup: []string{
		"topic t partitions=2 rf=2",
		"topic u partitions=1 rf=1",
		"producer T1 transactional.id=tx-1 transaction.timeout.ms=20000",
		"producer T2 transactional.id=tx-1 transaction.timeout.ms=20000",
		"producer T3 transactional.id=tx-3",
		"producer I acks=all",
		"consumer RC isolation.level=read_committed",
		"processor P input=t output=u group.id=g transactional.id=proc-1",
	},
	producers: []string{"T1", "T2", "T3", "I"},
	txnal:     []string{"T1", "T2", "T3"},
	consumers: []string{"RC"},
	procs:     []string{"P"},
}

var unsafeSetups = []swarmSetup{
	{
		name:      "idempotence off",
		setup:     []string{"topic t partitions=1", "producer N enable.idempotence=false acks=all retries=5 request.timeout.ms=50"},
		want:      InvDuplicateRecord,
		producers: []string{"N"},
	},
	{
		name:      "read_uncommitted",
		setup:     []string{"topic t partitions=1", "producer T1 transactional.id=tx-1", "consumer RU isolation.level=read_uncommitted"},
		want:      InvUncommittedRead,
		producers: []string{"T1"},
		txnal:     []string{"T1"},
		consumers: []string{"RU"},
	},
	{
		name:      "offsets outside the transaction",
		setup:     []string{"topic t partitions=1", "topic u partitions=1", "producer S acks=all", "processor P input=t output=u group.id=g transactional.id=proc-1 offsets=before"},
		want:      InvOffsetsAtomic,
		producers: []string{"S"},
		procs:     []string{"P"},
	},
}

func mustAction(line string) Action {
	f := strings.Fields(line)
	a := Action{}
	switch {
	case isSetupVerb(f[0]) && isDeclVerb(f[0]):
		a.Verb, a.Actor, f = f[0], f[1], f[2:]
	case len(f) > 1 && isCallVerb(f[1]):
		a.Actor, a.Verb, f = f[0], f[1], f[2:]
	default:
		a.Verb, f = f[0], f[1:]
	}
	for _, w := range f {
		if i := strings.IndexByte(w, '='); i > 0 && !strings.HasPrefix(w, "t-") && !strings.HasPrefix(w, "u-") {
			a.Opts = append(a.Opts, KV{Key: w[:i], Value: w[i+1:]})
		} else {
			a.Args = append(a.Args, w)
		}
	}
	return a
}

func isCallVerb(v string) bool {
	switch v {
	case "initTransactions", "beginTransaction", "send", "sendOffsetsToTransaction", "commitTransaction", "abortTransaction",
		"flush", "close", "poll", "commitSync", "process":
		return true
	}
	return false
}

// randomAction picks the next action from the current state, so most calls
// are legal and the run goes somewhere.
func randomAction(w *World, r *rand.Rand, s swarmSetup, n int) string {
	pick := func(xs []string) string { return xs[r.Intn(len(xs))] }
	msgs := w.InFlight()
	switch k := r.Intn(100); {
	case k < 30:
		return pick([]string{"step", "step", "step 3", "run max=40"})
	case k < 55 && len(s.producers) > 0:
		p := pick(s.producers)
		pr := w.Producer(p)
		isTxn := pr.Config.TransactionalID != ""
		if !isTxn {
			tp := fmt.Sprintf("t-%d", r.Intn(2)%int(mustTopic(w, "t").Partitions))
			return fmt.Sprintf("%s send %s v%d", p, tp, n)
		}
		switch pr.State {
		case Uninitialized:
			return p + " initTransactions"
		case Ready:
			return p + " beginTransaction"
		case InTransaction:
			switch r.Intn(6) {
			case 0:
				return p + " commitTransaction"
			case 1:
				return p + " abortTransaction"
			default:
				t := pick([]string{"t", "u"})
				if _, ok := w.Topic(t); !ok {
					t = "t"
				}
				return fmt.Sprintf("%s send %s-%d v%d", p, t, r.Intn(int(mustTopic(w, t).Partitions)), n)
			}
		case AbortableError:
			return p + " abortTransaction"
		}
		return "step"
	case k < 62 && len(s.consumers) > 0:
		return pick(s.consumers) + " poll"
	case k < 70 && len(s.procs) > 0:
		return pick(s.procs) + " process"
	case k < 78 && len(msgs) > 0:
		m := msgs[r.Intn(len(msgs))]
		switch r.Intn(4) {
		case 0:
			return "drop " + m.Name()
		case 1:
			return "duplicate " + m.Name()
		case 2:
			return fmt.Sprintf("delay %s %d", m.Name(), 1+r.Intn(40000))
		default:
			if len(msgs) > 1 {
				o := msgs[r.Intn(len(msgs))]
				if o.ID != m.ID {
					return "reorder " + m.Name() + " " + o.Name()
				}
			}
			return "deliver " + m.Name()
		}
	case k < 82:
		return fmt.Sprintf("advance %d", r.Intn(25000))
	case k < 87:
		b := fmt.Sprintf("broker-%d", 1+r.Intn(len(w.Brokers)))
		if w.brokerAlive(1+r.Intn(len(w.Brokers))) && r.Intn(2) == 0 {
			return "crash " + b
		}
		return "restart " + b
	case k < 93:
		clients := append(append(append([]string{}, s.producers...), s.consumers...), s.procs...)
		c := pick(clients)
		return pick([]string{"pause ", "resume ", "resume ", "crash ", "restart ", "restart "}) + c
	}
	return "step"
}

func mustTopic(w *World, name string) Topic {
	t, _ := w.Topic(name)
	if t.Partitions == 0 {
		t.Partitions = 1
	}
	return t
}

func runSwarm(s swarmSetup, seed int64, actions int) (*World, []string) {
	w := New(DefaultConfig())
	var log []string
	for _, line := range s.setup {
		log = append(log, line)
		if _, err := w.Apply(mustAction(line)); err != nil {
			panic(line + ": " + err.Error())
		}
	}
	r := rand.New(rand.NewSource(seed))
	for i := 0; i < actions; i++ {
		line := randomAction(w, r, s, i)
		log = append(log, line)
		w.Apply(mustAction(line)) // a refused action (e.g. restart of a live broker) is part of the run
		if len(w.Violations) > 0 {
			break
		}
	}
	return w, log
}

func TestSwarmSafeguardsOn(t *testing.T) {
	seeds := *swarmSeeds
	if raceEnabled && seeds > 100 {
		seeds = 100
	}
	first := int64(*swarmFirst)
	for seed := first; seed < first+int64(seeds); seed++ {
		w, log := runSwarm(safeSetup, seed, *swarmActions)
		if len(w.Violations) > 0 {
			v := w.Violations[0]
			t.Fatalf("seed %d: invariant %s violated at step %d: %s\nreplay (scenario):\n%s", seed, v.Name, v.Step, v.Text, strings.Join(log, "\n"))
		}
	}
}

func TestSwarmSafeguardsOff(t *testing.T) {
	for _, s := range unsafeSetups {
		found := false
		for seed := int64(1); seed <= 300 && !found; seed++ {
			w, _ := runSwarm(s, seed, *swarmActions)
			for _, v := range w.Violations {
				if v.Name == s.want {
					found = true
					t.Logf("%s: seed %d finds %s: %s", s.name, seed, v.Name, v.Text)
					break
				} else {
					t.Fatalf("%s: seed %d found %s, not %s: %s", s.name, seed, v.Name, s.want, v.Text)
				}
			}
		}
		if !found {
			t.Errorf("%s: 300 seeds did not find %s", s.name, s.want)
		}
	}
}

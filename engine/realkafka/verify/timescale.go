package verify

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// Time on a real broker. The simulation's clock moves only on an advance
// line; a real broker's timers run on the wall clock. verify waits real
// time for an advance up to maxRealWait. A longer advance is played by
// what the simulation did in it:
//
//   - Nothing that a broker's timer decides (no timer fired, or only a
//     client's request.timeout.ms after a lost message: the fault wrapper
//     closes the connection on a loss, so franz-go retried at once): the
//     broker run does not wait.
//   - A transaction timeout (TransactionCoordinator.abortTimedOutTransactions):
//     the file's transactional producers run with their transaction.timeout.ms
//     divided by one scale, chosen so the shortest timeout that fires is
//     minScaledTimeout of real time, and the advance waits until the broker
//     has aborted each transaction the simulation aborted. The cluster's
//     check interval (transaction.abort.timed.out.transaction.cleanup.interval.ms,
//     read with DescribeConfigs) bounds that wait; a cluster that checks
//     less often than maxAbortInterval is not played there.
//   - A producer state expiry (producer.id.expiration.ms, a dynamic
//     setting) is played with a short expiration for the advance
//     (expiry.go); a transactional id expiry (transactional.id.expiration.ms,
//     static) is played on a cluster started with a short one
//     (txnexpiry.go), after the transaction timeouts of the same advance.
//
// Every row after a scaled advance says so.

// maxRealWait is the longest advance verify waits out in real time.
const maxRealWait = 10 * time.Second

// minScaledTimeout is the real transaction timeout of the shortest one
// that fires in a file: long enough that the lines between a
// transaction's start and its timing-out advance (a poll that finds
// nothing waits 5 s) run before the broker's own timer fires. At 8 s a
// loaded machine (CI's lanes side by side) let the broker abort lesson
// 12's transaction during the poll that was to find it open.
const minScaledTimeout = 15 * time.Second

// maxAbortInterval is the longest timed-out transaction check interval a
// scaled timeout is played with (eoslab kafka up sets 200 ms; Kafka's
// default is 10 s).
const maxAbortInterval = time.Second

const abortIntervalKey = "transaction.abort.timed.out.transaction.cleanup.interval.ms"

// timeScale is a file's plan for its transaction timeouts, made before
// playing by running the simulation over the whole file once.
type timeScale struct {
	// timesOut: transactional ids (the file's names) the simulation
	// aborts on a timeout somewhere in the file.
	timesOut []string
	// scale divides every transactional producer's transaction.timeout.ms
	// (1 when nothing times out).
	scale float64
	// note, once a scaled advance ran, is what every later row says.
	note string
	// interval is the cluster's timed-out transaction check interval,
	// read at the first timing-out advance.
	interval time.Duration
}

// noteScaled marks a row judged after a scaled advance.
func (d *driver) noteScaled(row *Row) {
	if d.scale.note != "" && (row.Verdict == Agree || row.Verdict == Differ) {
		row.Scaled = d.scale.note
	}
}

// planTimeScale runs the simulation over cmds and scales the file's
// transaction timeouts when one fires.
func planTimeScale(cmds []script.Command, simTV int) timeScale {
	ts := timeScale{scale: 1}
	r := script.NewRunner()
	r.PinTransactionVersion(simTV)
	shortest := int64(0)
	timeouts := map[string]int64{}
	for _, c := range cmds {
		if p, ok := c.Action.(engine.DeclareProducer); ok && p.Config.TransactionalID != "" {
			timeouts[p.Config.TransactionalID] = p.Config.TxnTimeoutMs
		}
		evs, _, err := r.Exec(c)
		if err != nil {
			break
		}
		for _, id := range timedOut(evs) {
			if !slices.Contains(ts.timesOut, id) {
				ts.timesOut = append(ts.timesOut, id)
				if t := timeouts[id]; t > 0 && (shortest == 0 || t < shortest) {
					shortest = t
				}
			}
		}
	}
	if shortest > 0 {
		// A timeout already shorter than minScaledTimeout plays as it
		// is: stretched, it would no longer be the file's.
		ts.scale = max(1, float64(shortest)/float64(minScaledTimeout.Milliseconds()))
	}
	return ts
}

// timedOut lists the transactional ids the events abort on a timeout.
func timedOut(evs []engine.Event) []string { return txnIDsBy(evs, engine.RuleTxnTimeout) }

// txnIDsBy lists the transactional ids of the events a rule of reason
// why decided, in order, each once.
func txnIDsBy(evs []engine.Event, why engine.Reason) []string {
	var ids []string
	for _, e := range evs {
		if e.Rule.Reason == why && e.TxnID != "" && !slices.Contains(ids, e.TxnID) {
			ids = append(ids, e.TxnID)
		}
	}
	return ids
}

// requestTimeout is whether a client's request.timeout.ms fired in evs.
func requestTimeout(evs []engine.Event) bool {
	for _, e := range evs {
		if e.Rule.Reason == engine.RuleRequestTimeout {
			return true
		}
	}
	return false
}

// scaledTimeout is the real transaction timeout of a producer of the
// file, and whether it differs from the file's.
func (ts timeScale) scaledTimeout(ms int64) (time.Duration, bool) {
	if ts.scale <= 1 {
		return time.Duration(ms) * time.Millisecond, false
	}
	return time.Duration(float64(ms)/ts.scale) * time.Millisecond, true
}

// txnTimeoutOpt is the kgo option that plays decl's transaction timeout
// at the file's scale, nil when it is not scaled.
func (d *driver) txnTimeoutOpt(decl engine.DeclareProducer) kgo.Opt {
	if decl.Config.TransactionalID == "" {
		return nil
	}
	if t, ok := d.scale.scaledTimeout(decl.Config.TxnTimeoutMs); ok {
		return kgo.TransactionTimeout(t)
	}
	return nil
}

// advance plays an advance line; evs are the simulation's events of it.
func (d *driver) advance(c script.Command, a engine.Advance, evs []engine.Event) {
	if ids := expiredTxnIDs(evs); len(ids) > 0 {
		d.txnIDExpiry(c, a, evs, ids) // txnexpiry.go
		return
	}
	if len(expiredProducers(evs)) > 0 {
		d.producerExpiry(c, a, evs) // expiry.go
		return
	}
	ids := timedOut(evs)
	if len(ids) == 0 {
		if a.Ms <= maxRealWait.Milliseconds() {
			time.Sleep(time.Duration(a.Ms) * time.Millisecond)
			return
		}
		if d.scale.note == "" {
			d.scale.note = fmt.Sprintf("time scaled: the broker run did not wait out advance %d (line %d), in which no broker timer fired in the simulation", a.Ms, c.Line)
			if requestTimeout(evs) {
				d.scale.note += " (a client's request.timeout.ms did: the wrapper's loss reset the connection, so franz-go retried at once)"
			}
		}
		return
	}
	d.timeouts(c, a, ids)
}

// timeouts plays the transaction timeouts (ids) an advance fires: it
// queues a wait for the broker's aborts.
func (d *driver) timeouts(c script.Command, a engine.Advance, ids []string) {
	interval, err := d.abortInterval()
	if err != nil {
		d.stop(c, fmt.Sprintf("advance %d: reading %s: %v", a.Ms, abortIntervalKey, err), false)
		return
	}
	if interval > maxAbortInterval {
		d.stop(c, fmt.Sprintf("advance %d: the cluster checks for timed-out transactions every %v (%s); verify plays a transaction timeout only on a cluster that checks at least every %v (eoslab kafka up sets 200 ms)", a.Ms, interval, abortIntervalKey, maxAbortInterval), false)
		return
	}
	var txids []string
	for _, id := range ids {
		if !slices.Contains(d.scale.timesOut, id) {
			// The plan ran the same simulation; this cannot happen
			// unless the plan broke off early.
			d.stop(c, "advance: a transaction timeout the plan did not see", false)
			return
		}
		txids = append(txids, d.prefix+id)
	}
	var longest int64
	for _, dp := range d.decls {
		if dp.Config.TransactionalID != "" && slices.Contains(ids, dp.Config.TransactionalID) {
			longest = max(longest, dp.Config.TxnTimeoutMs)
		}
	}
	real, _ := d.scale.scaledTimeout(longest)
	bound := real + 2*interval + 10*time.Second
	if d.scale.scale > 1 {
		d.scale.note = fmt.Sprintf("time scaled 1:%s from line %d: transaction.timeout.ms played divided by it; the broker's abort of %s was awaited (the cluster checks every %v)",
			strconv.FormatFloat(d.scale.scale, 'g', 3, 64), c.Line, strings.Join(ids, ", "), interval)
	} else {
		d.scale.note = fmt.Sprintf("real time from line %d: transaction.timeout.ms played as the file sets it; the broker's abort of %s was awaited (the cluster checks every %v)",
			c.Line, strings.Join(ids, ", "), interval)
	}
	d.enqueue(&d.timer, func(ctx context.Context) { d.awaitAborts(ctx, txids, bound) })
}

// awaitAborts waits (at most bound) until no transaction of txids is
// Ongoing or in a Prepare state on the broker.
func (d *driver) awaitAborts(ctx context.Context, txids []string, bound time.Duration) {
	end := time.Now().Add(bound)
	for time.Now().Before(end) {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		ts, err := d.adm.DescribeTransactions(cctx, txids...)
		cancel()
		if err == nil && settled(ts, txids) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func settled(ts kadm.DescribedTransactions, txids []string) bool {
	for _, id := range txids {
		t, ok := ts[id]
		if !ok || t.Err != nil || t.State == "Ongoing" || strings.HasPrefix(t.State, "Prepare") {
			return false
		}
	}
	return true
}

// abortInterval reads the cluster's timed-out transaction check interval
// from every broker (the longest), once per file.
func (d *driver) abortInterval() (time.Duration, error) {
	if d.scale.interval > 0 {
		return d.scale.interval, nil
	}
	ctx, cancel := context.WithTimeout(d.ctx, 30*time.Second)
	defer cancel()
	v, err := brokerConfig(ctx, d.adm, abortIntervalKey)
	if err != nil {
		return 0, err
	}
	ms, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s=%q", abortIntervalKey, v)
	}
	d.scale.interval = time.Duration(ms) * time.Millisecond
	return d.scale.interval, nil
}

// brokerConfig is a broker setting's value, the same on every broker of
// the cluster (or an error saying they differ).
func brokerConfig(ctx context.Context, adm *kadm.Client, key string) (string, error) {
	md, err := adm.BrokerMetadata(ctx)
	if err != nil {
		return "", err
	}
	ids := md.Brokers.NodeIDs()
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	rcs, err := adm.DescribeBrokerConfigs(ctx, ids...)
	if err != nil {
		return "", err
	}
	val, seen := "", false
	for _, rc := range rcs {
		if rc.Err != nil {
			return "", rc.Err
		}
		for _, c := range rc.Configs {
			if c.Key != key {
				continue
			}
			if seen && c.MaybeValue() != val {
				return "", fmt.Errorf("brokers differ on %s (%s, %s)", key, val, c.MaybeValue())
			}
			val, seen = c.MaybeValue(), true
		}
	}
	if !seen {
		return "", fmt.Errorf("no broker reports %s", key)
	}
	return val, nil
}

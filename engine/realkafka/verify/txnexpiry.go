package verify

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// A transactional id expiry at scaled time. The coordinator forgets an id
// whose transaction is Empty, CompleteCommit or CompleteAbort and that has
// been idle for transactional.id.expiration.ms: it writes a tombstone to
// the transaction log (TransactionStateManager.removeExpiredTransactionalIds,
// run every transaction.remove.expired.transaction.cleanup.interval.ms;
// Kafka's defaults: 7 days, checked hourly). Both settings are static
// (TransactionStateManagerConfig; neither is in DynamicBrokerConfig), so
// verify cannot shorten them for one advance as it does producer state
// expiry: it plays an advance in which the simulation expires ids only on
// a cluster started with a short expiration (eoslab kafka up
// --broker-config transactional.id.expiration.ms=5000; kafka up checks
// every 500 ms), by waiting until the broker has forgotten each id the
// simulation forgot. On any other cluster the rest of the file is not
// played, and the reason names the setting and its value.

const (
	txnIDExpirationKey = "transactional.id.expiration.ms"
	txnIDCheckKey      = "transaction.remove.expired.transaction.cleanup.interval.ms"
	// maxTxnIDExpiry is the longest cluster expiration an id expiry is
	// played with: the driver waits it out in real time.
	maxTxnIDExpiry = 30 * time.Second
)

// expiredTxnIDs lists the transactional ids (the file's names) the
// simulation forgets in evs, in the order it does.
func expiredTxnIDs(evs []engine.Event) []string { return txnIDsBy(evs, engine.RuleTxnIDExpiry) }

// txnIDExpiryPlan is the cluster's expiration and check interval, and
// why an id expiry is not played there ("" when it is).
func (d *driver) txnIDExpiryPlan(ctx context.Context) (expiration, interval time.Duration, why string) {
	read := func(key string) (time.Duration, string) {
		v, err := brokerConfig(ctx, d.adm, key)
		if err != nil {
			return 0, fmt.Sprintf("reading %s: %v", key, err)
		}
		ms, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, fmt.Sprintf("the cluster's %s is %q", key, v)
		}
		return time.Duration(ms) * time.Millisecond, ""
	}
	expiration, why = read(txnIDExpirationKey)
	if why != "" {
		return 0, 0, why
	}
	if expiration > maxTxnIDExpiry {
		return 0, 0, fmt.Sprintf("the cluster's %s is %d (a static setting); verify plays a transactional id expiry only on a cluster started with at most %d, e.g. eoslab kafka up --broker-config %s=5000",
			txnIDExpirationKey, expiration.Milliseconds(), maxTxnIDExpiry.Milliseconds(), txnIDExpirationKey)
	}
	interval, why = read(txnIDCheckKey)
	if why != "" {
		return 0, 0, why
	}
	if interval > maxAbortInterval {
		return 0, 0, fmt.Sprintf("the cluster removes expired transactional ids every %d ms (%s, a static setting); verify plays an expiry only on a cluster that checks at least every %v (eoslab kafka up sets 500 ms)",
			interval.Milliseconds(), txnIDCheckKey, maxAbortInterval)
	}
	return expiration, interval, ""
}

// txnIDExpiry plays an advance in which the simulation forgets
// transactional ids: first the transaction timeouts the same advance
// fires (an aborted transaction is CompleteAbort before it can expire),
// then the ids' removal, then any producer state the advance expires.
func (d *driver) txnIDExpiry(c script.Command, a engine.Advance, evs []engine.Event, ids []string) {
	if len(d.queue) > 0 {
		d.stop(c, fmt.Sprintf("advance %d: a transactional id expiry with client calls still queued", a.Ms), false)
		return
	}
	ctx, cancel := context.WithTimeout(d.ctx, 3*time.Minute)
	defer cancel()
	expiration, interval, why := d.txnIDExpiryPlan(ctx)
	if why != "" {
		d.stop(c, fmt.Sprintf("advance %d: the simulation expires transactional id %s here; %s", a.Ms, strings.Join(ids, ", "), why), false)
		return
	}
	var notes []string
	if aborted := timedOut(evs); len(aborted) > 0 {
		timeouts := d.scale.note
		d.timeouts(c, a, aborted)
		if d.stopped != "" {
			return
		}
		// timeouts queued the wait for the aborts: run it now, before
		// the ids' expiry is awaited.
		d.flush(nil)
		if d.scale.note != timeouts {
			notes = append(notes, d.scale.note)
		}
	}
	var txids []string
	for _, id := range ids {
		txids = append(txids, d.prefix+id)
	}
	if err := d.awaitTxnIDsGone(ctx, txids, expiration+2*interval+10*time.Second); err != nil {
		d.stop(c, fmt.Sprintf("advance %d: %v", a.Ms, err), false)
		return
	}
	notes = append(notes, fmt.Sprintf("time scaled from line %d: the cluster runs with %s=%d (Kafka's default is 7 days); the broker's removal of %s was awaited (TransactionStateManager.removeExpiredTransactionalIds, every %d ms): DescribeTransactions answers TRANSACTIONAL_ID_NOT_FOUND",
		c.Line, txnIDExpirationKey, expiration.Milliseconds(), strings.Join(ids, ", "), interval.Milliseconds()))
	if gone := expiredProducers(evs); len(gone) > 0 {
		note, err := d.expireProducerState(ctx, c, a, gone)
		if err != nil {
			d.stop(c, err.Error(), false)
			return
		}
		notes = append(notes, note)
	}
	d.scale.note = strings.Join(notes, "; ")
}

// awaitTxnIDsGone waits (at most bound) until DescribeTransactions answers
// TRANSACTIONAL_ID_NOT_FOUND for every id of txids.
func (d *driver) awaitTxnIDsGone(ctx context.Context, txids []string, bound time.Duration) error {
	end := time.Now().Add(bound)
	for {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		ts, err := d.adm.DescribeTransactions(cctx, txids...)
		cancel()
		left := ""
		if err != nil && !errors.Is(err, kerr.TransactionalIDNotFound) {
			left = "(DescribeTransactions: " + err.Error() + ")"
		}
		for _, id := range txids {
			if t, ok := ts[id]; ok && !errors.Is(t.Err, kerr.TransactionalIDNotFound) {
				left = strings.TrimPrefix(id, d.prefix)
				if t.Err == nil {
					left += " (" + t.State + ")"
				}
			}
		}
		if left == "" {
			return nil
		}
		if time.Now().After(end) {
			return fmt.Errorf("the broker still knew transactional id %s after %v", left, bound)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

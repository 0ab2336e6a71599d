package verify

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// A producer state expiry at scaled time. A partition leader forgets an
// idle producer (no open transaction) once its last write is
// producer.id.expiration.ms old (ProducerStateManager.removeExpiredProducers,
// run every producer.id.expiration.check.interval.ms). The expiration is a
// dynamic cluster-wide setting (DynamicBrokerConfig's
// DynamicProducerStateManagerConfig), the check interval a static one that
// eoslab kafka up sets to 500 ms. So on a cluster kafka up made, an advance
// in which the simulation expires producer state is played by setting the
// expiration to expiryAsPlayed, waiting until the broker has forgotten
// each producer the simulation forgot, and putting the setting back.

const (
	pidExpirationKey = "producer.id.expiration.ms"
	pidCheckKey      = "producer.id.expiration.check.interval.ms"
	// expiryAsPlayed is the expiration while the advance plays: longer
	// than the lines between two writes of one producer take.
	expiryAsPlayed = time.Second
)

// expiredProducer is a producer state the simulation forgot.
type expiredProducer struct {
	tp  engine.TP
	pid int64
}

// expiredProducers lists the producer states evs expire.
func expiredProducers(evs []engine.Event) []expiredProducer {
	var out []expiredProducer
	for i := range evs {
		e := &evs[i]
		if e.Kind != engine.EvInfo || !strings.Contains(e.Text(), "expired after "+pidExpirationKey) {
			continue
		}
		if pid, _, ok := e.Producer(); ok {
			out = append(out, expiredProducer{tp: e.TP, pid: pid})
		}
	}
	return out
}

// producerExpiry plays an advance whose only broker timer is a producer
// state expiry, or stops the file saying why it cannot.
func (d *driver) producerExpiry(c script.Command, a engine.Advance, evs []engine.Event) {
	gone := expiredProducers(evs)
	if len(gone) == 0 || len(timedOut(evs)) > 0 {
		d.stop(c, fmt.Sprintf("advance %d: the simulation expires producer state here together with another timer; the driver plays an expiry alone", a.Ms), false)
		return
	}
	if len(d.queue) > 0 {
		d.stop(c, fmt.Sprintf("advance %d: a producer state expiry with client calls still queued", a.Ms), false)
		return
	}
	ctx, cancel := context.WithTimeout(d.ctx, time.Minute)
	defer cancel()
	note, err := d.expireProducerState(ctx, c, a, gone)
	if err != nil {
		d.stop(c, err.Error(), false)
		return
	}
	d.scale.note = note
}

// expireProducerState plays the expiry of gone's producer states and
// says how, for the rows after it.
func (d *driver) expireProducerState(ctx context.Context, c script.Command, a engine.Advance, gone []expiredProducer) (string, error) {
	if why := d.notOwnCluster(ctx, fmt.Sprintf("advance %d: playing a producer state expiry would change %s,", a.Ms, pidExpirationKey)); why != "" {
		return "", errors.New(why)
	}
	v, err := brokerConfig(ctx, d.adm, pidCheckKey)
	if err != nil {
		return "", fmt.Errorf("advance %d: reading %s: %v", a.Ms, pidCheckKey, err)
	}
	ms, err := strconv.ParseInt(v, 10, 64)
	if err != nil || time.Duration(ms)*time.Millisecond > maxAbortInterval {
		return "", fmt.Errorf("advance %d: the cluster checks for expired producers every %s ms (%s, a static setting); verify plays an expiry only on a cluster that checks at least every %v (eoslab kafka up sets 500 ms)", a.Ms, v, pidCheckKey, maxAbortInterval)
	}
	interval := time.Duration(ms) * time.Millisecond
	old, err := brokerConfig(ctx, d.adm, pidExpirationKey)
	if err != nil {
		return "", fmt.Errorf("advance %d: reading %s: %v", a.Ms, pidExpirationKey, err)
	}
	short := strconv.FormatInt(expiryAsPlayed.Milliseconds(), 10)
	if err := d.alter(ctx, kadm.AlterConfig{Op: kadm.SetConfig, Name: pidExpirationKey, Value: &short}); err != nil {
		return "", fmt.Errorf("advance %d: setting %s=%s: %v", a.Ms, pidExpirationKey, short, err)
	}
	err = awaitConfig(ctx, d.adm, pidExpirationKey, short)
	if err == nil {
		err = d.awaitForgotten(ctx, gone, expiryAsPlayed+2*interval+10*time.Second)
	}
	// Put the setting back before anything else plays, so the broker
	// forgets nothing the simulation keeps.
	if rerr := d.alter(ctx, kadm.AlterConfig{Op: kadm.DeleteConfig, Name: pidExpirationKey}); rerr != nil {
		err = fmt.Errorf("putting back %s=%s: %w", pidExpirationKey, old, rerr)
	} else if rerr := awaitConfig(ctx, d.adm, pidExpirationKey, old); rerr != nil {
		err = fmt.Errorf("putting back %s=%s: %w", pidExpirationKey, old, rerr)
	}
	if err != nil {
		return "", fmt.Errorf("advance %d: %v", a.Ms, err)
	}
	var names []string
	for _, g := range gone {
		names = append(names, fmt.Sprintf("pid %d on %s", g.pid, g.tp))
	}
	return fmt.Sprintf("time scaled from line %d: %s played as %d ms for the advance; the broker's expiry of %s was awaited (the cluster checks every %v), then the setting put back",
		c.Line, pidExpirationKey, expiryAsPlayed.Milliseconds(), strings.Join(names, ", "), interval), nil
}

// awaitForgotten waits (at most bound) until no partition of gone lists
// its producer in DescribeProducers.
func (d *driver) awaitForgotten(ctx context.Context, gone []expiredProducer, bound time.Duration) error {
	end := time.Now().Add(bound)
	for {
		left := ""
		for _, g := range gone {
			pid, _ := d.brokerPID(g.pid)
			ps, err := d.adm.DescribeProducers(ctx, map[string]map[int32]struct{}{d.name(g.tp.Topic): {g.tp.Partition: {}}})
			if err != nil {
				return fmt.Errorf("DescribeProducers: %w", err)
			}
			for _, p := range ps.SortedProducers() {
				if p.ProducerID == pid {
					left = fmt.Sprintf("pid %d on %s", g.pid, g.tp)
				}
			}
		}
		if left == "" {
			return nil
		}
		if time.Now().After(end) {
			return fmt.Errorf("the broker still had the state of %s after %v with %s=%d", left, bound, pidExpirationKey, expiryAsPlayed.Milliseconds())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

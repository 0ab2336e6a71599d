package verify

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/realkafka"
	"github.com/eoslab/eoslab/engine/script"
)

// Cluster settings a file's config line sets. Kafka lets a few broker
// settings change at run time, cluster-wide
// (DynamicBrokerConfig.DynamicProducerStateManagerConfig:
// producer.id.expiration.ms and transaction.partition.verification.enable);
// verify changes them only on a cluster `eoslab kafka up` made (its cluster
// id carries kafka up's mark) and puts them back after the file. A timer
// setting (transactional.id.expiration.ms, producer.id.expiration.ms)
// decides only when its timer fires, and an advance in which the
// simulation expires state is not played (timescale.go): the file plays
// on when the cluster's value is no shorter than the file's, so the broker
// expires nothing before the simulation does.

// setting plays one setting of a config line other than
// transaction.version and the teaching switches.
func (d *driver) setting(c script.Command, s engine.Setting) {
	switch s.Key {
	case engine.ConfigLatencyMs, engine.ConfigTxnStatePartitions, engine.ConfigOffsetsPartitions:
		// The simulation's network latency and its coordinator partition
		// counts: facts that depend on the count are compared without
		// the partition number.
	case engine.ConfigTxnIDExpirationMs, engine.ConfigProducerIDExpirationMs:
		d.timerSetting(c, s)
	case engine.ConfigVerification:
		d.dynamicSetting(c, s.Key.String(), strconv.FormatBool(s.Value != 0))
	default:
		d.stop(c, fmt.Sprintf("%s is a static broker setting the driver does not set on the broker", s.Key), false)
	}
}

// timerSetting accepts an expiration setting the cluster's value honours.
func (d *driver) timerSetting(c script.Command, s engine.Setting) {
	ctx, cancel := context.WithTimeout(d.ctx, 30*time.Second)
	defer cancel()
	v, err := brokerConfig(ctx, d.adm, s.Key.String())
	if err != nil {
		d.stop(c, fmt.Sprintf("reading %s from the cluster: %v", s.Key, err), false)
		return
	}
	ms, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		d.stop(c, fmt.Sprintf("the cluster's %s is %q", s.Key, v), false)
		return
	}
	if s.Key == engine.ConfigTxnIDExpirationMs && time.Duration(ms)*time.Millisecond <= maxTxnIDExpiry {
		// A cluster started with a short expiration: the driver waits
		// for the broker's expiry where the simulation expires an id
		// (txnexpiry.go), and the rows after it say time was scaled.
		return
	}
	if ms < s.Value {
		d.stop(c, fmt.Sprintf("the cluster's %s=%d is shorter than the file's %d: the broker could expire state the simulation keeps", s.Key, ms, s.Value), false)
	}
}

// dynamicSetting sets a cluster-wide broker setting for the rest of the
// file, on a cluster kafka up made, and waits until every broker has it.
func (d *driver) dynamicSetting(c script.Command, key, value string) {
	if len(d.queue) > 0 {
		d.stop(c, "a cluster setting changed after client calls were queued: the driver sets settings only before them", false)
		return
	}
	ctx, cancel := context.WithTimeout(d.ctx, 30*time.Second)
	defer cancel()
	if why := d.notOwnCluster(ctx, fmt.Sprintf("%s=%s would change", key, value)); why != "" {
		d.stop(c, why, false)
		return
	}
	old, err := brokerConfig(ctx, d.adm, key)
	if err != nil {
		d.stop(c, fmt.Sprintf("reading %s: %v", key, err), false)
		return
	}
	if old == value {
		return
	}
	if err := d.alter(ctx, kadm.AlterConfig{Op: kadm.SetConfig, Name: key, Value: &value}); err != nil {
		d.stop(c, fmt.Sprintf("setting %s=%s on the cluster: %v", key, value, err), false)
		return
	}
	// The first change of a key keeps the value to put back: a file that
	// sets a key twice (off, then on again) must restore the cluster's
	// own value, not the one its first line set.
	if !slices.ContainsFunc(d.restore, func(r restoreEntry) bool { return r.key == key }) {
		d.restore = append(d.restore, restoreEntry{key, old})
	}
	if err := awaitConfig(ctx, d.adm, key, value); err != nil {
		d.stop(c, fmt.Sprintf("%s=%s set on the cluster: %v", key, value, err), false)
	}
}

// notOwnCluster says why a cluster-wide change (what says what it would
// change) is not made on the cluster, "" when kafka up made it (its
// cluster id carries kafka up's mark).
func (d *driver) notOwnCluster(ctx context.Context, what string) string {
	md, err := d.adm.BrokerMetadata(ctx)
	if err != nil {
		return "reading the cluster id: " + err.Error()
	}
	if !realkafka.MadeByUp(md.Cluster) {
		return fmt.Sprintf("%s a cluster-wide setting of cluster %s, which eoslab kafka up did not make; verify changes settings only on its own clusters", what, md.Cluster)
	}
	return ""
}

// alter changes the cluster-wide default (the broker resource with an
// empty name) of one setting.
func (d *driver) alter(ctx context.Context, ac kadm.AlterConfig) error {
	rs, err := d.adm.AlterBrokerConfigs(ctx, []kadm.AlterConfig{ac})
	if err != nil {
		return err
	}
	for _, r := range rs {
		if r.Err != nil {
			return fmt.Errorf("%w (%s)", r.Err, r.ErrMessage)
		}
	}
	return nil
}

// awaitConfig waits (bounded) until every broker reports key=value: a
// dynamic change reaches the brokers through the metadata log.
func awaitConfig(ctx context.Context, adm *kadm.Client, key, value string) error {
	var last string
	for ctx.Err() == nil {
		v, err := brokerConfig(ctx, adm, key)
		if err == nil && v == value {
			return nil
		}
		last = v
		if err != nil {
			last = err.Error()
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("the brokers still report %s", last)
}

// restoreEntry is a cluster-wide setting a file changed and the value
// the brokers had before.
type restoreEntry struct{ key, old string }

// restoreSettings removes the cluster-wide overrides the file set and
// waits until the brokers have their old values back, so the next file
// (and the cluster's owner) see kafka up's settings again.
func (d *driver) restoreSettings() {
	if len(d.restore) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, r := range d.restore {
		err := d.alter(ctx, kadm.AlterConfig{Op: kadm.DeleteConfig, Name: r.key})
		if err == nil {
			err = awaitConfig(ctx, d.adm, r.key, r.old)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "verify: putting back %s=%s on the cluster: %v\n", r.key, r.old, err)
		}
	}
	d.restore = nil
}

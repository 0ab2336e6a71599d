package verify

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/eoslab/eoslab/engine/realkafka"
	"github.com/eoslab/eoslab/engine/script"
)

// markerCount compares `expect markers N [txn=ID]` with the control
// batches on the broker: every partition of the file's topics and of
// __consumer_offsets (where a transaction's offsets get their marker,
// KIP-98), read with raw Fetch. __consumer_offsets is the cluster's, so
// there only the markers of the file's producers count (their broker
// producer ids, learned as the runs went); with txn=ID, only that
// transactional id's producer ids count anywhere.
func (d *driver) markerCount(x script.MarkersCheck) (bool, string, string) {
	ctx, cancel := context.WithTimeout(d.ctx, 60*time.Second)
	defer cancel()
	mine := map[int64]bool{} // the file's producers' broker ids (for txn=ID: that id's)
	sims := map[int64]bool{}
	for sim, r := range d.rev {
		if x.TxnID == "" || r.txid == d.prefix+x.TxnID {
			sims[sim] = true
		}
	}
	for b, s := range d.pids {
		if sims[s] {
			mine[b] = true
		}
	}
	topics := append([]string(nil), d.topics...)
	td, err := d.adm.ListTopics(ctx, append(topics, "__consumer_offsets")...)
	if err != nil {
		return false, "", "listing the topics: " + err.Error()
	}
	n := 0
	for _, t := range td.Sorted() {
		if t.Err != nil {
			continue // no __consumer_offsets yet: no group was used
		}
		internal := t.Topic == "__consumer_offsets"
		for _, p := range t.Partitions.Sorted() {
			l, err := realkafka.FetchLog(ctx, d.raw, t.Topic, p.Partition)
			if err != nil {
				return false, "", fmt.Sprintf("reading %s-%d: %v", t.Topic, p.Partition, err)
			}
			n += countMarkers(l, mine, internal || x.TxnID != "")
		}
	}
	return int64(n) == x.N, "markers " + strconv.Itoa(n), ""
}

// countMarkers counts l's control batches: only those of the producer ids
// in mine when onlyMine.
func countMarkers(l realkafka.Log, mine map[int64]bool, onlyMine bool) int {
	n := 0
	for _, b := range l.Batches {
		if b.Control && (!onlyMine || mine[b.ProducerID]) {
			n++
		}
	}
	return n
}

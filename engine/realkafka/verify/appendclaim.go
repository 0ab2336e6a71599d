package verify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// appendClaim: the leader appending a batch without a producer id (a
// producer with idempotence off: no sequence check,
// ProducerAppendInfo is not consulted). The event is the k-th such append
// to its partition; in the simulation's log that is the k-th batch
// without a producer id, at its base offset with its values. On the
// broker the log must hold a batch without a producer id at that offset
// with the same values.
func (d *driver) appendClaim(w *engine.World, i int, e *engine.Event) (claim, string, string) {
	if !e.HasTP() {
		return claim{}, "", "an append without its partition"
	}
	k := 0
	for j := 0; j <= i; j++ {
		if o := w.EventAt(j); o.Kind == engine.EvAppend && o.TP == e.TP {
			k++
		}
	}
	pl := w.Partition(e.TP)
	if pl == nil {
		return claim{}, "", "the simulation has no such partition"
	}
	var b *engine.Batch
	n := 0
	for x := range pl.Batches {
		if pl.Batches[x].ProducerID < 0 && !pl.Batches[x].Control {
			if n++; n == k {
				b = &pl.Batches[x]
				break
			}
		}
	}
	if b == nil || len(pl.Batches) > 0 && pl.Batches[0].BaseOffset > 0 {
		// Truncated or gone (a leader change): the k-th append is no
		// longer the k-th batch.
		return claim{}, "", "the simulation's log no longer holds the appended batch"
	}
	off, values := b.BaseOffset, b.Records.Values()
	what := fmt.Sprintf("%s batch at %d without producer id, values=%s", e.TP, off, strings.Join(values, ","))
	return claim{what: what, check: func(int) (int, string, string) {
		l, err := d.log(script.Partition{Topic: e.TP.Topic, N: e.TP.Partition})
		if err != nil {
			return 0, "", "fetch failed: " + err.Error()
		}
		for _, bb := range l.Batches {
			if bb.BaseOffset != off {
				continue
			}
			shown := fmt.Sprintf("batch at %d pid=%s values=%s", bb.BaseOffset, d.simPID(bb.ProducerID), strings.Join(bb.Values, ","))
			if bb.ProducerID < 0 && !bb.Control && slices.Equal(bb.Values, values) {
				return 1, shown, ""
			}
			return 0, shown, ""
		}
		return 0, fmt.Sprintf("no batch at offset %d of %s", off, e.TP), ""
	}}, "", ""
}

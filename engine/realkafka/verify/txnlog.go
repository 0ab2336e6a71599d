package verify

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// txnLogCheck judges "expect txnlog ID states ..." and "expect txnlog ID
// record ..." on the records the broker's coordinator wrote for the id
// during the run. A client adds a transaction's partitions in as many
// requests as it likes (the Java producer one per answer, franz-go
// several at once), each an Ongoing record: where the two sequences differ
// only in the length of their runs of Ongoing, the runs are compared as
// one, and the row says so. Offsets are the simulation's partition's, so a
// record at an offset is found by its place among the id's records.
func (d *driver) txnLogCheck(x script.TxnLogCheck, w *engine.World) (holds bool, fact, why, note string) {
	recs, err := d.txnLog()
	if err != nil {
		return false, "", err.Error(), ""
	}
	var mine []txnRecord
	for _, r := range recs {
		if r.TxnID == x.ID {
			mine = append(mine, r)
		}
	}
	states := func(rs []txnRecord) []string {
		out := make([]string, len(rs))
		for i, r := range rs {
			out[i] = r.State
			if r.Tombstone {
				out[i] = "tombstone"
			}
		}
		return out
	}
	got := states(mine)
	sim := w.TxnLog(x.ID)
	simStates := make([]string, len(sim))
	for i, r := range sim {
		simStates[i] = r.State.String()
		if r.Tombstone {
			simStates[i] = "tombstone"
		}
	}
	sameRuns := slices.Equal(collapseOngoing(got), collapseOngoing(simStates))
	if x.Field == script.TxnLogStates {
		g := strings.Join(got, ",")
		if g == "" {
			g = "none"
		}
		if slices.Equal(got, x.States) {
			return true, "states " + g, "", ""
		}
		if slices.Equal(collapseOngoing(got), collapseOngoing(x.States)) {
			return true, "states " + g, "", "runs of Ongoing records compared as one (a client adds partitions in as many requests as it likes)"
		}
		return false, "states " + g, "", ""
	}
	if len(mine) == 0 {
		return false, "no record of " + x.ID + " in " + txnStateTopic, "", ""
	}
	r := mine[len(mine)-1]
	if x.Offset.Set {
		i := slices.IndexFunc(sim, func(r engine.TxnLogRecord) bool { return r.Offset == x.Offset.V })
		if i < 0 || !slices.Equal(got, simStates) {
			if i >= 0 && sameRuns {
				return false, "", "a record at an offset of the simulation's partition: the two runs wrote the id's Ongoing records in different numbers (client batching), so its place among them is not the same", ""
			}
			if i < 0 {
				return false, "", "the simulation has no record of the id at that offset", ""
			}
			return false, "states " + strings.Join(got, ","), "", ""
		}
		r = mine[i]
	}
	st := r.State
	if r.Tombstone {
		st = "tombstone"
	}
	fact = fmt.Sprintf("record %s pid=%s epoch=%d partitions=%s", st, d.simPID(r.PID), r.Epoch, orNoneList(r.Partitions))
	holds = !x.State.Set || x.State.V == st
	if !r.Tombstone {
		holds = holds && (!x.PID.Set || d.simPID(r.PID) == strconv.FormatInt(x.PID.V, 10)) && (!x.Epoch.Set || int64(r.Epoch) == x.Epoch.V)
		if x.PrevPID.Set {
			fact += " prevPid=" + d.simPID(r.PrevPID)
			holds = holds && d.simPID(r.PrevPID) == strconv.FormatInt(x.PrevPID.V, 10)
		}
		if x.Partitions.Set {
			var want []string
			for _, p := range x.Partitions.V {
				want = append(want, p.String())
			}
			holds = holds && samePartitions(r.Partitions, want)
		}
	}
	var skipped []string
	if x.Timeout.Set {
		skipped = append(skipped, "timeout= (the client's transaction.timeout.ms: franz-go's default is not Java's)")
	}
	if x.CoordinatorEpoch.Set {
		skipped = append(skipped, "coordinatorEpoch= (the partition leader epoch of the record's batch, not in TransactionLogValue)")
	}
	if len(skipped) > 0 {
		note = "not compared: " + strings.Join(skipped, ", ")
	}
	return holds, fact, "", note
}

// collapseOngoing turns every run of Ongoing into one.
func collapseOngoing(states []string) []string {
	var out []string
	for _, s := range states {
		if s == "Ongoing" && len(out) > 0 && out[len(out)-1] == "Ongoing" {
			continue
		}
		out = append(out, s)
	}
	return out
}

// samePartitions compares partition sets, __consumer_offsets-N without
// N (the cluster's offsets topic has its own partition count).
func samePartitions(got, want []string) bool {
	norm := func(s []string) []string {
		out := make([]string, len(s))
		for i, p := range s {
			if strings.HasPrefix(p, "__consumer_offsets") {
				p = "__consumer_offsets"
			}
			out[i] = p
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(norm(got), norm(want))
}

func orNoneList(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ",")
}

package verify

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/realkafka"
	"github.com/eoslab/eoslab/engine/script"
)

// The invariant monitors a broker run can show from broker facts: the
// run's partition logs (raw Fetch), its consumers' records held against
// them, and the coordinators' records in __transaction_state. The others
// need what only the simulation knows: which application send a record
// came from (duplicate-record), which producer instance was fenced
// (fenced-write), which partitions one client transaction spanned
// (atomic-visibility) and which offsets went with which outputs
// (offsets-atomic).

// brokerMonitors are the invariants checked on the broker, in
// engine.InvariantNames' order.
var brokerMonitors = []string{engine.InvDuplicateSequence, engine.InvUncommittedRead, engine.InvWatermarks, engine.InvIllegalTransition}

// monitors evaluates the broker-side monitors: the violations found
// (invariant: what), or why they cannot be looked at.
func (d *driver) monitors() (map[string]string, string) {
	logs := map[engine.TP]realkafka.Log{}
	for _, t := range d.topics {
		ctx, cancel := context.WithTimeout(d.ctx, 30*time.Second)
		td, err := d.adm.ListTopics(ctx, t)
		cancel()
		if err != nil {
			return nil, "listing topics failed: " + err.Error()
		}
		for _, p := range td[t].Partitions.Numbers() {
			tp := engine.TP{Topic: strings.TrimPrefix(t, d.prefix), Partition: p}
			l, err := d.log(script.Partition{Topic: tp.Topic, N: p})
			if err != nil {
				return nil, "fetch failed: " + err.Error()
			}
			logs[tp] = l
		}
	}
	taken := map[string][]engine.TPOffset{}
	for n, c := range d.cons {
		if d.cdecls[n].Isolation == engine.ReadCommitted {
			taken[n] = c.taken
		}
	}
	recs, err := d.txnLog()
	if err != nil {
		return nil, err.Error()
	}
	return evalMonitors(logs, taken, recs, d.simPID, d.simTV >= 2), ""
}

// evalMonitors is the broker-side monitors over a run's partition logs,
// the records its read_committed consumers handed out, and its
// __transaction_state records: the violations found (invariant: what).
func evalMonitors(logs map[engine.TP]realkafka.Log, taken map[string][]engine.TPOffset, recs []txnRecord, simPID func(int64) string, tv2 bool) map[string]string {
	found := map[string]string{}
	var tps []engine.TP
	for tp := range logs {
		tps = append(tps, tp)
	}
	slices.SortFunc(tps, func(a, b engine.TP) int {
		if c := strings.Compare(a.Topic, b.Topic); c != 0 {
			return c
		}
		return int(a.Partition - b.Partition)
	})
	for _, tp := range tps {
		l := logs[tp]
		// duplicate-sequence: one (pid, epoch, base sequence) per log
		// (ProducerStateEntry.findDuplicateBatch keeps it so).
		seen := map[[3]int64]int64{}
		for _, b := range l.Batches {
			if b.Control || b.ProducerID < 0 {
				continue
			}
			k := [3]int64{b.ProducerID, int64(b.ProducerEpoch), int64(b.BaseSequence)}
			if at, ok := seen[k]; ok && found[engine.InvDuplicateSequence] == "" {
				found[engine.InvDuplicateSequence] = fmt.Sprintf("%s: pid=%s epoch=%d seq=%d at %d and %d", tp, simPID(b.ProducerID), b.ProducerEpoch, b.BaseSequence, at, b.BaseOffset)
			}
			seen[k] = b.BaseOffset
		}
		// watermarks: LSO <= high watermark (the log end offset, on one
		// replica).
		if l.LastStable > l.HighWatermark && found[engine.InvWatermarks] == "" {
			found[engine.InvWatermarks] = fmt.Sprintf("%s: LSO %d > high watermark %d", tp, l.LastStable, l.HighWatermark)
		}
	}
	// uncommitted-read: what a read_committed consumer of the run handed
	// out is committed data.
	var names []string
	for n := range taken {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		for _, t := range taken[n] {
			l, ok := logs[t.TP]
			if !ok {
				continue
			}
			for _, b := range l.Batches {
				if t.Offset < b.BaseOffset || t.Offset > b.LastOffset || b.Control {
					continue
				}
				if st := status(l, b); st == "aborted" || st == "open" {
					if found[engine.InvUncommittedRead] == "" {
						found[engine.InvUncommittedRead] = fmt.Sprintf("%s took %s offset %d, %s data", n, t.TP, t.Offset, st)
					}
				}
			}
		}
	}
	// illegal-transition: each id's records in __transaction_state follow
	// TransactionMetadata's validPreviousStates (TransactionState's under
	// transaction.version 2, which lets an empty abort's PrepareAbort
	// follow Empty, CompleteCommit and CompleteAbort).
	last := map[string]engine.TxnState{}
	for _, r := range recs {
		if r.Tombstone {
			delete(last, r.TxnID)
			continue
		}
		to, ok := txnStateNamed(r.State)
		if !ok {
			continue
		}
		if from, ok := last[r.TxnID]; ok && !engine.ValidTxnTransitionTV(from, to, tv2) && found[engine.InvIllegalTransition] == "" {
			found[engine.InvIllegalTransition] = fmt.Sprintf("%s %s -> %s in %s", r.TxnID, from, to, txnStateTopic)
		}
		last[r.TxnID] = to
	}
	return found
}

func txnStateNamed(s string) (engine.TxnState, bool) {
	for st := engine.Empty; st <= engine.PrepareEpochFence; st++ {
		if st.String() == s {
			return st, true
		}
	}
	return 0, false
}

// judgeMonitors judges expect violations none and expect violation NAME
// on the monitors a broker run can show, naming them in the row.
func (d *driver) judgeMonitors(row *Row, x script.ViolationCheck, fail *script.Failure, w *engine.World) {
	checked := "broker-side monitors " + strings.Join(brokerMonitors, ", ") + "; not: duplicate-record, fenced-write, atomic-visibility, offsets-atomic (they need what only the simulation knows: a record's send, a fenced instance, a client transaction's partitions)"
	if x.Name != "" && !slices.Contains(brokerMonitors, x.Name) {
		row.Verdict, row.Why = SimOnly, "the "+x.Name+" monitor needs what only the simulation knows; a broker run checks "+strings.Join(brokerMonitors, ", ")
		return
	}
	if d.unplayable(row, w) {
		return
	}
	found, why := d.monitors()
	if why != "" {
		row.Verdict, row.Why = NotPlayed, why
		return
	}
	var holds bool
	var fact string
	if x.Name == "" {
		holds = len(found) == 0
		var vs []string
		for _, n := range brokerMonitors {
			if v := found[n]; v != "" {
				vs = append(vs, n+": "+v)
			}
		}
		fact = "violations " + strings.Join(vs, "; ")
		if holds {
			fact = "no violation"
		}
	} else {
		holds = found[x.Name] != ""
		fact = x.Name + ": " + found[x.Name]
		if !holds {
			fact = "no " + x.Name + " violation"
		}
	}
	d.verdict(row, fail, holds, fact, "", checked)
}

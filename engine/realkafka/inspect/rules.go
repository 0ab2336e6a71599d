package inspect

import (
	"fmt"
	"sort"
	"strings"
)

// The rules a hanging transaction is named by.
const (
	// RuleNoCoordinatorTxn: a partition's leader has an open transaction
	// of a producer (DescribeProducers' currentTxnStartOffset) that no
	// coordinator has open with that partition: no coordinator will write
	// its marker, so the LSO stays there. It is the check of
	// TransactionsCommand.FindHangingTransactionsCommand
	// (kafka-transactions.sh find-hanging, KIP-664), which KIP-890's
	// partition verification exists to prevent.
	RuleNoCoordinatorTxn = "no-coordinator-txn"
	// RulePastTimeout: the coordinator has had the transaction open
	// longer than its transaction.timeout.ms; the coordinator aborts such
	// a transaction at its next scan
	// (transaction.abort.timed.out.transaction.cleanup.interval.ms).
	RulePastTimeout = "past-timeout"
)

// Hanging is one transaction inspect names as hanging.
type Hanging struct {
	Rule       string
	TP         TP // the partition held (RuleNoCoordinatorTxn), or the first of the transaction's
	ProducerID int64
	Epoch      int16
	// StartOffset is the transaction's first offset on TP, -1 if unknown.
	StartOffset int64
	TxnID       string // "" when no coordinator knows the producer
	Reason      string
	// Commands are the kafka-transactions.sh commands that would abort it
	// (inspect runs none of them).
	Commands []string
}

// FindHanging applies the rules to a snapshot. It is pure: the same
// snapshot gives the same list.
func FindHanging(s *Snapshot) []Hanging {
	var out []Hanging
	byPID := map[int64]*Txn{}
	for i := range s.Txns {
		byPID[s.Txns[i].ProducerID] = &s.Txns[i]
	}
	boot := s.Bootstrap
	if boot == "" {
		boot = "BROKER:PORT"
	}
	abort := func(tp TP, start int64) string {
		return fmt.Sprintf("kafka-transactions.sh --bootstrap-server %s abort --topic %s --partition %d --start-offset %d", boot, tp.Topic, tp.Partition, start)
	}
	for _, p := range s.Partitions {
		for _, pr := range p.Producers {
			if pr.TxnStart < 0 {
				continue
			}
			t := byPID[pr.ProducerID]
			h := Hanging{Rule: RuleNoCoordinatorTxn, TP: p.TP, ProducerID: pr.ProducerID, Epoch: pr.Epoch, StartOffset: pr.TxnStart}
			holds := ""
			if p.LSO == pr.TxnStart {
				holds = fmt.Sprintf(", and holds the LSO there (HW %d)", p.HW)
			}
			switch {
			case t == nil:
				h.Reason = fmt.Sprintf("producer %d (epoch %d) has a transaction open on %s since offset %d%s, but no coordinator lists a transactional id with that producer id: no one will write its marker",
					pr.ProducerID, pr.Epoch, p.TP, pr.TxnStart, holds)
			case !t.Open() || !hasTP(t.Partitions, p.TP):
				h.TxnID = t.ID
				what := fmt.Sprintf("its coordinator has %s in state %s", t.ID, t.State)
				if t.Open() {
					what += " without " + p.TP.String() + " among its partitions"
				} else if t.ProducerID == pr.ProducerID && t.Epoch > pr.Epoch {
					what += fmt.Sprintf(" at epoch %d", t.Epoch)
				}
				h.Reason = fmt.Sprintf("producer %d (epoch %d) has a transaction open on %s since offset %d%s, but %s: the coordinator will not write a marker there",
					pr.ProducerID, pr.Epoch, p.TP, pr.TxnStart, holds, what)
			default:
				continue
			}
			h.Commands = []string{abort(p.TP, pr.TxnStart)}
			out = append(out, h)
		}
	}
	for _, t := range s.Txns {
		if !t.Open() || t.StartMs < 0 || t.TimeoutMs <= 0 {
			continue
		}
		age := s.TakenMs - t.StartMs
		if age <= int64(t.TimeoutMs) {
			continue
		}
		h := Hanging{Rule: RulePastTimeout, ProducerID: t.ProducerID, Epoch: t.Epoch, StartOffset: -1, TxnID: t.ID}
		if len(t.Partitions) > 0 {
			h.TP = t.Partitions[0]
		}
		h.Reason = fmt.Sprintf("%s has been %s for %s, longer than its transaction.timeout.ms of %s: the coordinator should have aborted it (it scans every transaction.abort.timed.out.transaction.cleanup.interval.ms, 10 s by default)",
			t.ID, t.State, Age(age), Age(int64(t.TimeoutMs)))
		for _, tp := range t.Partitions {
			start := startOffset(s, tp, t.ProducerID)
			if start < 0 {
				continue
			}
			h.Commands = append(h.Commands, abort(tp, start))
		}
		if len(h.Commands) == 0 {
			h.Commands = []string{fmt.Sprintf("kafka-transactions.sh --bootstrap-server %s describe --transactional-id %s", boot, t.ID)}
		}
		out = append(out, h)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Rule != out[j].Rule {
			return out[i].Rule < out[j].Rule
		}
		if out[i].TP != out[j].TP {
			return out[i].TP.String() < out[j].TP.String()
		}
		return out[i].ProducerID < out[j].ProducerID
	})
	return out
}

func startOffset(s *Snapshot, tp TP, pid int64) int64 {
	for _, p := range s.Partitions {
		if p.TP != tp {
			continue
		}
		for _, pr := range p.Producers {
			if pr.ProducerID == pid {
				return pr.TxnStart
			}
		}
	}
	return -1
}

func hasTP(tps []TP, tp TP) bool {
	for _, x := range tps {
		if x == tp {
			return true
		}
	}
	return false
}

// Age is a duration in milliseconds in words a table can hold: 850ms,
// 12.5s, 3m20s, 2h05m.
func Age(ms int64) string {
	switch {
	case ms < 0:
		return "-"
	case ms < 1000:
		return fmt.Sprintf("%dms", ms)
	case ms < 60_000:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(ms)/1000), ".0") + "s"
	case ms < 3_600_000:
		return fmt.Sprintf("%dm%02ds", ms/60_000, ms%60_000/1000)
	}
	return fmt.Sprintf("%dh%02dm", ms/3_600_000, ms%3_600_000/60_000)
}

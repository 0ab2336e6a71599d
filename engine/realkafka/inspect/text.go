package inspect

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// Sections of the snapshot, in the order Text prints them; the TUI draws
// each in a panel.
const (
	SecTxns      = "Transactions"
	SecHanging   = "Hanging transactions"
	SecOffsets   = "Partitions: HW, LSO and what holds it"
	SecProducers = "Producers per partition"
	SecLog       = "Log"
)

// Text is the snapshot as plain text, as `eoslab inspect --once` prints
// it: every section under its heading. It is a function of the snapshot
// alone, so fixed data gives fixed text.
func Text(s *Snapshot) string {
	var b strings.Builder
	fmt.Fprintf(&b, "eoslab inspect %s at %s (read only)\n", s.Bootstrap, time.UnixMilli(s.TakenMs).UTC().Format("2006-01-02 15:04:05Z"))
	fmt.Fprintf(&b, "brokers %s; %d transactional ids, %d partitions\n", ints(s.Brokers), len(s.Txns), len(s.Partitions))
	for _, sec := range []string{SecHanging, SecTxns, SecOffsets, SecProducers, SecLog} {
		b.WriteString("\n== " + Heading(s, sec) + "\n")
		b.WriteString(Section(s, sec))
	}
	if len(s.Problems) > 0 {
		b.WriteString("\n== Problems\n")
		for _, p := range s.Problems {
			b.WriteString("  " + p + "\n")
		}
	}
	return b.String()
}

// Heading is a section's title (the log's names its partition).
func Heading(s *Snapshot, sec string) string {
	switch sec {
	case SecLog:
		if s.LogOf.Topic == "" {
			return "Log (no partition)"
		}
		return "Log of " + s.LogOf.String() + " (raw Fetch, read_uncommitted: batch headers and control records)"
	case SecHanging:
		return fmt.Sprintf("%s (%d)", sec, len(s.Hanging))
	}
	return sec
}

// Section is one section's lines.
func Section(s *Snapshot, sec string) string {
	var b strings.Builder
	switch sec {
	case SecTxns:
		txns(&b, s)
	case SecHanging:
		hanging(&b, s)
	case SecOffsets:
		offsets(&b, s)
	case SecProducers:
		producers(&b, s)
	case SecLog:
		logLines(&b, s)
	}
	return b.String()
}

func table(b *strings.Builder, header string, rows [][]string) {
	var t strings.Builder
	tw := tabwriter.NewWriter(&t, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  "+header)
	for _, r := range rows {
		fmt.Fprintln(tw, "  "+strings.Join(r, "\t"))
	}
	tw.Flush()
	for _, l := range strings.Split(strings.TrimSuffix(t.String(), "\n"), "\n") {
		b.WriteString(strings.TrimRight(l, " ") + "\n")
	}
}

func txns(b *strings.Builder, s *Snapshot) {
	if len(s.Txns) == 0 {
		b.WriteString("  none listed by the coordinators (ListTransactions)\n")
		return
	}
	// The open ones first: they are what a small screen must show.
	list := append([]Txn(nil), s.Txns...)
	sort.SliceStable(list, func(i, j int) bool { return list[i].Open() && !list[j].Open() })
	var rows [][]string
	for _, t := range list {
		if t.Err != "" {
			rows = append(rows, []string{t.ID, t.State, pid(t.ProducerID), "-", "-", "-", "-", "DescribeTransactions: " + t.Err})
			continue
		}
		age, against := "-", "-"
		if t.StartMs >= 0 && t.Open() {
			a := s.TakenMs - t.StartMs
			age = Age(a)
			if t.TimeoutMs > 0 {
				against = fmt.Sprintf("%d%% of %s", a*100/int64(t.TimeoutMs), Age(int64(t.TimeoutMs)))
			}
		} else if t.TimeoutMs > 0 {
			against = Age(int64(t.TimeoutMs))
		}
		rows = append(rows, []string{t.ID, t.State, pid(t.ProducerID), fmt.Sprint(t.Epoch), age, against, fmt.Sprint(t.Coordinator), tps(t.Partitions)})
	}
	table(b, "TRANSACTIONAL ID\tSTATE\tPID\tEPOCH\tAGE\tTIMEOUT\tCOORD\tPARTITIONS", rows)
}

func hanging(b *strings.Builder, s *Snapshot) {
	if len(s.Hanging) == 0 {
		b.WriteString("  none: every open transaction on a partition is open at its coordinator, and none is past its timeout\n")
		return
	}
	for i, h := range s.Hanging {
		who := h.TxnID
		if who == "" {
			who = "no transactional id"
		}
		fmt.Fprintf(b, "  %d. %s pid %d epoch %d (%s)\n", i+1, h.TP, h.ProducerID, h.Epoch, who)
		fmt.Fprintf(b, "     why: %s\n", h.Reason)
		for _, c := range h.Commands {
			fmt.Fprintf(b, "     abort with: %s\n", c)
		}
	}
}

func offsets(b *strings.Builder, s *Snapshot) {
	if len(s.Partitions) == 0 {
		b.WriteString("  no partitions (no topics, or none of --topic exists)\n")
		return
	}
	var rows [][]string
	for _, p := range s.Partitions {
		if p.Err != "" {
			rows = append(rows, []string{p.TP.String(), fmt.Sprint(p.Leader), off(p.HW), off(p.LSO), p.Err})
			continue
		}
		held := "-"
		if h := p.Holder(); h != nil {
			who := txnOf(s, h.ProducerID)
			if who == "" {
				who = "no txn id"
			}
			held = fmt.Sprintf("pid %d epoch %d (%s), open since offset %d: %d behind HW", h.ProducerID, h.Epoch, who, h.TxnStart, p.HW-p.LSO)
		} else if p.LSO >= 0 && p.LSO < p.HW {
			held = "an open transaction (no producer listed at that offset)"
		}
		rows = append(rows, []string{p.TP.String(), fmt.Sprint(p.Leader), off(p.HW), off(p.LSO), held})
	}
	table(b, "PARTITION\tLEADER\tHW\tLSO\tLSO HELD BY", rows)
}

func producers(b *strings.Builder, s *Snapshot) {
	var rows [][]string
	for _, p := range s.Partitions {
		for _, pr := range p.Producers {
			start := "-"
			if pr.TxnStart >= 0 {
				start = fmt.Sprint(pr.TxnStart)
			}
			last := "-"
			if pr.LastTimestampMs > 0 {
				last = Age(s.TakenMs-pr.LastTimestampMs) + " ago"
			}
			rows = append(rows, []string{p.TP.String(), pid(pr.ProducerID), fmt.Sprint(pr.Epoch), fmt.Sprint(pr.LastSequence), start, fmt.Sprint(pr.CoordinatorEpoch), last, txnOf(s, pr.ProducerID)})
		}
	}
	if len(rows) == 0 {
		b.WriteString("  no producer state on these partitions (DescribeProducers)\n")
		return
	}
	table(b, "PARTITION\tPID\tEPOCH\tLAST SEQ\tTXN START\tCOORD EPOCH\tLAST WRITE\tTRANSACTIONAL ID", rows)
}

func logLines(b *strings.Builder, s *Snapshot) {
	if s.LogOf.Topic == "" {
		b.WriteString("  -\n")
		return
	}
	if s.LogErr != "" {
		b.WriteString("  fetch failed: " + s.LogErr + "\n")
		return
	}
	l := s.Log
	fmt.Fprintf(b, "  log start %d, HW %d, LSO %d", l.LogStart, l.HighWatermark, l.LastStable)
	if len(l.Aborted) > 0 {
		var a []string
		for _, x := range l.Aborted {
			a = append(a, fmt.Sprintf("pid %d from %d", x.ProducerID, x.FirstOffset))
		}
		fmt.Fprintf(b, "; aborted (read_committed Fetch): %s", strings.Join(a, ", "))
	}
	b.WriteString("\n")
	var rows [][]string
	for _, x := range l.Batches {
		kind := "data"
		switch {
		case x.Control:
			kind = "marker " + x.Marker
		case x.Transactional:
			kind = "txn data"
		}
		bits := ""
		if x.Transactional {
			bits += "T"
		} else {
			bits += "-"
		}
		if x.Control {
			bits += "C"
		} else {
			bits += "-"
		}
		offs := fmt.Sprint(x.BaseOffset)
		if x.LastOffset != x.BaseOffset {
			offs = fmt.Sprintf("%d-%d", x.BaseOffset, x.LastOffset)
		}
		extra := ""
		if x.Control {
			extra = fmt.Sprintf("coordinator epoch %d", x.CoordinatorEpoch)
		} else {
			extra = clip(strings.Join(x.Values, ","), 24)
		}
		line := ""
		switch {
		case x.BaseOffset < l.LastStable && l.LastStable <= x.LastOffset, x.BaseOffset == l.LastStable && l.LastStable < l.HighWatermark:
			line = "<- LSO"
		}
		rows = append(rows, []string{offs, kind, pid(x.ProducerID), fmt.Sprint(x.ProducerEpoch), seq(x.BaseSequence), bits, fmt.Sprint(x.Records), extra, line})
	}
	if len(rows) == 0 {
		b.WriteString("  empty\n")
		return
	}
	table(b, "OFFSET\tBATCH\tPID\tEPOCH\tBASE SEQ\tT/C\tRECS\tVALUES / MARKER\t", rows)
}

func txnOf(s *Snapshot, p int64) string {
	for _, t := range s.Txns {
		if t.ProducerID == p {
			return t.ID
		}
	}
	return ""
}

func pid(p int64) string {
	if p < 0 {
		return "-"
	}
	return fmt.Sprint(p)
}

func seq(q int32) string {
	if q < 0 {
		return "-"
	}
	return fmt.Sprint(q)
}

func off(o int64) string {
	if o < 0 {
		return "?"
	}
	return fmt.Sprint(o)
}

func tps(l []TP) string {
	if len(l) == 0 {
		return "-"
	}
	var out []string
	for _, tp := range l {
		out = append(out, tp.String())
	}
	return strings.Join(out, " ")
}

func ints(l []int32) string {
	var out []string
	for _, n := range l {
		out = append(out, fmt.Sprint(n))
	}
	return strings.Join(out, ",")
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-3]) + "..."
}

// Write prints Text to w.
func Write(w io.Writer, s *Snapshot) error {
	_, err := io.WriteString(w, Text(s))
	return err
}

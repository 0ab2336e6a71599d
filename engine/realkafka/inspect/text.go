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
		for _, l := range Lines(s, sec) {
			b.WriteString(l.Text + "\n")
		}
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

// Mark is what a line shows, for the TUI to colour it.
type Mark int

// The marks.
const (
	Plain     Mark = iota
	Hung           // a hanging transaction
	Open           // an open transaction (or the LSO it holds)
	Committed      // a committed transaction or a COMMIT marker
	Aborted        // an aborted one or an ABORT marker
)

// Line is one line of a section. Hang, when above 0, says the line is
// prose to wrap rather than clip, its continuation lines indented by Hang.
type Line struct {
	Text string
	Mark Mark
	Hang int
}

// Lines is one section's lines.
func Lines(s *Snapshot, sec string) []Line {
	b := &lines{}
	switch sec {
	case SecTxns:
		txns(b, s)
	case SecHanging:
		hanging(b, s)
	case SecOffsets:
		offsets(b, s)
	case SecProducers:
		producers(b, s)
	case SecLog:
		logLines(b, s)
	}
	return b.ls
}

type lines struct{ ls []Line }

func (b *lines) add(m Mark, hang int, format string, args ...any) {
	b.ls = append(b.ls, Line{Text: fmt.Sprintf(format, args...), Mark: m, Hang: hang})
}

// table lays rows out in columns under header; marks[i] is row i's mark.
func (b *lines) table(header string, rows [][]string, marks []Mark) {
	var t strings.Builder
	tw := tabwriter.NewWriter(&t, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  "+header)
	for _, r := range rows {
		fmt.Fprintln(tw, "  "+strings.Join(r, "\t"))
	}
	tw.Flush()
	for i, l := range strings.Split(strings.TrimSuffix(t.String(), "\n"), "\n") {
		m := Plain
		if i > 0 && i-1 < len(marks) {
			m = marks[i-1]
		}
		b.ls = append(b.ls, Line{Text: strings.TrimRight(l, " "), Mark: m})
	}
}

func txnMark(t Txn) Mark {
	switch {
	case t.Open():
		return Open
	case t.State == "CompleteCommit":
		return Committed
	case t.State == "CompleteAbort":
		return Aborted
	}
	return Plain
}

func txns(b *lines, s *Snapshot) {
	if len(s.Txns) == 0 {
		b.add(Plain, 0, "  none listed by the coordinators (ListTransactions)")
		return
	}
	// The open ones first: they are what a small screen must show.
	list := append([]Txn(nil), s.Txns...)
	sort.SliceStable(list, func(i, j int) bool { return list[i].Open() && !list[j].Open() })
	var rows [][]string
	var marks []Mark
	for _, t := range list {
		marks = append(marks, txnMark(t))
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
	b.table("TRANSACTIONAL ID\tSTATE\tPID\tEPOCH\tAGE\tTIMEOUT\tCOORD\tPARTITIONS", rows, marks)
}

func hanging(b *lines, s *Snapshot) {
	if len(s.Hanging) == 0 {
		b.add(Plain, 4, "  none: every open transaction on a partition is open at its coordinator, and none is past its timeout")
		return
	}
	for i, h := range s.Hanging {
		who := h.TxnID
		if who == "" {
			who = "no transactional id"
		}
		b.add(Hung, 5, "  %d. %s pid %d epoch %d (%s)", i+1, h.TP, h.ProducerID, h.Epoch, who)
		b.add(Plain, 7, "     why: %s", h.Reason)
		for _, c := range h.Commands {
			b.add(Plain, 7, "     abort with: %s", c)
		}
	}
}

func offsets(b *lines, s *Snapshot) {
	if len(s.Partitions) == 0 {
		b.add(Plain, 0, "  no partitions (no topics, or none of --topic exists)")
		return
	}
	var rows [][]string
	var marks []Mark
	for _, p := range s.Partitions {
		marks = append(marks, Plain)
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
			marks[len(marks)-1] = Open
			if hangs(s, p.TP, h.ProducerID) {
				marks[len(marks)-1] = Hung
			}
		} else if p.LSO >= 0 && p.LSO < p.HW {
			held = "an open transaction (no producer listed at that offset)"
		}
		rows = append(rows, []string{p.TP.String(), fmt.Sprint(p.Leader), off(p.HW), off(p.LSO), held})
	}
	b.table("PARTITION\tLEADER\tHW\tLSO\tLSO HELD BY", rows, marks)
}

func producers(b *lines, s *Snapshot) {
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
		b.add(Plain, 0, "  no producer state on these partitions (DescribeProducers)")
		return
	}
	b.table("PARTITION\tPID\tEPOCH\tLAST SEQ\tTXN START\tCOORD EPOCH\tLAST WRITE\tTRANSACTIONAL ID", rows, nil)
}

func logLines(b *lines, s *Snapshot) {
	if s.LogOf.Topic == "" {
		b.add(Plain, 0, "  -")
		return
	}
	if s.LogErr != "" {
		b.add(Plain, 4, "  fetch failed: %s", s.LogErr)
		return
	}
	l := s.Log
	head := fmt.Sprintf("  log start %d, HW %d, LSO %d", l.LogStart, l.HighWatermark, l.LastStable)
	if len(l.Aborted) > 0 {
		var a []string
		for _, x := range l.Aborted {
			a = append(a, fmt.Sprintf("pid %d from %d", x.ProducerID, x.FirstOffset))
		}
		head += "; aborted (read_committed Fetch): " + strings.Join(a, ", ")
	}
	b.add(Plain, 0, "%s", head)
	var rows [][]string
	var marks []Mark
	for _, x := range l.Batches {
		kind := "data"
		mark := Plain
		switch {
		case x.Control:
			kind = "marker " + x.Marker
			mark = Committed
			if x.Marker == "ABORT" {
				mark = Aborted
			}
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
		marks = append(marks, mark)
		rows = append(rows, []string{offs, kind, pid(x.ProducerID), fmt.Sprint(x.ProducerEpoch), seq(x.BaseSequence), bits, fmt.Sprint(x.Records), extra, line})
	}
	if len(rows) == 0 {
		b.add(Plain, 0, "  empty")
		return
	}
	b.table("OFFSET\tBATCH\tPID\tEPOCH\tBASE SEQ\tT/C\tRECS\tVALUES / MARKER\t", rows, marks)
}

func hangs(s *Snapshot, tp TP, pid int64) bool {
	for _, h := range s.Hanging {
		if h.TP == tp && h.ProducerID == pid && h.Rule == RuleNoCoordinatorTxn {
			return true
		}
	}
	return false
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

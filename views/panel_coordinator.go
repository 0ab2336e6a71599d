package views

import "strings"

// The eight TransactionState names (TransactionState.java), which the
// diagram below lays out; a coordinator view with other names gets a list.
var kafkaTxnStates = []string{
	"Empty", "Ongoing", "PrepareCommit", "PrepareAbort",
	"CompleteCommit", "CompleteAbort", "Dead", "PrepareEpochFence",
}

// coordinatorContent draws, per transactional id: where its coordinator
// lives (a __transaction_state partition and its leader), the state machine
// with the current state marked, the partitions in the transaction and the
// records written to __transaction_state.
func coordinatorContent(f *Frame, p painter) ([]string, Content, Range) {
	if len(f.Coordinators) == 0 {
		return nil, textLines{p.muted("  (no transaction coordinator involved)")}, noRange
	}
	var out []string
	var heads []int
	anchor := noRange
	for i := range f.Coordinators {
		if i > 0 {
			out = append(out, "")
		}
		lines, a := p.coordinatorLines(&f.Coordinators[i])
		if a.From >= 0 && anchor.From < 0 {
			anchor = Range{a.From + len(out), a.To + len(out)}
		}
		heads = append(heads, len(out))
		out = append(out, lines...)
	}
	return nil, sections{out, heads}, anchor
}

func (p painter) coordinatorLines(c *CoordinatorView) ([]string, Range) {
	th := p.th
	out := []string{p.mark(c.Changed) + p.bold("transactional.id "+clean(c.TxnID))}
	where := "  coordinator " + clean(c.Partition)
	if c.Broker != "" {
		where += p.muted(" led by ") + clean(c.Broker)
	}
	out = append(out, where)
	if c.ProducerID >= 0 {
		out = append(out, "  producerId "+p.bold(i64(c.ProducerID))+"  epoch "+p.bold(itoa(int(c.Epoch))))
	}
	stateLine := len(out)
	out = append(out, "  state "+th.RenderBold(stateKind(c.State), "["+clean(c.State)+"]"))
	out = append(out, p.stateMachine(c)...)
	parts := p.muted("none")
	if len(c.Partitions) > 0 {
		cl := make([]string, len(c.Partitions))
		for i, s := range c.Partitions {
			cl[i] = clean(s)
		}
		parts = strings.Join(cl, ", ")
	}
	out = append(out, "  partitions in txn: "+parts)
	out = append(out, "  "+p.muted("writes to "+clean(c.Partition)+":"))
	if len(c.Writes) == 0 {
		out = append(out, "    "+p.muted("(none yet)"))
	}
	// Each record starts with its offset in __transaction_state, which
	// numbers them.
	for i, w := range c.Writes {
		last := i == len(c.Writes)-1
		for j, l := range p.wrap(w, max(p.w-4, 10)) {
			if j == 0 {
				out = append(out, "  "+p.mark(last && c.Changed)+l)
			} else {
				out = append(out, "      "+l)
			}
		}
	}
	if !c.Changed {
		return out, noRange
	}
	return out, Range{stateLine, len(out) - 1}
}

// stateMachine draws the eight states as a small diagram with the current
// one in brackets (and colour), or as a list when the pane is too narrow.
//
//	Empty → Ongoing → PrepareCommit → CompleteCommit
//	                ↘ PrepareAbort  → CompleteAbort
//	PrepareEpochFence ↗               Dead
func (p painter) stateMachine(c *CoordinatorView) []string {
	th := p.th
	tok := func(s string) string {
		if s == c.State {
			return th.RenderBold(stateKind(s), "["+s+"]")
		}
		return p.muted(" " + s + " ")
	}
	w := func(s string) int { return len(s) + 2 }
	type arrows struct{ right, down, up string }
	variants := []arrows{{" → ", " ↘ ", " ↗ "}, {"→", "↘", "↗"}}
	if th.ASCII {
		variants = []arrows{{" -> ", "  \\ ", "  / "}, {"->", " \\", " /"}}
	}
	for _, v := range variants {
		al := len([]rune(v.right))
		// shift makes room on the left so PrepareEpochFence, the widest
		// name, ends where the branch arrows begin.
		shift := max(w("PrepareEpochFence")-(w("Empty")+al+w("Ongoing")), 0)
		branch := shift + w("Empty") + al + w("Ongoing")
		diagramW := 2 + branch + al + w("PrepareCommit") + al + w("CompleteCommit")
		if !sameStates(c.States, kafkaTxnStates) || p.w < diagramW {
			continue
		}
		a := p.muted(v.right)
		row0 := "  " + repeat(" ", shift) + tok("Empty") + a + tok("Ongoing") + a + tok("PrepareCommit") + a + tok("CompleteCommit")
		row1 := "  " + repeat(" ", branch) + p.muted(v.down) + tok("PrepareAbort") +
			repeat(" ", w("PrepareCommit")-w("PrepareAbort")) + a + tok("CompleteAbort")
		row2 := "  " + tok("PrepareEpochFence") + repeat(" ", branch-w("PrepareEpochFence")) + p.muted(v.up) +
			repeat(" ", w("PrepareCommit")+al) + tok("Dead")
		return []string{row0, row1, row2}
	}
	states := c.States
	if len(states) == 0 {
		states = kafkaTxnStates
	}
	cols := 1
	if p.w >= 42 {
		cols = 2
	}
	rows := (len(states) + cols - 1) / cols
	out := make([]string, rows)
	for i, s := range states {
		s = clean(s)
		cell := "  " + p.muted("  "+s)
		if s == c.State {
			cell = "  " + th.RenderBold(stateKind(s), th.Sym.Cursor+" ["+s+"]")
		}
		r := i % rows
		if out[r] != "" {
			out[r] = padRight(out[r], 21)
		}
		out[r] += cell
	}
	return out
}

func sameStates(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]bool{}
	for _, s := range a {
		seen[s] = true
	}
	for _, s := range b {
		if !seen[s] {
			return false
		}
	}
	return true
}

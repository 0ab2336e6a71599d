package panels

import (
	"strings"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// The diagram below places the eight coordinator states by their ids in
// TransactionState.java, the order CoordinatorView.States lists their names
// in; a view with another number of states gets a list instead.
const (
	stEmpty = iota
	stOngoing
	stPrepareCommit
	stPrepareAbort
	stCompleteCommit
	stCompleteAbort
	stDead
	stPrepareEpochFence
	NumTxnStates
)

// Coordinator draws, per transactional id: where its coordinator
// lives (a __transaction_state partition and its leader), the state machine
// with the current state marked, the partitions in the transaction and the
// records written to __transaction_state.
func Coordinator(f *model.Frame, p Painter) ([]string, content.Content, content.Range) {
	if len(f.Coordinators) == 0 {
		return nil, content.Lines{p.muted("  (no transaction coordinator involved)")}, content.NoRange
	}
	var out []string
	var heads []int
	anchor := content.NoRange
	for i := range f.Coordinators {
		if i > 0 {
			out = append(out, "")
		}
		lines, a := p.coordinatorLines(&f.Coordinators[i])
		if a.From >= 0 && anchor.From < 0 {
			anchor = content.Range{From: a.From + len(out), To: a.To + len(out)}
		}
		heads = append(heads, len(out))
		out = append(out, lines...)
	}
	return nil, content.Sections{Lines: out, Heads: heads}, anchor
}

func (p Painter) coordinatorLines(c *model.CoordinatorView) ([]string, content.Range) {
	th := p.Theme
	out := []string{p.mark(c.Changed) + p.Bold("transactional.id "+cells.Clean(c.TxnID))}
	where := "  coordinator " + cells.Clean(c.Partition)
	if c.Broker != "" {
		where += p.muted(" led by ") + cells.Clean(c.Broker)
	}
	out = append(out, where)
	if c.ProducerID >= 0 {
		out = append(out, "  producerId "+p.Bold(i64(c.ProducerID))+"  epoch "+p.Bold(itoa(int(c.Epoch))))
	}
	stateLine := len(out)
	if c.Loading && c.Current < 0 {
		// A new coordinator reading the log: no state yet, and no
		// partition list to show either.
		out = append(out, p.Flow("  state ", []string{th.RenderBold(theme.Open, "(loading "+cells.Clean(c.Partition)+")"),
			p.muted("answers COORDINATOR_LOAD_IN_PROGRESS(14)")}, " ", 4)...)
		out = append(out, p.stateMachine(c)...)
		out = append(out, "  partitions in txn: "+p.muted("(loading)"))
	} else {
		out = append(out, "  state "+th.RenderBold(toneKind(c.Tone), "["+cells.Clean(c.State())+"]"))
		out = append(out, p.stateMachine(c)...)
	}
	parts := p.muted("none")
	if len(c.Partitions) > 0 {
		cl := make([]string, len(c.Partitions))
		for i, s := range c.Partitions {
			cl[i] = cells.Clean(s)
		}
		parts = strings.Join(cl, ", ")
	}
	if !c.Loading || c.Current >= 0 {
		out = append(out, "  partitions in txn: "+parts)
	}
	out = append(out, "  "+p.muted("writes to "+cells.Clean(c.Partition)+":"))
	if len(c.Writes) == 0 {
		out = append(out, "    "+p.muted("(none yet)"))
	}
	// Each record starts with its offset in __transaction_state, which
	// numbers them.
	for i, w := range c.Writes {
		last := i == len(c.Writes)-1
		for j, l := range p.Wrap(w, max(p.Width-4, 10)) {
			if j == 0 {
				out = append(out, "  "+p.mark(last && c.Changed)+l)
			} else {
				out = append(out, "      "+l)
			}
		}
	}
	for _, w := range c.Appending {
		for j, l := range p.Wrap(p.Theme.Sym.Ellipsis+" appending "+w+" (takes effect once replicated)", max(p.Width-4, 10)) {
			if j == 0 {
				out = append(out, "  "+p.mark(c.Changed)+p.Theme.Render(theme.InFlight, l))
			} else {
				out = append(out, "      "+p.Theme.Render(theme.InFlight, l))
			}
		}
	}
	if !c.Changed {
		return out, content.NoRange
	}
	return out, content.Range{From: stateLine, To: len(out) - 1}
}

// stateMachine draws the eight states as a small diagram with the current
// one in brackets (and colour), or as a list when the pane is too narrow.
//
//	Empty → Ongoing → PrepareCommit → CompleteCommit
//	                ↘ PrepareAbort  → CompleteAbort
//	PrepareEpochFence ↗               Dead
func (p Painter) stateMachine(c *model.CoordinatorView) []string {
	th := p.Theme
	names := make([]string, len(c.States))
	widths := make([]int, len(c.States))
	for i, s := range c.States {
		names[i] = cells.Clean(s)
		widths[i] = cells.Width(names[i])
	}
	tok := func(i int) string {
		if i == c.Current {
			return th.RenderBold(toneKind(c.Tone), "["+names[i]+"]")
		}
		return p.muted(" " + names[i] + " ")
	}
	w := func(i int) int { return widths[i] + 2 }
	type arrows struct{ right, down, up string }
	variants := []arrows{{" → ", " ↘ ", " ↗ "}, {"→", "↘", "↗"}}
	if th.ASCII {
		variants = []arrows{{" -> ", "  \\ ", "  / "}, {"->", " \\", " /"}}
	}
	for _, v := range variants {
		al := len([]rune(v.right))
		if len(c.States) != NumTxnStates {
			break
		}
		// shift makes room on the left so PrepareEpochFence, the widest
		// name, ends where the branch arrows begin.
		shift := max(w(stPrepareEpochFence)-(w(stEmpty)+al+w(stOngoing)), 0)
		branch := shift + w(stEmpty) + al + w(stOngoing)
		diagramW := 2 + branch + al + w(stPrepareCommit) + al + w(stCompleteCommit)
		if p.Width < diagramW {
			continue
		}
		a := p.muted(v.right)
		row0 := "  " + cells.Repeat(" ", shift) + tok(stEmpty) + a + tok(stOngoing) + a + tok(stPrepareCommit) + a + tok(stCompleteCommit)
		row1 := "  " + cells.Repeat(" ", branch) + p.muted(v.down) + tok(stPrepareAbort) +
			cells.Repeat(" ", max(w(stPrepareCommit)-w(stPrepareAbort), 0)) + a + tok(stCompleteAbort)
		row2 := "  " + tok(stPrepareEpochFence) + cells.Repeat(" ", max(branch-w(stPrepareEpochFence), 0)) + p.muted(v.up) +
			cells.Repeat(" ", w(stPrepareCommit)+al) + tok(stDead)
		return []string{row0, row1, row2}
	}
	cols := 1
	if p.Width >= 42 {
		cols = 2
	}
	rows := (len(names) + cols - 1) / cols
	out := make([]string, rows)
	for i, s := range names {
		cell := "  " + p.muted("  "+s)
		if i == c.Current {
			cell = "  " + th.RenderBold(toneKind(c.Tone), th.Sym.Cursor+" ["+s+"]")
		}
		r := i % rows
		if out[r] != "" {
			out[r] = padRight(out[r], 21)
		}
		out[r] += cell
	}
	return out
}

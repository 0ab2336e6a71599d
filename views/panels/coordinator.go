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
	var out []linePart
	var heads []int
	anchor := content.NoRange
	for i := range f.Coordinators {
		if i > 0 {
			out = append(out, linePart{})
		}
		heads = append(heads, len(out))
		var a content.Range
		out, a = p.coordinatorParts(out, &f.Coordinators[i])
		if a.From >= 0 && anchor.From < 0 {
			anchor = content.Range{From: a.From + heads[i], To: a.To + heads[i]}
		}
	}
	return nil, content.SectionsOf(partLines(out), heads), anchor
}

// linePart is a line as two parts, joined only when it is drawn: a
// coordinator's __transaction_state records are a hundred lines, each a
// gutter and a wrapped piece of a record, of which a screenful shows.
type linePart struct{ pre, text string }

// partLines is Content held as linePart lines.
type partLines []linePart

func (l partLines) Len() int          { return len(l) }
func (l partLines) Line(i int) string { return l[i].pre + l[i].text }

// coordinatorLines is the lines of one transactional id's coordinator.
func (p Painter) coordinatorLines(c *model.CoordinatorView) ([]string, content.Range) {
	parts, r := p.coordinatorParts(nil, c)
	out := make([]string, len(parts))
	for i, l := range parts {
		out[i] = l.pre + l.text
	}
	return out, r
}

// coordinatorParts appends the lines of c to out; the range is within
// what it appended.
func (p Painter) coordinatorParts(out []linePart, c *model.CoordinatorView) ([]linePart, content.Range) {
	base := len(out)
	th := p.Theme
	top := []string{p.mark(c.Changed) + p.Bold("transactional.id "+cells.Clean(c.TxnID))}
	where := "  coordinator " + cells.Clean(c.Partition)
	if c.Broker != "" {
		where += p.muted(" led by ") + cells.Clean(c.Broker)
	}
	top = append(top, where)
	if c.ProducerID >= 0 {
		top = append(top, "  producerId "+p.Bold(i64(c.ProducerID))+"  epoch "+p.Bold(itoa(int(c.Epoch))))
	}
	stateLine := len(top)
	if c.Loading && c.Current < 0 {
		// A new coordinator reading the log: no state yet, and no
		// partition list to show either.
		top = append(top, p.Flow("  state ", []string{th.RenderBold(theme.Open, "(loading "+cells.Clean(c.Partition)+")"),
			p.muted("answers COORDINATOR_LOAD_IN_PROGRESS(14)")}, " ", 4)...)
		top = append(top, p.stateMachine(c)...)
		top = append(top, "  partitions in txn: "+p.muted("(loading)"))
	} else {
		top = append(top, "  state "+th.RenderBold(toneKind(c.Tone), "["+cells.Clean(c.State())+"]"))
		top = append(top, p.stateMachine(c)...)
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
		top = append(top, "  partitions in txn: "+parts)
	}
	top = append(top, "  "+p.muted("writes to "+cells.Clean(c.Partition)+":"))
	if len(c.Writes) == 0 {
		top = append(top, "    "+p.muted("(none yet)"))
	}
	for _, l := range top {
		out = append(out, linePart{text: l})
	}
	// Each record starts with its offset in __transaction_state, which
	// numbers them.
	for i, w := range c.Writes {
		last := i == len(c.Writes)-1
		for j, l := range p.Wrap(w, max(p.Width-4, 10)) {
			if j == 0 {
				out = append(out, linePart{pre: "  " + p.mark(last && c.Changed), text: l})
			} else {
				out = append(out, linePart{pre: "      ", text: l})
			}
		}
	}
	for _, w := range c.Appending {
		for j, l := range p.Wrap(p.Theme.Sym.Ellipsis+" appending "+w+" (takes effect once replicated)", max(p.Width-4, 10)) {
			if j == 0 {
				out = append(out, linePart{pre: "  " + p.mark(c.Changed), text: p.Theme.Render(theme.InFlight, l)})
			} else {
				out = append(out, linePart{pre: "      ", text: p.Theme.Render(theme.InFlight, l)})
			}
		}
	}
	if !c.Changed {
		return out, content.NoRange
	}
	return out, content.Range{From: stateLine, To: len(out) - 1 - base}
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

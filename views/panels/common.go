// Package panels builds the content of the player's and the sandbox's
// panels from a frame: the producers, the partition logs, the coordinator,
// the consumers, the timeline, the events, the lesson's narration, the step
// view and the details. Each builder is a plain function of the frame and a
// Painter (the theme and the width); it returns a pane's header, body and
// the range to bring into view, and holds no state. Cache keeps what was
// built for a frame's Key.
//
// It imports the view-model, the theme, the layout's panel names and the
// pane's Content types; no other component and never the engine.
package panels

import (
	"strconv"
	"strings"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// Painter renders panel content for one frame at one inner width. The root
// makes one per refresh and hands it to the content builders below, which are
// plain functions of (frame, width, theme): they hold no state.
type Painter struct {
	Theme *theme.Theme
	Width int // inner width of the pane
	// Cache, when set, remembers wrapped text across frames.
	Cache *Cache
}

// Wrap is wrap(s, w), remembered across frames when the painter has a
// cache. The lines are shared: do not change them.
func (p Painter) Wrap(s string, w int) []string {
	if p.Cache == nil {
		return cells.Wrap(s, w)
	}
	return p.Cache.wrap(s, w)
}

// mark is the two-cell gutter that flags a changed item: a glyph and colour,
// so the change shows without colour too.
func (p Painter) mark(changed bool) string {
	if !changed {
		return "  "
	}
	g := p.Theme.Glyph(theme.Changed)
	return p.Theme.Render(theme.Changed, g) + cells.Repeat(" ", 2-cells.Width(g))
}

func (p Painter) muted(s string) string { return p.Theme.Render(theme.Muted, s) }

func (p Painter) Bold(s string) string { return p.Theme.RenderBold(theme.Plain, s) }

// statusKind maps a row status to its theme kind.
func statusKind(s model.RowStatus) theme.Kind {
	switch s {
	case model.StatusOpen:
		return theme.Open
	case model.StatusCommitted:
		return theme.Committed
	case model.StatusAborted:
		return theme.Aborted
	default:
		return theme.Plain
	}
}

// toneKind is the theme kind that draws a tone, so a state word or an
// error gets a colour that matches its meaning.
func toneKind(t model.Tone) theme.Kind {
	switch t {
	case model.ToneIdle:
		return theme.Muted
	case model.ToneOpen:
		return theme.Open
	case model.ToneEnding:
		return theme.InFlight
	case model.ToneCommitted:
		return theme.Committed
	case model.ToneAborted:
		return theme.Aborted
	case model.ToneFenced:
		return theme.Fenced
	default:
		return theme.Plain
	}
}

func itoa(n int) string  { return strconv.Itoa(n) }
func i64(n int64) string { return strconv.FormatInt(n, 10) }
func digits(n int64) int { return len(i64(n)) }
func padRight(s string, w int) string {
	if n := w - cells.Width(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}

// pidEpoch renders "4000:0", or "-" for no producer id.
func pidEpoch(pid int64, epoch int16) string {
	if pid < 0 {
		return "-"
	}
	return i64(pid) + ":" + strconv.Itoa(int(epoch))
}

// anchorOf returns the range spanning the indexes for which changed is true.
func anchorOf(n int, changed func(i int) bool) content.Range {
	r := content.NoRange
	for i := 0; i < n; i++ {
		if changed(i) {
			if r.From < 0 {
				r.From = i
			}
			r.To = i
		}
	}
	return r
}

// columns lays several contents side by side, each clipped to colW cells
// (with tail, so a cut value does not pass for a shorter one) and gap cells
// between them. Lines are made on demand. The headings of the columns
// (Sticky) stay in view together.
func columns(cols []content.Content, colW, gap int, tail string) content.Content {
	n := 0
	for _, c := range cols {
		n = max(n, c.Len())
	}
	return &columnLines{cols: cols, n: n, colW: colW, sep: cells.Repeat(" ", gap), tail: tail}
}

type columnLines struct {
	cols      []content.Content
	n, colW   int
	sep, tail string
	// The last StickyAt asked: line stickyAt, when stickyOK.
	stickyAt            int
	sticky              string
	stickyAny, stickyOK bool
}

func (c *columnLines) Len() int { return c.n }

func (c *columnLines) Line(i int) string {
	return c.join(func(col content.Content) string {
		if i < col.Len() {
			return col.Line(i)
		}
		return ""
	})
}

// StickyAt is the headings of the columns whose sections started above
// line i, side by side.
func (c *columnLines) StickyAt(i int) (string, bool) {
	// The pane asks for the same line whenever it sizes, scrolls or
	// draws: keep the last answer.
	if c.stickyOK && c.stickyAt == i {
		return c.sticky, c.stickyAny
	}
	line, any := c.stickyLine(i)
	c.stickyAt, c.sticky, c.stickyAny, c.stickyOK = i, line, any, true
	return line, any
}

func (c *columnLines) stickyLine(i int) (string, bool) {
	any := false
	line := c.join(func(col content.Content) string {
		if st, ok := col.(content.Sticky); ok && i < col.Len() {
			if h, ok := st.StickyAt(i); ok {
				any = true
				return h
			}
		}
		return ""
	})
	return line, any
}

func (c *columnLines) join(cell func(content.Content) string) string {
	var b strings.Builder
	for j, col := range c.cols {
		if j > 0 {
			b.WriteString(c.sep)
		}
		s := cell(col)
		if j == len(c.cols)-1 {
			b.WriteString(cells.Clip(s, c.colW, c.tail))
		} else {
			b.WriteString(cells.Fit(s, c.colW, c.tail))
		}
	}
	return b.String()
}

// columnCount is how many columns of at least minW cells fit in w, at most n.
func columnCount(w, minW, gap, n int) int {
	if n <= 1 || minW <= 0 {
		return 1
	}
	k := (w + gap) / (minW + gap)
	return max(1, min(k, n))
}

// columns splits the painter's width into up to n columns at least minW
// wide, gap apart: it returns how many, and a painter for one column.
func (p Painter) columns(minW, gap, n int) (int, Painter) {
	k := columnCount(p.Width, minW, gap, n)
	return k, Painter{Theme: p.Theme, Width: (p.Width - gap*(k-1)) / max(k, 1), Cache: p.Cache}
}

// Flow lays out styled items after a lead ("  next seq ") on as many lines
// as the painter's width needs: items are never cut between lines, and
// continuation lines are indented by indent cells. Narrow panels thus keep
// every word of "last error PRODUCER_FENCED(90)" instead of clipping it.
// An item wider than a whole line is left for the pane to clip.
func (p Painter) Flow(lead string, items []string, sep string, indent int) []string {
	var out []string
	line, lw := lead, cells.Width(lead)
	pad, sw := cells.Repeat(" ", indent), cells.Width(sep)
	empty := true // no item on the line yet
	for _, it := range items {
		iw := cells.Width(it)
		switch {
		case !empty && lw+sw+iw <= p.Width:
			line += sep
			lw += sw
		case !empty:
			out = append(out, line)
			line, lw = pad, indent
		case lw+iw > p.Width && lw > indent && len(out) == 0:
			// Not even the first item fits after the lead: the lead
			// gets a line of its own.
			out = append(out, strings.TrimRight(line, " "))
			line, lw = pad, indent
		}
		line += it
		lw += iw
		empty = false
	}
	return append(out, line)
}

// Changed reports whether the last step changed something a panel
// shows, so a hidden tab can say so.
func Changed(f *model.Frame, p layout.PanelID) bool {
	switch p {
	case layout.PanelProducers:
		return anyOf(f.Producers, func(x model.ProducerView) bool { return x.Changed }) ||
			f.Cost != nil && anyOf(f.Cost.Rows, func(x model.CostRow) bool { return x.Changed })
	case layout.PanelPartitions:
		return anyOf(f.Partitions, func(x model.PartitionView) bool { return x.Changed })
	case layout.PanelCoordinator:
		return anyOf(f.Coordinators, func(x model.CoordinatorView) bool { return x.Changed })
	case layout.PanelConsumers:
		return anyOf(f.Consumers, func(x model.ConsumerView) bool { return x.Changed }) ||
			anyOf(f.Groups, func(x model.GroupView) bool { return x.Changed })
	case layout.PanelTimeline:
		return anyOf(f.Timeline, func(x model.Arrow) bool { return x.Changed })
	case layout.PanelEvents:
		return f.NewEvents > 0
	}
	return false
}

func anyOf[T any](xs []T, ok func(T) bool) bool {
	for _, x := range xs {
		if ok(x) {
			return true
		}
	}
	return false
}

package panels

import (
	"slices"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// The player redraws on every key, and a lesson with a long history has
// panels of thousands of lines. Stepping back and forth shows the same
// frames again, so what was drawn for a frame is kept, keyed by the frame's
// Key, and reused: the panels' content (drawCache), each line once styled
// (memoLines), and each pane's finished lines (paneDrawn). A frame with Key
// 0 is drawn afresh every time.
//
// The caches are reached through pointers that the copies of App and Pane
// that Bubble Tea passes around share. Update and View run on one
// goroutine, so they need no locking.

// panelSlots is how many frames' content each panel keeps: enough for
// going back and forth over a few steps.
const panelSlots = 4

// Cache holds the content of each panel for the last few frames.
type Cache struct {
	slots [layout.NumPanels][panelSlots]Drawn
	next  [layout.NumPanels]int
	// wraps remembers wrapped texts across frames: consecutive frames
	// share most of their event lines and __transaction_state records.
	wraps wrapMemo
	// events remembers each learner's event line wrapped (eventWrap).
	events map[*model.EventLine]eventWrapped
	// timeline remembers the Timeline's lines (timelineLine).
	timeline map[tlLineKey]string
	// rows remembers the partition logs' row lines (logRowLine).
	rows map[rowKey]rowLine
}

// rowLine is a row's line and the values it was drawn with.
type rowLine struct {
	vals []string
	line string
}

// logRowLine is the row line for k, whose values are vals, drawn by draw
// once and remembered. The values are compared too (strings that share
// their bytes compare at once), so an array reused for other values is
// drawn afresh.
func (c *Cache) logRowLine(k *rowKey, vals []string, draw func() string) string {
	if l, ok := c.rows[*k]; ok && slices.Equal(l.vals, vals) {
		return l.line
	}
	if c.rows == nil || len(c.rows) >= maxWrapMemo {
		c.rows = make(map[rowKey]rowLine, 256)
	}
	l := draw()
	c.rows[*k] = rowLine{vals: slices.Clone(vals), line: l}
	return l
}

// timelineLine is the Timeline's line for k, drawn by draw once and
// remembered.
func (c *Cache) timelineLine(k *tlLineKey, draw func(*tlLineKey) string) string {
	if l, ok := c.timeline[*k]; ok {
		return l
	}
	if c.timeline == nil || len(c.timeline) >= maxWrapMemo {
		c.timeline = make(map[tlLineKey]string, 256)
	}
	l := draw(k)
	c.timeline[*k] = l
	return l
}

// eventWrapped is a learner's event line wrapped, and what it was made
// from: the event, the glyph a violation is drawn with, and the width.
type eventWrapped struct {
	ev    model.EventLine
	glyph string
	w     int
	lines []string
}

// eventWrap is learnerText(e) wrapped to w cells, remembered. The lines
// are shared: do not change them.
//
// The frames of a lesson carry their events in arrays shared from frame to
// frame (a window on the session's trail), so an event is found by its
// address, without hashing its text; what is kept with it is compared
// too (strings that share their bytes compare at once), so an address
// reused for another event makes its lines afresh.
func (c *Cache) eventWrap(th *theme.Theme, e *model.EventLine, w int) []string {
	glyph := ""
	if e.Violation {
		glyph = th.Glyph(theme.Violated)
	}
	if x, ok := c.events[e]; ok && x.w == w && x.glyph == glyph && x.ev == *e {
		return x.lines
	}
	if c.events == nil || len(c.events) >= maxWrapMemo {
		c.events = make(map[*model.EventLine]eventWrapped, 256)
	}
	l := cells.Wrap(learnerText(th, e), w)
	c.events[e] = eventWrapped{ev: *e, glyph: glyph, w: w, lines: l}
	return l
}

// wrapMemo maps a text and a width to its wrapped lines.
type wrapMemo struct {
	m map[wrapKey][]string
}

type wrapKey struct {
	s string
	w int
}

// maxWrapMemo bounds the memo: a few frames' worth of event lines and
// records. When it is full it starts again, which costs one frame's
// wrapping.
const maxWrapMemo = 4096

// wrap is wrap(s, w), remembered. The lines are shared: do not change them.
func (c *Cache) wrap(s string, w int) []string {
	if c == nil {
		return cells.Wrap(s, w)
	}
	k := wrapKey{s, w}
	if l, ok := c.wraps.m[k]; ok {
		return l
	}
	if c.wraps.m == nil || len(c.wraps.m) >= maxWrapMemo {
		c.wraps.m = make(map[wrapKey][]string, 256)
	}
	l := cells.Wrap(s, w)
	c.wraps.m[k] = l
	return l
}

func NewCache() *Cache { return &Cache{} }

// DrawKey says what a panel's content was built from.
type DrawKey struct {
	Frame uint64
	Width int
	// The narration also draws the checkpoint, which answering changes
	// without changing the frame's Key.
	Checkpoint cpState
}

type cpState struct {
	has, answered                    bool
	chosen, correct, choices, locked int
}

func CheckpointOf(cp *model.Checkpoint) cpState {
	if cp == nil {
		return cpState{}
	}
	return cpState{has: true, answered: cp.Answered, chosen: cp.Chosen, correct: cp.Correct, choices: len(cp.Choices), locked: cp.Locked}
}

// Drawn is one panel's content for one frame.
type Drawn struct {
	key    DrawKey
	Head   []string
	Body   *content.Memo
	Anchor content.Range
}

func (c *Cache) get(p layout.PanelID, k DrawKey) (Drawn, bool) {
	if c == nil || k.Frame == 0 {
		return Drawn{}, false
	}
	for _, d := range c.slots[p] {
		if d.Body != nil && d.key == k {
			return d, true
		}
	}
	return Drawn{}, false
}

func (c *Cache) put(p layout.PanelID, d Drawn) {
	if c == nil || d.key.Frame == 0 {
		return
	}
	c.slots[p][c.next[p]] = d
	c.next[p] = (c.next[p] + 1) % panelSlots
}

// Draw is panel p's content for frame f, w cells wide as k says: the one
// drawn before for the same key, or built now by build and kept.
func (c *Cache) Draw(p layout.PanelID, k DrawKey, f *model.Frame, th *theme.Theme, build func(*model.Frame, Painter) ([]string, content.Content, content.Range)) Drawn {
	if d, ok := c.get(p, k); ok {
		return d
	}
	head, body, anchor := build(f, Painter{Theme: th, Width: k.Width, Cache: c})
	d := Drawn{key: k, Head: head, Body: content.MemoOf(body), Anchor: anchor}
	c.put(p, d)
	return d
}

// Package layout places the player's panels in the terminal: For is a pure
// function of the window's size, unit-tested, which says where each panel
// goes, or that the terminal is too small. Compose lays rendered blocks on
// the screen. It knows no component and draws nothing of its own but the
// "terminal too small" message.
package layout

import "fmt"

// MaxProse caps the length of a line of narration: past about 100
// characters the eye loses its place going back to the next line.
const MaxProse = 100

// PanelID names one of the player's panels.
type PanelID int

// The panels, in focus (tab) order.
const (
	PanelProducers PanelID = iota
	PanelPartitions
	PanelCoordinator
	PanelConsumers
	PanelTimeline
	PanelEvents
	PanelNarration
	NumPanels
)

var panelNames = [NumPanels]string{
	"Producers", "Partitions", "Coordinator", "Consumers", "Timeline", "Events", "Lesson",
}

func (p PanelID) String() string {
	if p < 0 || p >= NumPanels {
		return "Panel(" + fmt.Sprint(int(p)) + ")"
	}
	return panelNames[p]
}

// Rect is a cell rectangle of the terminal; X and Y are 0-based.
type Rect struct{ X, Y, W, H int }

// Empty reports whether the rectangle has no cells.
func (r Rect) Empty() bool { return r.W <= 0 || r.H <= 0 }

// Contains reports whether cell (x, y) is in the rectangle.
func (r Rect) Contains(x, y int) bool {
	return x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H
}

// Mode is the family of arrangement For chose for a size.
type Mode int

// Layout modes, from the smallest terminals to the largest.
const (
	ModeTooSmall Mode = iota
	// ModeCompact shows one panel at a time above the narration.
	ModeCompact
	// ModeWide shows the panels on the left and the narration on the right,
	// for wide but short terminals.
	ModeWide
	// ModeTall stacks two panel slots above the narration.
	ModeTall
	// ModeMedium shows three panel slots above the narration.
	ModeMedium
	// ModeFull shows every panel at once.
	ModeFull
)

func (m Mode) String() string {
	switch m {
	case ModeCompact:
		return "compact"
	case ModeWide:
		return "wide"
	case ModeTall:
		return "tall"
	case ModeMedium:
		return "medium"
	case ModeFull:
		return "full"
	default:
		return "too-small"
	}
}

// Slot is a rectangle that shows one of its panels at a time; the title of
// a slot with several panels lists them as tabs.
type Slot struct {
	Rect
	Panels []PanelID
}

// Placement is where every part of the player goes for one terminal size.
// The narration panel is never inside a slot: the lesson text stays visible.
type Placement struct {
	Width, Height int
	Mode          Mode
	Header        Rect // one line: app and lesson title, play state
	Help          Rect // one line: the key help bar
	Narration     Rect
	Slots         []Slot
}

// SlotOf returns the index of the slot that holds p, or -1.
func (pl Placement) SlotOf(p PanelID) int {
	for i, s := range pl.Slots {
		for _, q := range s.Panels {
			if q == p {
				return i
			}
		}
	}
	return -1
}

// The smallest terminal the player draws in. Below it a compact slot would
// have fewer than seven lines of content, too few to read a partition log.
const (
	MinWidth  = 60
	MinHeight = 18
)

// TooSmallError is returned by For below MinWidth x MinHeight. Its text is
// exactly what the app shows instead of the panels.
type TooSmallError struct{ NeedW, NeedH, HaveW, HaveH int }

func (e *TooSmallError) Error() string {
	return fmt.Sprintf("terminal too small: need %dx%d (have %dx%d)", e.NeedW, e.NeedH, e.HaveW, e.HaveH)
}

// For places the player's panels in a w x h terminal. It is a pure
// function of its arguments. Below the minimum size it returns a
// *TooSmallError and a Placement with Mode ModeTooSmall.
//
// ascii is accepted so the geometry may depend on the border set; today
// ASCII borders take the same cells as box drawing, so it changes nothing.
func For(w, h int, ascii bool) (Placement, error) {
	_ = ascii
	w, h = max(w, 0), max(h, 0)
	pl := Placement{Width: w, Height: h}
	if w < MinWidth || h < MinHeight {
		return pl, &TooSmallError{MinWidth, MinHeight, w, h}
	}
	pl.Header = Rect{0, 0, w, 1}
	pl.Help = Rect{0, h - 1, w, 1}
	body := Rect{0, 1, w, h - 2}
	switch {
	case w >= 150 && h >= 40:
		layoutFull(&pl, body)
	case w >= 110 && h >= 30:
		layoutMedium(&pl, body)
	case w >= 120:
		layoutWide(&pl, body)
	case h >= 36:
		layoutTall(&pl, body)
	default:
		layoutCompact(&pl, body)
	}
	return pl, nil
}

var (
	allStage   = []PanelID{PanelProducers, PanelPartitions, PanelCoordinator, PanelConsumers, PanelTimeline, PanelEvents}
	clientSide = []PanelID{PanelProducers, PanelCoordinator, PanelConsumers}
	logSide    = []PanelID{PanelPartitions, PanelTimeline, PanelEvents}
)

func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }

// splitV cuts r into a top part of height top and the rest.
func splitV(r Rect, top int) (Rect, Rect) {
	top = clamp(top, 0, r.H)
	return Rect{r.X, r.Y, r.W, top}, Rect{r.X, r.Y + top, r.W, r.H - top}
}

// splitH cuts r into a left part of width left and the rest.
func splitH(r Rect, left int) (Rect, Rect) {
	left = clamp(left, 0, r.W)
	return Rect{r.X, r.Y, left, r.H}, Rect{r.X + left, r.Y, r.W - left, r.H}
}

func layoutCompact(pl *Placement, body Rect) {
	pl.Mode = ModeCompact
	narr := clamp(body.H*9/20, 7, 14)
	stage, n := splitV(body, body.H-narr)
	pl.Narration = n
	pl.Slots = []Slot{{stage, allStage}}
}

func layoutWide(pl *Placement, body Rect) {
	pl.Mode = ModeWide
	narrW := clamp(body.W*2/5, 44, 72)
	if Paired(pl.Width) {
		// The pair needs about 116 cells; the lesson text gives up to
		// its least width for them.
		narrW = clamp(min(body.W*2/5, body.W-116), 44, 72)
	}
	stage, n := splitH(body, body.W-narrW)
	pl.Narration = n
	if Paired(pl.Width) {
		// The Timeline (with the Events) beside the Partitions (with
		// the clients' panels, which a step brings forward when it
		// changes them).
		tl, rest := Pair(stage)
		pl.Slots = []Slot{{tl, []PanelID{PanelTimeline, PanelEvents}},
			{rest, []PanelID{PanelPartitions, PanelProducers, PanelCoordinator, PanelConsumers}}}
		return
	}
	if stage.W >= 110 {
		l, r := splitH(stage, stage.W*55/100)
		pl.Slots = []Slot{{l, logSide}, {r, clientSide}}
		return
	}
	pl.Slots = []Slot{{stage, allStage}}
}

func layoutTall(pl *Placement, body Rect) {
	pl.Mode = ModeTall
	narr := clamp(body.H/4, 8, 14)
	stage, n := splitV(body, body.H-narr)
	pl.Narration = n
	top, bottom := splitV(stage, stage.H*2/5)
	pl.Slots = []Slot{{top, clientSide}, {bottom, logSide}}
}

func layoutMedium(pl *Placement, body Rect) {
	pl.Mode = ModeMedium
	narr := clamp(body.H*7/20, 9, 14)
	stage, n := splitV(body, body.H-narr)
	pl.Narration = n
	if Paired(pl.Width) {
		// The two panels that shared the left slot as tabs, side by
		// side in two thirds of the width.
		left, right := splitH(stage, stage.W*2/3)
		tl, parts := Pair(left)
		rt, rb := splitV(right, right.H/2)
		pl.Slots = []Slot{
			{tl, []PanelID{PanelTimeline}},
			{parts, []PanelID{PanelPartitions}},
			{rt, []PanelID{PanelProducers, PanelCoordinator}},
			{rb, []PanelID{PanelConsumers, PanelEvents}},
		}
		return
	}
	left, right := splitH(stage, stage.W*58/100)
	rt, rb := splitV(right, right.H/2)
	pl.Slots = []Slot{
		{left, []PanelID{PanelPartitions, PanelTimeline}},
		{rt, []PanelID{PanelProducers, PanelCoordinator}},
		{rb, []PanelID{PanelConsumers, PanelEvents}},
	}
}

// PairWidth is the narrowest terminal that draws the Timeline beside the
// Partitions rather than as tabs of one slot. At 160 columns each of the
// two gets about 50 cells or more in every arrangement (Pair's 55:45
// split of two thirds of the width, or of the 116 the lesson text leaves
// beside it):
// the Timeline keeps the lifelines of five actors (4 cells each, after a
// 4-cell gutter) and a 30-cell label lane, enough for a message name and
// an error code on two rows, and the Partitions keep a record's offset,
// state, producer and value on one line. Narrower, one of them would
// fall below that, and a tab that shows each at full width reads better.
// Full layouts (150 columns and 40 rows) already give each its own slot.
const PairWidth = 160

// Paired reports whether a terminal w columns wide draws the Timeline and
// the Partitions side by side. It depends on the width alone: side by side,
// the two take no more rows than one.
func Paired(w int) bool { return w >= PairWidth }

// Pair cuts r into the Timeline's part, on the left, and the part beside
// it (the Partitions'): the Timeline takes 55%, for its label lane. A
// screen other than the player's (the sandbox) uses it to draw the same
// pair.
func Pair(r Rect) (timeline, beside Rect) { return splitH(r, r.W*55/100) }

// Beside is the panel drawn beside the Timeline when the learner picked p
// for the second place: the Partitions when p is the Timeline itself,
// which is already drawn.
func Beside(p PanelID) PanelID {
	if p == PanelTimeline {
		return PanelPartitions
	}
	return p
}

func layoutFull(pl *Placement, body Rect) {
	pl.Mode = ModeFull
	narr := clamp(body.H/4, 10, 16)
	stage, n := splitV(body, body.H-narr)
	pl.Narration = n
	top, bottom := splitV(stage, stage.H*55/100)
	prod, rest := splitH(top, top.W*22/100)
	// The coordinator gets room for its state diagram when it can.
	coordW := max(top.W*30/100, min(58, top.W*36/100))
	parts, coord := splitH(rest, rest.W-coordW)
	// The consumers get enough room to stand side by side, so a
	// read_committed and a read_uncommitted reader compare line by line.
	tl, rest2 := splitH(bottom, bottom.W*46/100)
	cons, ev := splitH(rest2, rest2.W*57/100)
	pl.Slots = []Slot{
		{prod, []PanelID{PanelProducers}},
		{parts, []PanelID{PanelPartitions}},
		{coord, []PanelID{PanelCoordinator}},
		{tl, []PanelID{PanelTimeline}},
		{cons, []PanelID{PanelConsumers}},
		{ev, []PanelID{PanelEvents}},
	}
}

// WithRows returns a full layout (ModeFull, two rows of panels) with the
// upper row giving the lower one the rows its panels do not use, as much
// as the lower one's panels need: lines(p) is how many lines panel p has
// to show (its heading and body). A log that scrolls below while the
// panels above it end in blank rows would waste the height. The upper row
// keeps at least minStage rows and never grows past its own height; any
// other layout is returned as it is. Like For, it is a pure function of
// its arguments.
func (pl Placement) WithRows(lines func(PanelID) int) Placement {
	if pl.Mode != ModeFull || len(pl.Slots) == 0 {
		return pl
	}
	top := pl.Slots[0].Y
	for _, s := range pl.Slots {
		top = min(top, s.Y)
	}
	upperH := -1
	for _, s := range pl.Slots {
		if s.Y == top {
			upperH = max(upperH, s.H)
		}
	}
	// The fullest panel of each row, with its borders.
	needUp, needLow, lowH := 0, 0, 0
	for _, s := range pl.Slots {
		n := 0
		for _, p := range s.Panels {
			n = max(n, lines(p)+2)
		}
		switch {
		case s.Y == top && s.H == upperH:
			needUp = max(needUp, n)
		case s.Y == top+upperH:
			needLow, lowH = max(needLow, n), max(lowH, s.H)
		default:
			return pl // not two rows
		}
	}
	give := min(upperH-max(needUp, minStage), needLow-lowH)
	if give <= 0 {
		return pl
	}
	slots := make([]Slot, len(pl.Slots))
	for i, s := range pl.Slots {
		if s.Y == top {
			s.H -= give
		} else {
			s.Y, s.H = s.Y-give, s.H+give
		}
		slots[i] = Slot{s.Rect, s.Panels}
	}
	pl.Slots = slots
	return pl
}

// minStage is the fewest rows the panels above the lesson keep when the
// lesson pane grows: a border, a panel's heading and two lines of it.
const minStage = 5

// WithNarration returns the placement with the lesson pane tall enough for
// lines lines of text, when that takes more rows than it has and the panels
// above it can give them up: a question step shows its narration, its
// question and every choice at once. The panels keep at least minStage
// rows; their slots shrink in proportion, so they still tile the stage. A
// layout with the lesson beside the panels (ModeWide) is returned as it is.
// Like For, it is a pure function of its arguments.
func (pl Placement) WithNarration(lines int) Placement {
	n := pl.Narration
	grow := lines + 2 - n.H
	if grow <= 0 || len(pl.Slots) == 0 || pl.Mode == ModeWide || pl.Mode == ModeTooSmall {
		return pl
	}
	top := n.Y
	for _, s := range pl.Slots {
		top = min(top, s.Y)
	}
	stageH := n.Y - top
	grow = min(grow, stageH-minStage)
	if grow <= 0 {
		return pl
	}
	newH := stageH - grow
	scale := func(y int) int { return top + (y-top)*newH/stageH }
	slots := make([]Slot, len(pl.Slots))
	for i, s := range pl.Slots {
		y0, y1 := scale(s.Y), scale(s.Y+s.H)
		slots[i] = Slot{Rect{s.X, y0, s.W, y1 - y0}, s.Panels}
	}
	pl.Slots = slots
	pl.Narration = Rect{n.X, n.Y - grow, n.W, n.H + grow}
	return pl
}

package panels

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// Player draws a lesson's panels for the player (views/player), which
// cannot import this package: it takes a Player as its player.Panels, in
// plain values (lines, content, ranges). One is made per session, and
// keeps what it drew for the session's recent frames (Cache); a frame's
// Key is a session's own, so another session needs another Player.
type Player struct {
	th    *theme.Theme
	cache *Cache
}

// NewPlayer returns the panels of one session drawn with th; cached false
// draws everything afresh, the reference the cache tests compare with.
func NewPlayer(th *theme.Theme, cached bool) *Player {
	p := &Player{th: th}
	if cached {
		p.cache = NewCache()
	}
	return p
}

// lessonBuilders build the player's panels: the stage's, and the lesson's
// narration with its question.
var lessonBuilders = [layout.NumPanels]func(*model.Frame, Painter) ([]string, content.Content, content.Range){
	layout.PanelNarration:   Narration,
	layout.PanelProducers:   Producers,
	layout.PanelPartitions:  Partitions,
	layout.PanelCoordinator: Coordinator,
	layout.PanelConsumers:   Consumers,
	layout.PanelTimeline:    Timeline,
	layout.PanelEvents:      Events,
}

// Panel is panel id's content for frame f, width cells wide.
func (p *Player) Panel(id layout.PanelID, f *model.Frame, width int) (head []string, body content.Content, anchor content.Range) {
	k := DrawKey{Frame: f.Key, Width: width}
	if id == layout.PanelNarration {
		k.Checkpoint = CheckpointOf(f.Checkpoint)
	}
	d := p.cache.Draw(id, k, f, p.th, lessonBuilders[id])
	return d.Head, d.Body, d.Anchor
}

// Step is the step view (Step) in a box width by height cells inside its
// border, and the tab that names it.
func (p *Player) Step(f *model.Frame, width, height int) (lines []string, tab string) {
	pt := Painter{Theme: p.th, Width: width, Cache: p.cache}
	return Step(f, pt, height), pt.StepTab()
}

// Details is the step's detail view, width cells wide.
func (p *Player) Details(f *model.Frame, width int) content.Content {
	return Details(f, Painter{Theme: p.th, Width: width, Cache: p.cache})
}

// Help is the full help: the key groups, then the glyphs and the
// Timeline's legend (first when timelineFirst), width cells wide.
func (p *Player) Help(keys [][]key.Binding, timelineFirst bool, width int) content.Content {
	pt := Painter{Theme: p.th, Width: width, Cache: p.cache}
	return Indent(pt.HelpLines(pt.KeyLines(keys), timelineFirst))
}

// PlayerPick is the Timeline's message cursor (Pick) as the player holds
// it (its player.Picker): by pointer, so the copies of the player's model
// share it, with its own cache of the Timeline's lines, since the frame
// it draws is marked (Key 0) and is not the frame the panels keep.
type PlayerPick struct {
	pick  Pick
	cache *Cache
}

// NewPlayerPick is a cursor that is off.
func NewPlayerPick() *PlayerPick { return &PlayerPick{pick: NewPick(), cache: NewCache()} }

// On reports whether a message is picked.
func (x *PlayerPick) On() bool { return x.pick.On() }

// Off takes the cursor away.
func (x *PlayerPick) Off() { x.pick = x.pick.Off() }

// Update handles a key against frame f (Pick.Update).
func (x *PlayerPick) Update(km tea.KeyMsg, f *model.Frame) (handled bool) {
	x.pick, handled = x.pick.Update(km, f)
	return handled
}

// Keys are the cursor's keys, for the help: pick, earlier, later, leave.
func (x *PlayerPick) Keys() []key.Binding {
	k := x.pick.Keys
	return []key.Binding{k.Toggle, k.Up, k.Down, k.Leave}
}

// Timeline is the Timeline with the cursor and the picked message's box
// over it (Pick.Draw), width cells wide in a pane rows high.
func (x *PlayerPick) Timeline(th *theme.Theme, f *model.Frame, src model.MessageSource, width, rows int) ([]string, content.Content, content.Range) {
	return x.pick.Draw(f, src, Painter{Theme: th, Width: width, Cache: x.cache}, rows)
}

// Package player is the lesson player: a lesson's steps, its narration and
// questions, the stage's panels in the slots the layout gives, autoplay,
// the help and the step's details over them. It is a component: it imports
// only the foundations (the view-model, the theme, the layout, a pane's
// content, the text measuring, the key helpers), never another component,
// the root, the engine or the lessons.
//
// What it needs from other components comes down in Draw: the pane's box
// (Pane, which the root fills with views/pane) and the panels' content
// (Panels, which the root fills with views/panels). What the root must act
// on goes up as messages from Update: the lesson left (LeftMsg) or
// finished (FinishedMsg), a question answered (AnsweredMsg), the Kafka
// version switched (KafkaMsg).
package player

import (
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/internal/keyset"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// Pane is the bordered, titled, scrollable box every panel, the help and
// the details are drawn in, as the player uses it. The root makes them
// with views/pane (a *pane.Model is a Pane); the player holds them by
// reference, so a copy of the Model shares them, as Bubble Tea copies the
// model on every message.
type Pane interface {
	SetSize(w, h int)
	SetTheme(th *theme.Theme)
	SetTitle(s string)
	SetFooter(s string)
	SetFocused(f bool)
	// SetContent sets the lines that stay put, the body that scrolls, and
	// the range of the body to bring into view.
	SetContent(head []string, body content.Content, anchor content.Range)
	Offset() int
	SetOffset(off int)
	// CanScroll reports whether the body is longer than the box.
	CanScroll() bool
	// Scrolls reports whether km is a scroll key, enabled or not.
	Scrolls(km tea.KeyMsg) bool
	// Handle scrolls with a key (when focused) or the mouse wheel.
	Handle(msg tea.Msg)
	// SetScrollEnabled switches the scroll keys on or off;
	// ScrollEnabled reports which.
	SetScrollEnabled(on bool)
	ScrollEnabled() bool
	// Lines is the box drawn, a line per row.
	Lines() []string
	// Uncached makes the box draw afresh every time.
	Uncached()
}

// Panels draws the content of the player's panels for a frame, width
// cells wide (inside the border and its margin). One is made per session
// (Draw.NewPanels), as it may keep what it drew for the session's frames.
type Panels interface {
	// Panel is a panel's lines that stay put, the body that scrolls and
	// the range the last step changed.
	Panel(p layout.PanelID, f *model.Frame, width int) (head []string, body content.Content, anchor content.Range)
	// Step is the step view, height rows high, and its tab's name.
	Step(f *model.Frame, width, height int) (lines []string, tab string)
	// Details is the step's detail view.
	Details(f *model.Frame, width int) content.Content
	// Help is the full help for the key groups, the Timeline's legend
	// first when timelineFirst.
	Help(keys [][]key.Binding, timelineFirst bool, width int) content.Content
}

// Picker is the cursor on the Timeline's messages (views/panels'
// PlayerPick, which the root lends in Draw.NewPicker): while the Timeline
// has the focus, its toggle key puts the cursor on the newest message,
// and while it is on it takes its keys first (earlier, later, leave); the
// Timeline is then drawn with the cursor and the picked message's fields
// over it. The player holds it by reference, as the panes.
type Picker interface {
	On() bool
	Off()
	// Update handles a key against frame f; handled says the key was the
	// cursor's, and the player does nothing more with it.
	Update(km tea.KeyMsg, f *model.Frame) (handled bool)
	// Keys are the cursor's keys for the help: the toggle, earlier,
	// later, leave.
	Keys() []key.Binding
	// Timeline is the Timeline panel drawn with the cursor and the picked
	// message's box (its fields from src), width cells wide in a pane
	// rows high.
	Timeline(th *theme.Theme, f *model.Frame, src model.MessageSource, width, rows int) (head []string, body content.Content, anchor content.Range)
}

// Draw lends the player what other components draw.
type Draw struct {
	// NewPane makes an empty pane; text is for a text pane (the lesson,
	// the help, the details), which holds its lines in full.
	NewPane func(th *theme.Theme, text bool) Pane
	// NewPanels makes the panels of one session; cached false draws
	// everything afresh.
	NewPanels func(th *theme.Theme, cached bool) Panels
	// Changed reports whether the last step changed something panel p
	// shows; HasDetails whether the step has a detail view.
	Changed    func(f *model.Frame, p layout.PanelID) bool
	HasDetails func(f *model.Frame) bool
	// ProgressBar is the lesson pane's "step n/m" with a bar, w cells.
	ProgressBar func(th *theme.Theme, step, steps, w int) string
	// NewPicker makes the Timeline's message cursor; nil leaves the
	// player without one.
	NewPicker func() Picker
}

// SidePanel is an extra panel of lines for the current step, beside what
// the simulation shows (such as what a real Kafka broker did at this
// step). Lines returns nothing when the step has nothing to show.
type SidePanel struct {
	Title string
	Lines func(f *model.Frame, width int) []string
	// Key, when it has keys, is the root's key that shows the side
	// panel: the player lists it in its help bar and full help (it does
	// not act on it; the root routes it before the player).
	Key key.Binding
}

// ScrollKeys are the keys that scroll a pane, as the full help lists them.
type ScrollKeys struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
}

// Options are what the root gives the player.
type Options struct {
	Theme *theme.Theme
	// Help is the help model, styled by the root as for every screen.
	Help help.Model
	Keys KeyMap
	// ScrollKeys are the panes' scroll keys, for the full help.
	ScrollKeys ScrollKeys
	Draw       Draw
	// ASCII places the panels for an ASCII-only terminal.
	ASCII bool
	// Follow is a seat that watches a lesson another seat drives: the
	// keys that move, play, restart or leave the lesson are off; focus,
	// scrolling, help and details stay. Presenter is the seat that drives
	// a class: it reveals a question (a) instead of answering it.
	Follow, Presenter bool
	// Tick schedules autoplay's next step after d; nil means tea.Tick.
	Tick func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd
	// Uncached draws everything afresh on every key: the reference the
	// cache tests compare with.
	Uncached bool
	// Side, when set, is shown at the end of the step's details, under
	// its title, while it has lines for the step; its Key is listed in
	// the help. eoslab live sets the Key only: the root draws Kafka's
	// side beside the player (views/app_live.go).
	Side *SidePanel
}

// Overlay is what is open over the player's panels.
type Overlay int

const (
	// NoOverlay: the panels show.
	NoOverlay Overlay = iota
	// HelpOverlay is the full help (?).
	HelpOverlay
	// DetailsOverlay is the step's detail view (d).
	DetailsOverlay
)

func (o Overlay) String() string {
	switch o {
	case HelpOverlay:
		return "help"
	case DetailsOverlay:
		return "details"
	}
	return "none"
}

// LeftMsg reports that the learner left the lesson (esc or q, y). The
// root keeps Session, so opening the lesson again resumes where it was.
type LeftMsg struct {
	Name    string
	Session model.Session
}

// FinishedMsg reports that the lesson reached its end.
type FinishedMsg struct{ Name string }

// AnsweredMsg reports the answer to the question at step Pos.
type AnsweredMsg struct {
	Name        string
	Pos, Choice int
	Correct     bool
}

// KafkaMsg reports that the learner switched the lesson to Kafka major
// version Kafka (3 or 4): the lessons opened after it start under it.
type KafkaMsg struct{ Kafka int }

// TickMsg is the autoplay tick. gen is the autoplay generation it was
// scheduled in: every play, pause, manual step or speed change starts a new
// generation, so a tick from an older one is stale and dropped.
type TickMsg struct{ gen int }

// Model is the lesson player.
type Model struct {
	// opts are the options New was given, by pointer: Bubble Tea copies
	// the model on every message, and they do not change.
	opts *Options
	th   *theme.Theme
	keys KeyMap
	help *help.Model // by pointer, as the panes: shared by the model's copies
	draw Draw
	w, h int
	sess model.Session
	name string
	// frame is the session's frame at the current step, by pointer so
	// that handing it to Draw's functions does not move the model to the
	// heap on every message.
	frame *model.Frame
	// base is the placement for the window size; place is base with the
	// lesson pane grown to fit the current step (Placement.WithNarration).
	base, place layout.Placement
	placeErr    error
	panes       *[layout.NumPanels]Pane
	// overlay draws the help or the detail view over the whole body.
	overlay Pane
	open    Overlay
	focus   layout.PanelID
	// recent are the panels the learner picked with tab, most recent
	// first. A slot shows the one of its panels picked last; until one is
	// picked, it follows the step (shown). A pick lasts for the step it
	// was made at: the next step, or esc, follows the lesson again.
	recent []layout.PanelID
	// stepPane draws the step view in a shared slot while the player
	// follows a step that names its subjects.
	stepPane Pane
	shown    map[layout.PanelID]layout.PanelID // first panel of a slot -> the panel it shows
	// leaving is set after q: the next key confirms or stays.
	leaving   bool
	playing   bool
	gen       int
	speed     int
	flash     string
	flashKind theme.Kind
	// panels draws the panels' content, keeping recent frames' drawing.
	panels Panels
	// helpDrawn is the help bar last drawn for a set of keys.
	helpDrawn *keyset.HelpMemo
	// pick is the cursor on the Timeline's messages, or nil.
	pick Picker
	// sideScroll and sideBack, when set, are what the scroll keys and
	// the side key (and esc) do while the root shows the side panel and
	// routes those keys to it (SetSideKeys).
	sideScroll, sideBack string
}

// SetSideKeys tells the player that the root shows the side panel and
// takes keys for it: scroll is what ↑/↓ do there ("scroll Kafka's
// side"), back what the side key and esc do ("close Kafka's side").
// The help bar then says what the keys do, not what they would do on the
// player's panels. Empty strings give the keys back to the player.
func (m *Model) SetSideKeys(scroll, back string) { m.sideScroll, m.sideBack = scroll, back }

// New returns a player with no lesson; Open gives it one.
func New(opts Options) Model {
	h := opts.Help
	m := Model{opts: &opts, th: opts.Theme, keys: opts.Keys, help: &h, draw: opts.Draw,
		frame: &model.Frame{}, speed: defaultSpeed, focus: layout.PanelNarration, shown: map[layout.PanelID]layout.PanelID{},
		panes: new([layout.NumPanels]Pane)}
	for i := range m.panes {
		m.panes[i] = m.newPanelPane(layout.PanelID(i))
	}
	m.overlay, m.stepPane = m.draw.NewPane(m.th, true), m.draw.NewPane(m.th, false)
	if m.draw.NewPicker != nil {
		m.pick = m.draw.NewPicker()
	}
	if opts.Uncached {
		m.overlay.Uncached()
	}
	m.newPanels()
	return m
}

// newPanelPane is the pane of one panel: the lesson's text scrolls through
// a text pane, the stage's panels lazily.
func (m *Model) newPanelPane(p layout.PanelID) Pane {
	return m.draw.NewPane(m.th, p == layout.PanelNarration)
}

// newPanels starts the drawing afresh: a frame's keys are a session's
// own, and a new theme draws differently.
func (m *Model) newPanels() {
	m.panels = m.draw.NewPanels(m.th, !m.opts.Uncached)
	m.helpDrawn = &keyset.HelpMemo{}
	if m.opts.Uncached {
		m.helpDrawn = nil
	}
}

// Open plays session s of the lesson name from where it is; resumed says
// the learner comes back to a place they left.
func (m *Model) Open(s model.Session, name string, resumed bool) {
	m.sess, m.name = s, name
	m.newPanels()
	m.playing = false
	m.gen++
	m.open, m.leaving = NoOverlay, false
	m.flash = ""
	m.focus = layout.PanelNarration
	m.recent = nil
	m.dropPick()
	m.shown = map[layout.PanelID]layout.PanelID{}
	for i := range m.panes {
		m.panes[i] = m.newPanelPane(layout.PanelID(i))
		if m.opts.Uncached {
			m.panes[i].Uncached()
		}
	}
	m.refresh(true)
	if resumed && s.Pos() > 0 {
		m.Say(theme.Muted, "Back where you left off. r restarts.")
	}
	m.syncKeys()
}

// close lets go of the lesson, reporting it left (and finished, at its
// end).
func (m *Model) close(out *[]tea.Msg) {
	m.checkFinished(out)
	*out = append(*out, LeftMsg{Name: m.name, Session: m.sess})
	m.sess = nil
	m.playing = false
	m.gen++
	m.open, m.leaving = NoOverlay, false
}

func (m *Model) checkFinished(out *[]tea.Msg) {
	if m.sess != nil && m.sess.Len() > 0 && m.sess.Pos() >= m.sess.Len() {
		*out = append(*out, FinishedMsg{Name: m.name})
	}
}

// SetSize places the panels for a w x h terminal.
func (m *Model) SetSize(w, h int) {
	m.w, m.h = max(w, 0), max(h, 0)
	m.help.Width = m.w
	m.base, m.placeErr = layout.For(m.w, m.h, m.opts.ASCII)
	m.place = m.base
	m.refresh(false)
	m.syncKeys()
}

// SetTheme redraws with th and the help model styled for it, keeping the
// lesson, the focus and the scroll positions.
func (m *Model) SetTheme(th *theme.Theme, h help.Model) {
	m.th = th
	*m.help = h
	m.help.Width = m.w
	for i := range m.panes {
		m.panes[i].SetTheme(th)
	}
	m.overlay.SetTheme(th)
	if !m.opts.Uncached {
		m.newPanels()
	}
	m.refresh(false)
	m.syncKeys()
}

// Changed redraws from the session's frame after it changed from outside
// (eoslab serve's presenter moved the class), following the change to the
// panels when moved.
func (m *Model) Changed(moved bool) {
	m.refresh(moved)
	m.syncKeys()
}

// Say puts a message in the header, over the autoplay state, until the
// next key.
func (m *Model) Say(k theme.Kind, s string) { m.flash, m.flashKind = s, k }

// Session is the lesson being played, or nil.
func (m Model) Session() model.Session { return m.sess }

// Name is the lesson's name.
func (m Model) Name() string { return m.name }

// Kafka is the Kafka major version the lesson's frame plays under, or 0.
func (m Model) Kafka() int { return m.frame.Kafka }

// Playing reports whether autoplay is on.
func (m Model) Playing() bool { return m.playing }

// Focus is the focused panel.
func (m Model) Focus() layout.PanelID { return m.focus }

// Overlay is what is open over the panels.
func (m Model) Overlay() Overlay { return m.open }

// Picking reports whether a message of the Timeline is picked.
func (m Model) Picking() bool { return m.pick != nil && m.pick.On() }

// Tick is the autoplay tick of the current generation: the message the
// clock sends when the step's time is up.
func (m Model) Tick() TickMsg { return TickMsg{gen: m.gen} }

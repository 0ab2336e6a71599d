package views

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/internal/keyset"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/pane"
	"github.com/eoslab/eoslab/views/panels"
	"github.com/eoslab/eoslab/views/player"
	"github.com/eoslab/eoslab/views/theme"
)

// eoslab live: the lesson player with a real cluster beside the
// simulation. Live wraps the App: the App plays the lesson on the
// simulation as everywhere else; Live plays each step the player reaches
// on the cluster (in a tea.Cmd, as a step takes the cluster's time) and
// draws Kafka's side (panels.Kafka) beside the player on a wide terminal,
// or over the player's panels, on the side key, on a narrow one.

// LiveSide is one lesson's cluster side, as eoslab live plays it:
// views/cli wraps engine/realkafka/live's Session and adapt.KafkaSide in
// it, and tests give a fake.
type LiveSide interface {
	// Setup is the cluster after the lesson's setup.
	Setup() model.KafkaSide
	// Step plays the steps up to i (0-based) and returns the cluster
	// after step i; it blocks for the cluster's time. An error is a
	// cluster that went away: the side returned is then the last one
	// with its message (Gone), and the session cannot go on.
	Step(i int) (model.KafkaSide, error)
	// Close deletes what the session made; it blocks.
	Close() error
}

// LiveOptions are what eoslab live gives the live player.
type LiveOptions struct {
	// App are the app's options (the lesson to start with, colours).
	App Options
	// Lessons are the lessons offered on the home list; Open starts one
	// on the simulation (under the cluster's protocol).
	Lessons []model.LessonInfo
	Open    func(name string) (model.Session, error)
	// OpenSide starts a lesson on the cluster and plays its setup; it
	// blocks. The caller closes every side it opened once the program
	// ends (Live closes a side when its lesson is left).
	OpenSide func(name string) (LiveSide, error)
	// QuitOnLeave ends the program when the learner leaves the lesson
	// (eoslab live --lesson NAME); else the home list comes back.
	QuitOnLeave bool
}

// liveSideW is the Kafka side's width beside the player; a terminal at
// least liveWideMin wide has room for both (the player keeps 80 columns).
const (
	liveSideW   = 96
	liveWideMin = 80 + liveSideW
)

// Live is the root model of eoslab live.
type Live struct {
	opts LiveOptions
	app  App
	th   *theme.Theme
	key  key.Binding
	w, h int

	// The side of the lesson open in the player: its name, the session
	// (nil while it opens, or when it could not), the generation that
	// tells a stale reply from a current one.
	name   string
	side   LiveSide
	gen    int
	openOK bool   // the side opened
	errMsg string // why the side could not open
	// cur is the side last read, for step shown (-1: the setup); want is
	// the step the player is at (-1: before the first step).
	cur         model.KafkaSide
	have        bool
	shown, want int
	busy        bool // a Step is in flight
	gone        bool
	// show: the side is drawn over the player's panels (a narrow
	// terminal) or has the scroll keys (a wide one).
	show bool
	pane *pane.Model
}

// liveDetailsKey is the player's details key, which opens over the side.
var liveDetailsKey = player.DefaultKeyMap().Details

// liveOpenedMsg is OpenSide's answer.
type liveOpenedMsg struct {
	gen  int
	side LiveSide
	err  error
}

// liveStepMsg is Step's answer.
type liveStepMsg struct {
	gen, step int
	side      model.KafkaSide
	err       error
}

// NewLive builds the live player.
func NewLive(o LiveOptions) *Live {
	k := key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "Kafka's side"))
	o.App.Side = &player.SidePanel{Title: "Kafka's side", Key: k}
	o.App.Progress = nil // a live run is not the learner's progress
	l := &Live{opts: o, key: k, shown: -1, want: -1}
	l.app = NewApp(o.Lessons, o.Open, o.App).(App)
	l.th = l.app.th
	p := pane.New(l.th)
	l.pane = &p
	return l
}

// Init opens the side of the lesson the app starts with.
func (l *Live) Init() tea.Cmd { return l.sync() }

// Kafka is the side last read, and whether there is one.
func (l *Live) Kafka() (model.KafkaSide, bool) { return l.cur, l.have }

// App is the app the live player wraps.
func (l *Live) App() App { return l.app }

// Showing reports whether Kafka's side is drawn: beside the player on a
// wide terminal, over its panels when shown on a narrow one.
func (l *Live) Showing() bool {
	return l.onPlayer() && (l.wide() || (l.show && l.app.player.Overlay() == player.NoOverlay))
}

func (l *Live) onPlayer() bool { return l.app.screen == screenPlayer && l.app.player.Session() != nil }

func (l *Live) wide() bool { return l.w >= liveWideMin }

// Update implements tea.Model.
func (l *Live) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmds []tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		l.w, l.h = max(msg.Width, 0), max(msg.Height, 0)
		l.resize()
		return l, nil
	case liveOpenedMsg:
		if msg.gen != l.gen {
			if msg.side != nil {
				return l, closeSide(msg.side)
			}
			return l, nil
		}
		if msg.err != nil {
			l.errMsg = msg.err.Error()
		} else {
			l.side, l.openOK = msg.side, true
			l.cur, l.have, l.shown = msg.side.Setup(), true, -1
		}
		l.redraw(true)
		return l, l.sync()
	case liveStepMsg:
		if msg.gen != l.gen {
			return l, nil
		}
		l.busy = false
		l.cur, l.have, l.shown = msg.side, true, msg.step
		if msg.err != nil {
			// The side is the last one read, for the step it was.
			l.gone, l.shown = true, msg.side.Step
		}
		l.redraw(true)
		return l, l.sync()
	case tea.MouseMsg:
		if l.Showing() && (!l.wide() || msg.X >= l.w-liveSideW) {
			l.pane.Handle(msg)
			return l, nil
		}
	case tea.KeyMsg:
		if l.onPlayer() && l.app.player.Overlay() == player.NoOverlay {
			switch {
			case keyset.Any(msg, l.key):
				l.show = !l.show
				l.redraw(false)
				return l, nil
			case l.show && keyset.Any(msg, l.app.keys.List):
				l.show = false
				l.redraw(false)
				return l, nil
			case l.show && l.pane.Scrolls(msg):
				l.pane.Handle(msg)
				return l, nil
			case l.show && !l.wide() && (keyset.Any(msg, l.app.keys.Help) || keyset.Any(msg, liveDetailsKey)):
				// The help or the details open over the side.
				l.show = false
			}
		}
	}
	before := l.onPlayer()
	m, cmd := l.app.Update(msg)
	l.app = m.(App)
	cmds = append(cmds, cmd)
	if before && !l.onPlayer() && l.opts.QuitOnLeave {
		cmds = append(cmds, tea.Quit)
	}
	cmds = append(cmds, l.sync())
	return l, tea.Batch(cmds...)
}

// sync follows the player: a lesson opened gets its side, a lesson left
// has its side closed, and a step the player reached is played on the
// cluster, one at a time (a step played before comes from the session's
// cache at once).
func (l *Live) sync() tea.Cmd {
	var cmds []tea.Cmd
	name := ""
	if l.onPlayer() {
		name = l.app.player.Name()
	}
	if name != l.name {
		if l.side != nil {
			cmds = append(cmds, closeSide(l.side))
		}
		l.gen++
		l.name, l.side, l.openOK, l.errMsg = name, nil, false, ""
		l.cur, l.have, l.shown, l.want, l.busy, l.gone, l.show = model.KafkaSide{}, false, -1, -1, false, false, false
		if name != "" && l.opts.OpenSide != nil {
			open, gen := l.opts.OpenSide, l.gen
			cmds = append(cmds, func() tea.Msg {
				s, err := open(name)
				return liveOpenedMsg{gen: gen, side: s, err: err}
			})
		}
		l.resize()
	}
	if name == "" {
		return tea.Batch(cmds...)
	}
	prev := l.want
	l.want = l.app.player.Session().Pos() - 1
	if l.want != prev && l.show && !l.wide() && l.app.player.Session().Frame().Checkpoint.Open() {
		// A question the side would cover: the player shows it; c
		// brings the side back.
		l.show = false
	}
	switch {
	case l.side == nil || l.busy || l.gone || l.want == l.shown:
	case l.want < 0:
		l.cur, l.shown = l.side.Setup(), -1
	default:
		l.busy = true
		s, gen, i := l.side, l.gen, l.want
		cmds = append(cmds, func() tea.Msg {
			k, err := s.Step(i)
			return liveStepMsg{gen: gen, step: i, side: k, err: err}
		})
	}
	l.redraw(false)
	return tea.Batch(cmds...)
}

func closeSide(s LiveSide) tea.Cmd {
	return func() tea.Msg {
		_ = s.Close() // the caller closes it again at the end and reports
		return nil
	}
}

// resize gives the app the width the side leaves it.
func (l *Live) resize() {
	w := l.w
	if l.wide() && l.name != "" {
		w -= liveSideW
	}
	if w != l.app.w || l.h != l.app.h {
		m, _ := l.app.Update(tea.WindowSizeMsg{Width: w, Height: l.h})
		l.app = m.(App)
	}
	l.redraw(false)
}

// rect is where the side is drawn.
func (l *Live) rect() layout.Rect {
	if l.wide() {
		return layout.Rect{X: l.w - liveSideW, Y: 0, W: liveSideW, H: l.h}
	}
	return layout.Rect{X: 0, Y: 1, W: l.w, H: max(l.h-2, 0)}
}

// status is what the side is doing, above its content: never a screen
// that looks frozen while the cluster works.
func (l *Live) status() []string {
	th := l.th
	at := func(i int) string {
		if i < 0 {
			return "the setup"
		}
		return fmt.Sprintf("step %d", i+1)
	}
	var s []string
	mark := func(k theme.Kind, t string) {
		for i, line := range cells.Wrap(t, max(l.rect().W-5, 8)) {
			if i > 0 {
				line = "  " + line
			}
			s = append(s, th.Render(k, line))
		}
	}
	switch {
	case l.errMsg != "":
		mark(theme.Violated, th.Glyph(theme.Violated)+" the cluster side did not open: "+l.errMsg+"; the simulation plays on its own")
	case !l.openOK:
		mark(theme.InFlight, th.Glyph(theme.InFlight)+" opening the lesson on the cluster: creating its prefixed topics and playing the setup...")
	case l.gone:
		if l.want != l.shown {
			mark(theme.Violated, fmt.Sprintf("%s the cluster is gone: the simulation is at %s; the panel shows %s, the last the cluster played", th.Glyph(theme.Violated), at(l.want), at(l.shown)))
		}
	case l.busy:
		mark(theme.InFlight, fmt.Sprintf("%s playing %s on the cluster; the panel shows %s until it is played...", th.Glyph(theme.InFlight), at(l.want), at(l.shown)))
	case l.want != l.shown:
		mark(theme.InFlight, fmt.Sprintf("%s the cluster is behind: it shows %s, the simulation is at %s", th.Glyph(theme.InFlight), at(l.shown), at(l.want)))
	}
	return s
}

// redraw fills the side's pane; reveal brings the verdicts into view.
func (l *Live) redraw(reveal bool) {
	r := l.rect()
	l.pane.SetSize(r.W, r.H)
	l.pane.SetFocused(l.show)
	title := l.th.Text(theme.TextTitle, "Kafka's side")
	if l.have {
		step := "setup"
		if l.cur.Step >= 0 {
			step = fmt.Sprintf("step %d", l.cur.Step+1)
		}
		title += l.th.Text(theme.TextFaint, " "+step)
	}
	switch {
	case !l.wide():
		title += l.th.Text(theme.TextFaint, "  (c or esc closes)")
	case l.show:
		title += l.th.Text(theme.TextFaint, "  (scrolls; c or esc gives the keys back)")
	default:
		title += l.th.Text(theme.TextFaint, "  (c scrolls it)")
	}
	l.pane.SetTitle(title)
	// While the side has the keys, the player's help bar says what they
	// do on it (the narrow layout keeps the player's help bar as its
	// last row; the wide one draws it beside the side).
	scroll, back := "", ""
	if l.show && l.Showing() {
		scroll, back = "scroll Kafka's side", "close Kafka's side"
		if l.wide() {
			back = "keys back"
		}
	}
	l.app.player.SetSideKeys(scroll, back)
	var body content.Content = content.Lines(nil)
	anchor := content.NoRange
	if l.have {
		_, b, a := panels.Kafka(&l.cur, panels.Painter{Theme: l.th, Width: max(r.W-3, 0)})
		body = b
		if reveal {
			anchor = a
		}
	}
	l.pane.SetContent(l.status(), body, anchor)
}

// View implements tea.Model.
func (l *Live) View() string {
	v := l.app.View()
	if !l.Showing() || l.w <= 0 || l.h <= 0 {
		return v
	}
	lines := cells.SplitLines(v)
	r := l.rect()
	if l.wide() {
		return l.ascii(layout.Compose(l.w, l.h, []layout.Block{
			{Rect: layout.Rect{X: 0, Y: 0, W: l.w - liveSideW, H: l.h}, Lines: lines},
			{Rect: r, Lines: l.pane.Lines(), Exact: true},
		}))
	}
	var head, foot []string
	if len(lines) > 0 {
		head = lines[:1]
	}
	if len(lines) >= l.h {
		foot = lines[l.h-1 : l.h]
	}
	return l.ascii(layout.Compose(l.w, l.h, []layout.Block{
		{Rect: layout.Rect{X: 0, Y: 0, W: l.w, H: 1}, Lines: head},
		{Rect: r, Lines: l.pane.Lines(), Exact: true},
		{Rect: layout.Rect{X: 0, Y: l.h - 1, W: l.w, H: 1}, Lines: foot},
	}))
}

func (l *Live) ascii(s string) string {
	if l.th.ASCII {
		return cells.ASCIIOnly(s)
	}
	return s
}

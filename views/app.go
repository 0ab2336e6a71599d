package views

import (
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/eoslab/eoslab/views/drill"
	"github.com/eoslab/eoslab/views/home"
	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/internal/keyset"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/pane"
	"github.com/eoslab/eoslab/views/player"
	"github.com/eoslab/eoslab/views/theme"
)

// Options are the choices main.go makes for the app.
type Options struct {
	// NoColor draws without colour; glyphs and words still carry every state.
	NoColor bool
	// ASCII draws with ASCII characters only.
	ASCII bool
	// StartLesson opens this lesson at once instead of the list.
	StartLesson string
	// Progress keeps the learner's place across runs; nil keeps nothing.
	Progress model.Progress
	// NewDrill starts an interview drill under Kafka major version kafka
	// (3 or 4: the version the learner has on), for the home screen's
	// drill entry; nil leaves the entry out. StartDrill opens one at once.
	NewDrill   func(kafka int) (model.Drill, error)
	StartDrill bool
	// Kafka is the Kafka major version lessons start under, 3 or 4; 0
	// leaves each lesson as it opens (Kafka 3). The version key changes it
	// for the lesson being played and the ones opened after it.
	Kafka int
	// Tick schedules autoplay's next step after d; nil means tea.Tick.
	// Tests pass a clock of their own so that autoplay runs without
	// waiting in real time and its delays can be checked.
	Tick func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd
	// NoFiles switches off the sandbox's save (a served session).
	NoFiles bool
	// SaveFile writes a sandbox session under a name like the one given,
	// in the current directory, and returns the name used; main.go does
	// the I/O. Nil: saving is off.
	SaveFile func(name string, data []byte) (string, error)
	// OpenSandbox starts a sandbox preset by name; when set, the home
	// list has a Sandbox entry that opens the picker of SandboxPresets.
	OpenSandbox    func(name string) (model.SandboxSession, error)
	SandboxPresets []model.SandboxPreset
	// OpenChallenge starts the sandbox on a challenge by name, for the
	// Challenges entry (app_challenges.go); nil: the entry says how to
	// check a file instead.
	OpenChallenge func(name string) (model.SandboxSession, error)
	// Renderer draws for one terminal (eoslab serve gives each session
	// its own); nil is the local terminal's.
	Renderer *lipgloss.Renderer
	// Follow is a seat that watches a lesson another seat drives: the
	// keys that move, play, restart or leave the lesson are off; focus,
	// scrolling, help and details stay. Presenter is the seat that drives
	// a class: it reveals a question (a) instead of answering it. Neither
	// switches the Kafka version: the class plays the one it started with.
	Follow, Presenter bool
	// Side is the player's side panel hook (eoslab live's Kafka side:
	// app_live.go); nil for none.
	Side *player.SidePanel
}

// Overlay reports whether help or the step's details are open over the
// player: what Esc closes there. eoslab serve asks, so that Esc with
// nothing open does not leave the class's lesson.
func (a App) Overlay() bool {
	switch a.screen {
	case screenDrill:
		return a.drill.HelpShown()
	case screenPlayer:
		return a.player.Overlay() != player.NoOverlay
	}
	return a.showFull
}

// OpenLessonMsg asks the root to open a lesson, as if it had been picked
// from the list.
type OpenLessonMsg struct{ Name string }

// SessionChangedMsg tells the app that its session changed from outside
// (eoslab serve's presenter moved the class): it redraws from the
// session's frame, following the change to its panels when Moved.
type SessionChangedMsg struct{ Moved bool }

// SetDarkMsg redraws the app for a dark (or light) background.
type SetDarkMsg struct{ Dark bool }

// WithEnv returns o with the NO_COLOR convention applied: a NO_COLOR
// variable that is present and not empty turns colour off (no-color.org).
// main.go passes os.Getenv, which keeps this package free of OS access.
func (o Options) WithEnv(getenv func(string) string) Options {
	if getenv != nil && getenv("NO_COLOR") != "" {
		o.NoColor = true
	}
	return o
}

type screen int

const (
	screenHome screen = iota
	screenPlayer
	screenDrill
	screenSandbox
)

// App is the root model. It owns the screen on show and what the screens
// share (the theme, the size, the options, the sessions the learner left),
// and routes messages to the screen's component: the home list, the
// player, the drill, the sandbox.
type App struct {
	opts     Options
	th       *theme.Theme
	keys     player.GlobalKeys // the home screen's, which it shares with the player
	paneKeys pane.KeyMap
	open     func(name string) (model.Session, error)

	screen screen
	w, h   int
	// tooSmall says the terminal is too small to draw in, and why.
	tooSmall error
	home     *home.Model // by pointer, as the help: Bubble Tea copies App on every message
	help     *help.Model
	// showFull is the home screen's full help.
	showFull bool
	// player plays a lesson (app_player.go).
	player player.Model
	// kept holds the sessions the learner left, by lesson name, so opening
	// one again goes back to the same place.
	kept map[string]model.Session
	// quitting is set after q on the home list while a lesson is left in
	// progress: the next key confirms or stays.
	quitting bool
	// kafka is the Kafka version the learner asked for (Options.Kafka, or
	// the version key's last switch); 0 when never asked.
	kafka int
	// noCache draws everything afresh on every key: the reference the
	// tests compare the caches with.
	noCache bool
	// sandbox is the sandbox screen while it is open.
	sandbox *sandboxScreen
	// saved is the place last given to the progress.
	saved struct {
		name       string
		pos, kafka int
	}
	// drill is the interview drill on the drill screen.
	drill drill.Model
}

// NewApp builds the root model. lessons are listed on the home screen and
// open starts a session for a lesson name.
//
// main.go should run it with tea.NewProgram(m, tea.WithAltScreen()). Call
// lipgloss.HasDarkBackground() before starting the program, so the terminal
// is asked for its background before Bubble Tea starts reading input.
func NewApp(lessons []model.LessonInfo, open func(name string) (model.Session, error), opts Options) tea.Model {
	th := theme.New(theme.Options{NoColor: opts.NoColor, ASCII: opts.ASCII, Renderer: opts.Renderer})
	a := App{
		opts:     opts,
		th:       th,
		keys:     player.DefaultKeyMap().GlobalKeys,
		paneKeys: pane.DefaultKeyMap(),
		open:     open,
		kept:     map[string]model.Session{},
		kafka:    opts.Kafka,
	}
	if opts.ASCII {
		a.paneKeys = a.paneKeys.ASCII()
	}
	lessons = withPlaces(lessons, opts.Progress)
	if opts.OpenSandbox != nil {
		lessons = append(lessons[:len(lessons):len(lessons)], sandboxEntry)
	}
	hm := home.New(lessons, th)
	a.home = &hm
	a.home.SetEntries(opts.NewDrill != nil, opts.OpenSandbox != nil)
	hp := newHelp(th)
	a.help = &hp
	a.player = a.newPlayer()
	if opts.StartLesson != "" {
		a.openLesson(opts.StartLesson)
	}
	if opts.StartDrill {
		a.openDrill()
	}
	a.trackProgress()
	a.syncKeys()
	return a
}

func newHelp(th *theme.Theme) help.Model {
	h := help.New()
	h.ShortSeparator = th.Sym.Sep
	h.FullSeparator = "   "
	h.Ellipsis = th.Sym.Ellipsis
	h.Styles.ShortKey = th.AccentText
	h.Styles.ShortDesc = th.Faint
	h.Styles.ShortSeparator = th.Faint
	h.Styles.FullKey = th.AccentText
	h.Styles.FullDesc = th.Renderer().NewStyle()
	h.Styles.FullSeparator = th.Faint
	h.Styles.Ellipsis = th.Faint
	return h
}

// Init implements tea.Model.
func (a App) Init() tea.Cmd { return nil }

// Session is the lesson being played, or nil on the other screens.
func (a App) Session() model.Session {
	if a.screen != screenPlayer {
		return nil
	}
	return a.player.Session()
}

// Playing reports whether autoplay is on.
func (a App) Playing() bool { return a.screen == screenPlayer && a.player.Playing() }

// Focus is the player's focused panel.
func (a App) Focus() layout.PanelID { return a.player.Focus() }

// Selected is the lesson under the home list's cursor; ok is false when
// the cursor is on no lesson.
func (a App) Selected() (model.LessonInfo, bool) { return a.home.Selected() }

// Update implements tea.Model.
func (a App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if km, ok := msg.(tea.KeyMsg); ok && !a.typing() {
		if keys := keyset.Burst(km); keys != nil {
			// A burst of typed characters is one key per character, in
			// order (keyset.Burst says why), on every screen.
			var m tea.Model = a
			cmds := make([]tea.Cmd, len(keys))
			for i, k := range keys {
				m, cmds[i] = m.Update(k)
			}
			return m, tea.Batch(cmds...)
		}
	}
	var cmd tea.Cmd
	if a.screen == screenSandbox {
		if m, ok := msg.(tea.WindowSizeMsg); ok {
			a.resize(m.Width, m.Height)
		}
		if km, ok := msg.(tea.KeyMsg); ok && keyset.Any(km, a.keys.QuitNow) {
			return a, tea.Quit
		}
		return a, a.sandboxUpdate(msg)
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.resize(msg.Width, msg.Height)
	case OpenLessonMsg:
		a.openLesson(msg.Name)
	case home.OpenChallengeMsg:
		cmd = a.openChallenge(msg)
	case SessionChangedMsg:
		a.player.Changed(msg.Moved)
	case SetDarkMsg:
		a.setDark(msg.Dark)
	case player.TickMsg, tea.MouseMsg:
		if _, mouse := msg.(tea.MouseMsg); mouse && a.tooSmall != nil {
			break // as keys: nothing is drawn to click
		}
		if a.screen == screenPlayer {
			cmd = a.playerUpdate(msg)
		}
	case tea.KeyMsg:
		if a.tooSmall != nil {
			// Nothing is drawn to act on: q and ctrl+c quit, as the
			// screen says (app_view.go); every other key waits for a
			// size the screens fit in.
			if keyset.Any(msg, a.keys.Quit) || keyset.Any(msg, a.keys.QuitNow) {
				return a, tea.Quit
			}
			return a, nil
		}
		switch a.screen {
		case screenPlayer:
			cmd = a.playerUpdate(msg)
		case screenDrill:
			cmd = a.drillKey(msg)
		default:
			cmd = a.homeKey(msg)
		}
	default:
		if a.screen == screenHome {
			*a.home, cmd = a.home.Update(msg)
		}
	}
	a.trackProgress()
	a.syncKeys()
	return a, cmd
}

// typing reports whether a text input has the keys: the home list's
// filter, or the sandbox's prompt or branch naming box. It takes a burst
// of typed characters whole. (The sandbox splits the others itself.)
func (a App) typing() bool {
	switch a.screen {
	case screenSandbox:
		return true // the sandbox splits a burst itself, by its own modes
	case screenHome:
		return a.home.Filtering()
	}
	return false
}

func (a *App) resize(w, h int) {
	a.w, a.h = max(w, 0), max(h, 0)
	a.help.Width = a.w
	a.home.SetSize(a.w, max(a.h-2, 0))
	_, a.tooSmall = layout.For(a.w, a.h, a.opts.ASCII)
	a.drill.SetSize(a.w, a.h)
	a.player.SetSize(a.w, a.h)
}

func (a *App) homeKey(km tea.KeyMsg) tea.Cmd {
	if a.home.Filtering() {
		if keyset.Any(km, a.keys.QuitNow) {
			return tea.Quit
		}
		var cmd tea.Cmd
		*a.home, cmd = a.home.Update(km)
		return cmd
	}
	if a.quitting {
		a.quitting = false
		if keyset.Any(km, a.keys.Leave) || keyset.Any(km, a.keys.Quit) {
			return tea.Quit
		}
		a.home.SetStatus("Staying.")
		return nil
	}
	switch {
	case keyIs(km, a.keys.Quit):
		if s := a.inProgress(); s != nil {
			a.quitting = true
			a.home.SetStatus("Quit? " + oneLine(s.Title()) + " is at step " + strconv.Itoa(s.Pos()) + " of " + strconv.Itoa(s.Len()) +
				". y quits; other keys stay.")
			return nil
		}
		return tea.Quit
	case keyIs(km, a.keys.Help):
		a.showFull = !a.showFull
		return nil
	case keyIs(km, a.keys.List) && a.showFull:
		a.showFull = false
		return nil
	}
	var cmd tea.Cmd
	*a.home, cmd = a.home.Update(km)
	if name, ok := a.home.Picked(); ok {
		a.pick(name)
	}
	return cmd
}

// pick opens what the learner picked on the home list: an entry of its
// own (the drill here; the sandbox, which openLesson routes) or a lesson.
// A screen added to the list gets its case here.
func (a *App) pick(name string) {
	switch name {
	case home.DrillEntry:
		a.openDrill()
	default:
		a.openLesson(name)
	}
}

func (a *App) openLesson(name string) {
	if name == home.SandboxEntry && a.opts.OpenSandbox != nil {
		a.openSandbox()
		return
	}
	if a.open == nil {
		a.home.SetStatus("cannot open " + name + ": no lessons are loaded")
		return
	}
	s, resumed := a.kept[name], true
	if a.opts.Presenter {
		// A class's lessons live in eoslab serve's hub, which open
		// switches for every seat.
		s = nil
	}
	if s != nil && s.Len() > 0 && s.Pos() >= s.Len() {
		// A lesson left at its end opens at its start: picking it again
		// means playing it again.
		s.Restart()
		resumed = false
	}
	if s == nil {
		var err error
		s, err = a.open(name)
		if err == nil && s == nil {
			err = errors.New("no session")
		}
		if err != nil {
			a.home.SetStatus("Cannot open: " + oneLine(err.Error()))
			a.screen = screenHome
			return
		}
		resumed = false
		// A new session starts under the version the learner asked for.
		switchKafka(s, a.kafka)
		if p := a.opts.Progress; p != nil {
			resume(s, p.Place(name), a.kafka)
			resumed = true
		}
	}
	a.screen = screenPlayer
	a.showFull = false
	a.player.Open(s, name, resumed)
}

// inProgress is a lesson the learner left part way: the one played last
// when it is, else the first such by name, so the question is the same
// every time; nil when there is none.
func (a *App) inProgress() model.Session {
	part := func(s model.Session) bool { return s != nil && s.Pos() > 0 && s.Pos() < s.Len() }
	if s := a.kept[a.player.Name()]; part(s) {
		return s
	}
	names := slices.Sorted(maps.Keys(a.kept))
	for _, n := range names {
		if part(a.kept[n]) {
			return a.kept[n]
		}
	}
	return nil
}

func oneLine(s string) string { return strings.TrimSpace(cells.Clean(s)) }

// setDark rebuilds the theme for a dark or light background, keeping the
// screen, the lesson, the focus and the scroll positions.
func (a *App) setDark(dark bool) {
	r := a.th.Renderer()
	r.SetHasDarkBackground(dark)
	a.th = theme.New(theme.Options{NoColor: a.opts.NoColor, ASCII: a.opts.ASCII, Renderer: r})
	a.home.Restyle(a.th)
	*a.help = newHelp(a.th)
	a.help.Width = a.w
	a.player.SetTheme(a.th, *a.help)
	a.drill.SetTheme(a.th, *a.help)
}

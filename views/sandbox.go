package views

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/internal/keyset"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/pane"
	"github.com/eoslab/eoslab/views/panels"
	"github.com/eoslab/eoslab/views/theme"
)

// Sandbox is the free-play screen: a world that waits for the learner. It
// opens on the preset picker, or on a session it is given (a scenario file
// played to its end). Every action key makes one Op, which the session
// applies as one engine action and answers with its scenario line.
//
// It is a component of App (the home screen's Sandbox entry) and also a
// tea.Model of its own (eoslab sandbox).
type Sandbox struct {
	opts    Options
	th      *theme.Theme
	keys    SandboxKeyMap
	help    help.Model
	presets []model.SandboxPreset
	open    func(name string) (model.SandboxSession, error)
	sess    model.SandboxSession
	w, h    int
	// mode is what the keys do now; pick is the preset picker's cursor.
	mode sandboxMode
	pick int

	// What the session said after the last action, read once per action.
	frame    model.Frame
	waiting  []model.WaitItem
	monitors []model.Monitor
	guards   []model.Safeguard
	// bar is the safeguards bar drawn for guards at this size (barLines),
	// drawn again only when either changes: rects and View read it on
	// every key.
	bar      []string
	clients  []model.SandboxClient
	branches []model.BranchInfo

	sel    int // the selected waiting item
	client int // the client the call keys act on
	right  layout.PanelID
	panes  [layout.NumPanels]pane.Model
	list   pane.Model // the waiting list
	mons   pane.Model // the monitors
	cause  pane.Model // the cause chain of a broken monitor
	over   pane.Model // help, branches
	cache  *panels.Cache
	// helpDrawn is the help bar last drawn.
	helpDrawn *keyset.HelpMemo
	// shown is the monitor whose cause is on screen; dismissed holds the
	// violations the learner closed (monitor name and its last cause line).
	shown string
	// causeMemo is the cause chain last wrapped (causeLines) and its
	// width: the layout asks for it several times a key. refresh,
	// which may change the chain, forgets it.
	causeMemo struct {
		w     int
		lines []string
	}
	dismissed map[string]bool
	// target is set after c or r (modeAiming): the next key picks what
	// crashes or restarts.
	target model.OpKind

	input  textinput.Model
	hist   []string
	histAt int
	perr   string

	flash     string
	flashKind theme.Kind
	// left is set by the key that leaves the sandbox (q), until Step
	// reports it.
	left bool
}

// sandboxMode is what the sandbox's keys do now: one mode at a time.
type sandboxMode uint8

// Sandbox modes.
const (
	modeActing    sandboxMode = iota // the action keys act on the session
	modePicking                      // the preset picker is shown
	modePrompting                    // the command prompt takes the keys
	modeAiming                       // after c or r: the next key picks what crashes or restarts
	modeHelp                         // the help overlay is open
	modeBranches                     // the branches overlay is open
)

func (m sandboxMode) String() string {
	return [...]string{"acting", "picking", "prompting", "aiming", "help", "branches"}[m]
}

// overlay reports whether an overlay (help, branches) covers the screen.
func (m sandboxMode) overlay() bool { return m == modeHelp || m == modeBranches }

// SandboxSavedMsg reports a save: the file written, or why not.
type SandboxSavedMsg struct {
	Path string
	Err  error
}

// NewSandbox builds the sandbox. With sess nil it opens on the preset
// picker, using open to start the chosen preset.
func NewSandbox(presets []model.SandboxPreset, open func(name string) (model.SandboxSession, error), sess model.SandboxSession, opts Options) Sandbox {
	th := theme.New(theme.Options{NoColor: opts.NoColor, ASCII: opts.ASCII, Renderer: opts.Renderer})
	s := Sandbox{opts: opts, th: th, keys: DefaultSandboxKeyMap(), help: newHelp(th), presets: presets, open: open,
		right: layout.PanelTimeline, cache: panels.NewCache(), helpDrawn: &keyset.HelpMemo{}, dismissed: map[string]bool{}}
	if opts.ASCII {
		s.keys = s.keys.ascii()
	}
	for i := range s.panes {
		s.panes[i] = pane.New(th)
	}
	s.list, s.mons, s.cause, s.over = pane.New(th), pane.New(th), pane.New(th), pane.NewText(th)
	s.input = textinput.New()
	s.input.Prompt = ": "
	s.input.ShowSuggestions = true
	s.input.CharLimit = 500
	s.input.KeyMap.NextSuggestion = key.NewBinding(key.WithKeys("ctrl+n"))
	s.input.KeyMap.PrevSuggestion = key.NewBinding(key.WithKeys("ctrl+p"))
	s.input.PromptStyle = th.AccentText
	s.input.Cursor.Style = th.AccentText
	s.input.CompletionStyle = th.Faint
	if sess != nil {
		s.sess = sess
		s.refresh()
	} else {
		s.mode = modePicking
	}
	return s
}

// Session is the session being played, or nil in the picker.
func (s Sandbox) Session() model.SandboxSession { return s.sess }

// Init implements tea.Model.
func (s Sandbox) Init() tea.Cmd { return nil }

// SandboxLeftMsg is what the sandbox reports up when the learner leaves it
// (q, or esc in the preset picker).
type SandboxLeftMsg struct{}

// Update implements tea.Model, for the sandbox as a program of its own
// (eoslab sandbox): leaving it quits.
func (s Sandbox) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	s, cmd, out := s.Step(msg)
	if _, ok := out.(SandboxLeftMsg); ok {
		return s, tea.Quit
	}
	return s, cmd
}

// Step is Update for a parent that holds the sandbox as a screen: besides
// the sandbox and its command, it returns what the sandbox reports up
// (SandboxLeftMsg, or nil), at once, so that the key after q already goes
// to the parent's screen.
func (s Sandbox) Step(msg tea.Msg) (Sandbox, tea.Cmd, tea.Msg) {
	cmd := s.update(msg)
	if s.left {
		s.left = false
		return s, cmd, SandboxLeftMsg{}
	}
	return s, cmd, nil
}

func (s *Sandbox) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		s.resize(msg.Width, msg.Height)
	case SandboxSavedMsg:
		if msg.Err != nil {
			s.say(theme.Violated, "not saved: "+msg.Err.Error())
		} else if s.sess != nil && msg.Path != s.sess.SaveName() {
			s.say(theme.Committed, s.sess.SaveName()+" exists and was left alone; saved as "+msg.Path+" (eoslab run or eoslab sandbox opens it)")
		} else {
			s.say(theme.Committed, "saved as "+msg.Path+" (eoslab run or eoslab sandbox opens it)")
		}
	case tea.KeyMsg:
		return s.key(msg)
	}
	return nil
}

func (s *Sandbox) resize(w, h int) {
	s.w, s.h = max(w, 0), max(h, 0)
	s.help.Width = s.w
	s.input.Width = max(s.w-4, 1)
	s.bar = s.barLines()
	s.layout()
}

func (s *Sandbox) say(k theme.Kind, msg string) { s.flash, s.flashKind = oneLine(msg), k }

func is(km tea.KeyMsg, b key.Binding) bool { return key.Matches(km, b) }

func (s *Sandbox) key(km tea.KeyMsg) tea.Cmd {
	if is(km, s.keys.QuitNow) {
		s.left = true
		return nil
	}
	switch {
	case s.mode == modePicking:
		s.pickKey(km)
		return nil
	case s.mode == modePrompting:
		return s.promptKey(km)
	case s.mode == modeAiming:
		s.aimKey(km)
		return nil
	case s.mode.overlay():
		s.overlayKey(km)
		return nil
	}
	s.flash = ""
	k := s.keys
	switch {
	case is(km, k.Quit):
		s.left = true
	case is(km, k.Help):
		s.mode = modeHelp
		s.layout()
	case is(km, k.Branches):
		s.mode = modeBranches
		s.layout()
	case is(km, k.Prompt):
		s.mode, s.perr = modePrompting, ""
		s.input.SetValue("")
		s.histAt = len(s.hist)
		s.input.Focus()
		s.suggest()
		s.layout()
	case is(km, k.Up), is(km, k.Down):
		if is(km, k.Up) {
			s.sel = max(s.sel-1, 0)
		} else {
			s.sel = min(s.sel+1, max(len(s.waiting)-1, 0))
		}
		// The Timeline marks the selected message too.
		s.readFrame()
		s.layout()
	case is(km, k.Deliver):
		if it, ok := s.selected(); ok {
			if it.Timer {
				s.do(model.Op{Kind: model.OpAdvance, Ms: max(it.In, 1)})
			} else {
				s.do(model.Op{Kind: model.OpDeliver, Msg: it.ID})
			}
		}
	case is(km, k.Drop), is(km, k.Duplicate), is(km, k.Delay), is(km, k.Reorder):
		s.fault(km)
	case is(km, k.Step):
		s.do(model.Op{Kind: model.OpStep})
	case is(km, k.Run):
		s.do(model.Op{Kind: model.OpRun})
	case is(km, k.Back):
		s.seek(s.sess.Pos() - 1)
	case is(km, k.Forward):
		s.seek(s.sess.Pos() + 1)
	case is(km, k.First):
		s.seek(0)
	case is(km, k.Last):
		s.seek(s.sess.Len())
	case is(km, k.Crash), is(km, k.Restart):
		s.target = model.OpCrash
		if is(km, k.Restart) {
			s.target = model.OpRestart
		}
		s.mode = modeAiming
		s.say(theme.Accent, verb(s.target)+" what? 1-"+strconv.Itoa(s.brokers())+" a broker, k the coordinator, "+
			"c the client "+s.clientName()+", esc nothing")
	case is(km, k.Pause):
		if c, ok := s.current(); ok {
			op := model.Op{Kind: model.OpPause, Client: c.Name}
			if c.Paused {
				op.Kind = model.OpResume
			}
			s.do(op)
		}
	case is(km, k.PrevClient), is(km, k.NextClient):
		if n := len(s.clients); n > 0 {
			d := 1
			if is(km, k.PrevClient) {
				d = n - 1
			}
			s.client = (s.client + d) % n
			s.say(theme.Accent, "the call keys act on "+s.clientName())
		}
	case is(km, k.Init), is(km, k.Begin), is(km, k.Send), is(km, k.SendOffsets), is(km, k.Commit),
		is(km, k.Abort), is(km, k.Poll), is(km, k.Process):
		s.call(km)
	case is(km, k.Guard):
		s.toggle(model.SafeguardID(keyset.Digit(km, k.Digits) - 1))
	case is(km, k.Save):
		return s.save()
	case is(km, k.Dismiss):
		if s.shown != "" {
			for _, m := range s.monitors {
				if m.Name == s.shown {
					s.dismissed[dismissKey(m)] = true
				}
			}
			s.refresh()
		}
	case is(km, k.Panel):
		s.right = s.nextPanel()
		s.layout()
	case is(km, k.ScrollUp), is(km, k.ScrollDown):
		// The cause chain scrolls while it is shown; else the panel.
		p := &s.panes[s.mainPanel()]
		if s.shown != "" {
			p = &s.cause
		}
		p.ScrollPage(is(km, k.ScrollDown))
	}
	return nil
}

func dismissKey(m model.Monitor) string {
	if len(m.Cause) == 0 {
		return m.Name
	}
	return m.Name + "\x00" + m.Cause[len(m.Cause)-1]
}

// nextPanel is the panel tab shows next on the right: the Timeline, the
// Events, then the state panels. On a wide screen the Timeline is always
// shown and tab cycles the other side.
func (s *Sandbox) nextPanel() layout.PanelID {
	order := []layout.PanelID{layout.PanelTimeline, layout.PanelEvents, layout.PanelPartitions, layout.PanelProducers, layout.PanelCoordinator, layout.PanelConsumers}
	cur := s.right
	if s.wide() {
		order, cur = order[1:], s.sidePanel()
	}
	for i, p := range order {
		if p == cur {
			return order[(i+1)%len(order)]
		}
	}
	return order[0]
}

func (s *Sandbox) overlayKey(km tea.KeyMsg) {
	d := keyset.Digit(km, s.keys.Digits)
	switch {
	case is(km, s.keys.Cancel), is(km, s.keys.Help) && s.mode == modeHelp, is(km, s.keys.Branches) && s.mode == modeBranches, is(km, s.keys.Quit):
		s.mode = modeActing
		s.layout()
	case s.mode == modeBranches && d > 0:
		i := d - 1
		if err := s.sess.Switch(i); err != nil {
			s.say(theme.Violated, err.Error())
		} else {
			s.mode = modeActing
			s.say(theme.Accent, "on "+s.branches[i].Name+" at step "+strconv.Itoa(s.sess.Pos()))
		}
		s.refresh()
	default:
		s.over, _ = s.over.Update(km)
	}
}

// pickKey moves through the preset picker and opens a preset.
func (s *Sandbox) pickKey(km tea.KeyMsg) {
	d := keyset.Digit(km, s.keys.Digits)
	switch {
	case is(km, s.keys.Quit), is(km, s.keys.Cancel):
		s.left = true
	case is(km, s.keys.Up):
		s.pick = max(s.pick-1, 0)
	case is(km, s.keys.Down):
		s.pick = min(s.pick+1, max(len(s.presets)-1, 0))
	case is(km, s.keys.Confirm), is(km, s.keys.Forward):
		s.openPreset(s.pick)
	case d > 0 && d-1 < len(s.presets):
		s.openPreset(d - 1)
	}
}

func (s *Sandbox) openPreset(i int) {
	if i >= len(s.presets) || s.open == nil {
		return
	}
	sess, err := s.open(s.presets[i].Name)
	if err != nil {
		s.say(theme.Violated, err.Error())
		return
	}
	s.sess, s.mode = sess, modeActing
	s.say(theme.Accent, "the world waits for you: s sends, n steps, : any scenario line, ? every key")
	s.refresh()
}

// refresh reads the session after a change and redraws the panes.
func (s *Sandbox) refresh() {
	if s.sess == nil {
		return
	}
	s.waiting = s.sess.Waiting()
	s.monitors = s.sess.Monitors()
	s.guards = s.sess.Safeguards()
	s.bar = s.barLines()
	s.clients = s.sess.Clients()
	s.branches = s.sess.Branches()
	s.sel = min(s.sel, max(len(s.waiting)-1, 0))
	s.client = min(s.client, max(len(s.clients)-1, 0))
	s.shown = ""
	s.causeMemo.lines = nil
	for _, m := range s.monitors {
		if !m.Holds && !s.dismissed[dismissKey(m)] {
			s.shown = m.Name
			break
		}
	}
	s.readFrame()
	s.layout()
	if ps := s.sess.Problems(); len(ps) > 0 {
		s.say(theme.Violated, "refused at this step: "+strings.Join(ps, "; "))
	}
}

// readFrame reads the frame, with the cause shown and the selected
// message marked on the Timeline.
func (s *Sandbox) readFrame() {
	var id int64
	if s.sel < len(s.waiting) {
		id = s.waiting[s.sel].ID
	}
	s.frame = s.sess.Frame(s.shown, id)
}

// CauseShown is the monitor whose cause chain is on screen, or "".
func (s Sandbox) CauseShown() string { return s.shown }

// Prompt reports whether the prompt is open, its line, its inline error
// and the suggestions it offers for the line.
func (s Sandbox) Prompt() (open bool, line, err string, suggestions []string) {
	return s.mode == modePrompting, s.input.Value(), s.perr, s.input.MatchedSuggestions()
}

// Selected is the index of the selected waiting item.
func (s Sandbox) Selected() int { return s.sel }

// Package sandbox is the free-play screen: a world that waits for the
// learner, who picks which message is delivered, lost or repeated, calls
// the clients, and switches safeguards off. It is a component: it imports
// only the foundations (the view-model, the theme, the layout, a pane's
// content, the text measuring, the key helpers), never another component,
// the root, the engine or the lessons. What it draws with other
// components' code (the pane's box, the player's panels, the help's key
// table) comes down from the root in Draw, and leaving goes up as LeftMsg.
package sandbox

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/internal/keyset"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// Pane is the bordered, titled, scrollable box the sandbox draws each of
// its parts in: the part of views/pane's Model the sandbox uses, which the
// root makes (Draw.NewPane). A Pane is held by reference: the copies of
// Model that Bubble Tea passes around share it, as the root's panes are
// shared by its copies.
type Pane interface {
	// SetSize sets the outer size, borders included.
	SetSize(w, h int)
	// SetFocused marks the box as the one the scroll keys go to.
	SetFocused(focused bool)
	// SetTitle sets the (styled) title in the top border.
	SetTitle(title string)
	// SetContent sets the lines that stay put above the body, the body,
	// and the range of it to keep in sight.
	SetContent(header []string, body content.Content, anchor content.Range)
	// ScrollPage scrolls a focused box a page down (or up).
	ScrollPage(down bool)
	// Update scrolls a focused box with its own keys.
	Update(msg tea.Msg) tea.Cmd
	// Lines draws the box as exactly its height in lines of its width.
	Lines() []string
}

// PanelFunc draws one of the player's panels (id) for frame f, w cells
// wide inside its box: the lines that stay put, the body, and the range of
// it that changed.
type PanelFunc func(id layout.PanelID, f *model.Frame, w int) (head []string, body content.Content, anchor content.Range)

// Draw is what the sandbox draws with other components' code, passed down
// by the root because a component does not import another. Its functions
// hold no state of a sandbox: New calls NewPane and NewPanels for the
// state each sandbox keeps.
type Draw struct {
	// NewPane returns an empty box: with text, one that holds a few dozen
	// lines of text (the help, the branches) and scrolls them with its
	// own keys; else one that makes its lines as they come on screen.
	NewPane func(th *theme.Theme, text bool) Pane
	// NewPanels returns what draws the player's panels for one sandbox,
	// keeping what it drew for the last few frames.
	NewPanels func(th *theme.Theme) PanelFunc
	// Flow lays styled items out after lead on as many lines of w cells
	// as they need, never cutting an item, continuation lines indented by
	// indent cells.
	Flow func(w int, lead string, items []string, sep string, indent int) []string
	// KeyLines lists the keys' help, "key  what it does", in as many
	// columns as w cells hold; Legend is the Timeline's legend, w wide.
	KeyLines func(th *theme.Theme, w int, groups [][]key.Binding) []string
	Legend   func(th *theme.Theme, w int) []string
}

// Options are the plain values a sandbox is made with.
type Options struct {
	Theme *theme.Theme
	// Help draws the help bar, styled by the root.
	Help help.Model
	Keys KeyMap
	Draw Draw
	// Save writes a session's scenario under a name like the one given
	// and returns the name used; nil switches saving off (a served
	// session, or nowhere to write).
	Save func(name string, data []byte) (string, error)
	// Reached records a challenge reached (its name, and the file its
	// solution was kept in, "" for none); nil records nothing.
	Reached func(name, file string)
	// BreakBounds bound X's search; zero is the default (break.go).
	BreakBounds model.BreakBounds
}

// Model is the free-play screen: a world that waits for the learner. It
// opens on the preset picker, or on a session it is given (a scenario file
// played to its end). Every action key makes one Op, which the session
// applies as one engine action and answers with its scenario line.
//
// It is a screen of the root App (the home screen's Sandbox entry), which
// calls Step, and also a tea.Model of its own (eoslab sandbox).
type Model struct {
	opts    Options
	th      *theme.Theme
	keys    KeyMap
	help    help.Model
	presets []model.SandboxPreset
	open    func(name string) (model.SandboxSession, error)
	sess    model.SandboxSession
	w, h    int
	// mode is what the keys do now; pick is the preset picker's cursor.
	mode mode
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
	panes  [layout.NumPanels]Pane
	list   Pane // the waiting list
	mons   Pane // the monitors
	cause  Pane // the cause chain of a broken monitor
	over   Pane // help, branches
	panel  PanelFunc
	// helpDrawn is the help bar last drawn and the width it was drawn
	// for: lipgloss renders it slowly, and it is the same for a width.
	// By pointer, shared by the copies.
	helpDrawn *helpLine
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
	// saved is, for each branch saved (or opened from a file or a
	// preset), its length then: q asks before leaving a branch that has
	// changed since (modeLeaving). By reference, shared by the copies.
	saved map[int]int
	// cmp is C's comparison (compare.go).
	cmp compareState
	// nm is the text input that names a branch or notes it (branches.go).
	nm naming
	// left is set by the key that leaves the sandbox (q), until Step
	// reports it.
	left bool
	// gl is the challenge the session is set, if any (goal.go).
	gl *goalState
	// brk is "break it for me"'s search (break.go).
	brk *breakState
}

// helpLine is a help bar drawn for a width.
type helpLine struct {
	w    int
	line string
}

// mode is what the sandbox's keys do now: one mode at a time.
type mode uint8

// Sandbox modes.
const (
	modeActing      mode = iota // the action keys act on the session
	modePicking                 // the preset picker is shown
	modePrompting               // the command prompt takes the keys
	modeAiming                  // after c or r: the next key picks what crashes or restarts
	modeHelp                    // the help overlay is open
	modeBranches                // the branches overlay is open
	modeLeaving                 // after q with branches not saved: y leaves, any other key stays
	modeAskSolution             // after g twice: y shows the goal's solution, any other key does not
	modeSolution                // the goal's solution overlay is open
	modeBreakPick               // after X: a digit picks the guarantee to break
	modeNarrate                 // the schedule a search found, narrated
	modeChoosing                // after C: the next key picks the branch to compare with
	modeComparing               // the comparison overlay is open
	modeNaming                  // in the branches overlay: the text input of n, N or a
)

func (m mode) String() string {
	return [...]string{"acting", "picking", "prompting", "aiming", "help", "branches", "leaving", "asking", "solution", "breaking", "narrating",
		"choosing", "comparing", "naming"}[m]
}

// overlay reports whether an overlay (help, branches) covers the screen.
func (m mode) overlay() bool {
	switch m {
	case modeHelp, modeBranches, modeSolution, modeBreakPick, modeNarrate, modeComparing, modeNaming:
		return true
	}
	return false
}

// SavedMsg reports a save: the file written, or why not.
type SavedMsg struct {
	Path string
	Err  error
	// lens are the branches saved and their lengths; goal marks the
	// save of a challenge just reached.
	lens map[int]int
	goal bool
}

// New builds the sandbox. With sess nil it opens on the preset picker,
// using open to start the chosen preset.
func New(presets []model.SandboxPreset, open func(name string) (model.SandboxSession, error), sess model.SandboxSession, opts Options) Model {
	th, d := opts.Theme, opts.Draw
	s := Model{opts: opts, th: th, keys: opts.Keys, help: opts.Help, presets: presets, open: open,
		right: layout.PanelTimeline, panel: d.NewPanels(th), helpDrawn: &helpLine{w: -1}, dismissed: map[string]bool{},
		saved: map[int]int{}}
	for i := range s.panes {
		s.panes[i] = d.NewPane(th, false)
	}
	s.list, s.mons, s.cause, s.over = d.NewPane(th, false), d.NewPane(th, false), d.NewPane(th, false), d.NewPane(th, true)
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
		s.keepOpened()
	} else {
		s.mode = modePicking
	}
	return s
}

// Session is the session being played, or nil in the picker.
func (s Model) Session() model.SandboxSession { return s.sess }

// Init implements tea.Model.
func (s Model) Init() tea.Cmd { return nil }

// LeftMsg is what the sandbox reports up when the learner leaves it (q,
// or esc in the preset picker).
type LeftMsg struct{}

// Update implements tea.Model, for the sandbox as a program of its own
// (eoslab sandbox): leaving it quits.
func (s Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	s, cmd, out := s.Step(msg)
	if _, ok := out.(LeftMsg); ok {
		return s, tea.Quit
	}
	return s, cmd
}

// Typing reports whether a text input has the keys (the command prompt,
// or the box that names or notes a branch): it takes a burst of typed
// characters whole, where the other modes take it one key per character.
func (s Model) Typing() bool { return s.mode == modePrompting || s.mode == modeNaming }

// Step is Update for a parent that holds the sandbox as a screen: besides
// the sandbox and its command, it returns what the sandbox reports up
// (LeftMsg, or nil), at once, so that the key after q already goes
// to the parent's screen.
func (s Model) Step(msg tea.Msg) (Model, tea.Cmd, tea.Msg) {
	if km, ok := msg.(tea.KeyMsg); ok && !s.Typing() {
		if keys := keyset.Burst(km); keys != nil {
			// One key per character, in order; a key that leaves ends
			// the burst, as the next key would go to the parent.
			var cmds []tea.Cmd
			for _, k := range keys {
				var cmd tea.Cmd
				var out tea.Msg
				s, cmd, out = s.Step(k)
				cmds = append(cmds, cmd)
				if out != nil {
					return s, tea.Batch(cmds...), out
				}
			}
			return s, tea.Batch(cmds...), nil
		}
	}
	cmd := s.update(msg)
	if s.left {
		s.left = false
		return s, cmd, LeftMsg{}
	}
	return s, cmd, nil
}

func (s *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		s.resize(msg.Width, msg.Height)
	case BreakDoneMsg:
		s.breakDone(msg.Result)
		// The branch opened may reach the goal.
		return s.goalCmd()
	case SavedMsg:
		if msg.goal {
			s.goalSaved(msg)
			return nil
		}
		if msg.Err == nil {
			for i, n := range msg.lens {
				s.saved[i] = n
			}
		}
		if msg.Err != nil {
			s.say(theme.Violated, "not saved: "+msg.Err.Error())
		} else if s.sess != nil && msg.Path != s.sess.SaveName() {
			s.say(theme.Committed, s.sess.SaveName()+" exists and was left alone; saved as "+msg.Path+" (eoslab run or eoslab sandbox opens it)")
		} else {
			s.say(theme.Committed, "saved as "+msg.Path+" (eoslab run or eoslab sandbox opens it)")
		}
	case tea.KeyMsg:
		cmd := s.key(msg)
		if g := s.goalCmd(); g != nil {
			return tea.Batch(cmd, g)
		}
		return cmd
	}
	return nil
}

// SetSize sets the screen's size.
func (s *Model) SetSize(w, h int) { s.resize(w, h) }

func (s *Model) resize(w, h int) {
	s.w, s.h = max(w, 0), max(h, 0)
	s.help.Width = s.w
	s.input.Width = max(s.w-4, 1)
	s.bar = s.barLines()
	s.layout()
}

func (s *Model) say(k theme.Kind, msg string) { s.flash, s.flashKind = oneLine(msg), k }

// oneLine is a message cleaned for one line of the screen.
func oneLine(s string) string { return strings.TrimSpace(cells.Clean(s)) }

func is(km tea.KeyMsg, b key.Binding) bool { return key.Matches(km, b) }

func (s *Model) key(km tea.KeyMsg) tea.Cmd {
	if is(km, s.keys.QuitNow) {
		s.left = true
		return nil
	}
	if s.tooSmall() {
		// Nothing is drawn to act on: only q (and its question) acts.
		switch {
		case s.mode == modeLeaving:
			s.leaveKey(km)
		case is(km, s.keys.Quit):
			s.quit()
		}
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
	case s.mode == modeLeaving:
		s.leaveKey(km)
		return nil
	case s.mode == modeAskSolution:
		s.askKey(km)
		return nil
	case s.mode == modeBreakPick:
		return s.breakPickKey(km)
	case s.mode == modeChoosing:
		s.chooseKey(km)
		return nil
	case s.mode == modeComparing:
		s.compareKey(km)
		return nil
	case s.mode == modeNaming:
		return s.nameKey(km)
	case s.mode.overlay():
		s.overlayKey(km)
		return nil
	}
	s.flash = ""
	k := s.keys
	switch {
	case is(km, k.Quit):
		s.quit()
	case is(km, k.Help):
		s.mode = modeHelp
		s.layout()
	case is(km, k.Branches):
		s.mode = modeBranches
		s.layout()
	case is(km, k.Compare):
		s.startCompare()
	case is(km, k.Kafka):
		s.switchKafka()
	case is(km, k.Prompt), is(km, k.Until):
		s.mode, s.perr = modePrompting, ""
		s.input.SetValue("")
		if is(km, k.Until) {
			s.input.SetValue(untilLead)
			s.input.CursorEnd()
		}
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
			s.fillList() // its hint names this client's calls
			s.say(theme.Accent, "the call keys act on "+s.clientName())
		}
	case is(km, k.Init), is(km, k.Begin), is(km, k.Send), is(km, k.SendOffsets), is(km, k.Commit),
		is(km, k.Abort), is(km, k.Poll), is(km, k.Process):
		s.call(km)
	case is(km, k.Guard):
		s.toggle(model.SafeguardID(keyset.Digit(km, k.Digits) - 1))
	case is(km, k.Save):
		return s.save()
	case is(km, k.Goal):
		s.goalKey()
	case is(km, k.Break):
		s.breakKey()
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
		p := s.panes[s.mainPanel()]
		if s.shown != "" {
			p = s.cause
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
func (s *Model) nextPanel() layout.PanelID {
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

func (s *Model) overlayKey(km tea.KeyMsg) {
	d := keyset.Digit(km, s.keys.Digits)
	switch {
	case is(km, s.keys.Cancel), is(km, s.keys.Help) && s.mode == modeHelp, is(km, s.keys.Branches) && s.mode == modeBranches, is(km, s.keys.Quit):
		if s.mode == modeSolution {
			s.gl.hint = false
		}
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
	case s.mode == modeBranches && s.startNaming(km):
	default:
		s.over.Update(km)
	}
}

// pickKey moves through the preset picker and opens a preset.
func (s *Model) pickKey(km tea.KeyMsg) {
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

func (s *Model) openPreset(i int) {
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
	s.keepOpened()
}

// keepOpened counts the branches of a session just opened as saved: they
// are its file, or a preset, as they stand.
func (s *Model) keepOpened() {
	for i, b := range s.branches {
		s.saved[i] = b.Len
	}
}

// unsaved names the branches that changed since they were saved or
// opened.
func (s *Model) unsaved() []string {
	var out []string
	for i, b := range s.branches {
		if n, ok := s.saved[i]; !ok || n != b.Len {
			out = append(out, b.Name)
		}
	}
	return out
}

// quit leaves the sandbox, or, when saving is on and some branch is not
// saved, asks first. With saving off there is nothing to save, and q
// leaves as it says.
func (s *Model) quit() {
	names := s.unsaved()
	if s.opts.Save == nil || len(names) == 0 {
		s.left = true
		return
	}
	// The question first: a narrow screen cuts the names.
	what := "leave? " + strconv.Itoa(len(names)) + " branches are not saved: " + strings.Join(names, ", ")
	if len(names) == 1 {
		what = "leave? " + names[0] + " is not saved"
	}
	s.mode = modeLeaving
	s.say(theme.Violated, what)
}

// leaveKey answers the question quit asked: y leaves, any other key
// stays.
func (s *Model) leaveKey(km tea.KeyMsg) {
	s.mode, s.flash = modeActing, ""
	if is(km, s.keys.Leave) {
		s.left = true
	}
}

// refresh reads the session after a change and redraws the panes.
func (s *Model) refresh() {
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
	s.readGoal()
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
func (s *Model) readFrame() {
	var id int64
	if s.sel < len(s.waiting) {
		id = s.waiting[s.sel].ID
	}
	s.frame = s.sess.Frame(s.shown, id)
}

// ScreenName names what the sandbox shows, for tests that must reach
// every screen: "sandbox presets", "sandbox", "sandbox prompt", "sandbox
// help", "sandbox branches", "sandbox leaving" (q asks).
func (s Model) ScreenName() string {
	switch s.mode {
	case modePicking:
		return "sandbox presets"
	case modePrompting:
		return "sandbox prompt"
	case modeHelp:
		return "sandbox help"
	case modeBranches:
		return "sandbox branches"
	case modeLeaving:
		return "sandbox leaving"
	case modeAskSolution:
		return "sandbox asking"
	case modeSolution:
		return "sandbox solution"
	case modeBreakPick:
		return "sandbox break"
	case modeNarrate:
		return "sandbox narration"
	case modeChoosing, modeComparing, modeNaming:
		return "sandbox " + s.mode.String()
	}
	return "sandbox"
}

// CauseShown is the monitor whose cause chain is on screen, or "".
func (s Model) CauseShown() string { return s.shown }

// Prompt reports whether the prompt is open, its line, its inline error
// and the suggestions it offers for the line.
func (s Model) Prompt() (open bool, line, err string, suggestions []string) {
	return s.mode == modePrompting, s.input.Value(), s.perr, s.input.MatchedSuggestions()
}

// Selected is the index of the selected waiting item.
func (s Model) Selected() int { return s.sel }

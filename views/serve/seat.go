package serve

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/engine/termsafe"
	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/adapt"
	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/pane"
	"github.com/eoslab/eoslab/views/panels"
	"github.com/eoslab/eoslab/views/sandbox"
	"github.com/eoslab/eoslab/views/theme"
)

// classLesson is the name a student's player opens: the class's lesson,
// whichever the presenter picked.
const classLesson = "class"

// Largest terminal a seat is drawn for; a client that claims more is
// drawn at this size.
const maxW, maxH = 400, 200

// viewMsg brings a seat the class's newest View.
type viewMsg struct{ v *View }

// follower is the model.Session of a student's player: the class's lesson
// as its last View shows it. It cannot move; the player's moving keys are
// off (views.Options.Follow).
type follower struct{ v *View }

func (f *follower) Title() string           { return f.v.Title }
func (f *follower) Len() int                { return f.v.Len }
func (f *follower) Pos() int                { return f.v.Pos }
func (f *follower) Next() bool              { return false }
func (f *follower) Back() bool              { return false }
func (f *follower) Restart()                {}
func (f *follower) Answer(int) (bool, bool) { return false, false }
func (f *follower) Frame() model.Frame      { return f.v.Frame }
func (f *follower) set(v *View) (moved, ok bool) {
	if f.v != nil && v.Ver < f.v.Ver {
		return false, false
	}
	moved = f.v == nil || f.v.Pos != v.Pos || f.v.Gen != v.Gen
	f.v = v
	return moved, true
}

// presenting is the model.Session of the presenter's player: each move
// goes to the class, which answers with the presenter's new View.
type presenting struct {
	follower
	c *Class
}

func (p *presenting) move(k MoveKind) bool {
	v, ok := p.c.Move(Move{Kind: k})
	if v != nil {
		p.set(v)
	}
	return ok
}

func (p *presenting) Next() bool { return p.move(Next) }
func (p *presenting) Back() bool { return p.move(Back) }
func (p *presenting) Restart()   { p.move(Restart) }

// Seat is the Bubble Tea model of one SSH session: a player (views.App)
// with a line or a few under it for the class: a student's answer and
// verdict, the presenter's bars per choice.
type Seat struct {
	seat      string
	presenter bool
	class     *Class // nil in a solo room
	app       tea.Model
	sess      *follower
	pres      *presenting
	th        *theme.Theme
	opts      views.Options
	w, h      int
	footerH   int
	dark      bool
	note      string
	code      string // the seat's code, for its first session
	// The presenter's: hide keeps the tally and the names of those who
	// have not answered off their screen until the reveal (a projected
	// screen then does not herd the class); summary shows the lesson's
	// questions, how many answered and were right, where why shows.
	hide, summary bool
	export        func(string) (string, error)
	// box is a student's own sandbox of the class's world, while open.
	box tea.Model
	// why draws a revealed question over the player: the seat's verdict,
	// the explanation and the choices judged. The reveal runs the deciding
	// step at once, which may ask a new question: the player then shows
	// the new one, and the revealed one is only here. It opens by itself
	// the first time a seat sees a question revealed (whyShown); w opens
	// it again.
	why      pane.Model
	whyOpen  bool
	whyOf    whyKey
	whyShown map[whyKey]bool
	// Reason is why the seat ended, for the server's last words to it.
	Reason string
}

// SeatOptions are the choices the server makes for one seat.
type SeatOptions struct {
	Seat      string
	Presenter bool
	// Views are the player's options: the renderer, colour and ASCII.
	Views views.Options
	// Lessons are the presenter's list (one lesson when the class plays
	// only that one).
	Lessons []model.LessonInfo
	// Export writes the class's summary as a plain file and says where;
	// nil when there is nowhere to write it.
	Export func(text string) (string, error)
	// Code is a new seat's own code, shown to its first session only: the
	// password that brings the student back to it.
	Code string
}

var (
	// T, not t: the player's t picks a message on the Timeline
	// (panels.PickKeys), which a seat must keep.
	keyTheme  = key.NewBinding(key.WithKeys("T"), key.WithHelp("T", "light/dark"))
	keyReveal = key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "reveal the answer"))
	keyLeave  = key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "leave"))
	keyWhy    = key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "why"))
	keyClose  = key.NewBinding(key.WithKeys("esc", "w"), key.WithHelp("esc", "close"))
	keyHide   = key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "conceal/show the tally"))
	keySum    = key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "summary"))
	keyExport = key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "export the summary"))
	keyBox    = key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "sandbox"))
)

// themeHelp is the theme key's entry in the seat's bars.
func themeHelp() string { return keyTheme.Help().Key + " " + keyTheme.Help().Desc }

// whyKey names one reveal of a class: the lesson, the step and the
// reveal's number.
type whyKey struct{ gen, step, reveal int }

// NewSeat builds a seat of a class; first is the seat's first View.
func NewSeat(c *Class, first *View, o SeatOptions) *Seat {
	s := &Seat{seat: o.Seat, presenter: o.Presenter, class: c, opts: o.Views, dark: true, code: o.Code, export: o.Export}
	s.sess = &follower{v: first}
	if o.Presenter {
		s.pres = &presenting{follower: follower{v: first}, c: c}
		s.opts.Presenter = true
		open := func(name string) (model.Session, error) {
			v, ok := c.Move(Move{Kind: Open, Name: name})
			if !ok {
				return nil, errNoLesson(name)
			}
			s.pres.set(v)
			return s.pres, nil
		}
		s.opts.StartLesson = first.Name
		s.app = views.NewApp(o.Lessons, open, s.opts)
	} else {
		s.opts.Follow = true
		if first.Gen != 0 {
			s.opts.StartLesson = classLesson
		}
		s.app = views.NewApp(nil, func(string) (model.Session, error) { return s.sess, nil }, s.opts)
	}
	s.th = theme.New(theme.Options{NoColor: s.opts.NoColor, ASCII: s.opts.ASCII, Renderer: s.opts.Renderer})
	s.syncWhy()
	return s
}

// NewSoloSeat builds a seat of a self-paced room: the plain player, with
// its own copy of every lesson.
func NewSoloSeat(lessons []model.LessonInfo, open func(string) (model.Session, error), o SeatOptions) *Seat {
	s := &Seat{seat: o.Seat, opts: o.Views, dark: true}
	s.app = views.NewApp(lessons, open, s.opts)
	s.th = theme.New(theme.Options{NoColor: s.opts.NoColor, ASCII: s.opts.ASCII, Renderer: s.opts.Renderer})
	return s
}

type errNoLesson string

func (e errNoLesson) Error() string { return "no lesson named " + strconv.Quote(string(e)) }

// Init implements tea.Model.
func (s *Seat) Init() tea.Cmd { return s.app.Init() }

// Update implements tea.Model.
func (s *Seat) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		s.w, s.h = clampInt(msg.Width, 0, maxW), clampInt(msg.Height, 0, maxH)
		if s.box != nil {
			s.boxUpdate(msg)
		}
		return s, s.resize()
	case viewMsg:
		return s, s.onView(msg.v)
	case tea.KeyMsg:
		if s.box != nil {
			return s, s.boxUpdate(msg)
		}
		var cmd tea.Cmd
		if msg.Alt && s.class != nil {
			// No key of a class seat is an alt key: an alt key is Esc and
			// the key pressed just after it, read at once (Bubble Tea
			// reads ESC followed by a byte as alt+byte). Both count.
			msg.Alt = false
			cmd = tea.Batch(s.onKey(tea.KeyMsg{Type: tea.KeyEsc}), s.onKey(msg))
		} else {
			cmd = s.onKey(msg)
		}
		if len(s.footer()) != s.footerH {
			// A note came or went: the player gets the rows left.
			cmd = tea.Batch(cmd, s.resize())
		}
		return s, cmd
	}
	if s.box != nil {
		return s, tea.Batch(s.boxUpdate(msg), s.pass(msg))
	}
	return s, s.pass(msg)
}

func (s *Seat) pass(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	s.app, cmd = s.app.Update(msg)
	return cmd
}

// resize gives the player the rows the class lines leave it.
func (s *Seat) resize() tea.Cmd {
	s.footerH = len(s.footer())
	if s.whyOpen {
		s.fillWhy()
	}
	return s.pass(tea.WindowSizeMsg{Width: s.w, Height: max(s.h-s.footerH, 0)})
}

// current is the seat's last View.
func (s *Seat) current() *View {
	if s.presenter {
		return s.pres.v
	}
	return s.sess.v
}

// whyAsk is the revealed question the why view shows: the step before's
// on a deciding step, else the current step's once revealed.
func whyAsk(v *View) *Ask {
	if v == nil {
		return nil
	}
	if v.Result != nil {
		return v.Result
	}
	if v.Ask != nil && v.Ask.Revealed {
		return v.Ask
	}
	return nil
}

// syncWhy follows a new View: the why view closes when its question is no
// longer in view, and opens by itself the first time the seat sees a
// question revealed.
func (s *Seat) syncWhy() {
	if s.summary && s.whyOpen {
		s.fillWhy()
		return
	}
	v := s.current()
	a := whyAsk(v)
	if a == nil {
		s.whyOpen = false
		return
	}
	k := whyKey{v.Gen, a.Step, a.Reveal}
	if s.whyOpen && k != s.whyOf {
		s.whyOpen = false
	}
	if !s.whyShown[k] {
		if s.whyShown == nil {
			s.whyShown = map[whyKey]bool{}
		}
		s.whyShown[k] = true
		s.openWhy()
	}
}

func (s *Seat) openWhy() bool {
	v := s.current()
	a := whyAsk(v)
	if a == nil {
		return false
	}
	s.whyOpen, s.whyOf = true, whyKey{v.Gen, a.Step, a.Reveal}
	s.fillWhy()
	return true
}

// fillWhy lays out the why view for the seat's size and theme, in the
// style of the player's detail view: a pane over the player's body, under
// its header row.
func (s *Seat) fillWhy() {
	if s.summary {
		s.fillSummary()
		return
	}
	v := s.current()
	a := whyAsk(v)
	if a == nil {
		s.whyOpen = false
		return
	}
	th := s.th
	s.why = pane.NewText(th)
	s.why.SetFocused(true)
	s.why.SetSize(s.w, max(s.h-s.footerH-1, 0))
	s.why.SetTitle(th.Text(theme.TextTitle, "Why: step "+strconv.Itoa(a.Step)) + th.Text(theme.TextFaint, "  (w or esc closes)"))
	if v.Ask != nil && v.Ask != a {
		s.why.SetFooter(th.Text(theme.TextFaint, "step "+strconv.Itoa(v.Ask.Step)+" asks a new question"))
	}
	// The verdict and the explanation come first, as in the player's
	// wide lesson pane: on a short terminal they are what must show.
	question, result := panels.CheckpointLines(th, seatCheckpoint(a), min(max(s.w-4, 8), 100))
	var lines textLines
	for _, l := range append(append(result, ""), question...) {
		lines = append(lines, " "+l)
	}
	s.why.SetContent(nil, lines, content.Range{From: -1, To: -1})
}

// fillSummary lays out the presenter's summary in the why view's pane.
func (s *Seat) fillSummary() {
	th := s.th
	title, rows := s.class.Summary()
	s.why = pane.NewText(th)
	s.why.SetFocused(true)
	s.why.SetSize(s.w, max(s.h-s.footerH-1, 0))
	s.why.SetTitle(th.Text(theme.TextTitle, "Summary: "+title) + th.Text(theme.TextFaint, "  (s or esc closes, e exports)"))
	lines := textLines{" Per question: how many of those who answered were right (students who left included)."}
	for _, r := range rows {
		lines = append(lines, " "+ansi.Truncate(summaryLine(r), max(s.w-3, 8), th.Sym.Ellipsis))
	}
	if len(rows) == 0 {
		lines = append(lines, " No question in this lesson yet.")
	}
	s.why.SetContent(nil, lines, content.Range{From: -1, To: -1})
}

func (s *Seat) exportSummary() {
	if s.export == nil {
		s.note = "No state directory to export to: the server keeps no files."
		return
	}
	where, err := s.export(SummaryText(s.class.Summary()))
	if err != nil {
		s.note = "The summary could not be written: " + termsafe.Blank(err.Error())
		return
	}
	s.note = "Summary written to " + termsafe.Blank(where) + " (on the server)."
}

// openBox opens the student's own sandbox on the class's world where it
// is, if the presenter allows it. It is the player's sandbox with no
// files, under the session's limits (the idle timeout, the input cap, the
// sandbox's own limits on lines and steps).
func (s *Seat) openBox() {
	name, src := s.class.SandboxSource()
	if src == "" {
		s.note = "The presenter has not opened the sandbox (x) yet."
		return
	}
	sb, err := adapt.OpenSandboxFile(name+".eos", []byte(src))
	if err != nil {
		s.note = "The sandbox could not open: " + termsafe.Blank(err.Error())
		return
	}
	o := s.opts
	o.NoFiles, o.Follow = true, false
	s.box = views.NewSandbox(nil, nil, sb, o)
	s.note = ""
	s.boxUpdate(tea.WindowSizeMsg{Width: s.w, Height: max(s.h-1, 0)})
}

// boxUpdate runs the sandbox; its q (sandbox.LeftMsg) comes back to the class
// instead of quitting the session.
func (s *Seat) boxUpdate(msg tea.Msg) tea.Cmd {
	if wm, ok := msg.(tea.WindowSizeMsg); ok {
		msg = tea.WindowSizeMsg{Width: wm.Width, Height: max(wm.Height-1, 0)}
	}
	sb, ok := s.box.(sandbox.Model)
	if !ok {
		var cmd tea.Cmd
		s.box, cmd = s.box.Update(msg)
		return cmd
	}
	sb, cmd, out := sb.Step(msg)
	s.box = sb
	if _, left := out.(sandbox.LeftMsg); left {
		s.box = nil
		return s.resize()
	}
	return cmd
}

// textLines is the why view's content.
type textLines []string

func (t textLines) Len() int          { return len(t) }
func (t textLines) Line(i int) string { return t[i] }

func (s *Seat) onView(v *View) tea.Cmd {
	var cmds []tea.Cmd
	if s.presenter {
		moved, ok := s.pres.set(v)
		if ok {
			cmds = append(cmds, s.pass(views.SessionChangedMsg{Moved: moved}))
		}
		if moved {
			s.note = ""
		}
	} else {
		old := s.sess.v
		moved, ok := s.sess.set(v)
		switch {
		case !ok:
		case v.Gen != 0 && (old == nil || old.Gen != v.Gen):
			cmds = append(cmds, s.pass(views.OpenLessonMsg{Name: classLesson}))
		default:
			cmds = append(cmds, s.pass(views.SessionChangedMsg{Moved: moved}))
		}
		if moved {
			s.note = ""
		}
	}
	s.syncWhy()
	if len(s.footer()) != s.footerH {
		cmds = append(cmds, s.resize())
	}
	return tea.Batch(cmds...)
}

func (s *Seat) onKey(km tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(km, keyTheme):
		s.dark = !s.dark
		s.th.Renderer().SetHasDarkBackground(s.dark)
		s.th = theme.New(theme.Options{NoColor: s.opts.NoColor, ASCII: s.opts.ASCII, Renderer: s.opts.Renderer})
		if s.whyOpen {
			s.fillWhy()
		}
		return s.pass(views.SetDarkMsg{Dark: s.dark})
	case s.class == nil:
		return s.pass(km)
	case s.whyOpen && (key.Matches(km, keyClose) || (s.summary && key.Matches(km, keySum))):
		s.whyOpen, s.summary = false, false
		return nil
	case s.presenter && s.summary && key.Matches(km, keyExport):
		s.exportSummary()
		return nil
	case s.presenter && key.Matches(km, keyHide):
		s.hide = !s.hide
		s.note = "The tally and the names show again at the reveal (c shows them now)."
		if !s.hide {
			s.note = "The tally shows (c hides it until the reveal)."
		}
		return nil
	case s.presenter && key.Matches(km, keyBox):
		v, _ := s.pres.c.Move(Move{Kind: AllowSandbox})
		if v != nil {
			s.pres.set(v)
		}
		return nil
	case !s.presenter && key.Matches(km, keyBox):
		s.openBox()
		return nil
	case s.presenter && key.Matches(km, keySum):
		s.summary = true
		s.whyOpen = true
		s.fillWhy()
		return nil
	case s.whyOpen && s.why.Scrolls(km):
		s.why, _ = s.why.Update(km)
		return nil
	case key.Matches(km, keyWhy):
		if !s.openWhy() {
			s.note = "Nothing to explain yet: w shows a question's why once it is revealed."
		}
		return nil
	}
	// Any other key closes the why view and does what it does: a digit
	// answers at once (the student saw the question before the reveal
	// opened the why view over it, and a swallowed first press is an
	// answer lost). Esc pressed just before a digit reaches Bubble Tea in
	// the same read as alt+digit; it is the two keys, Esc and the digit.
	s.whyOpen, s.summary = false, false
	if o, ok := s.app.(interface{ Overlay() bool }); ok && km.Type == tea.KeyEsc && !o.Overlay() {
		// Nothing to close: Esc would leave the class's lesson for a
		// list of one.
		return nil
	}
	switch {
	case s.presenter && key.Matches(km, keyReveal):
		if _, ok := s.pres.c.Move(Move{Kind: Reveal}); !ok {
			s.note = "Nothing to reveal: no open question on this step."
		} else {
			s.note = ""
		}
		return nil
	case s.presenter:
		if n, ok := digit(km); ok && n > 0 && s.pres.v.Ask != nil && !s.pres.v.Ask.Revealed {
			s.note = "The students answer; a reveals."
			return nil
		}
		s.note = ""
		return s.pass(km)
	}
	// A student.
	if key.Matches(km, keyLeave) {
		s.Reason = "left"
		return tea.Quit
	}
	if n, ok := digit(km); ok {
		s.answer(n)
		return nil
	}
	return s.pass(km)
}

func (s *Seat) answer(n int) {
	v := s.sess.v
	a := v.Ask
	switch {
	case a == nil:
		s.note = "No question on this step."
	case a.Revealed:
		s.note = "This question is revealed already."
	case a.Mine != 0:
		s.note = "Your answer " + strconv.Itoa(a.Mine) + " is locked."
	case n < 1 || n > len(a.Choices):
		s.note = "There is no choice " + strconv.Itoa(n) + ": press 1-" + strconv.Itoa(len(a.Choices)) + "."
	default:
		s.note = ""
		s.class.Answer(s.seat, a.Step, n)
	}
}

// digit is a key that is a digit alone. Digits among other runes in one
// read are not a key press: Bubble Tea gives a burst of runes as one
// KeyMsg.
func digit(km tea.KeyMsg) (int, bool) {
	r := km.Runes
	if km.Type != tea.KeyRunes || len(r) != 1 || r[0] < '0' || r[0] > '9' {
		return 0, false
	}
	return int(r[0] - '0'), true
}

// View implements tea.Model.
func (s *Seat) View() string {
	if s.w <= 0 || s.h <= 0 {
		return ""
	}
	if s.box != nil {
		line := " " + s.th.Text(theme.TextAccent, "your own sandbox") + s.sep() + "the class goes on: step " + strconv.Itoa(s.sess.v.Pos) + "/" + strconv.Itoa(s.sess.v.Len) + s.sep() + s.th.Text(theme.TextFaint, "q back to the class")
		return s.box.View() + "\n" + ansi.Truncate(line, s.w, s.th.Sym.Ellipsis)
	}
	foot := s.footer()
	var body string
	if !s.presenter && s.class != nil && s.sess.v.Gen == 0 {
		body = s.waiting()
	} else {
		body = s.app.View()
	}
	lines := strings.Split(body, "\n")
	rows := max(s.h-len(foot), 0)
	for len(lines) < rows {
		lines = append(lines, "")
	}
	if s.whyOpen && rows > 1 {
		// Over the player's body, under its header row.
		lines = append(lines[:1], s.why.Lines()...)
	}
	lines = append(lines[:rows], foot...)
	if len(lines) > s.h {
		lines = lines[len(lines)-s.h:]
	}
	return strings.Join(lines, "\n")
}

func (s *Seat) waiting() string {
	msg := "Waiting for the presenter to open a lesson" + s.th.Sym.Ellipsis
	return lipgloss.Place(s.w, max(s.h-s.footerH, 0), lipgloss.Center, lipgloss.Center, msg, lipgloss.WithWhitespaceChars(" "))
}

// footer is the class's lines under the player, each fitted to the width.
func (s *Seat) footer() []string {
	if s.class == nil || s.w <= 0 {
		return nil
	}
	var out []line
	if s.presenter {
		out = s.presenterLines(s.pres.v)
	} else {
		out = s.studentLines(s.sess.v)
	}
	if s.note != "" {
		out = append(out, line{" " + s.th.Render(theme.Open, s.note), rankNote})
	}
	out = fitLines(out, max(s.h-layout.MinHeight, 1))
	lines := make([]string, len(out))
	for i, l := range out {
		lines[i] = ansi.Truncate(l.text, s.w, s.th.Sym.Ellipsis)
	}
	return lines
}

// fitLines keeps at most budget of the class's lines, in their order: the
// player needs views.MinHeight rows, so on a short terminal the class's
// lines give way, the least needed first. A question's bars go all
// together: one bar of three would read as the whole class's answer.
func fitLines(out []line, budget int) []line {
	keep := make([]bool, len(out))
	for i := range keep {
		keep[i] = true
	}
	n := len(out)
	for n > budget {
		drop := -1
		for i, l := range out {
			if keep[i] && (drop < 0 || l.rank < out[drop].rank) {
				drop = i
			}
		}
		keep[drop] = false
		n--
	}
	bars, kept := 0, 0
	for i, l := range out {
		if l.rank == rankBar {
			bars++
			if keep[i] {
				kept++
			}
		}
	}
	if kept > 0 && kept < bars {
		for i, l := range out {
			if l.rank == rankBar && keep[i] {
				keep[i] = false
				n--
			}
		}
		// The rows the bars leave go to the lines dropped before them,
		// the most needed first.
		for n < budget {
			add := -1
			for i, l := range out {
				if !keep[i] && l.rank != rankBar && (add < 0 || l.rank > out[add].rank) {
					add = i
				}
			}
			if add < 0 {
				break
			}
			keep[add] = true
			n++
		}
	}
	var fit []line
	for i, l := range out {
		if keep[i] {
			fit = append(fit, l)
		}
	}
	return fit
}

// line is one of the class's lines and how much it is needed.
type line struct {
	text string
	rank int
}

// Ranks, least needed first.
const (
	rankHead = iota
	rankSpread
	rankBar
	rankVerdict
	rankCode
	rankStatus
	rankNote
)

func (s *Seat) sep() string { return s.th.Text(theme.TextFaint, s.th.Sym.Sep) }

func (s *Seat) studentLines(v *View) []line {
	th := s.th
	head := " " + th.Text(theme.TextAccent, "seat "+s.seat)
	if v.Gen != 0 {
		head += s.sep() + "step " + strconv.Itoa(v.Pos) + "/" + strconv.Itoa(v.Len)
	}
	out := []line{{head + s.sep() + th.Text(theme.TextFaint, themeHelp()+th.Sym.Sep+"q leaves"), rankHead}}
	if v.Presenters == 0 {
		out = append(out, line{" " + th.Mark(theme.Paused, "the presenter is away; the class waits here"), rankSpread})
	}
	if v.Sandbox {
		out = append(out, line{" " + th.Text(theme.TextAccent, "x") + " opens this world in your own sandbox", rankSpread})
	}
	if s.code != "" {
		out = append(out, line{" " + th.Text(theme.TextAccent, "seat code "+s.code) + ": your password to come back (shown once)", rankCode})
	}
	if r := v.Result; r != nil {
		out = append(out, s.verdictLines(r, v.Ask != nil, v.Ask == nil)...)
	}
	switch a := v.Ask; {
	case a == nil:
	case a.Revealed:
		out = append(out, s.verdictLines(a, false, true)...)
	case a.Mine == 0:
		out = append(out, line{" " + th.Mark(theme.Open, "Your answer: press 1-"+strconv.Itoa(len(a.Choices))+" (locked once sent)") + s.whyHint(v), rankStatus})
	default:
		out = append(out, line{" " + th.Mark(theme.Paused, "locked: you chose "+strconv.Itoa(a.Mine)+"; wait for the reveal") + s.whyHint(v), rankStatus})
	}
	return out
}

// whyHint says, on the new question's status line, which stays on a
// short terminal, that w shows the revealed question the new one hides.
func (s *Seat) whyHint(v *View) string {
	if v.Result == nil || v.Ask == nil {
		return ""
	}
	return s.sep() + s.th.Text(theme.TextAccent, "w why")
}

// verdictLines are a student's verdict on a revealed question and the
// class's spread; named by step when another question follows it (whose
// status line then says w shows the why), else followed by "w why" when
// the width allows.
func (s *Seat) verdictLines(a *Ask, named, hint bool) []line {
	th := s.th
	lead := " "
	if named {
		lead = " step " + strconv.Itoa(a.Step) + ": "
	}
	right := strconv.Itoa(a.Correct)
	k, text := theme.Wrong, "not quite, you chose "+strconv.Itoa(a.Mine)+"; the answer is "+right
	switch {
	case a.Mine == 0:
		k, text = theme.Muted, "you did not answer; the answer is "+right
	case a.Mine == a.Correct:
		k, text = theme.Correct, "correct, you chose "+right
	}
	// The word "verdict:" gives way on a narrow terminal, so that the
	// verdict itself is never cut.
	verdict := lead + th.Mark(k, "verdict: "+text)
	if ansi.StringWidth(verdict) > s.w {
		verdict = lead + th.Mark(k, text)
	}
	if h := s.sep() + th.Text(theme.TextAccent, "w why"); hint && ansi.StringWidth(verdict+h) <= s.w {
		verdict += h
	}
	return []line{{verdict, rankVerdict}, {" " + s.spread(a), rankSpread}}
}

// spread is the class's answers in one line:
// "class: 1) 3 · 2) 17 ✓ · 3) 4 (24 answered)".
func (s *Seat) spread(a *Ask) string {
	th := s.th
	parts := make([]string, len(a.Counts))
	for i, n := range a.Counts {
		parts[i] = strconv.Itoa(i+1) + ") " + strconv.Itoa(n)
		if i+1 == a.Correct {
			parts[i] = th.Render(theme.Correct, parts[i]+" "+th.Glyph(theme.Correct))
		}
	}
	return "class: " + strings.Join(parts, s.sep()) + th.Text(theme.TextFaint, " ("+strconv.Itoa(a.Answered)+" answered)")
}

func (s *Seat) presenterLines(v *View) []line {
	th := s.th
	head := " " + th.Text(theme.TextAccent, "presenter "+s.seat) + s.sep() + plural(v.Students, "student")
	if v.Gen != 0 {
		head += s.sep() + "step " + strconv.Itoa(v.Pos) + "/" + strconv.Itoa(v.Len)
	}
	a, r := v.Ask, v.Result
	if a != nil && r != nil {
		head += s.sep() + "step " + strconv.Itoa(r.Step) + ": " + s.score(r)
	}
	// The keys come last: the line is cut on a narrow terminal.
	box := "x lets students sandbox"
	if v.Sandbox {
		box = "x stops the sandbox (open to students)"
	}
	tally := "c hide tally"
	if s.hide {
		tally = "c show tally"
	}
	head += s.sep() + th.Text(theme.TextFaint, tally+th.Sym.Sep+"s summary"+th.Sym.Sep+box+th.Sym.Sep+themeHelp())
	if a == nil && r == nil {
		return []line{{head, rankHead}}
	}
	if a == nil {
		return append([]line{{head, rankHead}}, s.bars(r, v.Students)...)
	}
	if s.hide && !a.Revealed {
		status := "step " + strconv.Itoa(a.Step) + ": " + strconv.Itoa(a.Answered) + " of " + strconv.Itoa(v.Students) + " answered" +
			s.sep() + th.Text(theme.TextAccent, "a reveals") + s.sep() + "tally hidden until the reveal (c shows it)"
		return []line{{head, rankHead}, {" " + status, rankStatus}}
	}
	return append([]line{{head, rankHead}}, s.bars(a, v.Students)...)
}

func (s *Seat) score(a *Ask) string {
	right := 0
	if a.Correct >= 1 && a.Correct <= len(a.Counts) {
		right = a.Counts[a.Correct-1]
	}
	return s.th.Mark(theme.Correct, strconv.Itoa(right)+" of "+strconv.Itoa(a.Answered)+" right")
}

// bars are the presenter's lines for a question: a bar per choice, and
// how many answered and who has not, or the score once revealed.
func (s *Seat) bars(a *Ask, students int) []line {
	th := s.th
	var out []line
	// A bar's full length is the whole class, so a bar reads as a share
	// of it.
	most := max(students, a.Answered, 1)
	barW := clampInt(s.w/4, 5, 30)
	for i, n := range a.Counts {
		full := n * barW / most
		bar := th.Text(theme.TextBarDone, strings.Repeat(th.Sym.BarFull, full)) + th.Text(theme.TextBarLeft, strings.Repeat(th.Sym.BarEmpty, barW-full))
		mark := "  "
		if a.Revealed && i+1 == a.Correct {
			mark = th.Render(theme.Correct, th.Glyph(theme.Correct)) + " "
		}
		label := fitText(termsafe.Blank(a.Choices[i]), s.w-barW-14, th.Sym.Ellipsis)
		out = append(out, line{" " + mark + strconv.Itoa(i+1) + ") " + bar + " " + padLeft(strconv.Itoa(n), 3) + "  " + label, rankBar})
	}
	status := "step " + strconv.Itoa(a.Step) + ": " + strconv.Itoa(a.Answered) + " of " + strconv.Itoa(students) + " answered"
	if a.Revealed {
		status = "step " + strconv.Itoa(a.Step) + " revealed: " + s.score(a)
	}
	if a.Away == 1 {
		status += " (1 answer of a student who left: kept, not counted)"
	} else if a.Away > 1 {
		status += " (" + strconv.Itoa(a.Away) + " answers of students who left: kept, not counted)"
	}
	if !a.Revealed {
		// The keys come before the list of seats, which may be cut.
		status += s.sep() + th.Text(theme.TextAccent, "a reveals") + s.whyHint(s.pres.v)
		if len(a.Waiting) > 0 {
			status += s.sep() + "not yet: " + waitingList(a.Waiting, 6)
		}
	}
	return append(out, line{" " + status, rankStatus})
}

func waitingList(seats []string, n int) string {
	if len(seats) <= n {
		return strings.Join(seats, ", ")
	}
	return strings.Join(seats[:n], ", ") + " +" + strconv.Itoa(len(seats)-n)
}

func fitText(s string, w int, ell string) string {
	if w <= 0 {
		return ""
	}
	return ansi.Truncate(s, w, ell)
}

// plural is n and a noun: "1 student", "2 students".

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

func padLeft(s string, w int) string {
	for len(s) < w {
		s = " " + s
	}
	return s
}

func clampInt(v, lo, hi int) int { return max(lo, min(v, hi)) }

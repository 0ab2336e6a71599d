package sandbox

import (
	"strconv"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/internal/keyset"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// "Break it for me": X lists the guarantees that hold; a digit picks one,
// and the session's bounded search (model.SandboxBreaker) runs as a
// tea.Cmd from the current position while the screen says it is
// searching. A schedule found opens as a new branch, its steps narrated
// with the events and rules that decided them; none found says so, with
// the states explored.

// breakBounds bound the sandbox's search: a shortest schedule of at most
// 6 actions (eoslab break's default), and a table of states that keeps
// memory to a few tens of megabytes.
var breakBounds = model.BreakBounds{Depth: 6, MaxStates: 300000}

// breakState is the search's state; by reference, shared by the copies.
type breakState struct {
	searching bool
	// holding are the monitors offered, in the order their digits pick.
	holding []model.Monitor
	last    model.BreakResult
	// found are the branches the search opened: a goal reached on one
	// (or on a branch forked from one after the search's first step) is
	// the search's, not the student's, and is not recorded.
	found map[int]bool
}

// bySearch reports whether branch i is the search's work: opened by it,
// or forked from such a branch past the point where the search began.
func (s *Model) bySearch(i int) bool {
	if s.brk == nil || len(s.brk.found) == 0 {
		return false
	}
	infos := s.sess.Branches()
	for at := -1; i >= 0 && i < len(infos); i = infos[i].Parent {
		if s.brk.found[i] && (at < 0 || at > infos[i].At) {
			return true
		}
		at = infos[i].At
	}
	return false
}

// BreakDoneMsg carries a search's result back to the sandbox.
type BreakDoneMsg struct{ Result model.BreakResult }

func (s *Model) breaker() (model.SandboxBreaker, bool) {
	b, ok := s.sess.(model.SandboxBreaker)
	return b, ok
}

// breakKey is X: the guarantees to pick from.
func (s *Model) breakKey() {
	if s.brk == nil {
		s.brk = &breakState{}
	}
	if _, ok := s.breaker(); !ok {
		s.say(theme.Muted, "this sandbox cannot search")
		return
	}
	if s.brk.searching {
		s.say(theme.Accent, "still searching; the result opens as a new branch")
		return
	}
	s.brk.holding = s.brk.holding[:0]
	for _, m := range s.monitors {
		if m.Holds {
			s.brk.holding = append(s.brk.holding, m)
		}
	}
	if len(s.brk.holding) == 0 {
		s.say(theme.Muted, "every guarantee is broken here already")
		return
	}
	s.mode = modeBreakPick
	s.layout()
}

// breakPickKey answers the list: a digit starts the search.
func (s *Model) breakPickKey(km tea.KeyMsg) tea.Cmd {
	d := keyset.Digit(km, s.keys.Digits)
	switch {
	case is(km, s.keys.Cancel), is(km, s.keys.Quit), is(km, s.keys.Break):
		s.mode = modeActing
		s.layout()
	case d > 0 && d <= len(s.brk.holding):
		s.mode = modeActing
		s.layout()
		return s.startBreak(s.brk.holding[d-1])
	default:
		s.over.Update(km)
	}
	return nil
}

func (s *Model) startBreak(m model.Monitor) tea.Cmd {
	b, _ := s.breaker()
	bb := breakBounds
	if s.opts.BreakBounds.Depth > 0 {
		bb = s.opts.BreakBounds
	}
	run := b.Break(m.Name, bb)
	s.brk.searching = true
	s.say(theme.Accent, "searching (at most "+strconv.Itoa(bb.Depth)+" actions, "+strconv.Itoa(bb.MaxStates)+" states): "+m.Sentence)
	return func() tea.Msg { return BreakDoneMsg{Result: run()} }
}

// breakDone opens what the search found.
func (s *Model) breakDone(r model.BreakResult) {
	if s.brk == nil {
		s.brk = &breakState{}
	}
	s.brk.searching, s.brk.last = false, r
	if !r.Found {
		s.say(theme.Muted, r.Says+": "+cells.Clean(r.Sentence))
		return
	}
	b, _ := s.breaker()
	if err := b.OpenBreak(r); err != nil {
		s.say(theme.Violated, err.Error())
		s.refresh()
		return
	}
	if s.brk.found == nil {
		s.brk.found = map[int]bool{}
	}
	s.brk.found[s.sess.Branch()] = true
	s.refresh()
	s.mode = modeNarrate
	s.layout()
	s.say(theme.Violated, "broken in "+strconv.Itoa(len(r.Steps))+" action(s): on a new branch (B lists them)")
}

// searchTag marks the header while a search runs: the keys go on
// acting, and the status line shows what they did.
func (s Model) searchTag() string {
	if !s.Searching() {
		return ""
	}
	return s.th.Text(theme.TextAccent, "searching...") + s.th.Text(theme.TextFaint, " "+s.th.Sym.Sep+" ")
}

// Searching reports whether a search is running.
func (s Model) Searching() bool { return s.brk != nil && s.brk.searching }

// fillBreak draws the guarantees to pick (modeBreakPick) or the schedule
// found, narrated (modeNarrate).
func (s *Model) fillBreak(r layout.Rect) {
	th, w := s.th, max(r.W-4, 10)
	var lines []string
	if s.mode == modeBreakPick {
		s.over.SetTitle(th.Text(theme.TextTitle, "Break it for me") + th.Text(theme.TextFaint, "  1-"+strconv.Itoa(len(s.brk.holding))+" picks, esc closes"))
		lines = append(lines, cells.Wrap("Which guarantee? A search tries what the waiting world may do next (deliver, drop, duplicate or delay a message, a client call, a crash, a pause) for the shortest schedule that breaks it, from here.", w)...)
		lines = append(lines, "")
		for i, m := range s.brk.holding {
			lines = append(lines, th.Text(theme.TextAccent, strconv.Itoa(i+1))+"  "+cells.Fit(cells.Clean(m.Sentence), w-3, th.Sym.Ellipsis))
		}
	} else {
		res := s.brk.last
		s.over.SetTitle(th.Mark(theme.Violated, "How \""+cells.Clean(res.Sentence)+"\" breaks") + th.Text(theme.TextFaint, "  esc closes"))
		lines = append(lines, cells.Wrap(cells.Clean(res.Says)+", from step "+strconv.Itoa(res.At)+". You stand at its end, on a new branch; each step shows the events that decided it.", w)...)
		for i, st := range res.Steps {
			lines = append(lines, "")
			lead := strconv.Itoa(i+1) + ". "
			lines = append(lines, th.Text(theme.TextAccent, lead)+th.Text(theme.TextBold, cells.Clean(st.Line)))
			for _, e := range st.Events {
				for _, l := range cells.Wrap(cells.Clean(e), max(w-len(lead)-2, 8)) {
					lines = append(lines, cells.Repeat(" ", len(lead)+2)+l)
				}
			}
		}
	}
	for i, l := range lines {
		lines[i] = " " + l
	}
	s.over.SetContent(nil, content.Lines(lines), content.NoRange)
}

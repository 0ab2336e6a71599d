package sandbox

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/internal/inputguard"
	"github.com/eoslab/eoslab/views/theme"
)

// The sandbox prompt: one line of the scenario language, with the
// completions the session offers, a history, and errors kept under the
// line.

// promptKey edits the prompt line. Enter runs it; an error stays under the
// line, which is kept so it can be fixed.
func (s *Model) promptKey(km tea.KeyMsg) tea.Cmd {
	k := s.keys
	switch {
	case is(km, k.Cancel):
		s.mode = modeActing
		s.input.Blur()
		s.layout()
		return nil
	case is(km, k.Confirm):
		line := strings.TrimSpace(s.input.Value())
		if line == "" {
			s.mode = modeActing
			s.layout()
			return nil
		}
		if len(s.hist) == 0 || s.hist[len(s.hist)-1] != line {
			s.hist = append(s.hist, line)
		}
		s.histAt = len(s.hist)
		before := len(s.branches)
		ans, err := s.sess.Exec(line)
		if err != nil {
			s.perr = oneLine(err.Error())
			return nil
		}
		s.mode, s.perr = modeActing, ""
		s.input.SetValue("")
		s.refresh()
		if len(s.branches) > before {
			ans += "  (a new branch: " + s.branches[len(s.branches)-1].Name + ")"
		}
		s.say(theme.Changed, ans)
		return nil
	case is(km, k.HistoryUp), is(km, k.HistoryDown):
		if len(s.hist) == 0 {
			return nil
		}
		if is(km, k.HistoryUp) {
			s.histAt = max(s.histAt-1, 0)
		} else {
			s.histAt = min(s.histAt+1, len(s.hist))
		}
		v := ""
		if s.histAt < len(s.hist) {
			v = s.hist[s.histAt]
		}
		s.input.SetValue(v)
		s.input.CursorEnd()
		s.suggest()
		return nil
	}
	var cmd tea.Cmd
	s.input, cmd = s.input.Update(inputguard.Key(s.input, km))
	s.perr = ""
	s.suggest()
	return cmd
}

// suggest gives the prompt the lines its value may become.
func (s *Model) suggest() {
	s.input.SetSuggestions(s.sess.Complete(s.input.Value()))
}

package home

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// The Challenges entry: the goals of `eoslab challenges`, listed with
// their level and whether the learner reached them, the selected goal in
// full under the list and its hint on a key. Picking one reports
// OpenChallengeMsg; the root decides what opening it means.

// ChallengesEntry is the home list's name for the Challenges entry; like
// SandboxEntry, no lesson can have it.
const ChallengesEntry = ":challenges"

// OpenChallengeMsg reports that the learner picked challenge Name (its
// model.ChallengeInfo.Name) on the Challenges entry.
type OpenChallengeMsg struct{ Name string }

// challengesItem is the entry's row in the lesson list, after the
// sandbox's.
var challengesItem = model.LessonInfo{Name: ChallengesEntry, Title: "Challenges", Level: "any level",
	Summary: "Goals to reach in the sandbox, each checked by the engine: a record written twice, a stalled reader, a fenced zombie"}

// challenges is the state of the Challenges entry.
type challenges struct {
	goals []model.ChallengeInfo
	on    bool // the entry is open: the list shows the goals
	sel   int
	hint  bool // the selected goal's hint is shown
}

// SetChallenges gives the entry its goals; with none, the entry is left
// out. The list keeps its place.
func (h *Model) SetChallenges(goals []model.ChallengeInfo) {
	h.ch.goals = goals
	h.ch.sel = min(h.ch.sel, max(len(goals)-1, 0))
	if len(goals) == 0 {
		h.ch.on = false
	}
	items := h.list.Items()
	at := -1
	for i, it := range items {
		if li, ok := it.(lessonItem); ok && li.Name == ChallengesEntry {
			at = i
		}
	}
	switch {
	case len(goals) > 0 && at < 0:
		if n := len(items); n > 0 {
			if li, ok := items[n-1].(lessonItem); ok && li.Level != challengesItem.Level {
				h.list.InsertItem(n, levelItem(challengesItem.Level))
			}
		}
		h.list.InsertItem(len(h.list.Items()), lessonItem{LessonInfo: challengesItem})
	case len(goals) == 0 && at >= 0:
		h.list.RemoveItem(at)
	}
	h.SetSize(h.w, h.h) // the entries may take one line or two
}

// InChallenges reports whether the Challenges entry is open.
func (h Model) InChallenges() bool { return h.ch.on }

// openChallenges opens the entry, on its first unfinished goal.
func (h *Model) openChallenges() {
	if len(h.ch.goals) == 0 {
		return
	}
	h.ch.on, h.ch.hint = true, false
	for i, g := range h.ch.goals {
		if !g.Finished {
			h.ch.sel = i
			break
		}
	}
}

// challengesUpdate handles a key while the entry is open.
func (h Model) challengesUpdate(km tea.KeyMsg) (Model, tea.Cmd) {
	c := &h.ch
	lk := h.list.KeyMap
	switch {
	case key.Matches(km, h.KeyMap.Back):
		c.on = false
	case key.Matches(km, h.KeyMap.Hint):
		c.hint = !c.hint
	case key.Matches(km, lk.CursorUp):
		c.sel, c.hint = max(c.sel-1, 0), false
	case key.Matches(km, lk.CursorDown):
		c.sel, c.hint = min(c.sel+1, len(c.goals)-1), false
	case key.Matches(km, lk.GoToStart):
		c.sel, c.hint = 0, false
	case key.Matches(km, lk.GoToEnd):
		c.sel, c.hint = len(c.goals)-1, false
	case key.Matches(km, h.KeyMap.Open):
		name := c.goals[c.sel].Name
		return h, func() tea.Msg { return OpenChallengeMsg{Name: name} }
	}
	return h, nil
}

// challengesHelp are the entry's keys for the help bar.
func (h Model) challengesHelp() []key.Binding {
	km := h.list.KeyMap
	return []key.Binding{km.CursorUp, km.CursorDown, h.KeyMap.Open, h.KeyMap.Hint, h.KeyMap.Back}
}

// challengesView draws the entry: a heading with the count reached, one
// goal a line (the selected one with the cursor, a reached one marked
// with a tick and the word, never colour alone), and the selected goal in
// full under them, with its hint when asked.
func (h Model) challengesView() []string {
	th, c := h.th, &h.ch
	w := max(h.w, 1)
	done := 0
	for _, g := range c.goals {
		if g.Finished {
			done++
		}
	}
	head := "  " + th.Header.Render(" Challenges ") + th.Faint.Render("  "+strconv.Itoa(done)+" of "+strconv.Itoa(len(c.goals))+" reached")
	out := []string{cells.Clip(head, w, th.Sym.Ellipsis), ""}
	about := h.challengeAbout(min(w-4, layout.MaxProse))
	rows := max(h.h-len(out)-min(len(about), max(h.h/2, 3)), 1)
	// The window starts at the top and moves only as far as it must to
	// show the selected goal.
	top := max(0, c.sel-rows+1)
	for i := top; i < min(top+rows, len(c.goals)); i++ {
		// Rows no wider than prose: the level and the mark stay near
		// the title on a wide screen.
		out = append(out, h.challengeRow(c.goals[i], i == c.sel, min(w, layout.MaxProse)))
	}
	out = append(out, about...)
	return out[:min(len(out), h.h)]
}

func (h Model) challengeRow(g model.ChallengeInfo, sel bool, w int) string {
	th := h.th
	cursor := "  "
	title := th.Bold.Render(cells.Clean(g.Title))
	if sel {
		cursor = th.AccentText.Render(th.Sym.Cursor) + " "
		title = th.AccentText.Render(cells.Clean(g.Title))
	}
	line := cursor + cells.PadLeft(strconv.Itoa(g.Num), 2) + ". " + title
	right := th.Faint.Render("level " + strconv.Itoa(g.Level))
	if g.Finished {
		right += "  " + th.Mark(theme.Committed, "reached")
	} else {
		right += "  " + th.Faint.Render(strings.Repeat(" ", cells.Width(th.Mark(theme.Committed, "reached"))))
	}
	line = cells.Fit(line, max(w-cells.Width(right)-2, 0), th.Sym.Ellipsis) + "  " + right
	return cells.Clip(line, w, th.Sym.Ellipsis)
}

// challengeAbout is the selected goal in full: what to make happen, the
// versions it is checked under, and the hint once asked for.
func (h Model) challengeAbout(w int) []string {
	c := &h.ch
	if len(c.goals) == 0 || w < 10 {
		return nil
	}
	g := c.goals[c.sel]
	out := []string{""}
	for _, l := range cells.Wrap(cells.Clean(g.Goal)+" ("+cells.Clean(g.Kafka)+")", w) {
		out = append(out, "  "+l)
	}
	if c.hint {
		for _, l := range cells.Wrap("Hint: "+cells.Clean(g.Hint), w) {
			out = append(out, "  "+h.th.Render(theme.Open, l))
		}
	} else {
		out = append(out, "  "+h.th.Faint.Render(h.KeyMap.Hint.Help().Key+" shows a hint · enter picks it · "+
			h.KeyMap.Back.Help().Key+" back to the lessons"))
	}
	return out
}

// Challenges are the entry's goals, as SetChallenges gave them.
func (h Model) Challenges() []model.ChallengeInfo { return h.ch.goals }

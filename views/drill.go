package views

import (
	"strconv"

	"github.com/charmbracelet/bubbles/key"

	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/pane"
	"github.com/eoslab/eoslab/views/theme"
)

// DrillKeyMap holds the drill screen's keys.
type DrillKeyMap struct {
	Answer key.Binding
	Hint   key.Binding
	Retry  key.Binding // a drill of just the missed concepts
	Next   key.Binding
	Open   key.Binding // the lesson that teaches the question
	Up     key.Binding
	Down   key.Binding
	Home   key.Binding
}

// DefaultDrillKeyMap returns the default drill keys.
// Answering, going on and scrolling are the player's and the panes' keys,
// with the drill's words.
func DefaultDrillKeyMap() DrillKeyMap {
	k, pane := DefaultKeyMap(), pane.DefaultKeyMap()
	says := func(b key.Binding, desc string) key.Binding {
		b.SetHelp(b.Help().Key, desc)
		return b
	}
	return DrillKeyMap{
		Answer: k.Answer,
		Hint:   key.NewBinding(key.WithKeys("h"), key.WithHelp("h", "hint (costs the point)")),
		Retry:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "drill the missed concepts")),
		Next:   says(k.Next, "next question"),
		Open:   key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "open the lesson")),
		Up:     says(pane.Up, "scroll"),
		Down:   says(pane.Down, "scroll"),
		Home:   key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "lessons")),
	}
}

// ASCII returns the key map with ASCII-only help texts.
func (k DrillKeyMap) ASCII() DrillKeyMap {
	for _, b := range []*key.Binding{&k.Next, &k.Up, &k.Down, &k.Hint, &k.Retry} {
		theme.ASCIIHelp(b)
	}
	return k
}

// drillScreen is the state of the drill screen.
type drillScreen struct {
	d    model.Drill
	keys DrillKeyMap
	// off is how far the situation is scrolled, and qoff how far the
	// answered question's pane is scrolled from where its verdict shows.
	off, qoff int
	// reported is set once the drill's score went to the progress.
	reported bool
	// retry is set for a drill of the concepts another drill missed,
	// which no --seed replays.
	retry bool
	msg   string
}

func answerRange(n int) string {
	if n <= 1 {
		return "1"
	}
	return "1-" + strconv.Itoa(min(n, 4))
}

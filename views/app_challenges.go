package views

import (
	"strconv"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/home"
	"github.com/eoslab/eoslab/views/model"
)

// WithChallenges gives the home screen's Challenges entry its goals
// (views/adapt.Challenges lists them, marked from the progress); m is
// NewApp's model, returned with the entry. Another model is returned as
// it is.
func WithChallenges(m tea.Model, goals []model.ChallengeInfo) tea.Model {
	if a, ok := m.(App); ok {
		a.home.SetChallenges(goals)
		return a
	}
	return m
}

// openChallenge is the root's answer to a goal picked on the Challenges
// entry: the home screen says how to reach it and how it is checked. A
// goal is reached in the sandbox and checked by `eoslab challenges
// check`, which plays the saved file under the goal's Kafka versions and
// records it in the progress; the sandbox itself does not judge goals.
func (a *App) openChallenge(m home.OpenChallengeMsg) tea.Cmd {
	for _, g := range a.home.Challenges() {
		if g.Name != m.Name {
			continue
		}
		// One line, the command first so that 60 columns show it whole:
		// the goal itself is on screen.
		how := " checks a file the sandbox's w saved"
		if a.opts.OpenSandbox == nil || a.opts.NoFiles {
			how = " checks a scenario file that reaches it"
		}
		a.home.SetStatus("eoslab challenges check " + strconv.Itoa(g.Num) + " FILE" + how)
		return nil
	}
	a.home.SetStatus("No challenge " + strconv.Quote(m.Name) + ".")
	return nil
}

package views

import (
	"slices"
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
// entry: the sandbox opens on the goal's world with the goal shown, and
// judges it after every action (views/sandbox's goal.go). Without a way
// to open one (Options.OpenChallenge nil), the home screen says how the
// goal is checked from a file instead.
func (a *App) openChallenge(m home.OpenChallengeMsg) tea.Cmd {
	for _, g := range a.home.Challenges() {
		if g.Name != m.Name {
			continue
		}
		if a.opts.OpenChallenge != nil {
			sess, err := a.opts.OpenChallenge(g.Name)
			if err != nil {
				a.home.SetStatus(err.Error())
				return nil
			}
			sb := NewSandbox(a.opts.SandboxPresets, a.opts.OpenSandbox, sess, a.opts)
			sb.SetSize(a.w, a.h)
			a.sandbox = &sb
			a.screen = screenSandbox
			return nil
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

// markReached marks the goal name reached on the Challenges list, after
// the sandbox that reached it is left ("" marks none).
func (a *App) markReached(name string) {
	if name == "" {
		return
	}
	goals := slices.Clone(a.home.Challenges())
	for i := range goals {
		if goals[i].Name == name {
			goals[i].Finished = true
		}
	}
	a.home.SetChallenges(goals)
}

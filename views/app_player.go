package views

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/pane"
	"github.com/eoslab/eoslab/views/panels"
	"github.com/eoslab/eoslab/views/player"
	"github.com/eoslab/eoslab/views/theme"
)

// The player (views/player) plays a lesson; the root opens it on a
// session, routes it the keys, the mouse and the autoplay ticks, and acts
// on what it reports.

// newPlayer is the player with the app's options, theme, help and keys,
// and the pane's box, the panels and the Timeline's message cursor lent
// as player.Draw.
func (a *App) newPlayer() player.Model {
	keys := player.DefaultKeyMap()
	if a.opts.ASCII {
		keys = keys.ASCII()
	}
	pk := a.paneKeys
	return player.New(player.Options{
		Theme:      a.th,
		Help:       *a.help,
		Keys:       keys,
		ScrollKeys: player.ScrollKeys{Up: pk.Up, Down: pk.Down, PageUp: pk.PageUp, PageDown: pk.PageDown, Top: pk.Top, Bottom: pk.Bottom},
		Draw:       a.playerDraw(),
		ASCII:      a.opts.ASCII,
		Follow:     a.opts.Follow,
		Presenter:  a.opts.Presenter,
		Tick:       a.opts.Tick,
		Uncached:   a.noCache,
		Side:       a.opts.Side,
	})
}

// playerDraw lends the player the pane's box (a *pane.Model is a
// player.Pane) with the app's scroll keys, and the panels' drawing.
func (a *App) playerDraw() player.Draw {
	keys := a.paneKeys
	return player.Draw{
		NewPane: func(th *theme.Theme, text bool) player.Pane {
			var p pane.Model
			if text {
				p = pane.NewText(th)
			} else {
				p = pane.New(th)
			}
			p.KeyMap = keys
			return &p
		},
		NewPanels: func(th *theme.Theme, cached bool) player.Panels {
			return panels.NewPlayer(th, cached)
		},
		Changed:     panels.Changed,
		HasDetails:  panels.HasDetails,
		ProgressBar: panels.ProgressBar,
		NewPicker:   func() player.Picker { return panels.NewPlayerPick() },
	}
}

// playerUpdate routes a message to the player and acts on its reports.
func (a *App) playerUpdate(msg tea.Msg) tea.Cmd {
	pm, cmd, reports := a.player.Update(msg)
	a.player = pm
	for _, r := range reports {
		switch r := r.(type) {
		case player.AnsweredMsg:
			if p := a.opts.Progress; p != nil {
				p.Answered(r.Name, r.Pos, r.Choice, r.Correct)
			}
		case player.FinishedMsg:
			a.home.SetFinished(r.Name)
		case player.KafkaMsg:
			a.kafka = r.Kafka
		case player.LeftMsg:
			// The session is kept, so opening the lesson again resumes
			// at the same step with the same answers.
			a.kept[r.Name] = r.Session
			a.showFull = false
			a.screen = screenHome
		}
	}
	return cmd
}

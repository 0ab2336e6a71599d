package views

import "github.com/eoslab/eoslab/views/player"

// ScreenName names what the app shows, for tests that must reach every
// screen (the random-key test): "home", "home filter", "home help",
// "player", "player help", "player details", "drill", "sandbox presets",
// "sandbox", "sandbox prompt", "sandbox help", "sandbox branches".
func (a App) ScreenName() string {
	switch a.screen {
	case screenHome:
		switch {
		case a.home.Filtering():
			return "home filter"
		case a.showFull:
			return "home help"
		}
		return "home"
	case screenPlayer:
		switch a.player.Overlay() {
		case player.DetailsOverlay:
			return "player details"
		case player.HelpOverlay:
			return "player help"
		}
		return "player"
	case screenDrill:
		return "drill"
	case screenSandbox:
		if a.sandbox != nil {
			return a.sandbox.ScreenName()
		}
	}
	return "?"
}

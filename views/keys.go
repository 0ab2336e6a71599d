package views

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/player"
)

// KeyMap holds the root's own keys: the ones of the home screen that every
// screen shares (help, esc, quit). They are the player's bindings
// (player.DefaultKeyMap), so a key reads the same on every screen. Every
// key is a key.Binding, matched with key.Matches; the help bar is made
// from the same bindings and hides the ones that cannot act now.
type KeyMap struct {
	Help key.Binding
	List key.Binding
	Quit key.Binding
	// QuitNow leaves the program from anywhere, lesson or list.
	QuitNow key.Binding
	// Leave confirms quitting once Quit has asked.
	Leave key.Binding
}

// DefaultKeyMap returns the default global keys.
func DefaultKeyMap() KeyMap {
	k := player.DefaultKeyMap()
	return KeyMap{Help: k.Help, List: k.List, Quit: k.Quit, QuitNow: k.QuitNow, Leave: k.Leave}
}

func keyIs(km tea.KeyMsg, b key.Binding) bool { return b.Enabled() && key.Matches(km, b) }

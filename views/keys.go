package views

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// keyIs matches an enabled binding: the home screen's keys (help, esc,
// quit) are the player's GlobalKeys, enabled by syncKeys when they can
// act.
func keyIs(km tea.KeyMsg, b key.Binding) bool { return b.Enabled() && key.Matches(km, b) }

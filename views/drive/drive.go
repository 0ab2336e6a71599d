// Package drive runs a Bubble Tea model without a terminal, for tests
// that drive a model with keys: a key goes to the model, and the commands
// it returns run in turn, their messages going back to the model, as
// Bubble Tea's loop would run them (one after the other here, so a test
// sees every answer before its next key). A model whose commands do I/O
// (eoslab live's, which play steps on a cluster) is driven the same way.
package drive

import tea "github.com/charmbracelet/bubbletea"

// Run runs cmd and the commands its messages bring, delivering each
// message to m; it returns the model and whether a command quit.
func Run(m tea.Model, cmd tea.Cmd) (tea.Model, bool) {
	if cmd == nil {
		return m, false
	}
	quit := false
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			var q bool
			m, q = Run(m, c)
			quit = quit || q
		}
	case tea.QuitMsg:
		return m, true
	default:
		var c tea.Cmd
		m, c = m.Update(msg)
		m, quit = Run(m, c)
	}
	return m, quit
}

// Keys sends each key to m and runs its commands; a key is a name Bubble
// Tea gives (right, left, esc, enter, tab) or the runes typed. It returns
// the model and whether a command quit.
func Keys(m tea.Model, keys ...string) (tea.Model, bool) {
	quit := false
	for _, k := range keys {
		km := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
		if t, ok := named[k]; ok {
			km = tea.KeyMsg{Type: t}
		}
		var c tea.Cmd
		var q bool
		m, c = m.Update(km)
		m, q = Run(m, c)
		quit = quit || q
	}
	return m, quit
}

var named = map[string]tea.KeyType{"right": tea.KeyRight, "left": tea.KeyLeft, "up": tea.KeyUp, "down": tea.KeyDown,
	"esc": tea.KeyEscape, "enter": tea.KeyEnter, "tab": tea.KeyTab}

package player

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/eoslab/eoslab/views/internal/keyset"
	"github.com/eoslab/eoslab/views/theme"
)

// KeyMap holds the player's keys: its controls and the ones it shares with
// the other screens (help, esc, quit). Every key is a key.Binding, matched
// with key.Matches; the help bar is made from the same bindings and hides
// the ones that cannot act now.
type KeyMap struct {
	Next      key.Binding
	Back      key.Binding
	First     key.Binding
	Last      key.Binding
	PlayPause key.Binding
	Slower    key.Binding
	Faster    key.Binding
	Restart   key.Binding
	Answer    key.Binding
	// Choices are Answer's digits one by one: which choice a key picks.
	Choices   []key.Binding
	Focus     key.Binding
	FocusBack key.Binding
	Details   key.Binding
	// Kafka switches the lesson between Kafka 3's and Kafka 4's
	// transaction protocol.
	Kafka key.Binding
	GlobalKeys
}

// GlobalKeys are the keys every screen has, which the root's home screen
// uses too: the help, esc, quitting.
type GlobalKeys struct {
	Help key.Binding
	List key.Binding
	Quit key.Binding
	// QuitNow leaves the program from anywhere, lesson or list.
	QuitNow key.Binding
	// Leave confirms leaving (a lesson, or the program) once Quit has
	// asked.
	Leave key.Binding
}

// DefaultKeyMap returns the default player keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Next:      key.NewBinding(key.WithKeys("right", "l", " ", "enter"), key.WithHelp("→", "next")),
		Back:      key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←", "back")),
		First:     key.NewBinding(key.WithKeys("<", "shift+left"), key.WithHelp("<", "first step")),
		Last:      key.NewBinding(key.WithKeys(">", "shift+right"), key.WithHelp(">", "next question or end")),
		PlayPause: key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "play")),
		Slower:    key.NewBinding(key.WithKeys("-", "_"), key.WithHelp("-", "slower")),
		Faster:    key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "faster")),
		Restart:   key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "restart")),
		Answer:    key.NewBinding(key.WithKeys("1", "2", "3", "4"), key.WithHelp("1-4", "answer")),
		Choices:   keyset.Digits(4),
		Focus:     key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "panels")),
		FocusBack: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous panel")),
		Details:   key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "details")),
		Kafka:     key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "switch Kafka 3/4")),
		GlobalKeys: GlobalKeys{
			Help:    key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
			List:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "lessons")),
			Quit:    key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
			QuitNow: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit eoslab")),
			Leave:   key.NewBinding(key.WithKeys("y", "Y"), key.WithHelp("y", "leave the lesson")),
		},
	}
}

// ASCII returns the key map with ASCII-only help texts.
func (k KeyMap) ASCII() KeyMap {
	for _, b := range []*key.Binding{&k.Next, &k.Back} {
		theme.ASCIIHelp(b)
	}
	return k
}

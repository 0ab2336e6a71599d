// Package inputguard keeps a key from ending the program through a bug in
// the bubbles text input. Every text input in views (the sandbox prompt,
// the home list's filter) passes its keys through Key before the
// component sees them. It imports only bubbles and Bubble Tea.
//
// The bug, as it would be reported upstream (charmbracelet/bubbles#1056):
//
//	bubbles v1.0.0, textinput.Model.Update, echo mode normal.
//	Keys: alt+d or alt+delete (KeyMap.DeleteWordForward) with the cursor on
//	the last character of the value (Position() == len(value)-1). A quick
//	Esc then d arrives as alt+d, so a learner can hit it by accident.
//	Result: panic: runtime error: index out of range [N] with length N
//	  textinput.(*Model).deleteWordForward (textinput.go:450)
//	  textinput.Model.Update (textinput.go:615)
//	deleteWordForward moves the cursor one right (to len(value)) and then
//	reads m.value[m.pos] without checking the bound.
//
// With the cursor on the last character, deleting the word forward deletes
// exactly that character, which is what DeleteCharacterForward does, so
// Key rewrites the key to a plain Delete there. Everywhere else the key
// goes through unchanged.
package inputguard

import (
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
)

// Key returns the key to hand to ti.Update in place of km.
func Key(ti textinput.Model, km tea.KeyMsg) tea.KeyMsg {
	if !key.Matches(km, ti.KeyMap.DeleteWordForward) {
		return km
	}
	n := utf8.RuneCountInString(ti.Value())
	if ti.EchoMode == textinput.EchoNormal && n > 0 && ti.Position() == n-1 {
		return tea.KeyMsg{Type: tea.KeyDelete}
	}
	return km
}

// Msg is Key for any message: what is not a key passes unchanged.
func Msg(ti textinput.Model, msg tea.Msg) tea.Msg {
	if km, ok := msg.(tea.KeyMsg); ok {
		return Key(ti, km)
	}
	return msg
}

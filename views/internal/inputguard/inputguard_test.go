package inputguard

import (
	"testing"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
)

// TestNoKeyPanics sends every editing key, with and without alt, to a
// guarded text input at every cursor position, with suggestions on and in
// each echo mode.
func TestNoKeyPanics(t *testing.T) {
	var keys []tea.KeyMsg
	for _, typ := range []tea.KeyType{tea.KeyDelete, tea.KeyBackspace, tea.KeyLeft, tea.KeyRight, tea.KeyHome, tea.KeyEnd,
		tea.KeyCtrlW, tea.KeyCtrlK, tea.KeyCtrlU, tea.KeyCtrlD, tea.KeyCtrlH, tea.KeyTab, tea.KeyCtrlN, tea.KeyCtrlP, tea.KeyDown, tea.KeyUp} {
		keys = append(keys, tea.KeyMsg{Type: typ}, tea.KeyMsg{Type: typ, Alt: true})
	}
	for _, r := range "dfbx " {
		keys = append(keys, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}}, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: true})
	}
	for _, echo := range []textinput.EchoMode{textinput.EchoNormal, textinput.EchoPassword, textinput.EchoNone} {
		for _, v := range []string{"", "a", "ab", "a b", "ab ", "  ", "x  y", "é ü"} {
			for pos := 0; pos <= len([]rune(v)); pos++ {
				for _, k := range keys {
					ti := textinput.New()
					ti.EchoMode = echo
					ti.ShowSuggestions = true
					ti.SetSuggestions([]string{v + "zz", "send m1"})
					ti.Width = 3
					ti.Focus()
					ti.SetValue(v)
					ti.SetCursor(pos)
					func() {
						defer func() {
							if r := recover(); r != nil {
								t.Fatalf("echo %d, value %q, cursor %d, key %s: panic: %v", echo, v, pos, k, r)
							}
						}()
						ti, _ = ti.Update(Key(ti, k))
						_ = ti.View()
					}()
				}
			}
		}
	}
}

// TestKeyDeletesTheLastCharacter checks that the rewritten key does what
// delete-word-forward means there: the character under the cursor goes.
func TestKeyDeletesTheLastCharacter(t *testing.T) {
	for _, k := range []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune{'d'}, Alt: true}, {Type: tea.KeyDelete, Alt: true}} {
		ti := textinput.New()
		ti.Focus()
		ti.SetValue("send m1")
		ti.SetCursor(6)
		ti, _ = ti.Update(Key(ti, k))
		if ti.Value() != "send m" || ti.Position() != 6 {
			t.Errorf("%s: value %q cursor %d, want \"send m\" at 6", k, ti.Value(), ti.Position())
		}
	}
}

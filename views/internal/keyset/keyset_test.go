package keyset

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

func TestDigit(t *testing.T) {
	ds := Digits(4)
	for _, c := range []struct {
		km   tea.KeyMsg
		want int
	}{
		{tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("1")}, 1},
		{tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("4")}, 4},
		{tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("5")}, 0},
		{tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("0")}, 0},
		{tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("1"), Alt: true}, 0},
		{tea.KeyMsg{Type: tea.KeyEnter}, 0},
	} {
		if got := Digit(c.km, ds); got != c.want {
			t.Errorf("Digit(%q) = %d, want %d", c.km.String(), got, c.want)
		}
	}
	if n := len(Digits(12)); n != 9 {
		t.Errorf("Digits(12) has %d bindings, want 9", n)
	}
}

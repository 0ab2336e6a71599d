package keyset

import tea "github.com/charmbracelet/bubbletea"

// Burst splits a burst of typed characters into one key per character.
// Bubble Tea v1 reads the terminal in chunks and delivers the printable
// characters of one chunk (keys typed quickly, or sent together) as a
// single KeyRunes message with several runes, whose String() is "sss";
// key.Matches never matches that against a one-key binding, so the keys
// would be dropped. Burst returns the keys one rune each, in order, or
// nil when km is not such a burst (one rune, a paste, another key type).
// A screen whose text input has focus takes the runes whole instead.
func Burst(km tea.KeyMsg) []tea.KeyMsg {
	if km.Type != tea.KeyRunes || km.Paste || len(km.Runes) < 2 {
		return nil
	}
	out := make([]tea.KeyMsg, len(km.Runes))
	for i, r := range km.Runes {
		out[i] = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: km.Alt}
	}
	return out
}

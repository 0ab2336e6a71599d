package theme

import "github.com/charmbracelet/bubbles/key"

// ASCIIHelp replaces the non-ASCII arrows in help texts for ASCII mode.
func ASCIIHelp(b *key.Binding) {
	h := b.Help()
	r := map[string]string{"→": "right", "←": "left", "↑/k": "up/k", "↓/j": "down/j"}
	if s, ok := r[h.Key]; ok {
		b.SetHelp(s, h.Desc)
	}
}

// Package keyset holds the key helpers the rooms share: which digit a key
// is, found with key.Matches rather than by reading the key's text, so a
// digit key is a key.Binding like every other key. It is a foundation: it
// imports no room.
package keyset

import (
	"strconv"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Digits are the bindings of the keys 1 to n (at most 9), one each, in
// order.
func Digits(n int) []key.Binding {
	n = min(max(n, 0), 9)
	out := make([]key.Binding, n)
	for i := range out {
		d := strconv.Itoa(i + 1)
		out[i] = key.NewBinding(key.WithKeys(d), key.WithHelp(d, ""))
	}
	return out
}

// Digit is the digit (1 to len(ds)) whose binding km matches, or 0 when it
// matches none.
func Digit(km tea.KeyMsg, ds []key.Binding) int {
	for i, b := range ds {
		if key.Matches(km, b) {
			return i + 1
		}
	}
	return 0
}

// Any matches a binding whether or not it is enabled now, so a key that
// cannot act gets an explanation instead of silence. (key.Matches ignores
// disabled bindings.)
//
// It is not inlined: inlined into a caller in another package, the
// binding handed to the generic key.Matches escapes, and every key pressed
// would allocate once per binding tried.
//
//go:noinline
func Any(km tea.KeyMsg, b key.Binding) bool {
	b.SetEnabled(true)
	return key.Matches(km, b)
}

// Package viewtest holds what the views' tests share: key messages by name,
// a pinned colour profile for goldens, and the check that a screen fits its
// terminal. It is for tests only and imports no eoslab package.
package viewtest

import (
	"bytes"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"
)

// Key is the message the terminal sends for a key name ("right", "esc",
// "shift+tab", " ", or any runes such as "1" or "q").
func Key(s string) tea.KeyMsg {
	switch s {
	case "right":
		return tea.KeyMsg{Type: tea.KeyRight}
	case "left":
		return tea.KeyMsg{Type: tea.KeyLeft}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "shift+tab":
		return tea.KeyMsg{Type: tea.KeyShiftTab}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "pgdown":
		return tea.KeyMsg{Type: tea.KeyPgDown}
	case "pgup":
		return tea.KeyMsg{Type: tea.KeyPgUp}
	case "home":
		return tea.KeyMsg{Type: tea.KeyHome}
	case "end":
		return tea.KeyMsg{Type: tea.KeyEnd}
	case " ":
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	case "ctrl+c":
		return tea.KeyMsg{Type: tea.KeyCtrlC}
	}
	if r := []rune(s); len(r) > 1 {
		// A key's name ("shift+right", "ctrl+n", "alt+d") is that key, as
		// the terminal sends it: several runes would be a burst of typed
		// characters (keyset.Burst), not one key.
		if a, ok := strings.CutPrefix(s, "alt+"); ok {
			k := Key(a)
			k.Alt = true
			return k
		}
		for t := tea.KeyType(-200); t < 200; t++ {
			if t != tea.KeyRunes && t.String() == s {
				return tea.KeyMsg{Type: t}
			}
		}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

// PinProfile fixes the colour profile and background so screens are the
// same on every machine: goldens hold text and glyphs, not colour codes.
func PinProfile() {
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
}

// CheckScreen fails when a view does not fit a w x h terminal. A terminal
// with no area must get an empty view.
func CheckScreen(t testing.TB, view string, w, h int, what string) {
	t.Helper()
	if w <= 0 || h <= 0 {
		if view != "" {
			t.Fatalf("%s: %dx%d: view is not empty: %q", what, w, h, view)
		}
		return
	}
	lines := strings.Split(view, "\n")
	if len(lines) > h {
		t.Fatalf("%s: %dx%d: %d lines", what, w, h, len(lines))
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Fatalf("%s: %dx%d: line %d is %d wide: %q", what, w, h, i, lw, ansi.Strip(l))
		}
	}
}

// Screen follows a teatest program's output. Each WaitFor looks for its
// text after the previous match, so two texts drawn in one frame are both
// found, in order, and a text from an earlier frame does not count again.
type Screen struct {
	TM   *teatest.TestModel
	rest []byte
}

// WaitFor waits until the program has drawn what.
func (s *Screen) WaitFor(t *testing.T, what string) {
	t.Helper()
	w := []byte(what)
	var all []byte
	teatest.WaitFor(t, s.TM.Output(), func(b []byte) bool {
		all = append(append([]byte(nil), s.rest...), b...)
		return bytes.Contains(all, w)
	}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(5*time.Millisecond))
	i := bytes.Index(all, w)
	s.rest = all[i+len(w):]
}

// Press sends a key by name.
func (s *Screen) Press(k string) { s.TM.Send(Key(k)) }

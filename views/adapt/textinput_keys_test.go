package adapt_test

import (
	"fmt"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/adapt"
	"github.com/eoslab/eoslab/views/internal/viewtest"
	"github.com/eoslab/eoslab/views/model"
)

// wordKeys are the keys that edit by word, with and without alt: bubbles
// v1.0.0's textinput panics on alt+d and alt+delete with the cursor on the
// last character (views/internal/inputguard says how).
var wordKeys = []tea.KeyMsg{
	{Type: tea.KeyRunes, Runes: []rune{'d'}, Alt: true},
	{Type: tea.KeyDelete, Alt: true},
	{Type: tea.KeyBackspace, Alt: true},
	{Type: tea.KeyCtrlW},
	{Type: tea.KeyRunes, Runes: []rune{'f'}, Alt: true},
	{Type: tea.KeyRunes, Runes: []rune{'b'}, Alt: true},
	{Type: tea.KeyCtrlK},
	{Type: tea.KeyCtrlU},
	{Type: tea.KeyDelete},
	{Type: tea.KeyTab},
	{Type: tea.KeyCtrlN},
	{Type: tea.KeyCtrlP},
}

// inputScreen opens a screen with a text input focused, empty.
type inputScreen struct {
	name string
	open func() tea.Model
}

func inputScreens() []inputScreen {
	return []inputScreen{
		{"home filter", func() tea.Model {
			var m tea.Model = views.NewApp(adapt.Lessons(), adapt.Open, views.Options{})
			m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
			m, _ = m.Update(viewtest.Key("/"))
			return m
		}},
		{"sandbox prompt", func() tea.Model {
			var m tea.Model = views.NewSandbox(adapt.SandboxPresets(), func(name string) (model.SandboxSession, error) { return adapt.OpenSandbox(name) }, nil, views.Options{})
			m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
			m, _ = m.Update(viewtest.Key("1"))
			m, _ = m.Update(viewtest.Key(":"))
			return m
		}},
	}
}

// TestTextInputsSurviveEveryKeyAtEveryPosition types a value into each
// text input, puts the cursor at every position and sends each word key.
// No key may end the program.
func TestTextInputsSurviveEveryKeyAtEveryPosition(t *testing.T) {
	t.Parallel()
	// A letter, two words, a space before, a space after and a letter
	// of two bytes: the cursor at the start, inside a word, on a space
	// and at the end. -sweep adds the longer values (a double space,
	// three words).
	values := []string{"a", "a b", "ab ", " a", "é ü"}
	if *adapt.Sweep {
		values = append(values, "ab", "send m1 ", "crash  tx")
	}
	for _, sc := range inputScreens() {
		for _, v := range values {
			n := len([]rune(v))
			for pos := 0; pos <= n; pos++ {
				for _, k := range wordKeys {
					what := fmt.Sprintf("%s: value %q, cursor at %d, key %s", sc.name, v, pos, k)
					func() {
						defer func() {
							if r := recover(); r != nil {
								t.Fatalf("%s: panic: %v", what, r)
							}
						}()
						m := sc.open()
						for _, r := range v {
							m, _ = m.Update(viewtest.Key(string(r)))
						}
						m, _ = m.Update(tea.KeyMsg{Type: tea.KeyHome})
						for i := 0; i < pos; i++ {
							m, _ = m.Update(viewtest.Key("right"))
						}
						m, _ = m.Update(k)
						viewtest.CheckScreen(t, m.View(), 80, 24, what)
					}()
				}
			}
		}
	}
}

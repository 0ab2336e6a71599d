package cli

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// built is the model a test's runTUI was given, made now if the command
// deferred it to the program's start (afterStart).
func built(m tea.Model) tea.Model {
	if d, ok := m.(*deferred); ok {
		return d.Model()
	}
	return m
}

// TestAfterStartBuildsOnInit: the model is made when Bubble Tea first asks
// for it, once, and every message after reaches the model it made.
func TestAfterStartBuildsOnInit(t *testing.T) {
	made := 0
	d := afterStart(func() tea.Model { made++; return counter(0) })
	if made != 0 {
		t.Fatal("built before the program asked")
	}
	d.Init()
	var m tea.Model = d
	for range 3 {
		m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRight})
	}
	if made != 1 || m != tea.Model(d) || m.View() != "3" {
		t.Fatalf("built %d times, model %T, view %q", made, m, m.View())
	}
}

// counter counts the messages it is given.
type counter int

func (c counter) Init() tea.Cmd                       { return nil }
func (c counter) Update(tea.Msg) (tea.Model, tea.Cmd) { return c + 1, nil }
func (c counter) View() string                        { return string(rune('0' + c)) }

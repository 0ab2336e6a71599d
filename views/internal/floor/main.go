// Command floor is the bare Bubble Tea program that eoslab's start-up is
// measured against (BenchmarkFirstFrame): opened the way eoslab opens its
// lesson list (a tea.Program on the alternate screen), it draws one short
// list and waits for q. It imports nothing of eoslab, so its first frame
// is what any Bubble Tea program pays before its own work.
package main

import (
	"fmt"
	"os"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

type model struct{ w, h int }

func (m model) Init() tea.Cmd { return nil }

func (m model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tea.KeyMsg:
		if msg.String() == "q" || msg.String() == "ctrl+c" {
			return m, tea.Quit
		}
	}
	return m, nil
}

func (m model) View() string {
	var b strings.Builder
	b.WriteString(" floor  a bare Bubble Tea program\n\n")
	for i := 1; i <= 4; i++ {
		fmt.Fprintf(&b, "   %d. Lesson %d\n      basics · 5 min · a summary\n\n", i, i)
	}
	return b.String()
}

func main() {
	if _, err := tea.NewProgram(model{}, tea.WithAltScreen()).Run(); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

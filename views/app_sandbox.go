package views

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/home"
	"github.com/eoslab/eoslab/views/model"
)

// The home screen's Sandbox entry opens the sandbox's preset picker; q in
// the sandbox comes back to the list.

// sandboxEntry is the Sandbox entry of the home list.
var sandboxEntry = model.LessonInfo{Name: home.SandboxEntry, Title: "Sandbox",
	Summary: "Free play: pick which message is delivered, lost or repeated, switch safeguards off, and watch the guarantees",
	Level:   "any level"}

func (a *App) openSandbox() {
	sb := NewSandbox(a.opts.SandboxPresets, a.opts.OpenSandbox, nil, a.opts)
	sb.update(tea.WindowSizeMsg{Width: a.w, Height: a.h})
	a.sandbox = &sb
	a.screen = screenSandbox
}

// sandboxUpdate routes a message to the sandbox and goes home when it is
// left.
func (a *App) sandboxUpdate(msg tea.Msg) tea.Cmd {
	sb, cmd, out := a.sandbox.Step(msg)
	a.sandbox = &sb
	if _, ok := out.(SandboxLeftMsg); ok {
		a.sandbox = nil
		a.screen = screenHome
	}
	return cmd
}

// SandboxOpen reports whether the sandbox is on screen.
func (a App) SandboxOpen() bool { return a.screen == screenSandbox && a.sandbox != nil }

package views

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/home"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/pane"
	"github.com/eoslab/eoslab/views/panels"
	"github.com/eoslab/eoslab/views/sandbox"
	"github.com/eoslab/eoslab/views/theme"
)

// The sandbox is a component of its own (views/sandbox); this file wires
// it: the home screen's Sandbox entry opens its preset picker, q in the
// sandbox comes back to the list, and NewSandbox makes it for eoslab
// sandbox, which runs it as a program of its own.

// sandboxEntry is the Sandbox entry of the home list.
var sandboxEntry = model.LessonInfo{Name: home.SandboxEntry, Title: "Sandbox",
	Summary: "Free play: pick which message is delivered, lost or repeated, switch safeguards off, and watch the guarantees",
	Level:   "any level"}

// sandboxScreen is the sandbox as App holds it (App.sandbox).
type sandboxScreen = sandbox.Model

// NewSandbox builds the sandbox screen with the choices of opts. With
// sess nil it opens on the preset picker, using open to start the chosen
// preset. It is a tea.Model of its own: leaving it quits.
func NewSandbox(presets []model.SandboxPreset, open func(name string) (model.SandboxSession, error), sess model.SandboxSession, opts Options) sandbox.Model {
	th := theme.New(theme.Options{NoColor: opts.NoColor, ASCII: opts.ASCII, Renderer: opts.Renderer})
	keys := sandbox.DefaultKeyMap()
	if opts.ASCII {
		keys = keys.ASCII()
	}
	save := opts.SaveFile
	if opts.NoFiles {
		save = nil
	}
	var reached func(name, file string)
	if r, ok := opts.Progress.(model.ChallengeRecorder); ok {
		reached = r.ChallengeDone
	}
	return sandbox.New(presets, open, sess, sandbox.Options{Theme: th, Help: newHelp(th), Keys: keys, Draw: sandboxDraw, Save: save, Reached: reached})
}

// panelBuilders draw the player's panels (the narration aside) from a
// frame: the sandbox's panels, and the lesson's with the narration.
var panelBuilders = [layout.NumPanels]func(*model.Frame, panels.Painter) ([]string, content.Content, content.Range){
	layout.PanelProducers:   panels.Producers,
	layout.PanelPartitions:  panels.Partitions,
	layout.PanelCoordinator: panels.Coordinator,
	layout.PanelConsumers:   panels.Consumers,
	layout.PanelTimeline:    panels.Timeline,
	layout.PanelEvents:      panels.Events,
}

// sandboxDraw lends the sandbox the pane's box and the panels' drawing,
// which are other components' code.
var sandboxDraw = sandbox.Draw{
	NewPane: func(th *theme.Theme, text bool) sandbox.Pane {
		if text {
			return &sandboxPane{pane.NewText(th)}
		}
		return &sandboxPane{pane.New(th)}
	},
	NewPanels: func(th *theme.Theme) sandbox.PanelFunc {
		cache := panels.NewCache()
		return func(id layout.PanelID, f *model.Frame, w int) ([]string, content.Content, content.Range) {
			d := cache.Draw(id, panels.DrawKey{Frame: f.Key, Width: w}, f, th, panelBuilders[id])
			return d.Head, d.Body, d.Anchor
		}
	},
	Flow: func(w int, lead string, items []string, sep string, indent int) []string {
		return panels.Painter{Width: w}.Flow(lead, items, sep, indent)
	},
	KeyLines: func(th *theme.Theme, w int, groups [][]key.Binding) []string {
		return panels.Painter{Theme: th, Width: w}.KeyLines(groups)
	},
	Legend: func(th *theme.Theme, w int) []string {
		return panels.Painter{Theme: th, Width: w}.TimelineLegendLines()
	},
}

// sandboxPane is a pane as the sandbox holds it: by reference, scrolled
// in place.
type sandboxPane struct{ pane.Model }

func (p *sandboxPane) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	p.Model, cmd = p.Model.Update(msg)
	return cmd
}

func (a *App) openSandbox() {
	sb := NewSandbox(a.opts.SandboxPresets, a.opts.OpenSandbox, nil, a.opts)
	sb.SetSize(a.w, a.h)
	a.sandbox = &sb
	a.screen = screenSandbox
}

// sandboxUpdate routes a message to the sandbox and goes home when it is
// left.
func (a *App) sandboxUpdate(msg tea.Msg) tea.Cmd {
	sb, cmd, out := a.sandbox.Step(msg)
	a.sandbox = &sb
	if _, ok := out.(sandbox.LeftMsg); ok {
		a.markReached(sb.GoalReached())
		a.sandbox = nil
		a.screen = screenHome
	}
	return cmd
}

// SandboxOpen reports whether the sandbox is on screen.
func (a App) SandboxOpen() bool { return a.screen == screenSandbox && a.sandbox != nil }

// SandboxSession is the session of the sandbox on screen, or nil, for
// tests that drive it by keys.
func (a App) SandboxSession() model.SandboxSession {
	if !a.SandboxOpen() {
		return nil
	}
	return a.sandbox.Session()
}

// SandboxSelected is the index of the selected waiting item.
func (a App) SandboxSelected() int {
	if !a.SandboxOpen() {
		return 0
	}
	return a.sandbox.Selected()
}

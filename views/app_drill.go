package views

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/drill"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/pane"
	"github.com/eoslab/eoslab/views/panels"
	"github.com/eoslab/eoslab/views/theme"
)

// openDrill starts a drill and shows its first question.
func (a *App) openDrill() {
	if a.opts.NewDrill == nil {
		a.home.SetStatus("No drill is available.")
		return
	}
	kafka := a.kafka
	if kafka == 0 {
		kafka = 3
	}
	d, err := a.opts.NewDrill(kafka)
	if err == nil && d == nil {
		err = fmt.Errorf("no drill")
	}
	if err != nil {
		a.home.SetStatus("Cannot start a drill: " + oneLine(err.Error()))
		a.screen = screenHome
		return
	}
	keys := drill.DefaultKeyMap()
	if a.opts.ASCII {
		keys = keys.ASCII()
	}
	a.drill = drill.New(d, drill.Options{Theme: a.th, Help: *a.help, Keys: keys, Draw: drillDraw})
	a.drill.SetSize(a.w, a.h)
	a.showFull = false
	a.screen = screenDrill
}

// drillDraw lends the drill the pane's box and the checkpoint's lines,
// which are other components' code.
var drillDraw = drill.Draw{
	Pane: func(th *theme.Theme, s drill.PaneSpec) []string {
		p := pane.NewText(th)
		p.SetSize(s.W, s.H)
		p.SetFocused(s.Focused)
		if s.Title != "" {
			p.SetTitle(s.Title)
		}
		p.SetContent(nil, content.Lines(s.Lines), s.Anchor)
		switch {
		case !s.Relative:
			p.SetOffset(s.Offset)
		case s.Offset != 0:
			p.SetOffset(p.Offset() + s.Offset)
		}
		return p.Lines()
	},
	Checkpoint: func(th *theme.Theme, cp *model.Checkpoint, w int) (question, result []string) {
		return panels.Painter{Theme: th, Width: w}.CheckpointLines(cp, w)
	},
}

// drillKey routes a key to the drill and acts on what it reports.
func (a *App) drillKey(km tea.KeyMsg) tea.Cmd {
	dm, cmd, reports := a.drill.Update(km)
	a.drill = dm
	for _, r := range reports {
		switch r := r.(type) {
		case drill.ScoredMsg:
			if p := a.opts.Progress; p != nil {
				p.DrillDone(r.Result)
			}
		case drill.LeftMsg:
			// The full help left open at the end stays open on the list.
			a.showFull = a.drill.HelpShown()
			a.screen = screenHome
		case drill.OpenLessonMsg:
			a.openLesson(r.Name)
		}
	}
	return cmd
}

package views

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/internal/keyset"
	"github.com/eoslab/eoslab/views/layout"
)

// syncKeys enables exactly the root's bindings that can act now, which is
// what the home screen's help bar shows.
func (a *App) syncKeys() {
	k := &a.keys
	k.List.SetEnabled(a.showFull)
	if a.showFull {
		k.List.SetHelp("esc", "close help")
	} else {
		k.List.SetHelp("esc", "lessons")
	}
	k.Help.SetEnabled(true)
	k.Quit.SetEnabled(true)
	k.Quit.SetHelp("q", "quit")
}

// shortKeys are the bindings of the home screen's one-line help bar, in
// display order.
func (a *App) shortKeys() []key.Binding {
	ks := a.home.HelpKeys()
	if a.home.Filtering() {
		return ks
	}
	all := append(ks, a.keys.Help, a.keys.Quit)
	h := *a.help
	h.Width = 0 // measure it whole
	if cells.Width(h.ShortHelpView(all)) > a.w {
		// The entries' keys are on the lines under the title: the bar
		// keeps the list's own, whole, rather than clip the last ones.
		all = append(a.home.ListKeys(), a.keys.Help, a.keys.Quit)
	}
	return keyset.Fit(*a.help, all, nil, a.w)
}

// fullKeys are the columns of the home screen's full help.
func (a *App) fullKeys() [][]key.Binding {
	return [][]key.Binding{a.home.HelpKeys(), {a.keys.Help, a.keys.Quit}}
}

// View implements tea.Model. Every line fits the terminal's width and there
// are never more lines than its height.
func (a App) View() string {
	s := a.view()
	if a.th.ASCII {
		s = cells.ASCIIOnly(s)
	}
	return s
}

func (a App) view() string {
	if a.w <= 0 || a.h <= 0 {
		return ""
	}
	if a.screen == screenSandbox && a.sandbox != nil {
		return a.sandbox.View()
	}
	if a.tooSmall != nil {
		return layout.Center(a.tooSmall.Error()+"; resize to act; q quits", a.w, a.h)
	}
	if a.screen == screenDrill && a.drill.Open() {
		d := a.drill
		d.SetNote(a.home.Status())
		return d.View()
	}
	if a.screen == screenHome || a.player.Session() == nil {
		return a.homeView()
	}
	return a.player.View()
}

func (a App) homeView() string {
	home := *a.home
	var full []string
	if a.showFull {
		full = append([]string{""}, cells.SplitLines(a.help.FullHelpView(a.fullKeys()))...)
		home.SetSize(a.w, max(a.h-2-len(full), 0))
	}
	lines := append(cells.SplitLines(home.View()), full...)
	status := a.home.StatusLine()
	return layout.Compose(a.w, a.h, []layout.Block{
		{Rect: layout.Rect{X: 0, Y: 0, W: a.w, H: a.h - 2}, Lines: lines, Exact: false},
		{Rect: layout.Rect{X: 0, Y: a.h - 2, W: a.w, H: 1}, Lines: []string{" " + status}, Exact: false},
		{Rect: layout.Rect{X: 0, Y: a.h - 1, W: a.w, H: 1}, Lines: []string{a.help.ShortHelpView(a.shortKeys())}, Exact: false},
	})
}

package views

import (
	"testing"

	"github.com/eoslab/eoslab/views/internal/viewtest"
	"github.com/eoslab/eoslab/views/model"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// uncached is an app that draws everything afresh on every key.
func uncached(lessons []model.LessonInfo, open func(string) (model.Session, error)) App {
	a := NewApp(lessons, open, Options{}).(App)
	a.noCache = true
	a.player = a.newPlayer()
	return a
}

// The caches change nothing on screen: an app that reuses what it drew
// shows, after every key, exactly what an app that draws every frame
// afresh shows, through steps back and forth, answers, focus changes,
// scrolling, resizing and a restart, with and without colour.
func TestCachedDrawingIsTheSame(t *testing.T) {
	defer lipgloss.SetColorProfile(lipgloss.ColorProfile())
	keys := []string{"right", "right", "left", "right", "right", "right", "tab", "down", "down", "left", "right",
		"right", "right", "2", "down", "up", "right", "left", "left", "right", "right", "tab", "tab", "pgdown", "right", "right",
		"resize", "end", "left", "right", "right", "right", "3", "right", "home", "left", "r", "right", "?", "?", "shift+tab", "right",
		"down", "down", "down", "left", "right"}
	for _, c := range []struct {
		profile termenv.Profile
		w, h    int
	}{{termenv.Ascii, 80, 24}, {termenv.Ascii, 160, 48}, {termenv.TrueColor, 160, 48}} {
		lipgloss.SetColorProfile(c.profile)
		// Frames with keys, whose drawing the cached app reuses.
		frames := func(seed int64) func(string) (model.Session, error) {
			return func(string) (model.Session, error) {
				s := newStub(seed, 12)
				s.keys = true
				return s, nil
			}
		}
		var cached, fresh tea.Model = NewApp(nil, frames(7), Options{}), uncached(nil, frames(7))
		size := tea.WindowSizeMsg{Width: c.w, Height: c.h}
		cached, _ = cached.Update(size)
		fresh, _ = fresh.Update(size)
		cached, _ = cached.Update(OpenLessonMsg{Name: "stub"})
		fresh, _ = fresh.Update(OpenLessonMsg{Name: "stub"})
		for i, k := range keys {
			var msg tea.Msg = viewtest.Key(k)
			if k == "resize" {
				msg = tea.WindowSizeMsg{Width: c.w - 7, Height: c.h - 3}
			}
			cached, _ = cached.Update(msg)
			fresh, _ = fresh.Update(msg)
			if cs, fs := cached.View(), fresh.View(); cs != fs {
				t.Fatalf("profile %v, %dx%d, key %d (%s): the cached screen differs:\n%s\n---- drawn afresh:\n%s", c.profile, c.w, c.h, i, k, cs, fs)
			}
		}
	}
}

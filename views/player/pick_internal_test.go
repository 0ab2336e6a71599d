package player

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// fakePick is a Picker that counts its cursor's moves and draws the
// Timeline as one line that says where it is.
type fakePick struct {
	on    bool
	at    int
	keys  []string // the keys it was given while on
	drawn int      // how many times it drew the Timeline
}

var fakePickKeys = []key.Binding{
	key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "pick a message on the Timeline")),
	key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "earlier message")),
	key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "later message")),
	key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close the message")),
}

func (p *fakePick) On() bool            { return p.on }
func (p *fakePick) Off()                { p.on = false }
func (p *fakePick) Keys() []key.Binding { return fakePickKeys }
func (p *fakePick) Update(km tea.KeyMsg, f *model.Frame) bool {
	switch {
	case key.Matches(km, fakePickKeys[0]):
		p.on, p.at = !p.on, len(f.Timeline)-1
		return true
	case !p.on:
		return false
	case key.Matches(km, fakePickKeys[3]):
		p.on = false
	case key.Matches(km, fakePickKeys[1]):
		p.at--
	case key.Matches(km, fakePickKeys[2]):
		p.at++
	default:
		return false
	}
	p.keys = append(p.keys, km.String())
	return true
}
func (p *fakePick) Timeline(_ *theme.Theme, _ *model.Frame, src model.MessageSource, _, _ int) ([]string, content.Content, content.Range) {
	p.drawn++
	what := "no source"
	if src != nil {
		what = "source"
	}
	return []string{"PICKED row " + string(rune('0'+p.at)) + " " + what}, content.Lines{"diagram"}, content.Range{From: 0, To: 0}
}

// sourceFrames is a frames session that is a MessageSource.
type sourceFrames struct{ frames }

func (*sourceFrames) Message(int64) (model.MessageFields, bool) { return model.MessageFields{}, false }

// TestPickerInThePlayer: the player gives t to its Picker only while the
// Timeline has the focus (elsewhere it says where t works), draws the
// Timeline by the Picker while it is on (with the session as the
// fields' source), gives it ↑/↓/esc first (esc closing the cursor, not
// leaving the lesson), and lets go of it on tab and on a step. The help
// bar offers t with the Timeline focused and the cursor's keys while it
// is on.
func TestPickerInThePlayer(t *testing.T) {
	fs := []model.Frame{
		{Step: 0, Steps: 2},
		{Step: 1, Steps: 2, Key: 1, Timeline: []model.Arrow{{ID: 1, Label: "a"}, {ID: 2, Label: "b"}, {ID: 3, Label: "c"}}},
		{Step: 2, Steps: 2, Key: 2, Timeline: []model.Arrow{{ID: 1, Label: "a"}, {ID: 2, Label: "b"}, {ID: 3, Label: "c"}}},
	}
	pk := &fakePick{}
	d := testDraw
	d.NewPicker = func() Picker { return pk }
	s := &sourceFrames{frames{frames: fs}}
	m := newTest(s, 120, 40, Options{Draw: d})
	m, _ = press(m, "right")
	view := func() string { return ansi.Strip(m.View()) }
	help := func() string { l := strings.Split(view(), "\n"); return l[len(l)-1] }

	m, _ = press(m, "t")
	if pk.on || !strings.Contains(view(), "Tab to the Timeline first: t picks a message there.") {
		t.Fatalf("t on the lesson: picker on %v:\n%s", pk.on, view())
	}
	for m.Focus() != layout.PanelTimeline {
		m, _ = press(m, "tab")
	}
	if !strings.Contains(help(), "t pick") {
		t.Errorf("help bar with the Timeline focused: %q", help())
	}
	m, _ = press(m, "t")
	if !pk.on || !m.Picking() || !strings.Contains(view(), "PICKED row 2 source") {
		t.Fatalf("t on the Timeline: picker on %v:\n%s", pk.on, view())
	}
	if h := help(); !strings.Contains(h, "earlier/later") || !strings.Contains(h, "close message") || strings.Contains(h, "lessons") {
		t.Errorf("help bar while picking: %q", h)
	}
	m, _ = press(m, "up")
	m, _ = press(m, "up")
	if !strings.Contains(view(), "PICKED row 0") || len(pk.keys) != 2 {
		t.Errorf("↑↑: keys %q:\n%s", pk.keys, view())
	}
	m, out := press(m, "esc")
	if pk.on || len(out) != 0 || m.Focus() != layout.PanelTimeline || strings.Contains(view(), "PICKED") {
		t.Errorf("esc: picker on %v, reports %v, focus %v:\n%s", pk.on, out, m.Focus(), view())
	}
	m, _ = press(m, "t")
	m, _ = press(m, "tab")
	if pk.on || strings.Contains(view(), "PICKED") {
		t.Errorf("tab kept the cursor:\n%s", view())
	}
	for m.Focus() != layout.PanelTimeline {
		m, _ = press(m, "tab")
	}
	m, _ = press(m, "t")
	m, _ = press(m, "right")
	if pk.on || s.pos != 2 || strings.Contains(view(), "PICKED") {
		t.Errorf("a step kept the cursor (step %d):\n%s", s.pos, view())
	}
	// Without a Picker, t is no key of the player's.
	m = newTest(&frames{frames: fs}, 120, 40, Options{})
	m, _ = press(m, "right")
	m, _ = press(m, "t")
	if m.Picking() || strings.Contains(view(), "picks a message") {
		t.Errorf("a player without a Picker answered t:\n%s", view())
	}
}

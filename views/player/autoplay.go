package player

import (
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/theme"
)

// speeds are the autoplay intervals, slowest first. Each is the time a
// step of paceWords words stays on screen; a longer step stays longer (see
// Model.stepDelay), so a chosen speed never cuts a long step short.
var speeds = []time.Duration{
	20 * time.Second, 15 * time.Second, 12 * time.Second, 10 * time.Second, 8 * time.Second,
	6 * time.Second, 4 * time.Second, 3 * time.Second, 2 * time.Second, time.Second, 400 * time.Millisecond,
}

// defaultSpeed is 10 s for a step of paceWords words: about 180 words a
// minute, a relaxed reading pace with time left to look at the panels.
const defaultSpeed = 3

// paceWords is the length of step a speed is for. A step with more words
// gets proportionally more time.
const paceWords = 30

func speedText(d time.Duration) string {
	return fmt.Sprintf("%.1fs", d.Seconds())
}

func (m *Model) manualNext(out *[]tea.Msg) tea.Cmd {
	ok := m.advance(out)
	if !m.playing {
		return nil
	}
	if !ok || m.blocked() != notBlocked {
		m.stop()
		return nil
	}
	// A manual step restarts the autoplay interval: the old tick is stale.
	m.gen++
	return m.tick()
}

// stepDelay is how long autoplay leaves the current step on screen: the
// chosen speed for a step of paceWords words, and proportionally longer for
// a longer step (an answered question adds its explanation), so a long step
// is never cut short.
func (m *Model) stepDelay() time.Duration {
	d := speeds[m.speed]
	words := cells.WordCount(m.frame.Title) + cells.WordCount(m.frame.Narration)
	if cp := m.frame.Checkpoint; cp != nil && cp.Answered {
		words += cells.WordCount(cp.Explanation)
	}
	if words > paceWords {
		d = d * time.Duration(words) / paceWords
	}
	return d
}

func (m *Model) tick() tea.Cmd {
	gen := m.gen
	tick := m.opts.Tick
	if tick == nil {
		tick = tea.Tick
	}
	return tick(m.stepDelay(), func(_ time.Time) tea.Msg { return TickMsg{gen: gen} })
}

func (m *Model) stop() {
	if m.playing {
		m.playing = false
		m.gen++
	}
}

// togglePlay starts or stops autoplay. Starting starts the clock: the
// current step stays for its full time before the next one runs.
func (m *Model) togglePlay() tea.Cmd {
	if m.playing {
		m.stop()
		m.Say(theme.Paused, "Paused.")
		return nil
	}
	if why := m.blocked(); why != notBlocked {
		m.explainBlocked(why)
		return nil
	}
	m.playing = true
	m.gen++
	return m.tick()
}

func (m *Model) onTick(t TickMsg, out *[]tea.Msg) tea.Cmd {
	if !m.playing || t.gen != m.gen || m.sess == nil {
		return nil // stale: paused, stepped by hand or re-timed since
	}
	if m.open != NoOverlay || m.leaving {
		// The learner is reading the help or a detail view, or deciding
		// to leave: autoplay waits, and tries again a step's time later.
		return m.tick()
	}
	if !m.advance(out) || m.blocked() != notBlocked {
		m.stop()
		if why := m.blocked(); why != notBlocked {
			m.explainBlocked(why)
		}
		return nil
	}
	return m.tick()
}

func (m *Model) setSpeed(i int) tea.Cmd {
	m.speed = max(0, min(i, len(speeds)-1))
	m.Say(theme.Muted, "Autoplay: "+speedText(speeds[m.speed])+" a step, more for a long one.")
	if !m.playing {
		return nil
	}
	m.gen++
	return m.tick()
}

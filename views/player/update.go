package player

import (
	"slices"
	"strconv"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/internal/keyset"
	"github.com/eoslab/eoslab/views/layout"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// Update handles a key, the mouse wheel or an autoplay tick, and returns
// what the root must act on (LeftMsg, FinishedMsg, AnsweredMsg, KafkaMsg).
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd, []tea.Msg) {
	var out []tea.Msg
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case TickMsg:
		cmd = m.onTick(msg, &out)
	case tea.MouseMsg:
		m.wheel(msg)
	case tea.KeyMsg:
		if m.sess != nil {
			cmd = m.key(msg, &out)
		}
	}
	m.syncKeys()
	return m, cmd, out
}

// key handles a key on the player screen.
func (m *Model) key(km tea.KeyMsg, out *[]tea.Msg) tea.Cmd {
	m.flash = ""
	k := m.keys
	if keyset.Any(km, k.QuitNow) {
		return tea.Quit
	}
	if m.opts.Follow && m.followerRefuses(km) {
		m.Say(theme.Muted, "The presenter moves the lesson: tab, scroll, d and ? are yours.")
		return nil
	}
	if m.leaving {
		// q asked "leave this lesson?": y (or q again) leaves, any other
		// key stays where it is and does nothing else.
		m.leaving = false
		if keyset.Any(km, k.Leave) || keyset.Any(km, k.Quit) {
			m.close(out)
		} else {
			m.Say(theme.Muted, "Staying in the lesson.")
		}
		return nil
	}
	if m.open == NoOverlay && m.pickKey(km) {
		return nil
	}
	switch {
	case keyset.Any(km, k.Quit):
		m.leaving = true
		m.stop()
		m.Say(theme.Open, "Leave this lesson? y leaves, keeping your place; other keys stay.")
		return nil
	case keyset.Any(km, k.List):
		if m.open != NoOverlay {
			m.open = NoOverlay
			return nil
		}
		if m.focus != layout.PanelNarration || len(m.recent) > 0 {
			// A focused panel lets go first: the slots follow the
			// lesson again, and a second esc leaves.
			m.unfocus()
			m.Say(theme.Muted, "Following the lesson again; esc again returns to the list.")
			return nil
		}
		m.close(out)
		return nil
	case keyset.Any(km, k.Help):
		m.toggle(HelpOverlay)
		return nil
	case keyset.Any(km, k.Details):
		m.toggle(DetailsOverlay)
		return nil
	}
	if m.open != NoOverlay {
		// An open overlay takes the scroll keys; the lesson keys close it
		// and act as usual.
		if m.overlay.Scrolls(km) {
			m.overlay.Handle(km)
			return nil
		}
		m.open = NoOverlay
	}
	switch {
	case keyset.Any(km, k.Next):
		return m.manualNext(out)
	case keyset.Any(km, k.Back):
		m.stop()
		if m.sess.Back() {
			m.toLesson()
			m.refresh(true)
		} else {
			m.Say(theme.Muted, "This is the start of the lesson.")
		}
	case keyset.Any(km, k.First):
		m.stop()
		if !m.sess.Back() {
			m.Say(theme.Muted, "This is the start of the lesson.")
			break
		}
		for m.sess.Back() {
		}
		m.refresh(true)
		m.Say(theme.Muted, "The start of the lesson.")
	case keyset.Any(km, k.Last):
		m.stop()
		m.jumpForward(out)
	case keyset.Any(km, k.PlayPause):
		return m.togglePlay()
	case keyset.Any(km, k.Slower):
		return m.setSpeed(m.speed - 1)
	case keyset.Any(km, k.Faster):
		return m.setSpeed(m.speed + 1)
	case keyset.Any(km, k.Restart):
		m.stop()
		m.sess.Restart()
		m.refresh(true)
		m.Say(theme.Muted, "Back to the start.")
	case keyset.Any(km, k.Answer):
		m.answer(km, out)
	case keyset.Any(km, k.Kafka):
		m.switchKafka(out)
	case keyset.Any(km, k.Focus):
		m.cycleFocus(1)
	case keyset.Any(km, k.FocusBack):
		m.cycleFocus(-1)
	default:
		m.panes[m.focus].Handle(km)
	}
	return nil
}

// toggle opens the help or the details, or closes it when it is open.
func (m *Model) toggle(o Overlay) {
	if m.open == o {
		m.open = NoOverlay
	} else {
		m.open = o
	}
	m.overlay.SetOffset(0)
	m.refreshOverlay()
}

// followerRefuses reports whether a key would move, play, answer or leave
// the lesson, which a following seat cannot do; esc still closes an
// overlay.
func (m *Model) followerRefuses(km tea.KeyMsg) bool {
	k := m.keys
	if keyset.Any(km, k.List) {
		return m.open == NoOverlay
	}
	return slices.ContainsFunc([]key.Binding{k.Next, k.Back, k.First, k.Last, k.PlayPause, k.Slower, k.Faster, k.Restart, k.Answer, k.Kafka, k.Quit},
		func(b key.Binding) bool { return keyset.Any(km, b) })
}

// blocker is why Next cannot run now.
type blocker int

const (
	notBlocked blocker = iota
	noLesson
	atQuestion
	atEnd
)

// blocked says why Next cannot run now, or notBlocked when it can.
func (m *Model) blocked() blocker {
	if m.sess == nil {
		return noLesson
	}
	if cp := m.frame.Checkpoint; cp != nil && !cp.Answered {
		return atQuestion
	}
	if m.sess.Pos() >= m.sess.Len() {
		return atEnd
	}
	return notBlocked
}

func (m *Model) explainBlocked(why blocker) {
	switch why {
	case atQuestion:
		if m.opts.Presenter {
			m.Say(theme.Open, "The class is answering: a reveals.")
			break
		}
		m.Say(theme.Open, "Answer the question first: press "+m.answerKeys()+".")
	case atEnd:
		m.Say(theme.Committed, "End of the lesson.")
	}
}

// advance runs one step and reports whether it did.
func (m *Model) advance(out *[]tea.Msg) bool {
	if why := m.blocked(); why != notBlocked {
		m.explainBlocked(why)
		return false
	}
	if !m.sess.Next() {
		m.refresh(true)
		m.explainBlocked(m.blocked())
		return false
	}
	m.toLesson()
	m.refresh(true)
	m.checkFinished(out)
	if m.sess.Pos() >= m.sess.Len() {
		m.Say(theme.Committed, m.th.Glyph(theme.Committed)+" Lesson complete.")
	}
	return true
}

// jumpForward goes on as far as the lesson lets it without the learner:
// to the end, or to the first question not answered yet. Steps not shown
// before are run on the way, but only the last one is drawn.
func (m *Model) jumpForward(out *[]tea.Msg) {
	if why := m.blocked(); why != notBlocked {
		m.explainBlocked(why)
		return
	}
	for m.sess.Next() {
	}
	m.refresh(true)
	m.checkFinished(out)
	if why := m.blocked(); why != notBlocked {
		m.explainBlocked(why)
	}
}

func (m *Model) answerKeys() string {
	n := 4
	if cp := m.frame.Checkpoint; cp != nil {
		n = max(1, min(len(cp.Choices), 4))
	}
	if n == 1 {
		return "1"
	}
	return "1-" + strconv.Itoa(n)
}

func (m *Model) answer(km tea.KeyMsg, out *[]tea.Msg) {
	cp := m.frame.Checkpoint
	if cp == nil {
		return
	}
	if cp.Answered {
		m.Say(theme.Muted, "Already answered. Press "+m.keys.Next.Help().Key+" to go on.")
		return
	}
	choice := keyset.Digit(km, m.keys.Choices)
	if choice < 1 || choice > len(cp.Choices) {
		m.Say(theme.Open, "There is no choice "+km.String()+": press "+m.answerKeys()+".")
		return
	}
	correct, ok := m.sess.Answer(choice)
	if !ok {
		return
	}
	*out = append(*out, AnsweredMsg{Name: m.name, Pos: m.sess.Pos(), Choice: choice, Correct: correct})
	m.refresh(true)
	m.focusOn(layout.PanelNarration)
	if correct {
		m.Say(theme.Correct, m.th.Glyph(theme.Correct)+" Correct! Press "+m.keys.Next.Help().Key+" to see it happen.")
	} else {
		m.Say(theme.Wrong, m.th.Glyph(theme.Wrong)+" Not quite. Read why, then press "+m.keys.Next.Help().Key+".")
	}
}

// otherKafka is the version the version key switches to.
func otherKafka(k int) int {
	if k == 4 {
		return 3
	}
	return 4
}

// switchKafka plays the lesson under the other Kafka version: the session
// restarts it and replays to the same step, and the status line says what
// the replay kept and where it stopped.
func (m *Model) switchKafka(out *[]tea.Msg) {
	sw, ok := m.sess.(model.KafkaSwitcher)
	if !ok || m.frame.Kafka == 0 {
		m.Say(theme.Muted, "This lesson plays under one Kafka version only.")
		return
	}
	m.stop()
	r := sw.SwitchKafka(otherKafka(m.frame.Kafka))
	*out = append(*out, KafkaMsg{Kafka: r.Kafka})
	m.toLesson()
	m.open = NoOverlay
	m.refresh(true)
	msg := switchedText(r)
	if p := m.frame.Protocol; p != 0 && p != r.Kafka-2 {
		// The lesson set the protocol itself (an upgrade or a downgrade
		// on the way): the header names that one, not the one chosen.
		msg = "Kafka " + strconv.Itoa(r.Kafka) + ".x chosen; at this step the lesson sets its own protocol."
	}
	m.Say(theme.Open, msg)
}

// switchedText is the status line after a version switch, short enough
// for an 80-column header: where the replay stopped, the answers kept,
// and an answer that the switch made right or wrong.
func switchedText(r model.Switched) string {
	s := "Now Kafka " + strconv.Itoa(r.Kafka) + ".x"
	switch {
	case r.Asked > 0:
		s += ": step " + strconv.Itoa(r.Asked) + " asks its question anew"
	case r.Pos > 0 && len(r.Flipped) == 0:
		s += ", at step " + strconv.Itoa(r.Pos)
	}
	if r.Kept > 0 {
		s += "; " + strconv.Itoa(r.Kept) + " answer"
		if r.Kept != 1 {
			s += "s"
		}
		s += " kept"
	}
	if len(r.Flipped) > 0 {
		now := "wrong"
		if r.NowRight {
			now = "right"
		}
		s += "; at step " + strconv.Itoa(r.Flipped[0]) + " your answer is now " + now
	}
	return s + "."
}

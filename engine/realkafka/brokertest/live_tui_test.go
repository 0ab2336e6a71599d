package brokertest

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/engine/realkafka/live"
	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/adapt"
	"github.com/eoslab/eoslab/views/cli"
	"github.com/eoslab/eoslab/views/model"
)

// TestLivePlayerAgrees drives eoslab live's TUI model with keys through
// lost-ack on the broker, at 80x24: c shows Kafka's side, each step the
// player reaches is played on the cluster (the model's commands run as
// Bubble Tea would run them, here one after the other), the checkpoint's
// verdict appears on the step that reveals it and says Kafka agreed, and
// q, y ends the program and deletes what the run made.
func TestLivePlayerAgrees(t *testing.T) {
	o := liveOptions(t, cluster.Bootstrap())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	const name = "lost-ack"
	s, err := live.Open(ctx, o, name)
	if err != nil {
		t.Fatal(err)
	}
	var offered []model.LessonInfo
	for _, l := range adapt.Lessons() {
		if l.Name == name {
			offered = append(offered, l)
		}
	}
	l, closeAll := cli.LivePlayer(ctx, o, s, offered, views.Options{NoColor: true, StartLesson: name})
	closed := false
	defer func() {
		if !closed {
			closeAll(io.Discard)
		}
	}()
	drive(l, l.Init())
	l.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	drive(l, keys(l, "c"))
	if !l.Showing() {
		t.Fatalf("c does not show Kafka's side:\n%s", ansi.Strip(l.View()))
	}
	agreed := false
	for sess := l.App().Session(); sess != nil && sess.Pos() < sess.Len(); sess = l.App().Session() {
		if sess.Frame().Checkpoint.Open() {
			drive(l, keys(l, "1"))
		}
		pos := sess.Pos()
		drive(l, keys(l, "right"))
		if sess.Pos() != pos+1 {
			t.Fatalf("the player did not step from %d:\n%s", pos, ansi.Strip(l.View()))
		}
		k, ok := l.Kafka()
		if !ok || k.Step != pos || k.Gone != "" {
			t.Fatalf("at step %d the side shows step %d (read %v, gone %q)", pos+1, k.Step+1, ok, k.Gone)
		}
		if !l.Showing() {
			drive(l, keys(l, "c"))
		}
		scr := ansi.Strip(l.View())
		if k.Reveal != nil {
			if k.Reveal.Kind != model.KafkaAgreed || !strings.Contains(scr, "after the reveal: Kafka agreed") {
				t.Fatalf("step %d reveals step %d's checkpoint: %s\n%s", pos+1, k.Reveal.Asked+1, k.Reveal.Words, scr)
			}
			agreed = true
		} else if strings.Contains(scr, "after the reveal") {
			t.Fatalf("step %d shows a verdict it does not reveal:\n%s", pos+1, scr)
		}
	}
	if !agreed {
		t.Fatal("no checkpoint was revealed")
	}
	if !drive(l, keys(l, "q", "y")) {
		t.Fatal("q, y did not end the program")
	}
	closed = true
	if err := closeAll(io.Discard); err != nil {
		t.Fatal(err)
	}
}

// keys sends keys to l and returns their commands.
func keys(l *views.Live, ks ...string) tea.Cmd {
	var cmds []tea.Cmd
	for _, k := range ks {
		km := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
		if k == "right" {
			km = tea.KeyMsg{Type: tea.KeyRight}
		}
		_, c := l.Update(km)
		cmds = append(cmds, c)
	}
	return tea.Batch(cmds...)
}

// drive runs cmd and the commands its messages bring, in turn; it
// reports whether one quit the program.
func drive(l *views.Live, cmd tea.Cmd) (quit bool) {
	if cmd == nil {
		return false
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			quit = drive(l, c) || quit
		}
	case tea.QuitMsg:
		return true
	default:
		_, c := l.Update(msg)
		quit = drive(l, c)
	}
	return quit
}

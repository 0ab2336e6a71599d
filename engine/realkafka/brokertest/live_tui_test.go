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
	"github.com/eoslab/eoslab/views/drive"
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
	drive.Run(l, l.Init())
	l.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	press(l, "c")
	if !l.Showing() {
		t.Fatalf("c does not show Kafka's side:\n%s", ansi.Strip(l.View()))
	}
	agreed := false
	for sess := l.App().Session(); sess != nil && sess.Pos() < sess.Len(); sess = l.App().Session() {
		if sess.Frame().Checkpoint.Open() {
			press(l, "1")
		}
		pos := sess.Pos()
		press(l, "right")
		if sess.Pos() != pos+1 {
			t.Fatalf("the player did not step from %d:\n%s", pos, ansi.Strip(l.View()))
		}
		k, ok := l.Kafka()
		if !ok || k.Step != pos || k.Gone != "" {
			t.Fatalf("at step %d the side shows step %d (read %v, gone %q)", pos+1, k.Step+1, ok, k.Gone)
		}
		if !l.Showing() {
			press(l, "c")
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
	if !press(l, "q", "y") {
		t.Fatal("q, y did not end the program")
	}
	closed = true
	if err := closeAll(io.Discard); err != nil {
		t.Fatal(err)
	}
}

func press(l *views.Live, keys ...string) bool {
	_, quit := drive.Keys(l, keys...)
	return quit
}

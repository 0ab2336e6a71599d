package live

import (
	"errors"
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine/realkafka/verify"
	"github.com/eoslab/eoslab/lessons"
)

func TestCheckKafka(t *testing.T) {
	for _, c := range []struct {
		kafka, tv int
		ok        bool
	}{{0, 0, true}, {0, 2, true}, {3, 0, true}, {3, 1, true}, {4, 2, true}, {4, 0, false}, {3, 2, false}} {
		err := Options{Kafka: c.kafka, TV: c.tv}.checkKafka()
		var ue *UsageError
		if c.ok != (err == nil) || (err != nil && !errors.As(err, &ue)) {
			t.Errorf("--kafka %d on transaction.version %d: %v", c.kafka, c.tv, err)
		}
	}
}

// TestRead: the driver gets the built-in lesson's own text by its file
// name, and an unknown lesson is a usage error naming --lesson.
func TestRead(t *testing.T) {
	file, err := fileOf("zombie")
	if err != nil {
		t.Fatal(err)
	}
	_, want, _ := lessons.Source("zombie")
	got, err := read(file)
	if err != nil || string(got) != string(want) {
		t.Errorf("read(%s): %v, %d bytes, want %d", file, err, len(got), len(want))
	}
	if _, err := fileOf("no-such-lesson"); err == nil || !strings.Contains(err.Error(), "--lesson no-such-lesson") {
		t.Errorf("unknown lesson: %v", err)
	}
}

func TestWords(t *testing.T) {
	for _, c := range []struct {
		r    verify.Row
		want string
	}{
		{verify.Row{Verdict: verify.Agree}, "Kafka agreed"},
		{verify.Row{Verdict: verify.Differ, Sim: "epoch 1", Kafka: "epoch 2"}, "Kafka did otherwise: simulation epoch 1; Kafka epoch 2"},
		{verify.Row{Verdict: verify.SimOnly, Why: "client memory"}, "simulation only: client memory"},
		{verify.Row{Verdict: verify.NotPlayed, Why: "line 3: x"}, "not played on Kafka: line 3: x"},
	} {
		if got := Words(c.r); got != c.want {
			t.Errorf("Words(%v) = %q, want %q", c.r.Verdict, got, c.want)
		}
	}
}

// TestStepOf: a lesson's expect lines fall in the step whose step: line
// is the last before them; setup's in none.
func TestStepOf(t *testing.T) {
	l, err := lessons.Load("lost-ack")
	if err != nil {
		t.Fatal(err)
	}
	if got := stepOf(l, l.Steps[0].Line-1); got != -1 {
		t.Errorf("a line before the first step: step %d", got)
	}
	for i, st := range l.Steps {
		if got := stepOf(l, st.Line+1); got != i {
			t.Errorf("line %d: step %d, want %d", st.Line+1, got, i)
		}
	}
}

package adapt

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/views/model"
)

// TestFramesAfterALongStep: a step that writes more batches than a frame
// shows and sends more messages than the diagram keeps, after a step that
// left a few, gives the frames that a session building each one from the
// world alone gives (the rows and arrows that start from the last frame's
// have nothing of it left to keep).
func TestFramesAfterALongStep(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("title: Long\nsummary: a long step\nlevel: systems\nminutes: 1\nsetup:\n  topic t partitions=1\n  producer A\n  producer T transactional.id=x\n")
	b.WriteString("step: few\n  say: few\n  do: T initTransactions\n  do: run\n  do: T beginTransaction\n  do: T send t-0 open\n  do: A send t-0 a\n  do: run\n")
	b.WriteString("step: many\n  say: many\n")
	for i := range maxRows + 100 {
		fmt.Fprintf(&b, "  do: A send t-0 m%d\n  do: run\n", i)
	}
	b.WriteString("  do: T commitTransaction\n  do: run\nstep: one more\n  say: one more\n  do: A send t-0 last\n  do: run\n")
	l, err := lessons.Parse("long.lesson", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	frame := func(s *Session) model.Frame {
		f := s.Frame()
		f.Checkpoint, f.Key = nil, 0
		return f
	}
	s, u := New(l), New(l)
	for pos := 0; pos <= s.Len(); pos++ {
		playTo(t, s, pos)
		playTo(t, u, pos)
		u.forget()
		if got, want := frame(s), frame(u); !reflect.DeepEqual(got, want) {
			t.Fatalf("position %d differs from the frame built from the world", pos)
		}
	}
	if f := frame(s); len(f.Partitions) != 1 || len(f.Partitions[0].Rows) != maxRows || len(f.Timeline) != maxArrows {
		t.Fatalf("%d partitions, rows or arrows not bounded", len(f.Partitions))
	}
}

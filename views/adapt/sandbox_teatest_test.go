package adapt

import (
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/internal/viewtest"
)

// TestSandboxProgram runs the real Bubble Tea program: the picker, the
// first preset, a lost answer with idempotence off, the broken guarantee
// and its cause on screen, a save through the program's command loop, and
// q to quit.
func TestSandboxProgram(t *testing.T) {
	saved := make(chan []byte, 1)
	opts := views.Options{SaveFile: func(name string, data []byte) (string, error) {
		saved <- data
		return name, nil
	}}
	m := views.NewSandbox(SandboxPresets(), openPreset, nil, opts)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	sc := &viewtest.Screen{TM: tm}
	sc.WaitFor(t, "Pick a starting world")
	sc.Press("1")
	sc.WaitFor(t, "the world waits for you")
	for _, k := range []string{"1", "s", "n", "x", "R"} {
		sc.Press(k)
	}
	sc.WaitFor(t, "BROKEN")
	sc.WaitFor(t, "fault: the network loses")
	sc.Press("w")
	sc.WaitFor(t, "saved as sandbox-idempotent.scn")
	select {
	case data := <-saved:
		if len(data) == 0 {
			t.Fatal("an empty save")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no save")
	}
	sc.Press("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}

package adapt

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// BenchmarkSandboxKeyCauseShown measures one sandbox keystroke (Update,
// then View) at 200x60 while a broken monitor's cause chain is on screen:
// the idempotent preset with idempotence off and a lost ACK, so that "no
// record written twice" breaks. The keys move the selection in the waiting
// list, which redraws the screen around the cause chain.
func BenchmarkSandboxKeyCauseShown(b *testing.B) {
	x := newSbox(b, "idempotent", 200, 60)
	x.press("1", "s")
	x.selectWaiting("ProduceResponse", produceResponseTo("P"))
	x.press("x", "R", "s", "s")
	if x.model().CauseShown() == "" {
		b.Fatal("no cause chain on screen")
	}
	m := x.m
	keys := []tea.KeyMsg{{Type: tea.KeyDown}, {Type: tea.KeyUp}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m, _ = m.Update(keys[i%2])
		_ = m.View()
	}
}

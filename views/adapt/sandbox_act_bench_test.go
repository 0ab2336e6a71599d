package adapt

import (
	"slices"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/internal/gcpace"
	"github.com/eoslab/eoslab/views/internal/viewtest"
	"github.com/eoslab/eoslab/views/model"
)

// actSandbox opens the idempotent preset at 200x60 and plays n actions on
// it, a send by P then three engine steps, over and over, as a learner
// exploring the sandbox for a long while does.
func actSandbox(tb testing.TB, n int) (*Sandbox, tea.Model) {
	x, err := OpenSandbox("idempotent")
	if err != nil {
		tb.Fatal(err)
	}
	for i := range n {
		op := model.Op{Kind: model.OpStep}
		if i%4 == 0 {
			op = model.Op{Kind: model.OpCall, Client: "P", Call: model.CallSend}
		}
		if _, err := x.Do(op); err != nil {
			tb.Fatalf("action %d: %v", i, err)
		}
	}
	if x.Len() < n {
		tb.Fatalf("%d actions made %d steps", n, x.Len())
	}
	var m tea.Model = views.NewSandbox(nil, nil, x, views.Options{})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	_ = m.View()
	return x, m
}

// BenchmarkSandboxActFlat measures the sandbox's act (n: one real engine
// step as a new action, then the frame drawn, Update and View) after 1,000
// and after 8,000 actions, in pairs, the order alternating, and reports
// each one's median and the median of the pairs' ratios (act-ratio: 1.0
// is flat). An act must cost the same however long the session has been.
// From the module root:
//
//	go test ./views/adapt -run '^$' -bench SandboxActFlat -benchtime 200x
func BenchmarkSandboxActFlat(b *testing.B) {
	// The collector's pace of the TUI (tuirun.Run sets it).
	defer gcpace.Set()()
	xs, small := actSandbox(b, 1000)
	xb, big := actSandbox(b, 8000)
	ns, nb := xs.Len(), xb.Len()
	act := func(m *tea.Model) time.Duration {
		t0 := time.Now()
		*m, _ = (*m).Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'n'}})
		_ = (*m).View()
		return time.Since(t0)
	}
	var ts, tb, ratio []float64
	b.ResetTimer()
	for i := range b.N {
		var s, l time.Duration
		if i%2 == 0 {
			s, l = act(&small), act(&big)
		} else {
			l, s = act(&big), act(&small)
		}
		ts, tb = append(ts, float64(s.Microseconds())), append(tb, float64(l.Microseconds()))
		ratio = append(ratio, float64(l)/float64(s))
	}
	b.StopTimer()
	// Every act is a real step: each branch grows by one each time.
	if xs.Len() != ns+b.N || xb.Len() != nb+b.N {
		b.Fatalf("%d acts made %d and %d steps", b.N, xs.Len()-ns, xb.Len()-nb)
	}
	b.ReportMetric(viewtest.Median(ts), "us-at-1000")
	b.ReportMetric(viewtest.Median(tb), "us-at-8000")
	b.ReportMetric(viewtest.Median(ratio), "act-ratio")
	b.ReportMetric(slices.Min(ratio), "min-ratio")
	b.ReportMetric(slices.Max(ratio), "max-ratio")
	b.ReportMetric(0, "ns/op")
}

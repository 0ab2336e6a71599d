package panels

import (
	"strconv"
	"testing"

	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/pane"
	"github.com/eoslab/eoslab/views/theme"
)

// bigPartitions is a frame with two partition logs of 500 batches each:
// as many rows as the adapter lets a frame hold (maxRows).
func bigPartitions() *model.Frame {
	f := &model.Frame{Key: 1}
	for p := 0; p < 2; p++ {
		pv := model.PartitionView{Name: "t-" + strconv.Itoa(p), Leader: "broker-1", HW: 1000, LSO: 990, LEO: 1000}
		for i := 0; i < 500; i++ {
			pv.Rows = append(pv.Rows, model.LogRow{First: int64(2 * i), Last: int64(2*i + 1), PID: 4000, Seqs: strconv.Itoa(2*i) + ".." + strconv.Itoa(2*i+1),
				Values: []string{"value-" + strconv.Itoa(i), "more"}, Status: model.StatusCommitted, Changed: i == 499})
		}
		f.Partitions = append(f.Partitions, pv)
	}
	return f
}

// BenchmarkPaneFirstDraw draws the partitions panel of a frame for the
// first time, as a new step does, in a 120x40 slot of a 200x60 screen: the
// content is built, set and drawn. "lazy" is the stage's own pane, which
// makes only the lines on screen; "viewport" is the text pane, which sets
// every line into a bubbles viewport first. The pane's comment cites the
// result, which decides which pane the stage uses.
func BenchmarkPaneFirstDraw(b *testing.B) {
	th := theme.New(theme.Options{})
	f := bigPartitions()
	for _, c := range []struct {
		name string
		pane func() pane.Model
	}{{"lazy", func() pane.Model { return pane.New(th) }}, {"viewport", func() pane.Model { return pane.NewText(th) }}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				p := c.pane()
				p.SetSize(120, 40)
				head, body, anchor := Partitions(f, Painter{Theme: th, Width: 117})
				p.SetContent(head, body, anchor)
				if len(p.Lines()) != 40 {
					b.Fatal("short pane")
				}
			}
		})
	}
}

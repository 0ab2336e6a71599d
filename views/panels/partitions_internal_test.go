package panels

import (
	"testing"

	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// TestPartLogItems checks the items a partition log works out from a
// line's index (partLog.item) against the list they stand for: the
// title and heads, the rows with a boundary above the first batch that
// reaches the LSO and the high watermark, and the producer-state cache;
// and that changedRange spans the lines that changed says changed.
func TestPartLogItems(t *testing.T) {
	p := Painter{Theme: theme.New(theme.Options{ASCII: true}), Width: 80}
	rows := func(n int, changed ...int) []model.LogRow {
		out := make([]model.LogRow, n)
		for i := range out {
			out[i] = model.LogRow{First: int64(2 * i), Last: int64(2*i + 1), Kind: model.RowData, PID: 1, Seqs: "0..1", Values: []string{"v"}}
		}
		for _, c := range changed {
			out[c].Changed = true
		}
		return out
	}
	for _, c := range []struct {
		name string
		pv   model.PartitionView
	}{
		{"empty", model.PartitionView{Name: "t-0"}},
		{"all stable", model.PartitionView{Name: "t-0", Rows: rows(5, 4), LSO: 10, HW: 10, LEO: 10}},
		{"lso below hw", model.PartitionView{Name: "t-0", Rows: rows(6, 2, 3), LSO: 4, HW: 9, LEO: 12,
			Entries: []model.ProducerEntry{{PID: 1}}, Changed: true}},
		{"lso at start", model.PartitionView{Name: "t-0", Rows: rows(3), LSO: 0, HW: 3, LEO: 6, Changed: true}},
		{"cache changed only", model.PartitionView{Name: "t-0", Rows: rows(3), LSO: 6, HW: 6, LEO: 6,
			Cached: []model.CachedBatch{{PID: 1, Offset: 4}}, Changed: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := newPartLog(&c.pv, p)
			var want []pitem
			want = append(want, l.pre...)
			// The rows with the boundaries, as the list had them: a
			// boundary just above the row it is before.
			for i := 0; i <= len(c.pv.Rows); i++ {
				for _, b := range l.bounds {
					if b.before == i {
						want = append(want, b.it)
					}
				}
				if i < len(c.pv.Rows) {
					want = append(want, pitem{kind: piRow, row: i})
				}
			}
			want = append(want, l.post...)
			if l.Len() != len(want) {
				t.Fatalf("Len = %d, want %d", l.Len(), len(want))
			}
			for i, w := range want {
				if got := l.item(i); got != w {
					t.Errorf("item(%d) = %+v, want %+v", i, got, w)
				}
			}
			if got, want := l.changedRange(), anchorOf(l.Len(), l.changed); got != want {
				t.Errorf("changedRange = %+v, want %+v", got, want)
			}
		})
	}
}

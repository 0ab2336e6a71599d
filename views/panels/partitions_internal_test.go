package panels

import (
	"strings"
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

// TestMarkerRowNeverCutMidWord: at every width a marker row says its
// kind whole ("COMMIT marker", or "COMMIT" where that does not fit),
// or ends in the ellipsis: never "COMMIT mark".
func TestMarkerRowNeverCutMidWord(t *testing.T) {
	for _, ascii := range []bool{false, true} {
		th := theme.New(theme.Options{NoColor: true, ASCII: ascii})
		for w := 30; w <= 100; w++ { // the sandbox's narrowest Partitions pane is 32 columns
			for _, k := range []model.RowKind{model.RowCommit, model.RowAbort} {
				pv := model.PartitionView{Name: "t-0", LSO: 2, HW: 2, LEO: 2, Rows: []model.LogRow{
					{First: 0, Last: 0, Kind: model.RowData, PID: 1000, Seqs: "0", Values: []string{"a-rather-long-value"}},
					{First: 1, Last: 1, Kind: k, PID: 1000}}}
				l := newPartLog(&pv, Painter{Theme: th, Width: w})
				line := l.drawRow(&pv.Rows[1])
				name := k.String()
				i := strings.Index(line, name)
				if i < 0 {
					if !strings.Contains(line, th.Sym.Ellipsis) {
						t.Fatalf("width %d: %q shows neither %s nor an ellipsis", w, line, name)
					}
					continue
				}
				rest := line[i+len(name):]
				if strings.HasPrefix(rest, " ") && !strings.HasPrefix(rest, " marker") && strings.HasPrefix(strings.TrimLeft(rest, " "), "m") {
					t.Fatalf("width %d: %q cuts the word marker", w, line)
				}
				if strings.HasPrefix(rest, " m") && !strings.HasPrefix(rest, " marker") && !strings.HasPrefix(rest, " m"+th.Sym.Ellipsis) {
					t.Fatalf("width %d: %q cuts the word marker", w, line)
				}
			}
		}
	}
}

package adapt

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/views/internal/viewtest"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/panels"
	"github.com/eoslab/eoslab/views/theme"
)

// pickedRows are the Timeline's lines at width w that carry the cursor
// in the gutter's second cell.
func pickedRows(f *model.Frame, th *theme.Theme, w int) []string {
	_, body, _ := panels.Timeline(f, panels.Painter{Theme: th, Width: w})
	var out []string
	for i := range body.Len() {
		l := []rune(ansi.Strip(body.Line(i)))
		if len(l) > 1 && string(l[1]) == th.Sym.Cursor {
			out = append(out, string(l))
		}
	}
	return out
}

// TestPickAMessageOnTheTimeline: on the zombie lesson's last step, t puts
// the cursor on the newest message, ↑ walks back to the fenced answer, its
// row carries the cursor glyph (with NO_COLOR and in ASCII), and its box
// shows the fields and the rule that decided; ↓ and ↑ stop at the ends,
// stepping back keeps the cursor on its message, and esc takes it away.
func TestPickAMessageOnTheTimeline(t *testing.T) {
	s := open(t, "zombie")
	f := playTo(t, s, s.Len())
	fenced := -1
	for i, a := range f.Timeline {
		if a.Error && strings.Contains(a.Code, "PRODUCER_FENCED") {
			fenced = i
		}
	}
	if fenced < 0 {
		t.Fatalf("no fenced answer on the zombie lesson's Timeline: %+v", f.Timeline)
	}
	p := panels.NewPick()
	press := func(k string) bool {
		t.Helper()
		var handled bool
		p, handled = p.Update(viewtest.Key(k), &f)
		return handled
	}
	if press("up") || p.On() {
		t.Fatal("↑ with no cursor is the root's key (it scrolls the pane)")
	}
	if !press("t") || !p.On() {
		t.Fatal("t did not put the cursor on")
	}
	if id, _ := p.Picked(); id != f.Timeline[len(f.Timeline)-1].ID {
		t.Fatalf("t picked m%d, want the newest message m%d", id, f.Timeline[len(f.Timeline)-1].ID)
	}
	press("down")
	if id, _ := p.Picked(); id != f.Timeline[len(f.Timeline)-1].ID {
		t.Fatal("↓ on the newest message moved the cursor")
	}
	for range len(f.Timeline) - 1 - fenced {
		press("up")
	}
	want := f.Timeline[fenced]
	if id, _ := p.Picked(); id != want.ID {
		t.Fatalf("after ↑ the cursor is on m%d, want m%d (%s)", id, want.ID, want.Label)
	}
	marked := p.Mark(f)
	n := 0
	for i, a := range marked.Timeline {
		if a.Picked {
			n++
			if i != fenced {
				t.Errorf("row %d (%s) is marked, not %d", i, a.Label, fenced)
			}
		}
	}
	if n != 1 || f.Timeline[fenced].Picked || marked.Key != 0 {
		t.Fatalf("Mark marked %d rows, changed the frame (%v), or kept its key %d", n, f.Timeline[fenced].Picked, marked.Key)
	}
	for _, th := range []*theme.Theme{theme.New(theme.Options{NoColor: true}), theme.New(theme.Options{ASCII: true})} {
		for _, w := range []int{57, 77, 120} {
			rows := pickedRows(&marked, th, w)
			if len(rows) == 0 || len(rows) > 2 {
				t.Errorf("width %d ascii=%v: %d rows carry the cursor, want the picked message's: %q", w, th.ASCII, len(rows), rows)
			}
			if got := pickedRows(&f, th, w); len(got) != 0 {
				t.Errorf("width %d: an unmarked frame draws the cursor: %q", w, got)
			}
		}
		box := ansi.Strip(strings.Join(p.Box(&marked, s, panels.Painter{Theme: th, Width: 77}), "\n"))
		for _, field := range []string{"m" + itoa(int(want.ID)), "EndTxnResponse", "error code", want.Code, th.Glyph(theme.Aborted),
			"decided by", "TransactionCoordinator.endTransaction", "delivered"} {
			if !strings.Contains(box, field) {
				t.Errorf("ascii=%v: the box has no %q:\n%s", th.ASCII, field, box)
			}
		}
	}
	// Draw puts the box above the diagram: in full in a tall pane, in
	// its short form (still with the code and the rule) in a short one,
	// and keeps the picked row in view.
	th := theme.New(theme.Options{NoColor: true})
	pt := panels.Painter{Theme: th, Width: 77}
	for _, rows := range []int{8, 40} {
		head, body, anchor := p.Draw(&f, s, pt, rows)
		h := ansi.Strip(strings.Join(head, "\n"))
		full := strings.Contains(h, "decided by      ")
		if full != (rows == 40) || !strings.Contains(h, want.Code) || !strings.Contains(h, "TransactionCoordinator.endTransaction") {
			t.Errorf("rows %d: Draw's head (full box %v):\n%s", rows, full, h)
		}
		if anchor.From < 0 || !strings.Contains([]string{ansi.Strip(body.Line(anchor.From))}[0], "EndTxnResponse") {
			t.Errorf("rows %d: the anchor %+v is not the picked row", rows, anchor)
		}
	}
	// A request carries the producer's fields.
	for i, a := range f.Timeline {
		if strings.HasPrefix(a.Label, "Produce ") {
			m, ok := s.Message(a.ID)
			if !ok || m.ProducerID == "" || m.Epoch == "" || m.Sequence == "" || len(m.Partitions) != 1 || m.TransactionalID == "" || m.Rule == "" {
				t.Errorf("row %d %s: fields %+v", i, a.Label, m)
			}
			break
		}
	}
	// Stepping back keeps the cursor on its message while it is drawn.
	s.Back()
	f = s.Frame()
	if id, _ := p.Picked(); p.Mark(f).Timeline[indexOf(f.Timeline, id)].Picked != true {
		t.Error("after a step back the picked message is not marked")
	}
	if !press("esc") || p.On() || p.Box(&f, s, panels.Painter{Theme: theme.New(theme.Options{}), Width: 77}) != nil {
		t.Error("esc did not take the cursor away")
	}
	if press("esc") {
		t.Error("esc with no cursor is the root's key")
	}
}

func indexOf(tl []model.Arrow, id int64) int {
	for i, a := range tl {
		if a.ID == id {
			return i
		}
	}
	return 0
}

package layout

import "testing"

// At 200x60 the upper row of panels gives the lower one the rows it does
// not use, as many as the lower one needs: the slots still tile the same
// stage, the upper row keeps minStage rows at least and never grows, and
// a lower row that has room keeps the layout as it is.
func TestWithRows(t *testing.T) {
	base, err := For(200, 60, false)
	if err != nil || base.Mode != ModeFull {
		t.Fatalf("200x60: %v %v", base.Mode, err)
	}
	upper := map[PanelID]bool{PanelProducers: true, PanelPartitions: true, PanelCoordinator: true}
	rowOf := func(pl Placement, up bool) (y, h int) {
		for _, s := range pl.Slots {
			if upper[s.Panels[0]] == up {
				return s.Y, s.H
			}
		}
		return -1, -1
	}
	uy, uh := rowOf(base, true)
	ly, lh := rowOf(base, false)
	for _, c := range []struct {
		name          string
		up, low       int
		wantUp, given int
	}{
		{"short upper, long lower", 8, 200, 10, uh - 10},
		{"tiny upper", 0, 200, minStage, uh - minStage},
		{"short upper, lower needing 3 more", 8, lh - 2 + 3, uh - 3, 3},
		{"lower fits", 8, lh - 2, uh, 0},
		{"upper full", uh, 200, uh, 0},
	} {
		pl := base.WithRows(func(p PanelID) int {
			if upper[p] {
				return c.up
			}
			return c.low
		})
		y, h := rowOf(pl, true)
		y2, h2 := rowOf(pl, false)
		if y != uy || h != c.wantUp || y2 != y+h || y2+h2 != ly+lh || h2 != lh+c.given {
			t.Errorf("%s: upper %d+%d, lower %d+%d; want upper %d+%d, lower from %d to %d", c.name, y, h, y2, h2, uy, c.wantUp, uy+c.wantUp, ly+lh)
		}
		for _, s := range pl.Slots {
			if sy, sh := rowOf(pl, upper[s.Panels[0]]); s.Y != sy || s.H != sh {
				t.Errorf("%s: slot %v is not in its row", c.name, s)
			}
		}
	}
	// Layouts other than the full one are as they were.
	small, _ := For(80, 24, false)
	if got := small.WithRows(func(PanelID) int { return 1 }); !same(got, small) {
		t.Errorf("80x24 changed: %+v", got.Slots)
	}
}

func same(a, b Placement) bool {
	if len(a.Slots) != len(b.Slots) {
		return false
	}
	for i := range a.Slots {
		if a.Slots[i].Rect != b.Slots[i].Rect {
			return false
		}
	}
	return true
}

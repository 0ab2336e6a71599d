package layout_test

import (
	"errors"
	"testing"

	"github.com/eoslab/eoslab/views/layout"
)

func TestLayoutTooSmall(t *testing.T) {
	for _, sz := range [][2]int{{0, 0}, {1, 1}, {-5, -5}, {59, 40}, {200, 17}, {40, 10}} {
		pl, err := layout.For(sz[0], sz[1], false)
		var ts *layout.TooSmallError
		if !errors.As(err, &ts) {
			t.Fatalf("%dx%d: err = %v, want TooSmallError", sz[0], sz[1], err)
		}
		if pl.Mode != layout.ModeTooSmall || len(pl.Slots) != 0 {
			t.Errorf("%dx%d: placement %+v, want an empty too-small one", sz[0], sz[1], pl)
		}
	}
	_, err := layout.For(40, 10, false)
	if got, want := err.Error(), "terminal too small: need 60x18 (have 40x10)"; got != want {
		t.Errorf("message = %q, want %q", got, want)
	}
	if _, err := layout.For(layout.MinWidth, layout.MinHeight, false); err != nil {
		t.Errorf("minimum size: %v", err)
	}
}

func TestLayoutModes(t *testing.T) {
	cases := []struct {
		w, h int
		mode layout.Mode
	}{
		{80, 24, layout.ModeCompact},
		{60, 18, layout.ModeCompact},
		{100, 30, layout.ModeCompact},
		{90, 50, layout.ModeTall},
		{130, 25, layout.ModeWide},
		{220, 25, layout.ModeWide},
		{120, 40, layout.ModeMedium},
		{160, 48, layout.ModeFull},
		{200, 60, layout.ModeFull},
	}
	for _, c := range cases {
		pl, err := layout.For(c.w, c.h, false)
		if err != nil {
			t.Fatalf("%dx%d: %v", c.w, c.h, err)
		}
		if pl.Mode != c.mode {
			t.Errorf("%dx%d: mode %v, want %v", c.w, c.h, pl.Mode, c.mode)
		}
	}
}

// At 200x60 every panel has a slot of its own: all are visible at once.
func TestLayoutFullShowsEverything(t *testing.T) {
	pl, err := layout.For(200, 60, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(pl.Slots) != 6 {
		t.Fatalf("%d slots, want 6", len(pl.Slots))
	}
	for _, s := range pl.Slots {
		if len(s.Panels) != 1 {
			t.Errorf("slot %+v holds %d panels", s.Rect, len(s.Panels))
		}
		if s.W < 40 || s.H < 15 {
			t.Errorf("slot %v %+v is cramped", s.Panels, s.Rect)
		}
	}
	if pl.Narration.W != 200 || pl.Narration.H < 10 {
		t.Errorf("narration %+v", pl.Narration)
	}
}

// At 80x24 one slot shows one panel at a time with readable room, and the
// narration keeps enough lines for a checkpoint.
func TestLayoutCompact80x24(t *testing.T) {
	pl, err := layout.For(80, 24, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(pl.Slots) != 1 || len(pl.Slots[0].Panels) != 6 {
		t.Fatalf("slots %+v", pl.Slots)
	}
	if s := pl.Slots[0]; s.H-2 < 10 || s.W != 80 {
		t.Errorf("stage %+v: want 80 wide and >= 10 content lines", s.Rect)
	}
	if pl.Narration.H-2 < 6 {
		t.Errorf("narration %+v: want >= 6 content lines", pl.Narration)
	}
}

// Every size from the minimum up is tiled exactly: parts stay on screen,
// never overlap, cover every cell, and every panel has exactly one slot.
func TestLayoutTilesScreen(t *testing.T) {
	for w := layout.MinWidth; w <= 260; w += 7 {
		for h := layout.MinHeight; h <= 90; h += 3 {
			for _, ascii := range []bool{false, true} {
				pl, err := layout.For(w, h, ascii)
				if err != nil {
					t.Fatalf("%dx%d: %v", w, h, err)
				}
				checkTiling(t, pl)
			}
		}
	}
}

func checkTiling(t *testing.T, pl layout.Placement) {
	t.Helper()
	w, h := pl.Width, pl.Height
	rects := []layout.Rect{pl.Header, pl.Help, pl.Narration}
	seen := map[layout.PanelID]int{}
	for _, s := range pl.Slots {
		rects = append(rects, s.Rect)
		if len(s.Panels) == 0 {
			t.Errorf("%dx%d: empty slot %+v", w, h, s.Rect)
		}
		for _, p := range s.Panels {
			seen[p]++
		}
		if s.W < 20 || s.H < 5 {
			t.Errorf("%dx%d %v: slot %+v too small to draw", w, h, pl.Mode, s.Rect)
		}
	}
	for p := layout.PanelProducers; p < layout.PanelNarration; p++ {
		if seen[p] != 1 {
			t.Errorf("%dx%d: panel %v in %d slots", w, h, p, seen[p])
		}
		if pl.SlotOf(p) < 0 {
			t.Errorf("%dx%d: SlotOf(%v) = -1", w, h, p)
		}
	}
	grid := make([]int, w*h)
	for _, r := range rects {
		if r.X < 0 || r.Y < 0 || r.X+r.W > w || r.Y+r.H > h || r.Empty() {
			t.Errorf("%dx%d: rect %+v off screen or empty", w, h, r)
			continue
		}
		for y := r.Y; y < r.Y+r.H; y++ {
			for x := r.X; x < r.X+r.W; x++ {
				grid[y*w+x]++
			}
		}
	}
	for i, n := range grid {
		if n != 1 {
			t.Fatalf("%dx%d %v: cell (%d,%d) covered %d times", w, h, pl.Mode, i%w, i/w, n)
		}
	}
}

// The lesson pane grows into the panels' room for a long question, never
// below minStage rows of panels, and the slots still tile the stage.
func TestLayoutWithNarration(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {60, 20}, {60, 18}, {90, 50}, {120, 40}, {160, 48}, {200, 60}, {130, 25}} {
		base, err := layout.For(sz[0], sz[1], false)
		if err != nil {
			t.Fatal(err)
		}
		for _, lines := range []int{0, 5, 12, 17, 30, 200} {
			pl := base.WithNarration(lines)
			n := pl.Narration
			if n.Y+n.H != base.Narration.Y+base.Narration.H || n.H < base.Narration.H {
				t.Fatalf("%v lines=%d: narration %+v moved its bottom or shrank from %+v", sz, lines, n, base.Narration)
			}
			if base.Mode == layout.ModeWide {
				if n != base.Narration {
					t.Fatalf("%v: the wide layout's narration changed", sz)
				}
				continue
			}
			if n.H > base.Narration.H && n.H > lines+2 {
				t.Errorf("%v lines=%d: narration %d rows, more than the %d it needs", sz, lines, n.H, lines+2)
			}
			top, cells := 1, 0
			for _, s := range pl.Slots {
				if s.H < 1 || s.Y < top || s.Y+s.H > n.Y {
					t.Fatalf("%v lines=%d: slot %+v outside the stage above %+v", sz, lines, s.Rect, n)
				}
				cells += s.W * s.H
			}
			if stage := n.Y - top; stage < 5 || cells != sz[0]*stage {
				t.Errorf("%v lines=%d: stage %d rows, slots cover %d of %d cells", sz, lines, stage, cells, sz[0]*stage)
			}
		}
	}
}

// TestLayoutPairsTimelineAndPartitions: from layout.PairWidth columns on,
// at every height, the Timeline and the Partitions are each the first
// panel of a slot of their own, so both are on screen at once, and
// outside the full layout their slots stand side by side, the Timeline
// on the left, each at least 44 cells wide. Narrower, outside the full
// layout, the two share a slot as tabs, as before.
func TestLayoutPairsTimelineAndPartitions(t *testing.T) {
	for w := layout.MinWidth; w <= 300; w += 3 {
		for h := layout.MinHeight; h <= 80; h += 2 {
			pl, err := layout.For(w, h, false)
			if err != nil {
				t.Fatal(err)
			}
			tl, parts := pl.SlotOf(layout.PanelTimeline), pl.SlotOf(layout.PanelPartitions)
			if !layout.Paired(w) {
				if pl.Mode != layout.ModeFull && tl != parts {
					t.Errorf("%dx%d (%v): Timeline in slot %d, Partitions in %d; want one slot below %d columns", w, h, pl.Mode, tl, parts, layout.PairWidth)
				}
				continue
			}
			if tl == parts || pl.Slots[tl].Panels[0] != layout.PanelTimeline || pl.Slots[parts].Panels[0] != layout.PanelPartitions {
				t.Fatalf("%dx%d (%v): slots %+v do not pair the Timeline and the Partitions", w, h, pl.Mode, pl.Slots)
			}
			if pl.Mode == layout.ModeFull {
				continue
			}
			a, b := pl.Slots[tl].Rect, pl.Slots[parts].Rect
			if a.X+a.W != b.X || a.Y != b.Y || a.H != b.H || a.W < 44 || b.W < 44 {
				t.Errorf("%dx%d (%v): Timeline %+v and Partitions %+v are not side by side with room", w, h, pl.Mode, a, b)
			}
		}
	}
}

func TestPairAndBeside(t *testing.T) {
	tl, b := layout.Pair(layout.Rect{X: 10, Y: 2, W: 100, H: 30})
	if tl != (layout.Rect{X: 10, Y: 2, W: 55, H: 30}) || b != (layout.Rect{X: 65, Y: 2, W: 45, H: 30}) {
		t.Errorf("Pair = %+v, %+v", tl, b)
	}
	if layout.Beside(layout.PanelTimeline) != layout.PanelPartitions || layout.Beside(layout.PanelEvents) != layout.PanelEvents {
		t.Error("Beside: the Timeline's neighbour is the Partitions unless another panel is picked")
	}
}

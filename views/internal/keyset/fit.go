package keyset

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"

	"github.com/eoslab/eoslab/views/internal/cells"
)

// Fit drops disabled bindings, then the lowest-ranked ones (by their help
// text; a binding without a rank stays) until h's one-line help of them
// fits in w cells.
func Fit(h help.Model, ks []key.Binding, rank map[string]int, w int) []key.Binding {
	var out []key.Binding
	for _, b := range ks {
		if b.Enabled() {
			out = append(out, b)
		}
	}
	// Measure without the help model's own clipping (Width 0 is unlimited).
	h.Width = 0
	for len(out) > 1 && cells.Width(h.ShortHelpView(out)) > w {
		drop, low := -1, 1<<30
		for i, b := range out {
			if r, ok := rank[b.Help().Desc]; ok && r < low {
				drop, low = i, r
			}
		}
		if drop < 0 {
			break
		}
		out = append(out[:drop], out[drop+1:]...)
	}
	return out
}

package theme_test

import (
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/eoslab/eoslab/views/theme"
)

// BenchmarkRender styles one short word, as the panels do a few hundred
// times a frame: "codes" is Theme.Render, which wraps the text in the
// style's escape codes recorded once by New; "lipgloss" renders it with the
// same style through lipgloss every time. The recorded codes stay as long
// as "codes" costs less (TestRenderMatchesLipgloss holds them to
// drawing the same).
func BenchmarkRender(b *testing.B) {
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.TrueColor)
	th := theme.New(theme.Options{Renderer: r})
	st := th.Style(theme.Committed)
	for _, c := range []struct {
		name   string
		render func(string) string
	}{
		{"codes", func(s string) string { return th.Render(theme.Committed, s) }},
		{"lipgloss", func(s string) string { return st.Render(s) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				_ = c.render("committed")
			}
		})
	}
}

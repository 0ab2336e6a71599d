package theme

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// Every state has a glyph and a word, so colour is never the only signal.
func TestEveryStateHasGlyphAndWord(t *testing.T) {
	for _, o := range []Options{{}, {ASCII: true}, {NoColor: true}} {
		th := New(o)
		for k := Plain; k < numKinds; k++ {
			if th.Word(k) == "" {
				t.Errorf("%+v: %v has no word", o, k)
			}
			if k != Muted && k != Accent && th.Glyph(k) == "" {
				t.Errorf("%+v: %v has no glyph", o, k)
			}
		}
	}
}

// ASCII mode uses no character outside ASCII, in glyphs, symbols or borders.
func TestASCIIHasOnlyASCII(t *testing.T) {
	th := New(Options{ASCII: true})
	var all []string
	for k := Plain; k < numKinds; k++ {
		all = append(all, th.Glyph(k), th.Tag(k))
	}
	s := th.Sym
	all = append(all, s.Lifeline, s.Line, s.Dashed, s.Right, s.Left, s.Self, s.FlightRight, s.FlightLeft, s.Copy, s.Path, s.BarFull, s.BarEmpty, s.Ellipsis,
		s.Sep, s.Play, s.Pause, s.Cursor, s.Bullet, s.Boundary, s.ScrollUp, s.ScrollDown, s.Question, s.Note)
	for _, b := range []Box{th.Border, th.Focused} {
		all = append(all, b.TopLeft, b.TopRight, b.BottomLeft, b.BottomRight, b.Horizontal, b.Vertical)
	}
	for _, x := range all {
		if !isASCII(x) {
			t.Errorf("non-ASCII %q in ASCII mode", x)
		}
	}
}

// Unicode glyphs are one cell wide, so columns line up in every terminal.
func TestGlyphsAreOneCell(t *testing.T) {
	th := New(Options{})
	for k := Plain; k < numKinds; k++ {
		if g := th.Glyph(k); g != "" && ansi.StringWidth(g) != 1 {
			t.Errorf("%v glyph %q is %d cells", k, g, ansi.StringWidth(g))
		}
	}
}

// The Timeline draws its lifelines and arrows one cell at a time, so each
// of their symbols is one cell wide in both modes.
func TestTimelineSymbolsAreOneCell(t *testing.T) {
	for _, o := range []Options{{}, {ASCII: true}} {
		th := New(o)
		s := th.Sym
		for _, g := range []string{s.Lifeline, s.Line, s.Dashed, s.Right, s.Left, s.Self, s.FlightRight, s.FlightLeft, s.Copy, s.Path, th.Glyph(Dropped)} {
			if ansi.StringWidth(g) != 1 {
				t.Errorf("%+v: timeline symbol %q is %d cells", o, g, ansi.StringWidth(g))
			}
		}
	}
}

// The cached escape codes render exactly what lipgloss renders.
func TestRenderMatchesLipgloss(t *testing.T) {
	defer lipgloss.SetColorProfile(lipgloss.ColorProfile())
	for _, p := range []termenv.Profile{termenv.Ascii, termenv.ANSI256, termenv.TrueColor} {
		lipgloss.SetColorProfile(p)
		for _, o := range []Options{{}, {NoColor: true}} {
			th := New(o)
			for k := Plain; k < numKinds; k++ {
				if got, want := th.Render(k, "a b"), th.Style(k).Render("a b"); got != want {
					t.Errorf("profile %v %+v %v: %q, want %q", p, o, k, got, want)
				}
				if got, want := th.RenderBold(k, "x"), th.Style(k).Bold(true).Render("x"); got != want {
					t.Errorf("profile %v %+v %v bold: %q, want %q", p, o, k, got, want)
				}
			}
			if o.NoColor && strings.Contains(th.Render(Committed, "x"), "38;") {
				t.Errorf("NoColor still colours")
			}
		}
	}
}

// Text draws one line exactly as the lipgloss style it stands for, in
// every colour profile: it only saves working the escape codes out again.
func TestTextMatchesStyles(t *testing.T) {
	defer lipgloss.SetColorProfile(lipgloss.ColorProfile())
	for _, p := range []termenv.Profile{termenv.Ascii, termenv.ANSI256, termenv.TrueColor} {
		lipgloss.SetColorProfile(p)
		th := New(Options{})
		for st := TextTitle; st < numTextStyles; st++ {
			for _, s := range []string{"Producers", "step 3/10", " eoslab ", "████░░", "a\nb", ""} {
				got, want := th.Text(st, s), th.textStyle(st).Render(s)
				if ansi.Strip(got) != ansi.Strip(want) {
					t.Errorf("profile %v, style %d, %q: text %q, style %q", p, st, s, ansi.Strip(got), ansi.Strip(want))
				}
				if p == termenv.TrueColor && s != "" && !strings.Contains(got, "\x1b[") {
					t.Errorf("style %d, %q: no escape codes in %q", st, s, got)
				}
				if p == termenv.Ascii && got != want {
					t.Errorf("style %d, %q: %q, want %q", st, s, got, want)
				}
			}
		}
		if th.Text(numTextStyles, "x") != "x" || th.Text(-1, "x") != "x" {
			t.Error("an unknown style changed the text")
		}
	}
}

// Two themes on two renderers draw for their own terminals at once: one
// session's profile never leaks into another's, nor into the default
// renderer's.
func TestRendererPerTheme(t *testing.T) {
	var b256, b16, bdumb strings.Builder
	r256 := lipgloss.NewRenderer(&b256, termenv.WithProfile(termenv.ANSI256))
	r16 := lipgloss.NewRenderer(&b16, termenv.WithProfile(termenv.ANSI))
	dumb := lipgloss.NewRenderer(&bdumb, termenv.WithProfile(termenv.Ascii))
	r256.SetColorProfile(termenv.ANSI256)
	r16.SetColorProfile(termenv.ANSI)
	dumb.SetColorProfile(termenv.Ascii)
	r256.SetHasDarkBackground(true)
	r16.SetHasDarkBackground(true)
	t256 := New(Options{Renderer: r256})
	t16 := New(Options{Renderer: r16})
	tdumb := New(Options{Renderer: dumb})
	if got := t256.Render(Committed, "x"); !strings.Contains(got, "38;5;") {
		t.Errorf("256 colours: %q has no 256-colour code", got)
	}
	if got := t16.Render(Committed, "x"); strings.Contains(got, "38;5;") || !strings.Contains(got, "\x1b[") {
		t.Errorf("16 colours: %q", got)
	}
	if got := tdumb.Render(Committed, "x"); got != "x" {
		t.Errorf("no colour: %q", got)
	}
	if t256.Renderer() != r256 || New(Options{}).Renderer() != lipgloss.DefaultRenderer() {
		t.Error("Renderer is not the one given, or the default")
	}
	// Light and dark are a renderer's, not the process's.
	r256.SetHasDarkBackground(false)
	if New(Options{Renderer: r256}).Render(Committed, "x") == t256.Render(Committed, "x") {
		t.Error("a light background draws as a dark one")
	}
}

// TestColorsConvertedOnceDrawTheSame: the palette converted once for the
// renderer's profile and background draws the escape codes lipgloss draws
// from the adaptive colour itself, in every profile.
func TestColorsConvertedOnceDrawTheSame(t *testing.T) {
	palette := []lipgloss.AdaptiveColor{colCommitted, colAborted, colOpen, colFenced, colInFlight,
		colViolated, colOnAlarm, colChanged, colMuted, colAccent, {Light: "#000000", Dark: "#ffffff"}, {Light: "#800000", Dark: "#c0c0c0"}}
	for _, p := range []termenv.Profile{termenv.Ascii, termenv.ANSI, termenv.ANSI256, termenv.TrueColor} {
		for _, dark := range []bool{false, true} {
			r := lipgloss.NewRenderer(nil)
			r.SetColorProfile(p)
			r.SetHasDarkBackground(dark)
			th := New(Options{Renderer: r})
			for _, c := range palette {
				want := r.NewStyle().Foreground(c).Background(c).Render("x")
				if got := r.NewStyle().Foreground(th.color(c)).Background(th.color(c)).Render("x"); got != want {
					t.Errorf("profile %v dark %v %v: %q, lipgloss draws %q", p, dark, c, got, want)
				}
			}
		}
	}
}

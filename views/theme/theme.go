// Package theme builds every style and glyph of eoslab's terminal views from
// a few semantic colours: committed, aborted, open (pending), fenced, in
// flight, violated, changed and muted.
//
// Colour is never the only signal. Every state also has a glyph and a word
// ("✓ committed", "✗ aborted"), so a learner with colour blindness, a
// monochrome projector or NO_COLOR set reads the same facts. ASCII mode swaps
// every glyph and border for plain ASCII, for terminals and fonts that cannot
// draw box characters.
//
// This package imports only lipgloss and termenv (lipgloss's colour
// profiles); it must not import any eoslab package.
package theme

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// Kind is a semantic state that has a colour, a glyph and a word.
type Kind int

// The semantic kinds. Their order is the order of the tables in palette.go.
const (
	Plain Kind = iota
	Committed
	Aborted
	Open
	Fenced
	InFlight
	Violated
	Changed
	Muted
	Correct
	Wrong
	Dropped
	Crashed
	Paused
	// Delayed is a message the network held back; Duplicate is a second
	// copy of a message the network made. Both are drawn on the Timeline.
	Delayed
	Duplicate
	// Accent is not a state: it marks focus and keys.
	Accent
	numKinds
)

var kindNames = [numKinds]string{
	"plain", "committed", "aborted", "open", "fenced", "in flight",
	"violated", "changed", "muted", "correct", "wrong", "dropped",
	"crashed", "paused", "delayed", "duplicate", "accent",
}

func (k Kind) String() string {
	if k < 0 || k >= numKinds {
		return "unknown"
	}
	return kindNames[k]
}

// Options chooses how the theme draws.
type Options struct {
	// NoColor drops every colour but keeps bold, faint and reverse, as the
	// NO_COLOR convention (no-color.org) asks.
	NoColor bool
	// ASCII uses only ASCII characters: no box drawing, no Unicode glyphs.
	ASCII bool
	// Renderer decides the colour profile and the light or dark
	// background the styles are built for; nil is lipgloss's default
	// renderer, the local terminal's. Each session of eoslab serve passes
	// its own, so every client is drawn for its own terminal.
	Renderer *lipgloss.Renderer
}

// Box is the set of characters of one panel border.
type Box struct {
	TopLeft, TopRight, BottomLeft, BottomRight string
	Horizontal, Vertical                       string
}

// Symbols are the non-state glyphs the views draw with.
type Symbols struct {
	Lifeline string // a timeline actor's vertical line
	Line     string // a request arrow's shaft
	Dashed   string // a reply arrow's shaft
	Right    string // arrow head pointing right
	Left     string // arrow head pointing left
	Self     string // a message an actor sends to itself
	// FlightRight and FlightLeft head an arrow still in flight, drawn
	// half way: hollow, where a delivered arrow's head is filled.
	FlightRight string
	FlightLeft  string
	Copy        string // the shaft of a duplicate the network made
	// Path is the faint rest of the way of a message in flight or
	// dropped, from its head to its receiver. ASCII has no character for
	// it that is not already a shaft, and draws none.
	Path       string
	BarFull    string // progress bar, done part
	BarEmpty   string // progress bar, remaining part
	Ellipsis   string // clipped text
	Sep        string // separator between items on one line
	Play       string // autoplay running
	Pause      string // autoplay paused
	Cursor     string // selected list item
	Bullet     string // list bullet
	Boundary   string // the line that draws HW and LSO between log rows
	ScrollUp   string // more content above
	ScrollDown string // more content below
	Question   string // a checkpoint question
	Note       string // a "Kafka vs the article" note
}

// Theme holds the styles, glyphs and words for one set of Options.
type Theme struct {
	ASCII   bool
	NoColor bool
	r       *lipgloss.Renderer

	Sym     Symbols
	Border  Box // an unfocused panel
	Focused Box // the focused panel: heavier, so focus shows without colour

	// Text styles that are not states.
	Title      lipgloss.Style // panel titles
	FocusTitle lipgloss.Style // the focused panel's title
	AccentText lipgloss.Style // header, keys, focus border
	Bold       lipgloss.Style
	Faint      lipgloss.Style
	Header     lipgloss.Style // the app header line
	BarDone    lipgloss.Style
	BarLeft    lipgloss.Style

	styles [numKinds]lipgloss.Style
	paint  [numKinds][2]string // SGR prefix and suffix of each style
	strong [numKinds][2]string // the same, bold
	text   [numTextStyles][2]string
	glyphs [numKinds]string
	words  [numKinds]string
}

// TextStyle names one of the theme's text styles (Title, Bold, ...) for
// Text, the fast way to render one line in it.
type TextStyle int

// The text styles, as the Theme fields of the same names.
const (
	TextTitle TextStyle = iota
	TextFocusTitle
	TextAccent
	TextBold
	TextFaint
	TextHeader
	TextBarDone
	TextBarLeft
	numTextStyles
)

func (t *Theme) textStyle(st TextStyle) lipgloss.Style {
	switch st {
	case TextTitle:
		return t.Title
	case TextFocusTitle:
		return t.FocusTitle
	case TextAccent:
		return t.AccentText
	case TextBold:
		return t.Bold
	case TextFaint:
		return t.Faint
	case TextHeader:
		return t.Header
	case TextBarDone:
		return t.BarDone
	case TextBarLeft:
		return t.BarLeft
	}
	return t.r.NewStyle()
}

// Text renders s in a text style. Like Render, a one-line s is wrapped in
// escape codes worked out once in New; the player draws titles, the
// progress bar and the header on every key.
func (t *Theme) Text(st TextStyle, s string) string {
	if st < 0 || st >= numTextStyles {
		return s
	}
	if s == "" || strings.ContainsAny(s, "\n\t") {
		return t.textStyle(st).Render(s)
	}
	return t.text[st][0] + s + t.text[st][1]
}

// New builds a theme.
func New(o Options) *Theme {
	t := &Theme{ASCII: o.ASCII, NoColor: o.NoColor, r: o.Renderer}
	if t.r == nil {
		t.r = lipgloss.DefaultRenderer()
	}
	t.glyphs, t.Sym, t.Border, t.Focused = unicodeGlyphs()
	if o.ASCII {
		t.glyphs, t.Sym, t.Border, t.Focused = asciiGlyphs()
	}
	t.words = kindNames
	t.words[Open] = "open"
	t.words[Changed] = "changed"
	t.words[Correct] = "correct"
	t.words[Wrong] = "not quite"
	t.buildStyles()
	t.cacheCodes()
	return t
}

// Renderer is the renderer the styles are built with.
func (t *Theme) Renderer() *lipgloss.Renderer { return t.r }

// Style is the style of a semantic kind.
func (t *Theme) Style(k Kind) lipgloss.Style {
	if k < 0 || k >= numKinds {
		return t.r.NewStyle()
	}
	return t.styles[k]
}

// Glyph is the kind's glyph, never empty for a state kind.
func (t *Theme) Glyph(k Kind) string {
	if k < 0 || k >= numKinds {
		return ""
	}
	return t.glyphs[k]
}

// Word is the kind's word, such as "committed".
func (t *Theme) Word(k Kind) string {
	if k < 0 || k >= numKinds {
		return ""
	}
	return t.words[k]
}

// Tag renders the kind's glyph and word in its style: "✓ committed".
func (t *Theme) Tag(k Kind) string { return t.Mark(k, t.Word(k)) }

// Mark renders the kind's glyph followed by s, in the kind's style.
func (t *Theme) Mark(k Kind, s string) string {
	g := t.Glyph(k)
	if g == "" {
		return t.Render(k, s)
	}
	if s == "" {
		return t.Render(k, g)
	}
	return t.Render(k, g+" "+s)
}

// Render renders s in the kind's style without a glyph. Use it only where a
// glyph or word next to s already carries the meaning.
//
// A one-line s is wrapped in the style's escape codes, worked out once in
// New: lipgloss's Render costs microseconds a call, and a screen makes
// thousands.
func (t *Theme) Render(k Kind, s string) string {
	if k < 0 || k >= numKinds {
		return s
	}
	if s == "" || strings.ContainsAny(s, "\n\t") {
		return t.styles[k].Render(s)
	}
	return t.paint[k][0] + s + t.paint[k][1]
}

// cacheCodes records each style's escape codes by rendering a marker. It
// uses the renderer's colour profile and background as they are when New
// runs, which is before the program starts, as the terminal must be asked
// then anyway; a theme for the other background is a new theme.
func (t *Theme) cacheCodes() {
	const marker = "X"
	codes := func(st lipgloss.Style) [2]string {
		r := st.Render(marker)
		if i := strings.Index(r, marker); i >= 0 {
			return [2]string{r[:i], r[i+len(marker):]}
		}
		return [2]string{}
	}
	for k := range t.styles {
		t.paint[k] = codes(t.styles[k])
		t.strong[k] = codes(t.styles[k].Bold(true))
	}
	for st := range numTextStyles {
		t.text[st] = codes(t.textStyle(st))
	}
}

// RenderBold is Render in the bold version of the kind's style.
func (t *Theme) RenderBold(k Kind, s string) string {
	if k < 0 || k >= numKinds {
		return s
	}
	if s == "" || strings.ContainsAny(s, "\n\t") {
		return t.styles[k].Bold(true).Render(s)
	}
	return t.strong[k][0] + s + t.strong[k][1]
}

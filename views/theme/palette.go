package theme

import (
	"strconv"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// The palette: one light and one dark value per semantic colour. The values
// are GitHub's Primer colours, chosen because they keep their contrast on
// both backgrounds and on washed-out classroom projectors.
var (
	colCommitted = lipgloss.AdaptiveColor{Light: "#1a7f37", Dark: "#3fb950"}
	colAborted   = lipgloss.AdaptiveColor{Light: "#cf222e", Dark: "#ff7b72"}
	colOpen      = lipgloss.AdaptiveColor{Light: "#9a6700", Dark: "#e3b341"}
	colFenced    = lipgloss.AdaptiveColor{Light: "#8250df", Dark: "#d2a8ff"}
	colInFlight  = lipgloss.AdaptiveColor{Light: "#0969da", Dark: "#79c0ff"}
	colViolated  = lipgloss.AdaptiveColor{Light: "#a40e26", Dark: "#da3633"}
	colOnAlarm   = lipgloss.AdaptiveColor{Light: "#ffffff", Dark: "#ffffff"}
	colChanged   = lipgloss.AdaptiveColor{Light: "#bc4c00", Dark: "#ffa657"}
	colMuted     = lipgloss.AdaptiveColor{Light: "#6e7781", Dark: "#8b949e"}
	colAccent    = lipgloss.AdaptiveColor{Light: "#1b7c83", Dark: "#39c5cf"}
)

func (t *Theme) fg(c lipgloss.AdaptiveColor) lipgloss.Style {
	s := t.r.NewStyle()
	if t.NoColor {
		return s
	}
	return s.Foreground(t.color(c))
}

// color is c for the renderer's background, converted once to the colour
// its profile draws. lipgloss converts a colour on every Render, and in a
// 256- or 16-colour terminal that is a nearest-colour search in HSLuv
// (termenv's hexToANSI256Color): a screen's worth of styled cells paid it
// thousands of times, and the first frame paid it for every style. The
// palette number it finds is the colour lipgloss would draw, so the
// escape codes are the same; truecolor keeps the hex value. Like
// cacheCodes, it takes the background and profile as New finds them.
func (t *Theme) color(c lipgloss.AdaptiveColor) lipgloss.TerminalColor {
	hex := c.Light
	if t.r.HasDarkBackground() {
		hex = c.Dark
	}
	switch v := t.r.ColorProfile().Color(hex).(type) {
	case termenv.ANSIColor:
		return lipgloss.Color(strconv.Itoa(int(v)))
	case termenv.ANSI256Color:
		if v >= 16 { // a number below 16 would be read as an ANSI colour
			return lipgloss.Color(strconv.Itoa(int(v)))
		}
	}
	return lipgloss.Color(hex)
}

func (t *Theme) buildStyles() {
	plain := t.r.NewStyle()
	t.styles[Plain] = plain
	t.styles[Committed] = t.fg(colCommitted)
	t.styles[Aborted] = t.fg(colAborted)
	t.styles[Open] = t.fg(colOpen)
	t.styles[Fenced] = t.fg(colFenced).Bold(true)
	t.styles[InFlight] = t.fg(colInFlight)
	if t.NoColor {
		t.styles[Violated] = plain.Bold(true).Reverse(true)
	} else {
		t.styles[Violated] = plain.Bold(true).Foreground(t.color(colOnAlarm)).Background(t.color(colViolated))
	}
	t.styles[Changed] = t.fg(colChanged).Bold(true)
	t.styles[Muted] = t.fg(colMuted)
	if t.NoColor {
		t.styles[Muted] = plain.Faint(true)
	}
	t.styles[Correct] = t.fg(colCommitted).Bold(true)
	t.styles[Wrong] = t.fg(colAborted).Bold(true)
	t.styles[Dropped] = t.fg(colAborted).Bold(true)
	t.styles[Crashed] = t.fg(colAborted).Bold(true)
	t.styles[Paused] = t.fg(colOpen).Bold(true)
	t.styles[Delayed] = t.fg(colOpen)
	t.styles[Duplicate] = t.fg(colChanged)

	t.AccentText = t.fg(colAccent).Bold(true)
	t.styles[Accent] = t.AccentText
	t.Title = plain.Bold(true)
	t.FocusTitle = t.fg(colAccent).Bold(true).Underline(true)
	t.Bold = plain.Bold(true)
	t.Faint = t.styles[Muted]
	t.Header = t.fg(colAccent).Bold(true)
	t.BarDone = t.fg(colAccent)
	t.BarLeft = t.styles[Muted]
}

func unicodeGlyphs() ([numKinds]string, Symbols, Box, Box) {
	var g [numKinds]string
	g[Plain] = "·"
	g[Committed] = "✓"
	g[Aborted] = "✗"
	g[Open] = "…"
	// Glyphs are all one cell wide in every common terminal: no emoji
	// (⚡, ⚠ and ⏸ render two cells wide in many fonts and break columns).
	g[Fenced] = "⊘"
	g[InFlight] = "→"
	g[Violated] = "!"
	g[Changed] = "▸"
	g[Muted] = ""
	g[Correct] = "✓"
	g[Wrong] = "✗"
	g[Dropped] = "╳"
	g[Crashed] = "✗"
	g[Paused] = "‖"
	g[Delayed] = "⇥"
	g[Duplicate] = "⇉"
	sym := Symbols{
		Lifeline: "│", Line: "─", Dashed: "┄", Right: "►", Left: "◄", Self: "↺",
		FlightRight: "▷", FlightLeft: "◁", Copy: "═", Path: "·",
		BarFull: "█", BarEmpty: "░", Ellipsis: "…", Sep: " · ",
		Play: "▶", Pause: "‖", Cursor: "▶", Bullet: "•", Boundary: "┄",
		ScrollUp: "↑", ScrollDown: "↓", Question: "?", Note: "※",
	}
	border := Box{"╭", "╮", "╰", "╯", "─", "│"}
	focused := Box{"┏", "┓", "┗", "┛", "━", "┃"}
	return g, sym, border, focused
}

func asciiGlyphs() ([numKinds]string, Symbols, Box, Box) {
	var g [numKinds]string
	g[Plain] = "."
	g[Committed] = "[ok]"
	g[Aborted] = "[x]"
	g[Open] = "[..]"
	g[Fenced] = "[F]"
	g[InFlight] = "->"
	g[Violated] = "[!]"
	g[Changed] = "*"
	g[Muted] = ""
	g[Correct] = "[ok]"
	g[Wrong] = "[x]"
	g[Dropped] = "X"
	g[Crashed] = "[x]"
	g[Paused] = "||"
	g[Delayed] = ">|"
	g[Duplicate] = "x2"
	sym := Symbols{
		Lifeline: "|", Line: "-", Dashed: ".", Right: ">", Left: "<", Self: "@",
		FlightRight: ">", FlightLeft: "<", Copy: "=", Path: " ",
		BarFull: "#", BarEmpty: ".", Ellipsis: "...", Sep: " | ",
		Play: ">", Pause: "||", Cursor: ">", Bullet: "*", Boundary: "-",
		ScrollUp: "^", ScrollDown: "v", Question: "?", Note: "(i)",
	}
	border := Box{"+", "+", "+", "+", "-", "|"}
	focused := Box{"#", "#", "#", "#", "=", "|"}
	return g, sym, border, focused
}

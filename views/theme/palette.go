package theme

import "github.com/charmbracelet/lipgloss"

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
	return s.Foreground(c)
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
		t.styles[Violated] = plain.Bold(true).Foreground(colOnAlarm).Background(colViolated)
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

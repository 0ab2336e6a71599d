// Package export turns what eoslab shows into files for slides and notes:
// a screen (the ANSI text a view draws) as SVG, a lesson or a scenario as
// Markdown with a Mermaid sequence diagram and tables, and as one HTML page
// with a step slider. It reads views' frames and drawn screens and writes
// bytes; it does no I/O and imports no engine or lessons package. Every
// output is a function of its input: no clock, no map order.
package export

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/cellbuf"
)

// The cell size of a screen in SVG user units, and the colours of a cell
// without a colour of its own: the dark background eoslab is drawn on.
const (
	cellW    = 8.4
	cellH    = 18.0
	fontSize = 14.0
	pad      = 12.0
	defaultF = "#d4d4d4"
	defaultB = "#1c1c1c"
)

// SVG draws a screen, the string a view returns (rows of text with SGR
// colours and box drawing), as an SVG picture of a w x h terminal. The
// ANSI is read into cells by charmbracelet/x/cellbuf (the cell buffer of
// Bubble Tea's renderer), so what is drawn is what a terminal shows; each
// run of cells of one style is one text element pinned to its columns
// (textLength), so box drawing lines up whatever monospace font draws it.
func SVG(screen string, w, h int) string {
	buf := cellbuf.NewBuffer(w, h)
	cellbuf.SetContent(buf, screen)
	var b strings.Builder
	W, H := float64(w)*cellW+2*pad, float64(h)*cellH+2*pad
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace" font-size="%s">`+"\n",
		num(W), num(H), num(W), num(H), num(fontSize))
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" rx="6" fill="%s"/>`+"\n", defaultB)
	for y := range h {
		drawRow(&b, buf, y, w)
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// run is cells of one style on a row.
type run struct {
	x, width int
	style    cellbuf.Style
	text     strings.Builder
}

func drawRow(b *strings.Builder, buf *cellbuf.Buffer, y, w int) {
	var runs []*run
	for x := 0; x < w; {
		c := buf.Cell(x, y)
		if c == nil {
			x++
			continue
		}
		width := max(c.Width, 1)
		var last *run
		if len(runs) > 0 {
			last = runs[len(runs)-1]
		}
		if last == nil || !last.style.Equal(&c.Style) || last.x+last.width != x {
			last = &run{x: x, style: c.Style}
			runs = append(runs, last)
		}
		if c.Rune == 0 {
			last.text.WriteByte(' ')
		} else {
			last.text.WriteRune(c.Rune)
			for _, r := range c.Comb {
				last.text.WriteRune(r)
			}
		}
		last.width += width
		x += width
	}
	top := pad + float64(y)*cellH
	for _, r := range runs {
		fg, bg := colour(r.style.Fg, defaultF), colour(r.style.Bg, "")
		if r.style.Attrs&cellbuf.ReverseAttr != 0 {
			fg, bg = colour(r.style.Bg, defaultB), colour(r.style.Fg, defaultF)
		}
		x := pad + float64(r.x)*cellW
		if bg != "" {
			fmt.Fprintf(b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`+"\n", num(x), num(top), num(float64(r.width)*cellW), num(cellH), bg)
		}
		text := r.text.String()
		if strings.TrimSpace(text) == "" {
			continue
		}
		fmt.Fprintf(b, `<text x="%s" y="%s" textLength="%s" lengthAdjust="spacingAndGlyphs" xml:space="preserve" fill="%s"%s>%s</text>`+"\n",
			num(x), num(top+cellH*0.75), num(float64(r.width)*cellW), fg, attrs(r.style), escapeXML(text))
	}
}

// attrs are the SVG attributes of bold, faint, italic and underline.
func attrs(s cellbuf.Style) string {
	var a string
	if s.Attrs&cellbuf.BoldAttr != 0 {
		a += ` font-weight="bold"`
	}
	if s.Attrs&cellbuf.FaintAttr != 0 {
		a += ` opacity="0.6"`
	}
	if s.Attrs&cellbuf.ItalicAttr != 0 {
		a += ` font-style="italic"`
	}
	if s.UlStyle != 0 {
		a += ` text-decoration="underline"`
	}
	return a
}

// colour is c as #rrggbb, or def when c is nil.
func colour(c color.Color, def string) string {
	if c == nil {
		return def
	}
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}

// num writes a coordinate with at most two decimals and no trailing zeros.
func num(f float64) string {
	return strconv.FormatFloat(math.Round(f*100)/100, 'f', -1, 64)
}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

func escapeXML(s string) string { return xmlEscaper.Replace(s) }

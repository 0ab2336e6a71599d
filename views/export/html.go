package export

import (
	"fmt"
	"html"
	"strings"
)

// HTML is the doc as one self-contained page: every step's screen (as
// SVG, w x h cells) and narration, one at a time, with a slider and the
// arrow keys to move. The script is inline and small; nothing is loaded
// from elsewhere. Without scripts the page shows every step in turn.
func HTML(d Doc, w, h int) string {
	var b strings.Builder
	title := html.EscapeString(oneLine(d.Title))
	fmt.Fprintf(&b, `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%s</title>
<style>
body { background: #111; color: #ddd; font: 16px/1.5 system-ui, sans-serif; margin: 2em auto; max-width: %dpx; padding: 0 1em; }
h1 { font-size: 1.5em; margin: 0 0 .2em; }
.controls { display: flex; gap: 1em; align-items: center; margin: 1em 0; position: sticky; top: 0; background: #111; padding: .5em 0; }
.controls input { flex: 1; }
.step svg { width: 100%%; height: auto; }
.narration { white-space: pre-wrap; }
.js .step { display: none; }
.js .step.current { display: block; }
.answer { color: #9c9; }
</style>
</head>
<body>
<h1>%s</h1>
<p>%s</p>
<p><small>%s · <code>%s</code></small></p>
<div class="controls"><input type="range" id="slider" min="1" max="%d" value="1" aria-label="step"><output id="where">step 1 of %d</output></div>
`, title, int(float64(w)*cellW+2*pad)+32, title, html.EscapeString(d.Summary), html.EscapeString(kafkaName(d)),
		html.EscapeString(d.Command), max(len(d.Steps), 1), len(d.Steps))
	for i, s := range d.Steps {
		f := s.Frame
		heading := fmt.Sprintf("Step %d", i+1)
		if t := oneLine(f.Title); t != "" {
			heading += ": " + t
		}
		fmt.Fprintf(&b, "<section class=\"step\" id=\"step-%d\">\n<h2>%s</h2>\n", i+1, html.EscapeString(heading))
		b.WriteString(SVG(s.Screen, w, h))
		if t := strings.TrimSpace(f.Narration); t != "" {
			fmt.Fprintf(&b, "<p class=\"narration\">%s</p>\n", html.EscapeString(t))
		}
		if cp := f.Checkpoint; cp != nil && cp.Correct > 0 && cp.Correct <= len(cp.Choices) {
			fmt.Fprintf(&b, "<details class=\"answer\"><summary>Answer</summary><p>%d. %s</p><p>%s</p></details>\n",
				cp.Correct, html.EscapeString(oneLine(cp.Choices[cp.Correct-1])), html.EscapeString(oneLine(cp.Explanation)))
		}
		b.WriteString("</section>\n")
	}
	b.WriteString(`<script>
(function () {
  var slider = document.getElementById("slider"), where = document.getElementById("where");
  var steps = document.querySelectorAll(".step");
  document.body.className = "js";
  function show() {
    var k = Number(slider.value);
    steps.forEach(function (s, i) { s.className = i + 1 === k ? "step current" : "step"; });
    where.textContent = "step " + k + " of " + steps.length;
  }
  slider.addEventListener("input", show);
  document.addEventListener("keydown", function (e) {
    if (e.target === slider) return;
    if (e.key === "ArrowRight") { slider.value = Number(slider.value) + 1; show(); }
    if (e.key === "ArrowLeft") { slider.value = Number(slider.value) - 1; show(); }
  });
  show();
})();
</script>
</body>
</html>
`)
	return b.String()
}

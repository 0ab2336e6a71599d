package script

import (
	"os"
	"strings"
	"testing"
)

// The user doc, assets/scenario-language.md, is executable: its fenced blocks
// are checked here, so the examples cannot drift from the parser.
//
//	```scenario            lines of the page's running example; all such
//	                       blocks together form one scenario, checked with the
//	                       page's own line numbers
//	```scenario NAME       a scenario file of its own
//	```scenario-with-errors NAME
//	                       a broken file; the next ```errors block is exactly
//	                       what parsing it reports
const docPath = "../../assets/scenario-language.md"

type docBlock struct {
	lang, name string
	start      int      // line number of the first line inside the fence
	lines      []string // the lines inside the fence
}

func docBlocks(t *testing.T) ([]docBlock, int) {
	t.Helper()
	src, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	var blocks []docBlock
	var cur *docBlock
	for i, l := range lines {
		switch {
		case cur == nil && strings.HasPrefix(l, "```"):
			f := strings.Fields(strings.TrimPrefix(l, "```"))
			b := docBlock{start: i + 2}
			if len(f) > 0 {
				b.lang = f[0]
			}
			if len(f) > 1 {
				b.name = f[1]
			}
			blocks = append(blocks, b)
			cur = &blocks[len(blocks)-1]
		case cur != nil && strings.TrimSpace(l) == "```":
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, l)
		}
	}
	if cur != nil {
		t.Fatalf("%s: unclosed code block at line %d", docPath, cur.start-1)
	}
	return blocks, len(lines)
}

func TestDocExamples(t *testing.T) {
	blocks, n := docBlocks(t)
	// The running example keeps the page's line numbers: every other line
	// of the page becomes blank.
	page := make([]string, n)
	var cmds []Command
	for i, b := range blocks {
		switch b.lang {
		case "scenario":
			if b.name == "" {
				copy(page[b.start-1:], b.lines)
				continue
			}
			c, err := Parse(b.name, []byte(strings.Join(b.lines, "\n")))
			if err != nil {
				t.Errorf("example %s (line %d of the doc):\n%v", b.name, b.start, err)
			}
			cmds = append(cmds, c...)
		case "scenario-with-errors":
			_, err := Parse(b.name, []byte(strings.Join(b.lines, "\n")))
			if i+1 >= len(blocks) || blocks[i+1].lang != "errors" {
				t.Fatalf("line %d: a scenario-with-errors block must be followed by an errors block", b.start)
			}
			want := strings.TrimSpace(strings.Join(blocks[i+1].lines, "\n"))
			if err == nil || err.Error() != want {
				t.Errorf("broken example %s:\n got %v\nwant %s", b.name, err, want)
			}
		}
	}
	c, err := Parse("scenario-language.md", []byte(strings.Join(page, "\n")))
	if err != nil {
		t.Fatalf("the doc's running example:\n%v", err)
	}
	cmds = append(cmds, c...)
	checkEveryForm(t, cmds)
}

// checkEveryForm fails unless the examples use every verb, every call and
// every form of expect and inject.
func checkEveryForm(t *testing.T, cmds []Command) {
	t.Helper()
	used := map[*form]bool{}
	for _, c := range cmds {
		used[c.form] = true
	}
	for _, forms := range verbForms {
		for _, f := range forms {
			if !used[f] {
				t.Errorf("the doc has no example of %q", f.usage)
			}
		}
	}
	for _, f := range callList {
		if !used[f] {
			t.Errorf("the doc has no example of %q", f.usage)
		}
	}
}

// TestDocStoriesRun plays the doc's named examples (the stories) on the
// engine: what the page tells a learner must be what the simulation does.
func TestDocStoriesRun(t *testing.T) {
	blocks, _ := docBlocks(t)
	for _, b := range blocks {
		if b.lang != "scenario" || b.name == "" {
			continue
		}
		_, failures, err := Transcript(b.name, []byte(strings.Join(b.lines, "\n")))
		if err != nil {
			t.Errorf("%s: %v", b.name, err)
		}
		for _, f := range failures {
			t.Errorf("%s", f.Error())
		}
	}
}

package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

var (
	faultsScn = filepath.Join("testdata", "export", "faults.scn")
	twoSteps  = filepath.Join("testdata", "export", "two-steps.lesson")
)

// exportCases are the goldens of eoslab export, one or more per format.
// Regenerate with: go test ./views/cli -run TestExportGoldens -update
var exportCases = []struct {
	name string
	args []string
}{
	{"lesson.md", []string{"export", "--lesson", "lost-ack"}},
	{"lesson-kafka4.md", []string{"export", "--lesson", "zombie", "--kafka", "4"}},
	{"scenario.md", []string{"export", faultsScn}},
	{"step.svg", []string{"export", "--lesson", "lost-ack", "--format", "svg", "--step", "3"}},
	{"scenario.svg", []string{"export", faultsScn, "--format=svg", "--width", "80", "--height", "24"}},
	{"lesson.html", []string{"export", twoSteps, "--format", "html", "--width", "80", "--height", "24"}},
}

// The export of each format is the same, byte for byte, as its golden,
// and the same on a second run.
func TestExportGoldens(t *testing.T) {
	for _, c := range exportCases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := runCLI(t, c.args...)
			if code != 0 || errs != "" {
				t.Fatalf("%v: code %d: %s", c.args, code, errs)
			}
			if _, again, _ := runCLI(t, c.args...); again != out {
				t.Fatal("a second export differs")
			}
			golden.RequireEqual(t, []byte(out))
		})
	}
}

// What the formats must hold, beyond being the same as last time.
func TestExportContent(t *testing.T) {
	_, md, _ := runCLI(t, "export", faultsScn)
	for _, want := range []string{"```mermaid\nsequenceDiagram\n", "-x", "(dropped)", "duplicate: Produce", "| offsets | batch |"} {
		if !strings.Contains(md, want) {
			t.Errorf("scenario markdown has no %q", want)
		}
	}
	_, md, _ = runCLI(t, "export", "--lesson", "lost-ack")
	for _, want := range []string{"## Step 3: The log holds hello twice", "**Broken: duplicate-record.**", "> **Question.**", "> **Answer: "} {
		if !strings.Contains(md, want) {
			t.Errorf("lesson markdown has no %q", want)
		}
	}
	_, svg, _ := runCLI(t, "export", "--lesson", "lost-ack", "--format", "svg", "--step", "3")
	for _, want := range []string{"<svg xmlns=", "╭", `fill="#`, "duplicate"} {
		if !strings.Contains(svg, want) {
			t.Errorf("svg has no %q", want)
		}
	}
	_, page, _ := runCLI(t, "export", twoSteps, "--format", "html")
	if strings.Count(page, "<svg ") != 2 || !strings.Contains(page, `type="range"`) {
		t.Errorf("html: %d screens, slider %v", strings.Count(page, "<svg "), strings.Contains(page, `type="range"`))
	}
	for _, outside := range []string{"src=", "href=\"http", "@import", "url("} {
		if strings.Contains(page, outside) {
			t.Errorf("the html page loads something from outside: %q", outside)
		}
	}
	// -o writes the file.
	p := filepath.Join(t.TempDir(), "x.md")
	if code, out, _ := runCLI(t, "export", twoSteps, "-o", p); code != 0 || out != "" {
		t.Fatalf("-o: code %d, stdout %q", code, out)
	}
	if b, err := os.ReadFile(p); err != nil || !strings.HasPrefix(string(b), "# A lesson for the export goldens") {
		t.Fatalf("-o wrote %q (%v)", b, err)
	}
}

func TestExportInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"export"}, "needs one lesson or scenario file"},
		{[]string{"export", "--format", "pdf", twoSteps}, "--format takes markdown, svg or html"},
		{[]string{"export", "--lesson", "no-such"}, "no-such"},
		{[]string{"export", "--lesson", "zombie", twoSteps}, "--lesson takes no file"},
		{[]string{"export", faultsScn, "--kafka", "4"}, "--kafka is for lessons"},
		{[]string{"export", twoSteps, "--format", "svg", "--step", "3"}, "--step takes a step from 1 to 2"},
		{[]string{"export", "missing.scn"}, "missing.scn: cannot read"},
		{[]string{"export", twoSteps, "--width", "10"}, "--width takes a whole number from 60 to 400"},
	} {
		code, out, errs := runCLI(t, c.args...)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: code %d out %q err %q; want exit 2 and %q", c.args, code, out, errs, c.want)
		}
	}
}

// TestMermaidParses checks the Mermaid blocks of the Markdown goldens
// with the mermaid package from npm (mermaid.parse, in node). It needs
// node and a directory holding node_modules/mermaid, named by
// EOSLAB_MERMAID_DIR; .ci/run installs the package into a temporary
// directory and sets it. Without them the test skips.
func TestMermaidParses(t *testing.T) {
	dir := os.Getenv("EOSLAB_MERMAID_DIR")
	node, err := exec.LookPath("node")
	if dir == "" || err != nil {
		t.Skip("needs node and EOSLAB_MERMAID_DIR (a directory with node_modules/mermaid), as .ci/run sets up")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "mermaid")); err != nil {
		t.Skipf("no mermaid package in %s", dir)
	}
	check := filepath.Join(dir, "eoslab-check.mjs")
	if err := os.WriteFile(check, []byte(mermaidCheck), 0o644); err != nil {
		t.Fatal(err)
	}
	var blocks []string
	for _, c := range exportCases {
		if filepath.Ext(c.name) != ".md" {
			continue
		}
		b, err := os.ReadFile(filepath.Join("testdata", "TestExportGoldens", c.name+".golden"))
		if err != nil {
			t.Fatal(err)
		}
		for _, part := range strings.Split(string(b), "```mermaid\n")[1:] {
			blocks = append(blocks, part[:strings.Index(part, "```")])
		}
	}
	// A block with a mistake must be refused, or the check checks nothing.
	blocks = append(blocks, "sequenceDiagram\n  a0->>: no receiver\n")
	for i, blk := range blocks {
		cmd := exec.Command(node, check)
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader(blk)
		out, err := cmd.CombinedOutput()
		bad := i == len(blocks)-1
		switch {
		case bad && err == nil:
			t.Errorf("mermaid accepted a broken block: %s", out)
		case !bad && err != nil:
			t.Errorf("block %d does not parse: %v\n%s\n%s", i, err, out, blk)
		}
	}
}

const mermaidCheck = `import mermaid from 'mermaid';
let text = '';
for await (const chunk of process.stdin) text += chunk;
try {
  const r = await mermaid.parse(text);
  if (!r || r.diagramType !== 'sequence') { console.log('not a sequence diagram:', JSON.stringify(r)); process.exit(1); }
} catch (e) { console.log(String(e.message || e)); process.exit(1); }
`

package views

import (
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The views decide nothing from text: kinds, codes, states and flags reach
// them as fields of the frame (issue 6, "Frames carry data, not prose").
// TestNoDecisionsFromText holds every non-test Go file of the views, their
// adapter, theme and demo to that: it finds every text search (strings and
// bytes Contains*, HasPrefix, HasSuffix, Index*, Cut*, Trim{Prefix,Suffix},
// Split*, Fields*, EqualFold, Count), every use of regexp, and every
// comparison or switch case against a string literal, and fails on any that
// is not in the allowlist below with the reason it is text layout or the
// views' own words rather than a decision about what the engine said.
//
// views/internal holds test helpers (key names for tests), not views, and
// is not scanned, but for views/internal/cells, the views' text measuring; nor is views/cli, the command line: the OS's edge, whose
// input (arguments, flag values, file names) comes only as text.

// noTextAllowed maps "file: func: expression" to why it is not a decision
// from engine text. An entry names the exact expression, so that a new
// search in the same function still fails.
var noTextAllowed = map[string]string{
	`adapt/sandbox.go: SaveName: strings.TrimPrefix(n, "sandbox-")`: "a file name a save wrote, opened again: the prefix is not added twice",
	// Wrapping and measuring text for the terminal.
	`internal/cells/text.go: Wrap: strings.Split(s, "\n")`:                                               "wrapping: a paragraph per line break",
	`internal/cells/text.go: Wrap: strings.Fields(Clean(para))`:                                          "wrapping: a paragraph's words, its runs of spaces made one",
	`internal/cells/text.go: Wrap: strings.Contains(para, "-")`:                                          "wrapping: whether a paragraph has hyphens to hold together while ansi.Wrap breaks it",
	`internal/cells/text.go: Wrap: strings.Split(ansi.Wrap(para, w, ""), "\n")`:                          "wrapping: the lines ansi.Wrap made",
	`internal/cells/text.go: Clean: strings.ContainsAny(s, "\t\n\r")`:                                    "drawing on one line: whether there are tabs or line breaks to turn into spaces",
	`internal/cells/text.go: WordCount: strings.Fields(s)`:                                               "measuring: how many words a step gives to read, which paces autoplay",
	`internal/cells/text.go: SplitLines: strings.Split(s, "\n")`:                                         "layout: a content's lines",
	`internal/cells/text.go: ASCIIOnly: strings.ContainsFunc(c, func(r rune) bool { return r >= 0x80 })`: "ASCII mode: whether a grapheme can be drawn as it is",
	`panels/timeline.go: splitLabel: strings.Fields(cells.Clean(text))`:                                  "layout: the label's words as wrap lays them out, to take the rest after the first row",
	`adapt/timeline.go: codeIn: strings.Index(s, form)`:                                                  "layout: where a label writes the code engine.Message.Code names, so the Timeline keeps it whole",
	`panels/narration.go: CheckpointLines: strings.HasPrefix(l, lead)`:                                   "layout: whether wrapping kept the view's own prompt on the first line, to colour it",
	// The theme's own escape codes.
	`theme/theme.go: Render: strings.ContainsAny(s, "\n\t")`:     "ANSI: multi-line text goes through lipgloss, not the cached codes",
	`theme/theme.go: RenderBold: strings.ContainsAny(s, "\n\t")`: "ANSI: multi-line text goes through lipgloss, not the cached codes",
	`theme/theme.go: Text: strings.ContainsAny(s, "\n\t")`:       "ANSI: multi-line text goes through lipgloss, not the cached codes",
	`theme/theme.go: cacheCodes: strings.Index(r, marker)`:       "ANSI: cutting a style's escape codes around a marker the theme rendered",
	// eoslab export: layout of the files it writes.
	`export/markdown.go: oneLine: strings.Fields(s)`: "layout: a title, a choice or a label on one line of Markdown or Mermaid",
	// eoslab serve: the SSH protocol's and the client's words, not the engine's.
	`serve/server.go: New: "shell"`:                            "SSH: the one session request type served (RFC 4254), refusing exec and subsystem",
	`serve/server.go: asciiTerm: "dumb"`:                       "SSH: the client's TERM, which comes only as text",
	`serve/server.go: asciiTerm: strings.Contains(v, "utf-8")`: "SSH: the client's locale, which comes only as text",
	`serve/server.go: asciiTerm: strings.Contains(v, "utf8")`:  "SSH: the client's locale, which comes only as text",
	`serve/seat.go: View: strings.Split(body, "\n")`:           "layout: the player's rows, to put the class's lines under them",
	// eoslab inspect: layout of its panels.
	`inspect/inspect.go: wrap: strings.Split(ansi.Wrap(s, max(w, 10), ""), "\n")`: "wrapping: the lines ansi.Wrap made",
	// The views' own words, not the engine's.
	`demo/session.go: Open: "transactions"`:              "the demo's own lesson names",
	`demo/session.go: Open: "idempotence-off"`:           "the demo's own lesson names",
	`demo/session.go: Open: "consume-transform-produce"`: "the demo's own lesson names",
}

// textSearches are the functions of strings and bytes that look for text.
var textSearches = map[string]bool{
	"Contains": true, "ContainsAny": true, "ContainsRune": true, "ContainsFunc": true,
	"HasPrefix": true, "HasSuffix": true, "EqualFold": true, "Count": true,
	"Index": true, "IndexAny": true, "IndexByte": true, "IndexFunc": true, "IndexRune": true,
	"LastIndex": true, "LastIndexAny": true, "LastIndexByte": true, "LastIndexFunc": true,
	"Cut": true, "CutPrefix": true, "CutSuffix": true, "TrimPrefix": true, "TrimSuffix": true,
	"Split": true, "SplitN": true, "SplitAfter": true, "SplitAfterN": true, "Fields": true, "FieldsFunc": true,
}

// textUse is one search or literal comparison found in a file.
type textUse struct {
	key string // "file: func: expression"
	pos string // file:line, for the message
}

// findTextUses parses the Go source src (named name, relative to the views
// directory) and returns its text searches and string literal comparisons.
func findTextUses(t *testing.T, name string, src []byte) []textUse {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []textUse
	add := func(fn string, n ast.Node, what string) {
		p := fset.Position(n.Pos())
		out = append(out, textUse{key: name + ": " + fn + ": " + what, pos: name + ":" + strconv.Itoa(p.Line)})
	}
	source := func(n ast.Node) string {
		var b strings.Builder
		if err := printer.Fprint(&b, fset, n); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == "regexp" {
			add("import", imp, "regexp")
		}
	}
	literal := func(e ast.Expr) (string, bool) {
		l, ok := e.(*ast.BasicLit)
		if !ok || l.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(l.Value)
		return l.Value, err == nil && s != ""
	}
	inspect := func(fn string, root ast.Node) {
		ast.Inspect(root, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok {
					break
				}
				if pkg, ok := sel.X.(*ast.Ident); ok && (pkg.Name == "strings" || pkg.Name == "bytes") && textSearches[sel.Sel.Name] {
					add(fn, n, source(n))
				}
			case *ast.BinaryExpr:
				if n.Op != token.EQL && n.Op != token.NEQ {
					break
				}
				for _, side := range []ast.Expr{n.X, n.Y} {
					if l, ok := literal(side); ok {
						add(fn, n, l)
					}
				}
			case *ast.CaseClause:
				for _, e := range n.List {
					if l, ok := literal(e); ok {
						add(fn, e, l)
					}
				}
			}
			return true
		})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			inspect(d.Name.Name, d)
		case *ast.GenDecl:
			inspect("package scope", d)
		}
	}
	return out
}

func TestNoDecisionsFromText(t *testing.T) {
	var files []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "internal" && (filepath.Dir(path) == "internal" && path != "internal/cells" || d.Name() == "testdata" || path == "cli") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	if len(files) < 20 {
		t.Fatalf("only %d files found: %v", len(files), files)
	}
	var scanned []string
	used := map[string]bool{}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		scanned = append(scanned, filepath.Dir(name))
		for _, u := range findTextUses(t, filepath.ToSlash(name), src) {
			if _, ok := noTextAllowed[u.key]; ok {
				used[u.key] = true
				continue
			}
			t.Errorf("%s: %s decides from text; carry the meaning as a field of the frame instead (or, if it is text layout, add it to noTextAllowed with the reason)", u.pos, u.key)
		}
	}
	for _, dir := range []string{".", "adapt", "theme", "demo", "internal/cells"} {
		if !containsDir(scanned, dir) {
			t.Errorf("no file of %s was scanned", dir)
		}
	}
	for k := range noTextAllowed {
		if !used[k] {
			t.Errorf("allowlist entry %q matches nothing: remove it", k)
		}
	}
}

func containsDir(dirs []string, d string) bool {
	for _, x := range dirs {
		if x == d {
			return true
		}
	}
	return false
}

// TestNoTextCheckCatches: the check finds the ways the views used to read
// meaning from text before frames carried it as fields (issue 6), so a
// return of any of them fails TestNoDecisionsFromText.
func TestNoTextCheckCatches(t *testing.T) {
	old := []byte(`package views

import (
	"regexp"
	"strings"
)

var violation = regexp.MustCompile("(?i)violat")

func lastError(pr ProducerView) bool { return strings.Contains(pr.LastError, "FENCED") }

func stateKind(state string) int {
	switch s := strings.ToLower(state); {
	case strings.Contains(s, "fence"):
		return 1
	}
	return 0
}

func isolation(c ConsumerView) int {
	switch c.Isolation {
	case "read_committed":
		return 1
	}
	return 0
}

func dropped(text string) bool { return strings.HasPrefix(text, "drops ") }

func label(w string) string { return strings.TrimPrefix(w, "transactionalId=") }

func current(c CoordinatorView, s string) bool { return s == "PrepareEpochFence" }
`)
	want := []string{
		`old.go: import: regexp`,
		`old.go: lastError: strings.Contains(pr.LastError, "FENCED")`,
		`old.go: stateKind: strings.Contains(s, "fence")`,
		`old.go: isolation: "read_committed"`,
		`old.go: dropped: strings.HasPrefix(text, "drops ")`,
		`old.go: label: strings.TrimPrefix(w, "transactionalId=")`,
		`old.go: current: "PrepareEpochFence"`,
	}
	var got []string
	for _, u := range findTextUses(t, "old.go", old) {
		got = append(got, u.key)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("found:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

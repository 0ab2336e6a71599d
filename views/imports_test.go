package views

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The views are rooms: a package per component (the pane, the panels, and
// each screen as it gets its own), on a few foundations every component may
// use (the view-model, the theme, the layout, a pane's content, the text
// measuring, the text inputs' key guard), under
// the root, which routes between the screens. TestComponentsStayInTheirRooms
// holds the non-test Go files of views/ to that:
//
//   - a component imports no other component and not the root: they report
//     up with typed messages and take plain values down;
//   - a foundation imports no component and not the root;
//   - none of them, and not the root, imports the engine or the lessons
//     (only engine/termsafe, the standard-library leaf that says which
//     characters a terminal must not receive): views/adapt is the one
//     package that turns the engine's world into the view-model.
//
// The edges below are not rooms: the adapter, the command line, the SSH
// server, the exports, the demo frames, the real-Kafka inspector, the
// terminal runner and test helpers, which wire the rooms to the world.

const modulePath = "github.com/eoslab/eoslab"

// viewEdges are the packages under views/ that are not rooms.
var viewEdges = []string{"adapt", "cli", "drive", "serve", "export", "demo", "inspect", "tuirun", "tuirun/termguard",
	"internal/floor", "internal/viewtest"}

// foundations are the rooms every component may import.
var foundations = []string{"model", "theme", "layout", "content", "internal/cells", "internal/inputguard", "internal/keyset"}

// importProblems checks a graph of packages under views/ (by their path
// below views/, "." for the root) to their imports (full import paths).
func importProblems(graph map[string][]string) []string {
	var out []string
	for pkg, imps := range graph {
		if slices.Contains(viewEdges, pkg) {
			continue
		}
		role := "component"
		switch {
		case pkg == ".":
			role = "the root"
		case slices.Contains(foundations, pkg):
			role = "foundation"
		}
		for _, imp := range imps {
			switch {
			case imp == modulePath+"/engine/termsafe":
			case imp == modulePath+"/engine" || strings.HasPrefix(imp, modulePath+"/engine/"),
				imp == modulePath+"/lessons" || strings.HasPrefix(imp, modulePath+"/lessons/"):
				out = append(out, pkg+" ("+role+") imports "+imp+": only views/adapt reads the engine and the lessons")
			case imp == modulePath+"/views" && role != "the root":
				out = append(out, pkg+" ("+role+") imports the root views: report up with a message instead")
			case strings.HasPrefix(imp, modulePath+"/views/"):
				dep := strings.TrimPrefix(imp, modulePath+"/views/")
				if slices.Contains(foundations, dep) || role == "the root" {
					continue
				}
				if slices.Contains(viewEdges, dep) {
					out = append(out, pkg+" ("+role+") imports the edge views/"+dep)
					continue
				}
				out = append(out, pkg+" ("+role+") imports the component views/"+dep+": components do not import each other")
			}
		}
	}
	sort.Strings(out)
	return out
}

// viewsGraph reads the imports of every package under views/ from its
// non-test files.
func viewsGraph(t *testing.T) map[string][]string {
	t.Helper()
	graph := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg := path.Dir(filepath.ToSlash(p))
		for _, imp := range f.Imports {
			s, _ := strconv.Unquote(imp.Path.Value)
			if !slices.Contains(graph[pkg], s) {
				graph[pkg] = append(graph[pkg], s)
			}
		}
		if graph[pkg] == nil {
			graph[pkg] = []string{}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return graph
}

func TestComponentsStayInTheirRooms(t *testing.T) {
	graph := viewsGraph(t)
	for _, room := range []string{".", "model", "theme", "layout", "content", "internal/cells", "pane", "panels", "home", "drill", "player"} {
		if _, ok := graph[room]; !ok {
			t.Errorf("no package views/%s: the rooms moved; update this test", room)
		}
	}
	for _, p := range importProblems(graph) {
		t.Error(p)
	}
}

// TestRoomCheckCatches: the check fails a component that imports another,
// a component or a foundation that imports the root, a foundation that
// imports a component, and a room that imports the engine or the lessons.
func TestRoomCheckCatches(t *testing.T) {
	v := modulePath + "/views/"
	bad := map[string][]string{
		"panels": {v + "pane", v + "model", v + "theme"},
		"pane":   {modulePath + "/views"},
		"layout": {v + "pane"},
		"model":  {modulePath + "/engine"},
		".":      {modulePath + "/lessons/progress", v + "panels", modulePath + "/engine/termsafe"},
		"adapt":  {modulePath + "/engine", modulePath + "/views"},
	}
	got := importProblems(bad)
	want := []string{"panels (component) imports the component views/pane",
		"pane (component) imports the root views",
		"layout (foundation) imports the component views/pane",
		"model (foundation) imports " + modulePath + "/engine",
		". (the root) imports " + modulePath + "/lessons/progress"}
	if len(got) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for _, w := range want {
		found := false
		for _, g := range got {
			found = found || strings.HasPrefix(g, w)
		}
		if !found {
			t.Errorf("missed %q in:\n%s", w, strings.Join(got, "\n"))
		}
	}
}

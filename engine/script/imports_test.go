package script

import (
	"go/parser"
	gotoken "go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestParserImportsNoEngine: the language is defined on its own terms (see
// the package comment). Only the files that run commands and evaluate
// expectations may import the engine.
func TestParserImportsNoEngine(t *testing.T) {
	allowed := map[string]bool{"run.go": true, "check.go": true, "check_events.go": true}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || allowed[f] {
			continue
		}
		ast, err := parser.ParseFile(gotoken.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "eoslab/engine" || strings.HasPrefix(p, "eoslab/") {
				t.Errorf("%s imports %s; parsing must not depend on the engine", f, p)
			}
		}
	}
}

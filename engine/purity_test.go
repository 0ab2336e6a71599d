package engine_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine"
)

// Package engine imports nothing but the standard library (design: the
// core is pure, and imports point down only): a standard package's path
// has no dot in its first element.
func TestEngineImportsOnlyTheStandardLibrary(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no files: %v", err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		af, err := parser.ParseFile(fset, f, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if first, _, _ := strings.Cut(path, "/"); strings.Contains(first, ".") {
				t.Errorf("%s imports %s, which is not the standard library", f, path)
			}
		}
	}
}

// The exported name tables are copies: changing what a caller got
// changes nothing in the engine.
func TestNameTablesAreCopies(t *testing.T) {
	inv := engine.InvariantNames()
	inv[0] = "changed"
	haz := engine.HazardNames()
	haz[0] = "changed"
	mon := engine.Monitors()
	mon[0].Holds = "changed"
	st := engine.TxnStates()
	st[0] = engine.Dead
	rules := engine.Rules()
	rules[0].Words = "changed"
	if engine.InvariantNames()[0] == "changed" || engine.HazardNames()[0] == "changed" || engine.Monitors()[0].Holds == "changed" ||
		engine.TxnStates()[0] == engine.Dead || engine.Rules()[0].Words == "changed" {
		t.Error("a name table changed through what a caller got")
	}
}

// The world's state is the engine's own: World has no exported field, so
// nothing outside the engine can change it except through Apply.
func TestWorldFieldsAreUnexported(t *testing.T) {
	rt := reflect.TypeOf(engine.World{})
	for i := 0; i < rt.NumField(); i++ {
		if f := rt.Field(i); f.IsExported() {
			t.Errorf("World.%s is exported", f.Name)
		}
	}
}

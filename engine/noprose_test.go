package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
)

// Events are data (issue 16, "Events carry typed fields only"): a decision
// hands over a says code and the values it decided on, and describe puts
// them into words when something shows the event. The tests below make
// that impossible to undo by accident.

// TestEventsHoldNoProse holds the types an event, its rule and a
// violation are made of to typed fields: the only strings they carry are
// names a scenario gave (an actor, a transactional id, a topic, an
// invariant's name, a consumer or group), never words.
func TestEventsHoldNoProse(t *testing.T) {
	for _, c := range []struct {
		v     any
		names []string // the string fields allowed: names, not words
	}{
		{Event{}, []string{"Actor", "TxnID", "TP.Topic"}},
		{Rule{}, nil},
		{ruleExt{}, nil},
		{note{}, nil},
		{Violation{}, []string{"Name", "Actor", "TP.Topic", "Consumer", "Group"}},
		{markerAccepted{}, nil},
		{txnLogValue{}, []string{"parts.Topic"}},
		{skippedBatch{}, nil},
	} {
		typ := reflect.TypeOf(c.v)
		var got []string
		stringFields(typ, "", &got)
		sort.Strings(got)
		want := append([]string(nil), c.names...)
		sort.Strings(want)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s has string fields %v; want only the names %v: words belong in a says code and its typed args (says.go)", typ, got, want)
		}
	}
}

// stringFields lists the fields of t (and of its struct fields) that hold
// a string or a pointer to one.
func stringFields(t reflect.Type, prefix string, out *[]string) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		ft := f.Type
		for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice || ft.Kind() == reflect.Array {
			ft = ft.Elem()
		}
		switch {
		case ft.Kind() == reflect.String:
			*out = append(*out, prefix+f.Name)
		case ft.Kind() == reflect.Struct && ft.PkgPath() == t.PkgPath() && ft != t && ft.Name() != "Rule" && ft.Name() != "Message":
			stringFields(ft, prefix+f.Name+".", out)
		}
	}
}

// noteTakers are the functions whose arguments become an event's, a
// rule's or a violation's words, and the string parameters each may
// have: names, never text.
var noteTakers = map[string][]string{
	"emit": {"actor"}, "event": {"actor"}, "emitRule": {"actor"}, "emitFault": {"actor"}, "emitTyped": {"actor"},
	"emitTxnState": {"actor", "id"}, "record": nil, "because": nil, "cite": nil, "typedRule": nil, "newNote": nil, "sub": nil,
	"hazard": {"name", "actor"}, "violate": {"name", "actor"}, "violateWith": {"actor"}, "NoneViolation": {"name"},
	"batchViolation": {"name"}, "clientError": nil, "apiError": nil, "fatal": nil, "abortable": nil, "failBatch": nil,
	"teachRule": nil, "acceptFencedEpoch": {"actor", "txnID"}, "withDetail": nil,
}

// TestNoProseAtTheDecision reads every non-test Go file of the engine and
// fails on any place that could put words made at the decision into an
// event: a function of noteTakers with a string parameter for text; a
// quoted value (the one argument type that holds a string) made from a
// literal, a concatenation or a formatting call rather than a name the
// engine already carries; and a says code followed by a different number
// of arguments than its words in saysTable have {} for.
func TestNoProseAtTheDecision(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	codes := saysCodes(t, fset)
	checked := 0
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, file, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		at := func(n ast.Node) string { return fset.Position(n.Pos()).String() }
		text := func(n ast.Node) string {
			return string(src[fset.Position(n.Pos()).Offset:fset.Position(n.End()).Offset])
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				allowed, ok := noteTakers[n.Name.Name]
				if !ok {
					return true
				}
				for _, p := range n.Type.Params.List {
					if id, ok := p.Type.(*ast.Ident); !ok || id.Name != "string" {
						continue
					}
					for _, name := range p.Names {
						if !slices.Contains(allowed, name.Name) {
							t.Errorf("%s: %s takes a string %s: pass a says code and typed args instead", at(name), n.Name.Name, name.Name)
						}
					}
				}
			case *ast.CallExpr:
				if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "quoted" && len(n.Args) == 1 {
					if v, ok := n.Args[0].(*ast.Ident); ok && !quotedVars[v.Name] {
						t.Errorf("%s: quoted(%s): a quoted value is a field the engine carries (r.TransactionalID) or a variable named as a name (%v), not text made elsewhere", at(n), v.Name, sortedNames(quotedVars))
					}
					if why := madeWords(n.Args[0]); why != "" {
						t.Errorf("%s: quoted(%s) is %s: a quoted value is a name the engine already has; words go in saysTable", at(n), text(n.Args[0]), why)
					}
				}
				checked += checkArgCount(t, n, codes, at, text)
			}
			return true
		})
	}
	if checked < 200 {
		t.Errorf("only %d says codes with their arguments found: the scan is not reading the emit sites", checked)
	}
}

// quotedVars are the variables that may be quoted by name: each holds
// a name (a transactional id, a client's or member's id, an invariant's
// or hazard's name, the producer API call a scenario made).
var quotedVars = map[string]bool{"id": true, "txnID": true, "name": true, "client": true, "mid": true, "call": true}

func sortedNames(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// madeWords says how e makes words (a literal, a concatenation, a
// formatting or conversion call), or "" if it names a value.
func madeWords(e ast.Expr) string {
	why := ""
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			why = "a literal"
		case *ast.BinaryExpr:
			if n.Op == token.ADD {
				why = "a concatenation"
			}
		case *ast.CallExpr:
			switch f := n.Fun.(type) {
			case *ast.Ident:
				why = "built by " + f.Name
			case *ast.SelectorExpr:
				if x, ok := f.X.(*ast.Ident); ok && (x.Name == "fmt" || x.Name == "strconv" || x.Name == "strings") {
					why = "built by " + x.Name + "." + f.Sel.Name
				}
				if f.Sel.Name == "String" || f.Sel.Name == "Name" || f.Sel.Name == "Error" {
					why = "words made by " + f.Sel.Name + "()"
				}
			}
		}
		return why == ""
	})
	return why
}

// checkArgCount checks a call that passes a says code: the arguments
// after it must be as many as the code's words have {}. It reports
// whether it checked one.
func checkArgCount(t *testing.T, c *ast.CallExpr, codes map[string]says, at func(ast.Node) string, text func(ast.Node) string) int {
	for i, a := range c.Args {
		id, ok := a.(*ast.Ident)
		if !ok {
			continue
		}
		code, ok := codes[id.Name]
		if !ok || code == saysNone {
			continue
		}
		rest := c.Args[i+1:]
		if c.Ellipsis.IsValid() {
			return 0 // args... : counted where the slice is made
		}
		if fn, ok := c.Fun.(*ast.Ident); ok && fn.Name == "newNote" && len(rest) == 1 {
			lit, ok := rest[0].(*ast.CompositeLit)
			if !ok {
				return 0
			}
			rest = lit.Elts
		}
		if want := strings.Count(saysTable[code], "{}"); len(rest) != want {
			t.Errorf("%s: %s gets %d arguments, its words %q have %d {}", at(c), text(a), len(rest), saysTable[code], want)
		}
		return 1
	}
	return 0
}

// saysCodes maps each says constant's name to its value, read from the
// const block of says.go (an iota list, saysNone first).
func saysCodes(t *testing.T, fset *token.FileSet) map[string]says {
	f, err := parser.ParseFile(fset, "says.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]says{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for i, s := range g.Specs {
			codes[s.(*ast.ValueSpec).Names[0].Name] = says(i)
		}
	}
	if len(codes) != len(saysTable) {
		t.Fatalf("says.go has %d says codes and saysTable %d entries", len(codes), len(saysTable))
	}
	for name, c := range codes {
		if c != saysNone && saysTable[c] == "" {
			t.Errorf("%s has no words in saysTable", name)
		}
	}
	return codes
}

package script

import (
	"bytes"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// FuzzParse holds the parser to its promises on any input: it never panics;
// every error names the file and a line that exists (or the one after the
// last) and renders as "file:line: " or "file:line:col: "; errors come in
// line order; a file that parses reads back the same from its commands'
// texts; and each action's String parses back to the same action. The seed corpus in
// testdata/fuzz/FuzzParse has a file for every verb, call and expect form.
func FuzzParse(f *testing.F) {
	f.Add([]byte(preamble + "A send t-0 x\nrun\nexpect partition t-0 records 1\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		const file = "fuzz.scn"
		lines := bytes.Count(src, []byte("\n")) + 1
		cmds, err := Parse(file, src)
		if err != nil {
			checkErrors(t, err, file, lines)
			if cmds != nil {
				t.Fatal("commands returned with an error")
			}
			return
		}
		texts := make([]string, len(cmds))
		canon := make([]string, len(cmds))
		for i, c := range cmds {
			if c.Line < 1 || c.Line > lines || c.File != file || c.Kind() == Unknown || (c.Action == nil) != (c.Kind() == Expect) {
				t.Fatalf("bad command %+v", c)
			}
			texts[i] = c.Text
			canon[i] = c.Text
			if c.Action != nil {
				canon[i] = c.Action.String()
			}
		}
		again, err := Parse(file, []byte(strings.Join(texts, "\n")))
		if err != nil {
			t.Fatalf("texts of parsed commands do not parse again: %v", err)
		}
		for i := range cmds {
			a, b := cmds[i], again[i]
			a.Line, b.Line = 0, 0
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("round trip differs:\n%+v\n%+v", a, b)
			}
		}
		// The canonical texts (an action's String, an expectation's String)
		// parse back to the same typed values.
		for i, c := range cmds {
			if (c.Kind() == Expect) != (c.Expect != nil) {
				t.Fatalf("%s: typed expectation %#v", c.Text, c.Expect)
			}
			if c.Expect != nil {
				canon[i] = c.Expect.String()
			}
		}
		back, err := Parse(file, []byte(strings.Join(canon, "\n")))
		if err != nil {
			t.Fatalf("canonical texts do not parse again: %v\n%s", err, strings.Join(canon, "\n"))
		}
		for i := range cmds {
			if !reflect.DeepEqual(cmds[i].Action, back[i].Action) || !reflect.DeepEqual(cmds[i].Expect, back[i].Expect) {
				t.Fatalf("%q reads back as %#v %#v, not %#v %#v", canon[i], back[i].Action, back[i].Expect, cmds[i].Action, cmds[i].Expect)
			}
		}
	})
}

func checkErrors(t *testing.T, err error, file string, lines int) {
	t.Helper()
	var list ErrorList
	if !errors.As(err, &list) || len(list.Errors) == 0 {
		t.Fatalf("error %T %v is not a non-empty ErrorList", err, err)
	}
	if len(list.Errors) > MaxErrors || (list.More > 0 && len(list.Errors) != MaxErrors) {
		t.Fatalf("%d errors kept and %d counted; at most %d are kept, and all of them before any is counted", len(list.Errors), list.More, MaxErrors)
	}
	prev := 0
	for _, e := range list.Errors {
		if e.File != file || e.Line < 1 || e.Line > lines+1 || e.Msg == "" || e.Col < 0 {
			t.Fatalf("bad error %+v (file has %d lines)", e, lines)
		}
		if e.Line < prev {
			t.Fatalf("errors out of order: line %d after %d", e.Line, prev)
		}
		prev = e.Line
		want := file + ":" + strconv.Itoa(e.Line) + ":"
		if e.Col > 0 {
			want += strconv.Itoa(e.Col) + ":"
		}
		if !strings.HasPrefix(e.Error(), want+" ") {
			t.Fatalf("error %q does not start with %q", e.Error(), want+" ")
		}
	}
}

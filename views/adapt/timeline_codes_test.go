package adapt

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/panels"
	"github.com/eoslab/eoslab/views/theme"
)

// codeWidths are the Timeline's inner widths at 60 and 80 columns: the
// player's one slot (the pane's width less its borders and margin) and
// the sandbox's right-hand side.
var codeWidths = []int{57, 77, 32, 45}

// errorCode matches an error code as a label writes it: the Kafka name,
// with its number or without (in a list of partitions).
var errorCode = regexp.MustCompile(`[A-Z][A-Z_]{2,}[A-Z](\(\d+\))?`)

// codeOf is the error code a label carries: the first code that is not
// NONE. ok is false when the label has none.
func codeOf(label string) (string, bool) {
	for _, c := range errorCode.FindAllString(label, -1) {
		if c != "NONE" && c != "NONE(0)" {
			return c, true
		}
	}
	return "", false
}

// checkCodesWhole draws f's Timeline at each of codeWidths and fails
// unless every answer that carries an error code shows the whole code on
// one of its rows.
func checkCodesWhole(t *testing.T, where string, f *model.Frame, ths []*theme.Theme) {
	t.Helper()
	var want []string // the code of each error answer, "" for other messages
	any := false
	for _, a := range f.Timeline {
		code := ""
		if a.Error {
			c, ok := codeOf(a.Label)
			if !ok {
				t.Fatalf("%s: error answer %q has no code in its label", where, a.Label)
			}
			if _, known := engine.ErrorByName(c); !known {
				t.Fatalf("%s: the label cuts its code: %q", where, a.Label)
			}
			code, any = c, true
		}
		want = append(want, code)
	}
	if !any {
		return
	}
	for _, th := range ths {
		for _, w := range codeWidths {
			_, body, _ := panels.Timeline(f, panels.Painter{Theme: th, Width: w})
			sticky, _ := body.(content.Sticky)
			// Group the rows by message: a label's second row is the one
			// the pane draws its arrow above (StickyAt).
			var rows [][]string
			for i := range body.Len() {
				l := ansi.Strip(body.Line(i))
				if sticky != nil {
					if _, more := sticky.StickyAt(i); more && len(rows) > 0 {
						rows[len(rows)-1] = append(rows[len(rows)-1], l)
						continue
					}
				}
				rows = append(rows, []string{l})
			}
			if len(rows) != len(want) {
				t.Fatalf("%s at %d: %d messages drawn, %d in the frame", where, w, len(rows), len(want))
			}
			for i, code := range want {
				if code == "" {
					continue
				}
				whole := false
				for _, l := range rows[i] {
					whole = whole || strings.Contains(l, code)
				}
				if !whole {
					t.Errorf("%s at width %d (ascii=%v): %s is cut:\n%s", where, w, th.ASCII, code, strings.Join(rows[i], "\n"))
				}
			}
		}
	}
}

// newCodeState reports whether f has an error answer in a state seen at
// no step before (recorded in seen): the drawing of an answer's rows
// depends on its label, its columns, its state and its marks (changed,
// delayed, duplicate, picked), so a step whose error answers are all in
// states already checked draws the same rows for them again. Each answer
// is checked in each state it passes through (sent, delivered or lost,
// changed by this step or not), once.
func newCodeState(seen map[string]bool, f *model.Frame) bool {
	actors := ""
	for _, a := range f.Actors {
		actors += a.Name + "|"
	}
	fresh := false
	for _, a := range f.Timeline {
		if !a.Error {
			continue
		}
		k := fmt.Sprintf("%s %d %q %d %t %t %t %t", actors, a.ID, a.Label, a.State, a.Changed, a.Delayed, a.Duplicate, a.Picked)
		if !seen[k] {
			seen[k], fresh = true, true
		}
	}
	return fresh
}

// TestTimelineKeepsErrorCodes: at 60 and 80 columns, on every step of
// every lesson (under Kafka 3 and 4) and of every scenario file (the
// engine's and the challenges' solutions), an answer with an error code
// shows the whole code: it is the one thing its row must show
// (OUT_OF_ORDER_SEQUENCE_NUMBER(45), PRODUCER_FENCED(90)).
func TestTimelineKeepsErrorCodes(t *testing.T) {
	ths := []*theme.Theme{theme.New(theme.Options{NoColor: true}), theme.New(theme.Options{ASCII: true})}
	eachLesson(t, func(t *testing.T, name string, k int) {
		s := openKafka(t, name, k)
		seen := map[string]bool{}
		for pos := 0; ; pos++ {
			f := playTo(t, s, pos)
			if *Sweep || newCodeState(seen, &f) {
				checkCodesWhole(t, name+" step "+itoa(pos), &f, ths)
			}
			if pos >= s.Len() {
				break
			}
		}
	})
	var files []string
	for _, dir := range []string{"../../engine/testdata/scenarios", "../../lessons/challenges/solutions"} {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".scn") {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 100 {
		t.Fatalf("found %d scenario files", len(files))
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			x, err := OpenSandboxFile(file, src)
			if err != nil {
				t.Skip("not a sandbox file:", err)
			}
			seen := map[string]bool{}
			for pos := 0; pos <= x.Len(); pos++ {
				x.Seek(pos)
				f := x.Frame("", 0)
				if *Sweep || newCodeState(seen, &f) {
					checkCodesWhole(t, filepath.Base(file)+" step "+itoa(pos), &f, ths)
				}
			}
		})
	}
}

package script

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The scenario tests run every engine/testdata/scenarios/*.scn file: the
// reference's acceptance scenarios (S01..S48), the branches of its decision
// tables that those do not reach, and the product stories. Each file must
// hold all its expectations, run without an action error and, unless it
// says `expect violation NAME`, without an invariant violation. Its
// transcript is compared with NAME.golden next to it; regenerate the goldens
// with
//
//	go test ./engine/script -run Scenarios -update
//
// and read the diff: goldens are reviewed like code.

const scenarioDir = "../testdata/scenarios"

func init() {
	// Another test file of this package may define -update too; share it.
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the scenario goldens (testdata/scenarios/*.golden)")
	}
}

func updateGoldens() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

type scenarioFile struct {
	name string // file name without .scn
	path string
	src  []byte
}

func scenarioFiles(t *testing.T) []scenarioFile {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(scenarioDir, "*.scn"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no scenario files in %s", scenarioDir)
	}
	sort.Strings(paths)
	var out []scenarioFile
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, scenarioFile{name: strings.TrimSuffix(filepath.Base(p), ".scn"), path: p, src: src})
	}
	return out
}

// expectedViolations lists the invariants a file says it breaks on purpose.
func expectedViolations(t *testing.T, f scenarioFile) map[string]bool {
	t.Helper()
	cmds, err := Parse(f.path, f.src)
	if err != nil {
		t.Fatalf("%v", err)
	}
	want := map[string]bool{}
	for _, c := range cmds {
		if v, ok := c.Expect.(ViolationCheck); ok {
			want[v.Name] = true
		}
	}
	return want
}

func TestScenarios(t *testing.T) {
	for _, f := range scenarioFiles(t) {
		f := f
		t.Run(f.name, func(t *testing.T) {
			allowed := expectedViolations(t, f)
			cmds, err := Parse(f.path, f.src)
			if err != nil {
				t.Fatalf("%v", err)
			}
			r := NewRunner()
			var b strings.Builder
			err = r.Play(cmds, func(s Outcome) error {
				WriteTranscript(&b, s)
				if fail := s.Failure; fail != nil {
					t.Errorf("%s:%d: expectation failed: %s\n    found: %s", fail.File, fail.Line, fail.Text, fail.Got)
				}
				return nil
			})
			if err != nil {
				t.Fatalf("action error: %v", err)
			}
			for _, v := range r.World.Violations() {
				if !allowed[v.Name] {
					t.Errorf("%s: unexpected invariant violation %s at step %d: %s (add `expect violation %s` only if the file breaks it on purpose)",
						f.path, v.Name, v.Step, v.Text(), v.Name)
				}
			}
			checkGolden(t, f, b.String())
		})
	}
}

func checkGolden(t *testing.T, f scenarioFile, got string) {
	t.Helper()
	golden := filepath.Join(scenarioDir, f.name+".golden")
	if updateGoldens() {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run: go test ./engine/script -run Scenarios -update)", err)
	}
	if got == string(want) {
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(gl) || i < len(wl); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Fatalf("%s: transcript differs from %s at line %d:\n  golden: %s\n  got:    %s\n(if the change is intended: go test ./engine/script -run Scenarios -update, then review the diff)",
				f.path, golden, i+1, w, g)
		}
	}
}

// TestScenariosDeterministic: one file, one transcript, byte for byte.
func TestScenariosDeterministic(t *testing.T) {
	for _, f := range scenarioFiles(t) {
		f := f
		t.Run(f.name, func(t *testing.T) {
			a, _, errA := Transcript(f.path, f.src)
			b, _, errB := Transcript(f.path, f.src)
			if errA != nil || errB != nil {
				t.Fatalf("action error: %v / %v", errA, errB)
			}
			if a != b {
				t.Fatalf("two runs of %s gave different transcripts", f.path)
			}
		})
	}
}

// TestScenariosSnapshot clones the world half way through each file, then
// plays the remaining commands on the original and on the clone. Both must
// tell the same story: a snapshot is a full, independent copy.
func TestScenariosSnapshot(t *testing.T) {
	for _, f := range scenarioFiles(t) {
		f := f
		t.Run(f.name, func(t *testing.T) {
			cmds, err := Parse(f.path, f.src)
			if err != nil {
				t.Fatalf("%v", err)
			}
			half := len(cmds) / 2
			orig := NewRunner()
			for _, c := range cmds[:half] {
				if _, _, err := orig.Exec(c); err != nil {
					t.Fatalf("action error: %v", err)
				}
			}
			clone := &Runner{World: orig.World.Clone()}
			before := len(orig.Failures)
			rest := func(r *Runner) string {
				var b bytes.Buffer
				for _, c := range cmds[half:] {
					evs, fail, err := r.Exec(c)
					for _, e := range evs {
						b.WriteString(e.Line())
						b.WriteByte('\n')
					}
					if fail != nil {
						b.WriteString("FAILED " + fail.Error() + "\n")
					}
					if err != nil {
						t.Fatalf("action error: %v", err)
					}
				}
				return b.String()
			}
			a := rest(orig)
			b := rest(clone)
			if a != b {
				al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
				for i := range al {
					if i >= len(bl) || al[i] != bl[i] {
						other := ""
						if i < len(bl) {
							other = bl[i]
						}
						t.Fatalf("%s: after a snapshot at command %d of %d the clone diverges at line %d:\n  original: %s\n  clone:    %s",
							f.path, half, len(cmds), i+1, al[i], other)
					}
				}
				t.Fatalf("%s: the clone's transcript is longer than the original's", f.path)
			}
			if n := len(orig.Failures) - before; n != len(clone.Failures) {
				t.Fatalf("%s: %d failures on the original, %d on the clone", f.path, n, len(clone.Failures))
			}
		})
	}
}

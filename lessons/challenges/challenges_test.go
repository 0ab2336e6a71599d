package challenges

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestSolutionsReachTheirGoals plays every goal's shown solution under
// the Kafka versions the goal names: each reaches it.
func TestSolutionsReachTheirGoals(t *testing.T) {
	for i, g := range All() {
		t.Run(g.Name, func(t *testing.T) {
			out, err := Check(g, g.Solution, SolutionText(g))
			if err != nil {
				t.Fatal(err)
			}
			if !out.Reached {
				t.Fatalf("goal %d: the solution does not reach it: %v", i+1, out.Says)
			}
			if len(out.Runs) != len(g.Kafka) {
				t.Fatalf("played %d runs, want one per version %v", len(out.Runs), g.Kafka)
			}
		})
	}
}

// TestNearMissesDoNot plays every solution without its key line: it
// misses the goal, so the judge decides on what that line made happen.
func TestNearMissesDoNot(t *testing.T) {
	for _, g := range All() {
		t.Run(g.Name, func(t *testing.T) {
			src := SolutionText(g)
			var kept []string
			removed := 0
			for _, l := range strings.Split(string(src), "\n") {
				if l == g.NearMiss {
					removed++
					continue
				}
				kept = append(kept, l)
			}
			if removed != 1 {
				t.Fatalf("the near-miss line %q is in the solution %d times, want once", g.NearMiss, removed)
			}
			out, err := Check(g, "near-miss.scn", []byte(strings.Join(kept, "\n")))
			if err != nil {
				t.Fatal(err)
			}
			if out.Reached {
				t.Fatalf("the solution without %q still reaches the goal: %v", g.NearMiss, out.Says)
			}
		})
	}
}

// TestTable holds the table to what the CLI and a teacher rely on: at
// least 12 goals, unique names, every text and version set.
func TestTable(t *testing.T) {
	if n := len(All()); n < 12 {
		t.Fatalf("%d goals, want at least 12", n)
	}
	names := map[string]bool{}
	for i, g := range All() {
		if names[g.Name] {
			t.Errorf("goal %d: name %q twice", i+1, g.Name)
		}
		names[g.Name] = true
		if g.Title == "" || g.Goal == "" || g.Hint == "" || g.Why == "" || g.Judge == nil || len(g.Kafka) == 0 {
			t.Errorf("goal %d (%s): a field is missing", i+1, g.Name)
		}
		if want := fmt.Sprintf("%02d-%s.scn", i+1, g.Name); g.Solution != want {
			t.Errorf("goal %d: solution %s, want %s", i+1, g.Solution, want)
		}
		if want := fmt.Sprintf("# Goal %d: ", i+1); !strings.HasPrefix(string(SolutionText(g)), want) {
			t.Errorf("goal %d: the solution does not start with %q", i+1, want)
		}
		if g.Level < 1 || g.Level > 3 {
			t.Errorf("goal %d: level %d", i+1, g.Level)
		}
		for _, k := range g.Kafka {
			if k != 3 && k != 4 {
				t.Errorf("goal %d: Kafka %d", i+1, k)
			}
		}
	}
	if _, err := Get(0); err == nil {
		t.Error("Get(0) gave a goal")
	}
	if _, err := Get(len(All()) + 1); err == nil {
		t.Error("Get past the end gave a goal")
	}
}

// TestSwitchesDoNotCount: a goal reached with a safeguard off does not
// count unless the goal is about the switch.
func TestSwitchesDoNotCount(t *testing.T) {
	g, _ := Get(1)
	src := append([]byte("config eoslab.broker.dedup=false\n"), SolutionText(g)...)
	out, err := Check(g, "f.scn", src)
	if err != nil {
		t.Fatal(err)
	}
	if out.Reached || !strings.Contains(fmt.Sprint(out.Says), "teaching switch") {
		t.Fatalf("reached with a switch off: %v", out.Says)
	}
}

// TestBadFile: a file that does not parse is an error naming file:line.
func TestBadFile(t *testing.T) {
	g, _ := Get(1)
	_, err := Check(g, "bad.scn", []byte("topic t\nproducer p\np sned t-0 x\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "bad.scn:3:") {
		t.Fatalf("err = %v, want bad.scn:3: ...", err)
	}
}

// TestDeterministic: one file, one verdict, byte for byte.
func TestDeterministic(t *testing.T) {
	for _, g := range All() {
		a, _ := Check(g, g.Solution, SolutionText(g))
		b, _ := Check(g, g.Solution, SolutionText(g))
		if !bytes.Equal([]byte(fmt.Sprint(a.Says)), []byte(fmt.Sprint(b.Says))) {
			t.Fatalf("%s: %v then %v", g.Name, a.Says, b.Says)
		}
	}
}

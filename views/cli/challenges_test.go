package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eoslab/eoslab/lessons/challenges"
	"github.com/eoslab/eoslab/lessons/progress"
)

func TestChallengesListShowAndCheck(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(progress.EnvDir, dir)
	code, out, _ := runCLI(t, "challenges")
	if code != 0 || !strings.Contains(out, " 5. level 1  not done  stall a read_committed consumer") || !strings.Contains(out, fmt.Sprintf("0 of %d reached", len(challenges.All()))) {
		t.Fatalf("list: code %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "challenges", "show", "5")
	if code != 0 || !strings.Contains(out, "Goal: Make a read_committed consumer wait") || strings.Contains(out, "Hint:") {
		t.Fatalf("show: code %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "challenges", "show", "5", "--hint")
	if code != 0 || !strings.Contains(out, "Hint: An open transaction pins") || strings.Contains(out, "A solution") {
		t.Fatalf("show --hint: code %d\n%s", code, out)
	}
	g, _ := challenges.Get(5)
	code, out, _ = runCLI(t, "challenges", "show", "5", "--solution")
	if code != 0 || !strings.HasSuffix(out, string(challenges.SolutionText(g))) {
		t.Fatalf("show --solution: code %d\n%s", code, out)
	}

	// The solution, as the student saved it, reaches the goal: recorded,
	// kept, listed as done.
	file := writeFile(t, "mine.scn", string(challenges.SolutionText(g)))
	code, out, errs := runCLI(t, "challenges", "check", "5", file)
	kept := filepath.Join(dir, "challenges", "05-stall-and-unstall.scn")
	if code != 0 || !strings.Contains(out, "Challenge 5 reached") || !strings.Contains(out, "Kept your solution at "+kept) {
		t.Fatalf("check: code %d\n%s%s", code, out, errs)
	}
	if b, err := os.ReadFile(kept); err != nil || string(b) != string(challenges.SolutionText(g)) {
		t.Fatalf("kept file: %v %q", err, b)
	}
	if ch, ok := progress.Open(progress.Options{Dir: dir}).Challenge("stall-and-unstall"); !ok || ch.File != kept {
		t.Fatalf("progress: %+v %v", ch, ok)
	}
	code, out, _ = runCLI(t, "challenges")
	if code != 0 || !strings.Contains(out, " 5. level 1  done      stall") || !strings.Contains(out, fmt.Sprintf("1 of %d reached", len(challenges.All()))) {
		t.Fatalf("list after: code %d\n%s", code, out)
	}

	if code, out, _ := runCLI(t, "progress"); code != 0 || !strings.Contains(out, fmt.Sprintf("Challenges reached: 1 of %d", len(challenges.All()))) {
		t.Fatalf("progress: code %d\n%s", code, out)
	}

	// The wrong file for a goal: not reached, exit 1, nothing recorded.
	code, out, errs = runCLI(t, "challenges", "check", "1", file)
	if code != 1 || !strings.Contains(errs, "Challenge 1 (write a record twice with idempotence off) is not reached yet") ||
		!strings.Contains(out, "Kafka 3: no record sent once is in the log twice") {
		t.Fatalf("miss: code %d\n%s%s", code, out, errs)
	}
	if _, ok := progress.Open(progress.Options{Dir: dir}).Challenge("lost-ack-duplicate"); ok {
		t.Fatal("a missed goal was recorded")
	}
}

func TestChallengesBadInput(t *testing.T) {
	t.Setenv(progress.EnvDir, t.TempDir())
	bad := writeFile(t, "bad.scn", "topic t\np sned t-0 x\n")
	good := writeFile(t, "good.scn", "topic t\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"challenges", "show", "99"}, fmt.Sprintf("no challenge 99; there are %d", len(challenges.All()))},
		{[]string{"challenges", "show", "x"}, `"x" is not a goal number`},
		{[]string{"challenges", "show"}, "takes one goal number"},
		{[]string{"challenges", "check", "0", good}, "no challenge 0"},
		{[]string{"challenges", "check", "1"}, "takes a goal number and a scenario file"},
		{[]string{"challenges", "check", "1", bad}, bad + ":2:"},
		{[]string{"challenges", "check", "1", filepath.Join(t.TempDir(), "none.scn")}, "cannot read"},
		{[]string{"challenges", "extra"}, "unexpected argument"},
		{[]string{"challenges", "check", "1", t.TempDir()}, "not a regular file (a directory)"},
		{[]string{"challenges", "show", "1", "--hints"}, "unknown flag --hints"},
	} {
		code, out, errs := runCLI(t, tc.args...)
		if code != 2 || !strings.Contains(errs, tc.want) || strings.Contains(out, "reached") {
			t.Errorf("%v: code %d, stderr %q, want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
}

// TestChallengeKeptFileCannotBeWritten: a state directory whose
// challenges folder is a file still records the goal, and says the file
// was not kept.
func TestChallengeKeptFileCannotBeWritten(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(progress.EnvDir, dir)
	if err := os.WriteFile(filepath.Join(dir, "challenges"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	g, _ := challenges.Get(2)
	file := writeFile(t, "mine.scn", string(challenges.SolutionText(g)))
	code, out, errs := runCLI(t, "challenges", "check", "2", file)
	if code != 0 || !strings.Contains(out, "Your solution could not be kept") {
		t.Fatalf("code %d\n%s%s", code, out, errs)
	}
	if _, ok := progress.Open(progress.Options{Dir: dir}).Challenge(g.Name); !ok {
		t.Fatal("the goal is not recorded")
	}
}

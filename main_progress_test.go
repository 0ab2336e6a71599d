package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"eoslab/lessons"
	"eoslab/lessons/progress"
	"eoslab/views"
)

// TestMain keeps every test's progress out of the user's state directory.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "eoslab-state-")
	if err != nil {
		panic(err)
	}
	os.Setenv(progress.EnvDir, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func TestProgressCommand(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(progress.EnvDir, dir)
	code, out, errs := runCLI(t, "progress")
	if code != 0 || errs != "" || !hasFields(out, "lost-ack not started") || !strings.Contains(out, "No drill played yet") {
		t.Fatalf("code %d err %q out:\n%s", code, errs, out)
	}
	st := progress.Open(progress.Options{Dir: dir})
	st.Reached("lost-ack", 10, 10)
	st.Reached("abort", 4, 10)
	st.Answered("abort", 2, 1, true)
	st.Answered("abort", 3, 2, false)
	st.DrillDone(progress.Drill{Seed: 9, Right: 3, Total: 5, Revisit: []string{"transaction timeout"}})
	_, out, _ = runCLI(t, "progress")
	for _, want := range []string{"lost-ack finished", "abort at step 4 of 10, 1 of 2 answers right",
		"Continue with: eoslab lesson abort (at step 4)", "seed 9: 3 of 5 right; revisit: transaction timeout"} {
		if !hasFields(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if code, out, _ := runCLI(t, "progress", "--reset"); code != 0 || !strings.Contains(out, "Progress cleared") {
		t.Fatalf("reset: %d %q", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, progress.FileName)); !os.IsNotExist(err) {
		t.Fatal("reset left the file")
	}
	if code, _, errs := runCLI(t, "progress", "--bogus"); code != 2 || !strings.Contains(errs, "progress takes only --reset") {
		t.Fatalf("bad flag: %d %q", code, errs)
	}
	// A corrupt file is reported, moved aside, and the command goes on.
	os.WriteFile(filepath.Join(dir, progress.FileName), []byte("garbage"), 0o600)
	if code, out, _ := runCLI(t, "progress"); code != 0 || !strings.Contains(out, "Progress starts afresh") {
		t.Fatalf("corrupt: %d %q", code, out)
	}
}

func TestDrillCommand(t *testing.T) {
	t.Setenv(progress.EnvDir, t.TempDir())
	var opened tea.Model
	runTUI = func(m tea.Model) error { opened = m; return nil }
	defer func() { runTUI = tuiRunner }()
	code, out, errs := runCLI(t, "drill", "--seed", "12", "--count=3")
	if code != 0 || errs != "" || out != "Drill seed 12: 0 of 3 right. Replay it with: eoslab drill --seed 12 --count 3 --kafka 3\n" {
		t.Fatalf("code %d err %q out %q", code, errs, out)
	}
	app, ok := opened.(views.App)
	if !ok || app.Session() != nil {
		t.Fatal("the drill did not open on the drill screen")
	}
	if code, out, _ := runCLI(t, "drill", "--seed=12", "--count", "2", "--kafka", "4"); code != 0 || !strings.HasSuffix(out, "--kafka 4\n") {
		t.Fatalf("--kafka 4: %d %q", code, out)
	}
	for _, tc := range []struct{ args []string }{
		{[]string{"drill", "--kafka", "5"}},
		{[]string{"drill", "--seed"}}, {[]string{"drill", "--seed", "-1"}}, {[]string{"drill", "--count", "0"}},
		{[]string{"drill", "--count=x"}}, {[]string{"drill", "extra"}}, {[]string{"drill", "--json"}},
	} {
		if code, out, errs := runCLI(t, tc.args...); code != 2 || out != "" || errs == "" {
			t.Errorf("%v: code %d out %q err %q", tc.args, code, out, errs)
		}
	}
	if code, out, _ := runCLI(t, "drill", "--help"); code != 0 || !strings.Contains(out, "--seed") {
		t.Fatalf("help: %d %q", code, out)
	}
}

// eoslab lessons is the learning path: every lesson with its number,
// level and minutes.
func TestLessonsListsThePath(t *testing.T) {
	_, out, _ := runCLI(t, "lessons")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2*len(lessons.All()) || len(lines) < 32 {
		t.Fatalf("%d lines for %d lessons:\n%s", len(lines), len(lessons.All()), out)
	}
	for i, m := range lessons.All() {
		want := fmt.Sprintf("%d. %s %s %d min %s", i+1, m.Name, m.Level, m.Minutes, m.Title)
		if got := strings.Join(strings.Fields(lines[2*i]), " "); got != want {
			t.Errorf("line %d: %q, want %q", 2*i+1, got, want)
		}
		if got := strings.TrimSpace(lines[2*i+1]); got != m.Summary {
			t.Errorf("line %d: %q, want the summary %q", 2*i+2, got, m.Summary)
		}
	}
}

// hasFields reports whether some line of out holds want, spaces aside.
func hasFields(out, want string) bool {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(strings.Join(strings.Fields(l), " "), want) {
			return true
		}
	}
	return false
}

package progress

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func openIn(t *testing.T, dir string) *Store {
	t.Helper()
	return Open(Options{Dir: dir})
}

func readFile(t *testing.T, path string) Data {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var d Data
	if err := json.Unmarshal(src, &d); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return d
}

// Save then load: a second store opened on the same directory sees every
// change the first one made, and the file is the only thing in it (no
// temporary file left behind).
func TestSaveAndLoad(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "eoslab")
	s := openIn(t, dir)
	if n := s.Notice(); n != "" {
		t.Fatalf("a fresh store has a notice: %q", n)
	}
	s.Reached("lost-ack", 3, 10)
	s.Answered("lost-ack", 2, 1, true)
	s.Answered("lost-ack", 3, 2, false)
	s.Reached("abort", 10, 10)
	s.DrillDone(Drill{Seed: 7, Right: 3, Total: 5, Revisit: []string{"idempotence", "fencing"}})
	if n := s.Notice(); n != "" || !s.Saving() {
		t.Fatalf("saving failed: %q", n)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != FileName {
		t.Fatalf("directory holds %v, want only %s", entries, FileName)
	}
	r := openIn(t, dir)
	if n := r.Notice(); n != "" {
		t.Fatalf("loading: %q", n)
	}
	la := r.Lesson("lost-ack")
	if la.Step != 3 || la.Steps != 10 || la.Finished || la.Answers[2] != (Answer{1, true}) || la.Answers[3] != (Answer{2, false}) {
		t.Fatalf("lost-ack loaded as %+v", la)
	}
	if ab := r.Lesson("abort"); !ab.Finished || ab.Step != 10 {
		t.Fatalf("abort loaded as %+v", ab)
	}
	if r.Last() != "abort" {
		t.Fatalf("last %q, want abort", r.Last())
	}
	d := r.Data()
	if len(d.Drills) != 1 || d.Drills[0].Seed != 7 || d.Drills[0].Right != 3 || strings.Join(d.Drills[0].Revisit, ",") != "idempotence,fencing" {
		t.Fatalf("drills %+v", d.Drills)
	}
}

// The file is the same bytes for the same progress: keys sorted, no time.
func TestSaveIsDeterministic(t *testing.T) {
	var files []string
	for range 2 {
		dir := t.TempDir()
		s := openIn(t, dir)
		for _, n := range []string{"zombie", "abort", "lost-ack"} {
			s.Reached(n, 2, 9)
			s.Answered(n, 2, 3, true)
			s.Answered(n, 1, 1, false)
		}
		src, err := os.ReadFile(filepath.Join(dir, FileName))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, string(src))
	}
	if files[0] != files[1] {
		t.Fatalf("two saves of the same progress differ:\n%s\n%s", files[0], files[1])
	}
}

// Continue: the place kept is the step the learner was at last, even when
// they went back, and the lesson played last is the one to continue.
func TestContinueKeepsThePlace(t *testing.T) {
	dir := t.TempDir()
	s := openIn(t, dir)
	s.Reached("zombie", 5, 12)
	s.Reached("zombie", 4, 12) // went back one step, then quit
	s.Reached("abort", 1, 10)
	s.Reached("zombie", 4, 12) // opened again
	r := openIn(t, dir)
	if r.Last() != "zombie" || r.Lesson("zombie").Step != 4 {
		t.Fatalf("continue would open %q at %d, want zombie at 4", r.Last(), r.Lesson("zombie").Step)
	}
	// Finishing stays finished when the lesson is played again.
	r.Reached("zombie", 12, 12)
	r.Reached("zombie", 0, 12)
	if z := openIn(t, dir).Lesson("zombie"); !z.Finished || z.Step != 0 {
		t.Fatalf("zombie %+v, want finished and at 0", z)
	}
}

func TestReset(t *testing.T) {
	dir := t.TempDir()
	s := openIn(t, dir)
	s.Reached("abort", 3, 10)
	s.DrillDone(Drill{Seed: 1, Right: 1, Total: 2})
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, FileName)); !os.IsNotExist(err) {
		t.Fatalf("the file is still there: %v", err)
	}
	if d := s.Data(); len(d.Lessons) != 0 || len(d.Drills) != 0 || d.Last != "" {
		t.Fatalf("after reset: %+v", d)
	}
	if d := openIn(t, dir).Data(); len(d.Lessons) != 0 {
		t.Fatalf("reloaded after reset: %+v", d)
	}
	// Resetting nothing is fine too.
	if err := openIn(t, t.TempDir()).Reset(); err != nil {
		t.Fatal(err)
	}
}

// A file that is not progress is reported once, moved aside under the
// first free .bad-N name, and the store starts empty and saves again.
func TestCorruptFileIsMovedAside(t *testing.T) {
	for _, tc := range []struct {
		name, content, why string
	}{
		{"not json", "{\"version\":1,\"lessons\":{", "is not valid progress"},
		{"wrong types", `{"version":1,"lessons":{"abort":{"step":"three"}}}`, "is not valid progress"},
		{"negative step", `{"version":1,"lessons":{"abort":{"step":-2}}}`, "negative step"},
		{"null lesson", `{"version":1,"lessons":{"abort":null}}`, "has no entry"},
		// Of several bad entries, the first by name is named, every time.
		{"bad entries", `{"version":1,"lessons":{"zz":null,"mm":{"step":-1},"aa":{"step":-2},"bb":null}}`, `lesson "aa" has a negative step`},
		{"other version", `{"version":99}`, "format version 99"},
		{"binary", "\x00\x01\x02\xff", "is not valid progress"},
		{"too large", `{"version":1,"last":"` + strings.Repeat("x", MaxFileBytes) + `"}`, "larger than 1 MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, FileName)
			// An earlier bad file is kept: the new one takes bad-2.
			if err := os.WriteFile(file+".bad-1", []byte("old"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, []byte(tc.content), 0o600); err != nil {
				t.Fatal(err)
			}
			s := openIn(t, dir)
			n := s.Notice()
			if !strings.Contains(n, tc.why) || !strings.Contains(n, FileName+".bad-2") || !strings.Contains(n, "starts afresh") {
				t.Fatalf("notice %q, want %q and the new name", n, tc.why)
			}
			if again := s.Notice(); again != "" {
				t.Fatalf("reported twice: %q", again)
			}
			if got, _ := os.ReadFile(file + ".bad-2"); string(got) != tc.content {
				t.Fatal("the bad file was not moved aside whole")
			}
			if got, _ := os.ReadFile(file + ".bad-1"); string(got) != "old" {
				t.Fatal("an earlier bad file was overwritten")
			}
			if len(s.Data().Lessons) != 0 {
				t.Fatal("progress from a bad file was kept")
			}
			s.Reached("abort", 1, 10)
			if d := readFile(t, file); d.Lessons["abort"].Step != 1 {
				t.Fatalf("saved after starting afresh: %+v", d)
			}
		})
	}
}

// A directory that cannot be written: the learner is told once, the app
// goes on in memory, and the file written before stays as it was. (The
// directory's path is taken by a plain file, which stops writes for any
// user, root included.)
func TestUnwritableDirectory(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "eoslab")
	s := openIn(t, dir)
	s.Reached("lost-ack", 4, 10)
	s.Answered("lost-ack", 3, 2, true)
	if n := s.Notice(); n != "" {
		t.Fatal(n)
	}
	// The directory goes away and a file takes its place.
	if err := os.Rename(dir, dir+".away"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, []byte("not a directory"), 0o600); err != nil {
		t.Fatal(err)
	}
	s.Reached("lost-ack", 5, 10)
	n := s.Notice()
	if !strings.Contains(n, "cannot be saved") || !strings.Contains(n, "this session only") {
		t.Fatalf("notice %q", n)
	}
	s.Answered("lost-ack", 5, 1, false)
	s.Reached("lost-ack", 6, 10)
	if again := s.Notice(); again != "" {
		t.Fatalf("reported again: %q", again)
	}
	if s.Saving() {
		t.Fatal("Saving() while writes fail")
	}
	// In memory, everything is there.
	if l := s.Lesson("lost-ack"); l.Step != 6 || l.Answers[3] != (Answer{2, true}) || l.Answers[5] != (Answer{1, false}) {
		t.Fatalf("in memory: %+v", l)
	}
	// On disk, what was written before is whole.
	if d := readFile(t, filepath.Join(dir+".away", FileName)); d.Lessons["lost-ack"].Step != 4 || d.Lessons["lost-ack"].Answers[3] != (Answer{2, true}) {
		t.Fatalf("the earlier file changed: %+v", d.Lessons["lost-ack"])
	}
	// Opening a store there does not crash either.
	o := openIn(t, filepath.Join(dir, "sub"))
	o.Reached("abort", 1, 10)
	if n := o.Notice(); !strings.Contains(n, "cannot be saved") {
		t.Fatalf("notice %q", n)
	}
	// The directory comes back: the next change is saved, with all of it.
	os.Remove(dir)
	if err := os.Rename(dir+".away", dir); err != nil {
		t.Fatal(err)
	}
	s.Reached("lost-ack", 7, 10)
	if d := readFile(t, filepath.Join(dir, FileName)); d.Lessons["lost-ack"].Step != 7 || d.Lessons["lost-ack"].Answers[5] != (Answer{1, false}) {
		t.Fatalf("after recovery: %+v", d.Lessons["lost-ack"])
	}
}

// A progress file that cannot be opened (here: a directory in its place)
// is moved aside too.
func TestUnreadableFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, FileName), 0o700); err != nil {
		t.Fatal(err)
	}
	s := openIn(t, dir)
	if n := s.Notice(); !strings.Contains(n, "cannot be read") || !strings.Contains(n, ".bad-1") {
		t.Fatalf("notice %q", n)
	}
	s.Reached("abort", 2, 10)
	if d := readFile(t, filepath.Join(dir, FileName)); d.Lessons["abort"].Step != 2 {
		t.Fatal("not saved")
	}
}

func TestDefaultDir(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if d, _ := DefaultDir(env(map[string]string{EnvDir: "/x/y", "XDG_STATE_HOME": "/s"})); d != "/x/y" {
		t.Fatalf("EOSLAB_STATE_DIR: %q", d)
	}
	if d, _ := DefaultDir(env(map[string]string{"XDG_STATE_HOME": "/s"})); d != filepath.Join("/s", "eoslab") {
		t.Fatalf("XDG_STATE_HOME: %q", d)
	}
	if d, _ := DefaultDir(env(map[string]string{"XDG_STATE_HOME": "relative", "HOME": "/h"})); d == filepath.Join("relative", "eoslab") {
		t.Fatalf("a relative XDG_STATE_HOME must be ignored: %q", d)
	}
}

// Only the most recent drills are kept.
func TestDrillsAreBounded(t *testing.T) {
	s := openIn(t, t.TempDir())
	for i := range MaxDrills + 5 {
		s.DrillDone(Drill{Seed: uint64(i), Right: 1, Total: 1})
	}
	d := s.Data()
	if len(d.Drills) != MaxDrills || d.Drills[0].Seed != 5 {
		t.Fatalf("%d drills, first seed %d", len(d.Drills), d.Drills[0].Seed)
	}
}

// Opening a lesson and leaving it at its start keeps nothing and does not
// take "continue" from the lesson in progress.
func TestOpeningAtTheStartKeepsNothing(t *testing.T) {
	dir := t.TempDir()
	s := openIn(t, dir)
	s.Reached("zombie", 0, 12)
	if _, err := os.Stat(filepath.Join(dir, FileName)); !os.IsNotExist(err) {
		t.Fatal("a file was written for a lesson only opened")
	}
	s.Reached("abort", 3, 10)
	s.Reached("zombie", 0, 12)
	if s.Last() != "abort" || len(s.Data().Lessons) != 1 {
		t.Fatalf("last %q, lessons %v", s.Last(), s.Data().Lessons)
	}
	// Going back to the start of a lesson in progress is kept.
	s.Reached("abort", 0, 10)
	if l := openIn(t, dir).Lesson("abort"); l.Step != 0 {
		t.Fatalf("abort at %d, want 0", l.Step)
	}
}

// With a background writer, changes are written by the store's goroutine
// and Close writes the last of them; the file then holds every change.
func TestBackgroundWriterKeepsEveryChange(t *testing.T) {
	dir := t.TempDir()
	s := Open(Options{Dir: dir, Background: true})
	for k := 1; k <= 200; k++ {
		s.Reached("abort", k%10+1, 10)
		s.Answered("abort", k%9+1, k%3+1, k%2 == 0)
	}
	s.Reached("zombie", 7, 12)
	s.Close()
	s.Close() // twice is fine
	d := readFile(t, filepath.Join(dir, FileName))
	if d.Last != "zombie" || d.Lessons["zombie"].Step != 7 || len(d.Lessons["abort"].Answers) != 9 {
		t.Fatalf("on disk after Close: %+v", d)
	}
	// After Close the store writes each change at once.
	s.Reached("zombie", 8, 12)
	if d := readFile(t, filepath.Join(dir, FileName)); d.Lessons["zombie"].Step != 8 {
		t.Fatal("a change after Close was not written")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("left behind: %v", entries)
	}
}

// A background writer that cannot write reports it once, through Notice.
func TestBackgroundWriterReportsOnce(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "file")
	if err := os.WriteFile(dir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s := Open(Options{Dir: dir, Background: true})
	for k := 1; k <= 20; k++ {
		s.Reached("abort", k, 30)
	}
	s.Close()
	if n := s.Notice(); !strings.Contains(n, "cannot be saved") {
		t.Fatalf("notice %q", n)
	}
	if n := s.Notice(); n != "" {
		t.Fatalf("reported twice: %q", n)
	}
	if s.Lesson("abort").Step != 20 {
		t.Fatal("lost in memory")
	}
}

// The version a lesson was played under is kept with its place.
func TestReachedUnderKeepsTheVersion(t *testing.T) {
	dir := t.TempDir()
	s := openIn(t, dir)
	s.ReachedUnder("abort", 0, 10, 4) // only opened: nothing kept
	if len(s.Data().Lessons) != 0 {
		t.Fatal("kept a lesson only opened")
	}
	s.ReachedUnder("abort", 3, 10, 4)
	if l := openIn(t, dir).Lesson("abort"); l.Step != 3 || l.Kafka != 4 {
		t.Fatalf("kept %+v", l)
	}
	s.ReachedUnder("abort", 3, 10, 3) // v at the same step
	if l := openIn(t, dir).Lesson("abort"); l.Kafka != 3 {
		t.Fatalf("switch not kept: %+v", l)
	}
}

func TestChallengeDoneIsKeptAndMerged(t *testing.T) {
	dir := t.TempDir()
	a := openIn(t, dir)
	b := openIn(t, dir)
	a.ChallengeDone("zombie-3-and-4", []int{3, 4}, "z.scn")
	b.ChallengeDone("stall-and-unstall", []int{3}, "s.scn")
	d := readFile(t, filepath.Join(dir, FileName))
	if len(d.Challenges) != 2 || d.Challenges["zombie-3-and-4"].File != "z.scn" || len(d.Challenges["zombie-3-and-4"].Kafka) != 2 {
		t.Fatalf("challenges = %+v, want both, merged", d.Challenges)
	}
	c := openIn(t, dir)
	if ch, ok := c.Challenge("stall-and-unstall"); !ok || ch.File != "s.scn" {
		t.Fatalf("reopened: %+v %v", ch, ok)
	}
	if _, ok := c.Challenge("fencing-off"); ok {
		t.Fatal("a goal not reached is recorded")
	}
}

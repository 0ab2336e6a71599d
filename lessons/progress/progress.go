// Package progress keeps a learner's progress across runs of eoslab: the
// lessons finished, the step each lesson was left at, the answers given to
// checkpoints and the scores of drills. It is one small JSON file in the
// user's state directory ($XDG_STATE_HOME/eoslab/progress.json, else
// ~/.local/state/eoslab on Linux; the OS's configuration directory
// elsewhere).
//
// Progress is a convenience, never a reason to stop: a file that cannot be
// read or parsed is moved aside (progress.json.bad-N) and the learner
// starts afresh; a directory that cannot be written keeps the progress in
// memory for the session. Either is reported once, through Notice.
//
// Every change is written at once and atomically: a temporary file in the
// same directory, synced, then renamed over the old one, so a crash or a
// full disk leaves the previous file whole. Several eoslab processes may
// share the file: each write takes a lock on the directory (flock(2)),
// reads the file again and applies this process's changes not yet written
// to what it finds, so no process's lessons, steps, answers or drills are
// written over by another's.
//
// The package imports only the standard library and lessons/regfile. It
// must not import the views (they reach it through an interface that
// views/adapt implements).
package progress

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"

	"github.com/eoslab/eoslab/lessons/regfile"
)

// FileName is the progress file's name in its directory.
const FileName = "progress.json"

// MaxFileBytes is the largest progress file read. A learner's progress is
// a few kilobytes; anything past this is not ours, and is moved aside.
const MaxFileBytes = 1 << 20

// MaxDrills is how many drill scores are kept, the most recent.
const MaxDrills = 50

// EnvDir names an environment variable that, when set, is the directory
// the progress is kept in, whatever the OS's convention says. Tests and
// people who want their progress elsewhere set it.
const EnvDir = "EOSLAB_STATE_DIR"

// version is the file format's version.
const version = 1

// Data is everything kept. Its JSON form is the file.
type Data struct {
	Version int `json:"version"`
	// Last is the lesson played most recently, which "continue" opens.
	Last    string             `json:"last,omitempty"`
	Lessons map[string]*Lesson `json:"lessons,omitempty"`
	Drills  []Drill            `json:"drills,omitempty"`
	// Challenges are the goals reached, by name (lessons/challenges).
	Challenges map[string]Challenge `json:"challenges,omitempty"`
}

// Challenge is a goal reached: the Kafka versions it was checked under
// and where the file that reached it was kept.
type Challenge struct {
	Kafka []int  `json:"kafka,omitempty"`
	File  string `json:"file,omitempty"`
}

// Lesson is the progress in one lesson.
type Lesson struct {
	// Step is the step the learner was at when they last moved or left:
	// 0 before the first step, Steps at the end.
	Step int `json:"step"`
	// Steps is the lesson's length when Step was saved, so a lesson that
	// changed length since is noticed.
	Steps    int  `json:"steps,omitempty"`
	Finished bool `json:"finished,omitempty"`
	// Kafka is the Kafka major version the lesson was played under (3 or
	// 4; 0 when not known), which continuing plays it under again.
	Kafka int `json:"kafka,omitempty"`
	// Answers are the checkpoint answers given, by step.
	Answers map[int]Answer `json:"answers,omitempty"`
}

// Answer is a checkpoint answer: the choice (1-based) and whether it was
// right.
type Answer struct {
	Choice int  `json:"choice"`
	Right  bool `json:"right"`
}

// Drill is the score of one finished drill.
type Drill struct {
	Seed  uint64 `json:"seed"`
	Right int    `json:"right"`
	Total int    `json:"total"`
	// Revisit are the concepts answered wrong, to go over again.
	Revisit []string `json:"revisit,omitempty"`
}

// Options say where the progress is kept.
type Options struct {
	// Dir is the directory of the file. Empty means DefaultDir.
	Dir string
	// Getenv reads the environment for DefaultDir; nil means no variable
	// is set.
	Getenv func(string) string
	// Background writes the file on a goroutine of the store's own, so a
	// change costs the caller microseconds, not an fsync (a few
	// milliseconds, BenchmarkSave): the terminal UI changes the progress
	// on a keystroke. Close writes what is pending and stops it. Without
	// it, every change is written before the call returns.
	Background bool
}

// Store is the progress of one learner, loaded from and saved to a file.
// It is used from one goroutine (Bubble Tea's Update, or a command).
type Store struct {
	dir, file string
	// mu guards the data, the flags and the notices, which the background
	// writer reads; writing serialises the writes themselves, so a later
	// state is never overwritten by an earlier one.
	mu, writing sync.Mutex
	data        Data
	// broken is set while writes fail: the store keeps working in memory
	// and tries again on each change. warned is set once the learner has
	// been told, so a failing disk is reported once, not on every step.
	broken, warned bool
	notices        []string
	// refused is set when the file is not a regular file (Err).
	refused error
	// pending are the changes not yet written, applied again to the file
	// as it is when it is written (see change).
	pending []func(*Data) bool
	// kick wakes the background writer; done closes when it has stopped.
	kick chan struct{}
	done chan struct{}
}

// DefaultDir is the directory eoslab keeps its progress in: $EOSLAB_STATE_DIR
// if set, else $XDG_STATE_HOME/eoslab, else on Linux and the BSDs
// ~/.local/state/eoslab, else the OS's configuration directory
// (os.UserConfigDir) followed by eoslab.
func DefaultDir(getenv func(string) string) (string, error) {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if d := getenv(EnvDir); d != "" {
		return d, nil
	}
	if d := getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "eoslab"), nil
	}
	switch runtime.GOOS {
	case "windows", "darwin", "ios", "plan9", "android":
		d, err := os.UserConfigDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(d, "eoslab"), nil
	}
	home := getenv("HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return "", err
		}
	}
	return filepath.Join(home, ".local", "state", "eoslab"), nil
}

// Open loads the progress. It never fails: a missing file is an empty
// progress, a bad one is moved aside, and a directory that cannot be found
// keeps the progress in memory; each problem is a Notice.
func Open(o Options) *Store {
	s := &Store{data: empty()}
	dir := o.Dir
	if dir == "" {
		d, err := DefaultDir(o.Getenv)
		if err != nil {
			s.broken = true
			s.notice("Progress is not kept: no state directory (" + err.Error() + ").")
			return s
		}
		dir = d
	}
	s.dir, s.file = dir, filepath.Join(dir, FileName)
	s.load()
	if o.Background {
		s.kick, s.done = make(chan struct{}, 1), make(chan struct{})
		go s.writer()
	}
	return s
}

// writer writes the file each time a change kicks it, until Close.
func (s *Store) writer() {
	defer close(s.done)
	for range s.kick {
		s.flush()
	}
}

// Close writes any change not yet written and stops the background
// writer. The store goes on working after it, writing each change at once.
func (s *Store) Close() {
	if s.kick == nil {
		return
	}
	close(s.kick)
	<-s.done
	s.kick = nil
}

func empty() Data { return Data{Version: version, Lessons: map[string]*Lesson{}} }

// Err is the reason the progress file is refused (a FIFO or a device in
// its place), or nil. A command stops on it.
func (s *Store) Err() error { return s.refused }

// Path is the progress file, or "" when there is none.
func (s *Store) Path() string { return s.file }

func (s *Store) notice(msg string) { s.notices = append(s.notices, msg) }

// Notice returns the problems met since the last call, once each, joined
// into one message, or "".
func (s *Store) Notice() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.notices) == 0 {
		return ""
	}
	msg := s.notices[0]
	for _, n := range s.notices[1:] {
		msg += " " + n
	}
	s.notices = nil
	return msg
}

// load reads the file, or moves it aside when it cannot be used.
func (s *Store) load() {
	d, why, err := readData(s.file)
	var nr *regfile.NotRegularError
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case errors.As(err, &nr) && nr.Mode.IsDir():
		s.moveAside("cannot be read (a directory)")
	case nr != nil:
		// A FIFO or a device is not a progress file eoslab wrote, and
		// opening a FIFO would block: it is neither read, nor moved, nor
		// written over.
		s.refused, s.broken = err, true
	case err != nil:
		s.moveAside("cannot be read (" + errText(err) + ")")
	case why != "":
		s.moveAside(why)
	default:
		s.data = d
	}
}

// readData reads and checks a progress file. err is the open's error (a
// missing file, one that is not a regular file); why, when not "", says
// why the file cannot be used.
func readData(file string) (d Data, why string, err error) {
	f, err := regfile.Open(file)
	if err != nil {
		return d, "", err
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	switch {
	case err != nil:
		return d, "cannot be read (" + errText(err) + ")", nil
	case len(src) > MaxFileBytes:
		return d, "is larger than " + strconv.Itoa(MaxFileBytes>>20) + " MiB", nil
	}
	if err := json.Unmarshal(src, &d); err != nil {
		return d, "is not valid progress (" + err.Error() + ")", nil
	}
	if d.Version != version {
		return d, "has format version " + strconv.Itoa(d.Version) + ", not " + strconv.Itoa(version), nil
	}
	if err := d.valid(); err != nil {
		return d, "is not valid progress (" + err.Error() + ")", nil
	}
	if d.Lessons == nil {
		d.Lessons = map[string]*Lesson{}
	}
	return d, "", nil
}

// valid checks what JSON's types cannot: no negative steps or choices, no
// missing lesson entries.
func (d *Data) valid() error {
	// In name order, so that a file with two bad entries names the same
	// one every time.
	for _, name := range slices.Sorted(maps.Keys(d.Lessons)) {
		l := d.Lessons[name]
		if l == nil {
			return fmt.Errorf("lesson %q has no entry", name)
		}
		if l.Step < 0 || l.Steps < 0 {
			return fmt.Errorf("lesson %q has a negative step", name)
		}
		for k, a := range l.Answers {
			if k < 1 || a.Choice < 1 {
				return fmt.Errorf("lesson %q has an answer out of range", name)
			}
		}
	}
	for _, dr := range d.Drills {
		if dr.Right < 0 || dr.Total < dr.Right {
			return errors.New("a drill score is out of range")
		}
	}
	return nil
}

// moveAside renames a file that cannot be used to progress.json.bad-N,
// the first N free, and starts from an empty progress.
func (s *Store) moveAside(why string) {
	s.data = empty()
	for n := 1; n <= 1000; n++ {
		bad := s.file + ".bad-" + strconv.Itoa(n)
		if _, err := os.Lstat(bad); err == nil {
			continue
		}
		if err := os.Rename(s.file, bad); err != nil {
			s.broken = true
			s.notice("The progress file " + s.file + " " + why + " and could not be moved aside (" + errText(err) +
				"); progress is kept for this session only.")
			return
		}
		s.notice("Progress starts afresh: " + FileName + " was moved aside to " + filepath.Base(bad) +
			" in " + s.dir + " (it " + why + ").")
		return
	}
	s.broken = true
	s.notice("The progress file " + s.file + " " + why + "; progress is kept for this session only.")
}

// errText is an error without the path an *fs.PathError repeats.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Data returns a copy of the progress.
func (s *Store) Data() Data {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.data.clone()
}

func (d Data) clone() Data {
	c := Data{Version: d.Version, Last: d.Last, Lessons: map[string]*Lesson{}, Drills: slices.Clone(d.Drills)}
	if d.Challenges != nil {
		c.Challenges = map[string]Challenge{}
		for name, ch := range d.Challenges {
			c.Challenges[name] = Challenge{Kafka: slices.Clone(ch.Kafka), File: ch.File}
		}
	}
	for name, l := range d.Lessons {
		lc := *l
		if l.Answers != nil {
			lc.Answers = maps.Clone(l.Answers)
		}
		c.Lessons[name] = &lc
	}
	return c
}

// Lesson returns the progress in one lesson (a zero Lesson when none).
// Its Answers must not be changed.
func (s *Store) Lesson(name string) Lesson {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l := s.data.Lessons[name]; l != nil {
		return *l
	}
	return Lesson{}
}

// Last is the lesson played most recently, or "".
func (s *Store) Last() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.data.Last
}

func (d *Data) lesson(name string) *Lesson {
	l := d.Lessons[name]
	if l == nil {
		l = &Lesson{}
		d.Lessons[name] = l
	}
	return l
}

// change applies op to the progress and, when it changed something,
// saves. The op is kept until it is written: a write reads the file again
// under its lock and applies the ops not yet written to what it finds, so
// another eoslab's changes made in between are kept, not written over.
func (s *Store) change(op func(*Data) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !op(&s.data) {
		return
	}
	s.pending = append(s.pending, op)
	s.save()
}

// ReachedUnder is Reached for a lesson played under Kafka major version
// kafka (3 or 4), which is kept with the place.
func (s *Store) ReachedUnder(name string, step, steps, kafka int) {
	s.change(func(d *Data) bool {
		changed := false
		if l := d.Lessons[name]; l != nil && kafka > 0 && l.Kafka != kafka {
			l.Kafka, changed = kafka, true
		} else if l == nil && step > 0 {
			d.lesson(name).Kafka = kafka
		}
		return reached(d, name, step, steps) || changed
	})
}

// Reached records that the learner is at step of a lesson of steps steps,
// and saves. Reaching the last step finishes the lesson.
//
// A lesson opened and left at its start is not "played": it is not kept
// when it has no entry, and it does not become Last, so opening a lesson to
// look at it does not take "continue" away from the one in progress.
func (s *Store) Reached(name string, step, steps int) {
	s.change(func(d *Data) bool { return reached(d, name, step, steps) })
}

func reached(d *Data, name string, step, steps int) bool {
	if step <= 0 && d.Lessons[name] == nil {
		return false
	}
	l := d.lesson(name)
	if l.Step == step && l.Steps == steps && (step <= 0 || d.Last == name) && (step < steps || l.Finished) {
		return false
	}
	l.Step, l.Steps = step, steps
	if steps > 0 && step >= steps {
		l.Finished = true
	}
	if step > 0 {
		d.Last = name
	}
	return true
}

// Answered records a checkpoint answer and saves.
func (s *Store) Answered(name string, step, choice int, right bool) {
	if step < 1 || choice < 1 {
		return
	}
	s.change(func(d *Data) bool {
		l := d.lesson(name)
		if l.Answers == nil {
			l.Answers = map[int]Answer{}
		}
		l.Answers[step] = Answer{Choice: choice, Right: right}
		d.Last = name
		return true
	})
}

// DrillDone records a drill's score and saves; only the last MaxDrills are
// kept.
func (s *Store) DrillDone(dr Drill) {
	dr.Revisit = slices.Clone(dr.Revisit)
	s.change(func(d *Data) bool {
		d.Drills = append(d.Drills, dr)
		if n := len(d.Drills); n > MaxDrills {
			d.Drills = slices.Clone(d.Drills[n-MaxDrills:])
		}
		return true
	})
}

// ChallengeDone records that the goal name was reached under the Kafka
// versions kafka, by the file kept at file, and saves. Like every change
// it is merged under the directory's lock with what another eoslab wrote.
func (s *Store) ChallengeDone(name string, kafka []int, file string) {
	ch := Challenge{Kafka: slices.Clone(kafka), File: file}
	s.change(func(d *Data) bool {
		if d.Challenges == nil {
			d.Challenges = map[string]Challenge{}
		}
		d.Challenges[name] = Challenge{Kafka: slices.Clone(ch.Kafka), File: ch.File}
		return true
	})
}

// Challenge is the record of goal name, and whether it was reached.
func (s *Store) Challenge(name string) (Challenge, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, ok := s.data.Challenges[name]
	return ch, ok
}

// Reset forgets all progress and removes the file.
func (s *Store) Reset() error {
	s.writing.Lock()
	defer s.writing.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.data, s.pending = empty(), nil
	if s.file == "" {
		return nil
	}
	unlock, err := lockDir(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // no directory, no file
	}
	if err != nil {
		return fmt.Errorf("cannot lock %s: %s", s.file, errText(err))
	}
	defer unlock()
	if err := os.Remove(s.file); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cannot remove %s: %s", s.file, errText(err))
	}
	return nil
}

// save writes the change, or with a background writer hands it over.
// The caller holds mu.
func (s *Store) save() {
	if s.file == "" || s.refused != nil {
		return
	}
	if s.kick != nil {
		select {
		case s.kick <- struct{}{}:
		default: // a write is already due; it will take this change too
		}
		return
	}
	s.mu.Unlock()
	s.flush()
	s.mu.Lock()
}

// flush writes the progress atomically, merged with the file as it is
// now. A failure keeps the progress in memory and is reported once; the
// next change tries again.
func (s *Store) flush() {
	s.writing.Lock()
	defer s.writing.Unlock()
	s.mu.Lock()
	ops, mine := s.pending, s.data.clone()
	s.pending = nil
	s.mu.Unlock()
	merged, err := s.writeMerged(ops, mine)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		s.pending = append(ops, s.pending...)
		if !s.warned {
			s.notice("Progress cannot be saved (" + err.Error() + "); it is kept for this session only.")
		}
		s.broken, s.warned = true, true
		return
	}
	// Changes made while the file was being written are not in it yet.
	for _, op := range s.pending {
		op(&merged)
	}
	s.data, s.broken = merged, false
}

// writeMerged takes the directory's lock, reads the file, applies the ops
// not yet written to it and writes the result, which it returns. Without
// a usable file to read (none yet, or one moved aside at load), what this
// store holds is written.
func (s *Store) writeMerged(ops []func(*Data) bool, mine Data) (Data, error) {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return mine, errors.New(errText(err))
	}
	unlock, err := lockDir(s.dir)
	if err != nil {
		return mine, errors.New("cannot lock: " + errText(err))
	}
	defer unlock()
	merged := mine
	if d, why, err := readData(s.file); err == nil && why == "" {
		for _, op := range ops {
			op(&d)
		}
		merged = d
	}
	src, err := json.MarshalIndent(merged, "", " ")
	if err == nil {
		err = s.write(append(src, '\n'))
	}
	return merged, err
}

// Saving reports whether the last change reached the file.
func (s *Store) Saving() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.file != "" && !s.broken
}

// write puts the file in place: a temporary file in the same directory,
// written and synced, then renamed over the old one, and the directory
// synced so the rename itself is durable.
func (s *Store) write(src []byte) error {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return errors.New(errText(err))
	}
	tmp, err := os.CreateTemp(s.dir, filepath.Base(s.file)+".tmp-*")
	if err != nil {
		return errors.New(errText(err))
	}
	name := tmp.Name()
	_, err = tmp.Write(src)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(name, s.file)
	}
	if err != nil {
		os.Remove(name)
		return errors.New(errText(err))
	}
	if d, err := os.Open(s.dir); err == nil {
		d.Sync() // best effort: not every OS can sync a directory
		d.Close()
	}
	return nil
}

package cli

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/lessons/progress"
	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/adapt"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/tuirun"
)

// openTUI opens the home list, or the player on a built-in lesson.
func openTUI(f tuiFlags, kafka kafkaValue, lesson string) error {
	opts := withSandbox(views.Options{NoColor: f.noColor, ASCII: f.ascii, StartLesson: lesson, Kafka: int(kafka)}).WithEnv(os.Getenv)
	st, err := openProgress(true)
	if err != nil {
		return err
	}
	defer st.Close()
	return runTUI(afterStart(func() tea.Model {
		return views.WithChallenges(views.NewApp(adapt.Lessons(), adapt.Open, withProgress(opts, st)), adapt.Challenges(st))
	}))
}

// openTUIWith opens the player on a lesson read from a file. The file's
// lesson heads the list, under its path (which no built-in name can be),
// so esc and enter go back to it.
func openTUIWith(f tuiFlags, kafka kafkaValue, l *lessons.Lesson) error {
	m := l.Meta()
	info := model.LessonInfo{Name: l.File, Title: m.Title, Summary: m.Summary, Level: m.Level, Steps: m.Steps, Minutes: m.Minutes}
	list := append([]model.LessonInfo{info}, adapt.Lessons()...)
	open := func(name string) (model.Session, error) {
		if name == l.File {
			return adapt.New(l), nil
		}
		return adapt.Open(name)
	}
	opts := views.Options{NoColor: f.noColor, ASCII: f.ascii, StartLesson: l.File, Kafka: int(kafka)}.WithEnv(os.Getenv)
	st, err := openProgress(true)
	if err != nil {
		return err
	}
	defer st.Close()
	return runTUI(afterStart(func() tea.Model {
		return views.WithChallenges(views.NewApp(list, open, withProgress(opts, st)), adapt.Challenges(st))
	}))
}

// afterStart is the model build makes, made when Bubble Tea first asks
// for it (Init, right after its renderer started), not before the program
// starts: the lesson list, the theme and the app are built while Bubble
// Tea waits for its first frame's tick (1/60 s after the renderer
// starts), off the path to the first frame, instead of before it.
// Nothing it builds asks the terminal anything: Bubble Tea's init has
// asked the background colour already, and lipgloss keeps the answer.
func afterStart(build func() tea.Model) *deferred { return &deferred{build: build} }

// deferred is a tea.Model that is build's model once made.
type deferred struct {
	build func() tea.Model
	m     tea.Model
}

// Model is the model, made on the first call.
func (d *deferred) Model() tea.Model {
	if d.m == nil {
		d.m, d.build = d.build(), nil
	}
	return d.m
}

func (d *deferred) Init() tea.Cmd { return d.Model().Init() }

func (d *deferred) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	d.m, cmd = d.Model().Update(msg)
	return d, cmd
}

func (d *deferred) View() string { return d.Model().View() }

// runTUI runs the terminal UI. Tests replace it to look at the model
// without a terminal.
var runTUI = func(m tea.Model) error {
	// The mouse wheel scrolls the focused panel (views.App handles
	// tea.MouseMsg).
	if _, err := tuirun.Run(m, tea.WithAltScreen(), tea.WithMouseCellMotion()); err != nil {
		if ie := (*tuirun.Interrupted)(nil); errors.As(err, &ie) {
			return &exitError{code: ie.ExitCode()}
		}
		return failed("eoslab: the terminal UI stopped: " + err.Error())
	}
	return nil
}

// openProgress opens the learner's progress in the state directory. A
// progress.json that is not a regular file (a FIFO would block) stops the
// command with its name; other problems are the store's notices, which
// the TUI shows. The
// TUI's store writes in the background (a keystroke does not wait for an
// fsync); the caller closes it, which writes what is pending.
func openProgress(background bool) (*progress.Store, error) {
	st := progress.Open(progress.Options{Getenv: os.Getenv, Background: background})
	if err := st.Err(); err != nil {
		return nil, asInvalid(err)
	}
	return st, nil
}

// withProgress gives the TUI the learner's progress and the drill entry.
// A drill picked from the home screen draws its seed from the clock and
// shows it on screen, so it can be replayed with --seed.
func withProgress(o views.Options, st *progress.Store) views.Options {
	o.Progress = adapt.Progress{S: st}
	if o.NewDrill == nil {
		o.NewDrill = func(kafka int) (model.Drill, error) {
			return adapt.NewDrillFor(clockSeed(), lessons.DefaultDrillCount, kafka)
		}
	}
	return o
}

func clockSeed() uint64 { return uint64(time.Now().UnixNano()) % 1_000_000 }

// withSandbox gives the app the sandbox's presets and file saving.
func withSandbox(o views.Options) views.Options {
	o.SandboxPresets = adapt.SandboxPresets()
	k := o.Kafka
	o.OpenSandbox = func(name string) (model.SandboxSession, error) { return adapt.OpenSandboxKafka(name, k) }
	o.SaveFile = saveNew
	o.OpenChallenge = func(name string) (model.SandboxSession, error) { return adapt.OpenChallengeNamed(name) }
	return o
}

// saveNew writes data to name in the current directory, or, when a file of
// that name exists, to the first free name-2, name-3, ...: it never
// overwrites. It returns the name written.
func saveNew(name string, data []byte) (string, error) {
	if name == "" || strings.ContainsAny(name, `/\`) {
		return "", errors.New("bad file name " + strconv.Quote(name))
	}
	stem, ext := name, ""
	if i := strings.LastIndex(name, "."); i > 0 {
		stem, ext = name[:i], name[i:]
	}
	for n := 1; n < 1000; n++ {
		p := name
		if n > 1 {
			p = stem + "-" + strconv.Itoa(n) + ext
		}
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		_, werr := f.Write(data)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return "", werr
		}
		return p, nil
	}
	return "", errors.New("999 files named like " + name + " exist already")
}

// Command eoslab is an interactive terminal lab for Apache Kafka's
// exactly-once semantics. main.go is the only place that touches the OS:
// arguments, files, standard output and the real terminal.
package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	gossh "golang.org/x/crypto/ssh"

	"github.com/eoslab/eoslab/assets"
	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/realkafka"
	"github.com/eoslab/eoslab/engine/realkafka/verify"
	"github.com/eoslab/eoslab/engine/script"
	"github.com/eoslab/eoslab/engine/termsafe"
	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/lessons/progress"
	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/adapt"
	"github.com/eoslab/eoslab/views/serve"
)

const usage = `eoslab: step through, rewind and break Kafka's exactly-once protocol.

Usage:
  eoslab [--no-color] [--ascii]          open the lesson list (the TUI)
  eoslab lesson NAME|FILE.lesson [--kafka 3|4] [--no-color] [--ascii]
                                         open one lesson in the TUI
  eoslab lessons                         the learning path: lessons with level and minutes
  eoslab run [--json] [--kafka 3|4] FILE play a scenario headless; print the transcript
  eoslab run [--kafka 3|4] FILE.lesson   play a lesson file headless (transcript and narration)
  eoslab run [--kafka 3|4] --lesson NAME play a built-in lesson headless
  eoslab check FILE...                   validate scenario (.scn) or lesson (.lesson) files
  eoslab sandbox [--kafka 3|4] [FILE]    free play: a preset or a scenario file, waiting for you
  eoslab drill [--seed N] [--count N]    an interview drill: questions across the lessons, scored
  eoslab progress [--reset]              what you finished, where you left off, drill scores
  eoslab serve [--lesson NAME] [--code CODE] ...
                                         a classroom over SSH (see 'eoslab help serve')
  eoslab kafka up --dir DIR [--kafka-version V] [--transaction-version 0|1|2] [--brokers N] [--cache DIR]
                                         run a real Apache Kafka cluster on 127.0.0.1 (Java, Maven)
  eoslab kafka down --dir DIR            stop it and remove its data
  eoslab verify --brokers ADDR FILE...   play files on the simulation and on a real cluster, compare
  eoslab help [COMMAND|scenario|json]    explain a command, the scenario language or the JSON output

Exit codes: 0 success, 1 an expectation failed, 2 invalid input.
`

var commandHelp = map[string]string{
	"sandbox": `eoslab sandbox [--kafka 3|4] [FILE] [--no-color] [--ascii]

Opens the sandbox: a simulated cluster that waits for you. Without FILE it
starts on the preset picker (one idempotent producer; two instances sharing
a transactional.id; consume-transform-produce; three brokers with
replication). With FILE, a scenario file, its setup is played and then
every line after it, and the world waits at the end. --kafka 4 starts the
presets under Kafka 4's transaction protocol (transaction.version=2).

Each key is one action and one line of the scenario language: deliver, drop,
duplicate or delay the selected message, step, run, crash or restart a broker,
pause a producer, call a client's API, or type any line at the : prompt.
w saves the branch you are on as a scenario file in the current directory
(never over an existing file); 'eoslab run FILE' replays it to the same
state and 'eoslab sandbox FILE' reopens it there.`,
	"run": `eoslab run [--json] [--kafka 3|4] FILE
eoslab run [--kafka 3|4] FILE.lesson
eoslab run [--kafka 3|4] --lesson NAME

Plays a scenario file headless and prints the transcript, one event per line:
  t=TIME ACTOR: TEXT [RULE]
Expectations that fail are printed with the file:line, what was expected and
what was found. With --json, every event is a JSON object on its own line,
followed by one object with the final state (see 'eoslab help json'), which
states the transaction version (transactionVersion).

--kafka picks the transaction protocol, whatever the file's
'config transaction.version=N' lines say (they are played with it):
  --kafka 3   transaction.version=1, the classic protocol (KIP-98 with
              KIP-890 part 1): AddPartitionsToTxn, one epoch per producer
  --kafka 4   transaction.version=2 (KIP-890 part 2), Kafka 4's default: the
              partition leader adds the partition, every EndTxn bumps the
              epoch, a late write of an ended transaction is refused
Without it the file decides; the default is 1.
A FILE ending in .lesson, or --lesson with a built-in lesson's name (or a
lesson file), plays the lesson to the end: narration, events, checkpoints
with their answers, and each step's details. Errors in a lesson file are
named file:line. A lesson plays under Kafka 3 unless --kafka 4 is given;
its transcript names the version (the "kafka:" line).

An action that runs away (more than 2,000,000 steps or 1,000,000 events, or
4,000,000 events in the whole scenario) stops with an error naming its line
and what kept firing. A file is at most 16 MiB.

Exit code 0 when every expect holds, 1 when one fails, 2 on invalid input.`,
	"check": `eoslab check FILE...

Validates scenario files (.scn, or any other name) and lesson files (.lesson)
without opening the TUI. Scenario files are parsed and checked for unknown
verbs, wrong arguments, undeclared clients and partitions. Lesson files are
parsed and played to the end, so a checkpoint whose choices do not match what
the engine does is reported. Errors name file:line (and the column of a bad
character); the first 20 of a file are listed and the rest counted. A file
is at most 16 MiB. Exit code 0 when all are valid, 2 otherwise.`,
	"lessons": `eoslab lessons

Lists the built-in lessons as a learning path, in order: number, name (what
'eoslab lesson NAME' takes), level (basics, transactions, failures, systems),
length in minutes and title, then a one-line summary.`,
	"lesson": `eoslab lesson NAME [--kafka 3|4] [--no-color] [--ascii]
eoslab lesson FILE.lesson [--kafka 3|4] [--no-color] [--ascii]

Opens one lesson in the terminal player: a built-in lesson by name (see
'eoslab lessons'), or a lesson file by its path. A lesson file is checked
first, as 'eoslab check' does; errors are named file:line. --kafka picks
the transaction protocol the lesson starts under: 3, the classic one
(transaction.version=1, the default), or 4, KIP-890's
(transaction.version=2); the header names it and v switches it. Keys:
right/l/space/enter next, left/h back, p play/pause, -/+ slower/faster,
r restart, 1-4 answer a checkpoint, d the step's details, v Kafka 3/4,
tab cycle focus, ? full help, esc back to the list, q leave the lesson,
ctrl+c quit.`,
	"serve": `eoslab serve [--addr HOST:PORT] [--lesson NAME|FILE.lesson] [--kafka 3|4] [--code CODE]
             [--presenter-key FILE] [--max N] [--idle DURATION] [--host-key FILE] [--solo]

A classroom over SSH. The presenter drives a lesson; every student follows
it on their own terminal (own size, focus and scroll) and answers each
question before the presenter reveals it. Students need only ssh:
  ssh -p 2222 SEAT@HOST        (the password is the class code)
  --addr           where to listen (default 127.0.0.1:2222; to let a
                   classroom in, name an address: --addr 0.0.0.0:2222)
  --lesson         the lesson to play; without it the presenter picks one
  --kafka          the transaction protocol the class plays: 3 (classic,
                   the default) or 4 (KIP-890); a class keeps it
  --code           the class code students type (default: made up, printed)
  --presenter-key  a public key file (authorized_keys format) that logs in
                   as the presenter; without it a presenter code is made up
                   for this run and printed
  --max            most student sessions at once (default 100)
  --idle           close a student's seat after this long without a key
                   (default 30m)
  --host-key       the server's key (default: made on first start in the
                   user's state directory, then reused)
  --solo           every session plays its own copy: a self-paced lab room
Presenter keys: the lesson keys, and a reveals a question. Everyone: t
switches light/dark; w shows why a revealed question's answer is right (it
opens by itself after each reveal; esc closes it). Exit code 2 on bad flags
or files.`,
	"drill": `eoslab drill [--seed N] [--count N] [--kafka 3|4] [--no-color] [--ascii]

An interview drill in the terminal: --count questions (default 10) drawn
from every lesson's checkpoints and from questions written for the drill.
Each shows the state it is about; answer with 1-4, read why, press o to open
the lesson that teaches it. At the end: the score and the concepts to
revisit. The same --seed draws the same questions; without it the seed comes
from the clock and is shown on screen and printed when you leave. --kafka 4
plays the questions under Kafka 4's transaction protocol (transaction.version=2);
the default is Kafka 3's. Scores are kept with your progress ('eoslab help
progress').`,
	"progress": `eoslab progress [--reset]

Shows your progress: each lesson finished or the step you left it at, the
checkpoint answers you got right, and the drills' scores. --reset forgets it.
The home screen's c continues the lesson you played last, where you left it.
Progress is kept in $XDG_STATE_HOME/eoslab/progress.json (on Linux, else
~/.local/state/eoslab; the OS's configuration directory elsewhere), or in
the directory $EOSLAB_STATE_DIR names. A file that cannot be read is moved
aside (progress.json.bad-N) and progress starts afresh; a directory that
cannot be written keeps progress for the session only.`,
	"help": `eoslab help [COMMAND]

Explains a command (run, check, lessons, lesson, serve), the scenario language
('eoslab help scenario') or the JSON output of run ('eoslab help json').`,
}

// exitError carries an exit code and a message for standard error.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func invalid(format string, args ...any) error {
	return &exitError{code: 2, msg: fmt.Sprintf(format, args...)}
}

func main() {
	code := run(os.Args[1:], os.Stdout, os.Stderr)
	os.Exit(code)
}

// run is eoslab with its arguments and output streams. Whatever it prints
// goes through termsafe.Writer, so that a name or a text from a file (or a
// file name from the command line) that holds ESC, a C1 or a bidirectional
// control reaches the terminal escaped, not obeyed. The TUI draws through
// its own cleaner.
func run(args []string, stdout, stderr io.Writer) int {
	stdout, stderr = termsafe.Writer(stdout), termsafe.Writer(stderr)
	err := dispatch(args, stdout)
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(stderr, strings.TrimRight(ee.msg, "\n"))
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "eoslab:", err)
	return 2
}

type globalFlags struct {
	noColor, ascii, json bool
	lesson               string
	kafka                int // --kafka 3|4; 0 when not given
	rest                 []string
}

// kafkaFlag reads --kafka's value: the Kafka major version whose
// transaction protocol a run uses.
func kafkaFlag(v string) (int, error) {
	switch v {
	case "3", "4":
		return int(v[0] - '0'), nil
	}
	return 0, invalid("eoslab: --kafka takes 3 (transaction.version=1) or 4 (transaction.version=2), not %q", v)
}

func parseFlags(args []string) (globalFlags, error) {
	var g globalFlags
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--no-color":
			g.noColor = true
		case a == "--ascii":
			g.ascii = true
		case a == "--json":
			g.json = true
		case a == "--lesson":
			if i+1 >= len(args) {
				return g, invalid("eoslab: --lesson needs a lesson name (see 'eoslab lessons')")
			}
			i++
			g.lesson = args[i]
		case strings.HasPrefix(a, "--lesson="):
			g.lesson = strings.TrimPrefix(a, "--lesson=")
		case a == "--kafka" || strings.HasPrefix(a, "--kafka="):
			v := strings.TrimPrefix(a, "--kafka=")
			if a == "--kafka" {
				if i+1 >= len(args) {
					return g, invalid("eoslab: --kafka needs 3 or 4")
				}
				i++
				v = args[i]
			}
			k, err := kafkaFlag(v)
			if err != nil {
				return g, err
			}
			g.kafka = k
		case a == "-h" || a == "--help":
			g.rest = append([]string{"--help"}, g.rest...)
		case strings.HasPrefix(a, "-") && a != "-":
			return g, invalid("eoslab: unknown flag %s (see 'eoslab --help')", a)
		default:
			g.rest = append(g.rest, a)
		}
	}
	return g, nil
}

func dispatch(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return openTUI(globalFlags{}, "")
	}
	cmd := args[0]
	if cmd == "serve" {
		return serveCmd(args[1:], stdout)
	}
	if strings.HasPrefix(cmd, "-") {
		g, err := parseFlags(args)
		if err != nil {
			return err
		}
		if len(g.rest) > 0 && g.rest[0] == "--help" {
			fmt.Fprint(stdout, usage)
			return nil
		}
		if len(g.rest) > 0 {
			return invalid("eoslab: unknown command %q (see 'eoslab --help')", g.rest[0])
		}
		return openTUI(g, "")
	}
	switch {
	case len(args) > 1 && (args[1] == "--help" || args[1] == "-h"):
	case cmd == "drill":
		return drillCmd(args[1:], stdout)
	case cmd == "progress":
		return progressCmd(args[1:], stdout)
	case cmd == "kafka":
		return kafkaCmd(args[1:], stdout, os.Stderr)
	case cmd == "verify":
		return verifyCmd(args[1:], stdout, os.Stderr)
	}
	g, err := parseFlags(args[1:])
	if err != nil {
		return err
	}
	if len(g.rest) > 0 && g.rest[0] == "--help" {
		return help([]string{cmd}, stdout)
	}
	if g.kafka != 0 && cmd != "run" && cmd != "lesson" && cmd != "sandbox" {
		return invalid("eoslab: --kafka applies to run and lesson, not %s (see 'eoslab help run')", cmd)
	}
	switch cmd {
	case "help":
		return help(g.rest, stdout)
	case "run":
		return runCmd(g, stdout)
	case "check":
		return checkCmd(g.rest, stdout)
	case "lessons":
		return listLessons(stdout)
	case "sandbox":
		return sandboxCmd(g)
	case "lesson":
		if len(g.rest) != 1 {
			return invalid("eoslab: lesson needs one lesson name or lesson file (see 'eoslab lessons')")
		}
		l, err := loadLesson(g.rest[0], true)
		if err != nil {
			return err
		}
		if isLessonFile(g.rest[0]) {
			return openTUIWith(g, l.ForKafka(g.kafkaOr3()))
		}
		return openTUI(g, g.rest[0])
	}
	return invalid("eoslab: unknown command %q; commands: run, check, lessons, lesson, sandbox, drill, progress, serve, help (see 'eoslab --help')", cmd)
}

func help(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stdout, usage)
		return nil
	}
	switch args[0] {
	case "scenario", "language":
		fmt.Fprint(stdout, assets.ScenarioLanguage)
		return nil
	case "json":
		fmt.Fprint(stdout, assets.JSONSchema)
		return nil
	}
	h, ok := commandHelp[args[0]]
	if !ok {
		names := make([]string, 0, len(commandHelp))
		for k := range commandHelp {
			names = append(names, k)
		}
		sort.Strings(names)
		return invalid("eoslab: no help for %q; try one of: %s, scenario, json", args[0], strings.Join(names, ", "))
	}
	fmt.Fprintln(stdout, h)
	return nil
}

// listLessons prints the learning path: each lesson in order with its
// number, name, level and minutes, then its title and summary.
// nameWidth is the width of the longest lesson name, to line up a list.
func nameWidth(all []lessons.Meta) int {
	w := 0
	for _, m := range all {
		w = max(w, len(m.Name))
	}
	return w
}

func listLessons(stdout io.Writer) error {
	all := lessons.All()
	w := nameWidth(all)
	for i, m := range all {
		fmt.Fprintf(stdout, "%2d. %-*s  %-12s %2d min  %s\n    %-*s  %s\n", i+1, w, m.Name, m.Level, m.Minutes, m.Title, w, "", m.Summary)
	}
	return nil
}

// openInput opens a scenario or lesson file. A regular file larger than
// script.MaxFileBytes is refused before a byte of it is read; a pipe or a
// device, whose size is unknown, is read by the parsers through their
// limit, which stops one byte past it (eoslab run /dev/zero ends there).
func openInput(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return nil, invalid("%s: cannot read: %v", path, pe.Err)
		}
		return nil, invalid("%s: cannot read: %v", path, err)
	}
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > script.MaxFileBytes {
		f.Close()
		return nil, asInvalid(script.FileTooLarge(path))
	}
	return f, nil
}

func asInvalid(err error) error {
	return invalid("%s", err.Error())
}

// isLessonFile reports whether an argument names a lesson file rather than
// a built-in lesson: a path (it has a directory separator) or a name
// ending in .lesson. Built-in names have neither.
func isLessonFile(arg string) bool {
	return strings.HasSuffix(arg, ".lesson") || strings.ContainsAny(arg, `/\`)
}

// loadLesson loads a built-in lesson by name or a lesson file by path.
// With check set, a file is also played to the end, as 'eoslab check'
// does, so the player never opens a lesson whose answers are wrong. Every
// problem is an invalid-input error naming file:line.
func loadLesson(arg string, check bool) (*lessons.Lesson, error) {
	if !isLessonFile(arg) {
		l, err := lessons.Load(arg)
		if err != nil {
			return nil, invalid("eoslab: %v", err)
		}
		return l, nil
	}
	in, err := openInput(arg)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	l, err := lessons.ParseReader(arg, in)
	if err != nil {
		return nil, asInvalid(err)
	}
	if check {
		if err := l.Check(); err != nil {
			return nil, invalid("%s\n%s: the lesson does not play as written; 'eoslab run %s' shows where", err, arg, arg)
		}
	}
	return l, nil
}

// kafkaOr3 is the version --kafka asked for, or 3 without it.
func (g globalFlags) kafkaOr3() int {
	if g.kafka == 0 {
		return 3
	}
	return g.kafka
}

func runLesson(arg string, kafka int, stdout io.Writer) error {
	l, err := loadLesson(arg, false)
	if err != nil {
		return err
	}
	out, err := lessons.Transcript(l.ForKafka(kafka))
	fmt.Fprint(stdout, out)
	if err != nil {
		return &exitError{code: 1, msg: err.Error()}
	}
	return nil
}

func runCmd(g globalFlags, stdout io.Writer) error {
	if g.lesson != "" {
		if len(g.rest) > 0 {
			return invalid("eoslab: run --lesson takes no file")
		}
		if g.json {
			return invalid("eoslab: run --json takes a scenario file; a lesson prints its transcript")
		}
		return runLesson(g.lesson, g.kafkaOr3(), stdout)
	}
	if len(g.rest) != 1 {
		return invalid("eoslab: run needs one scenario file (see 'eoslab help run')")
	}
	file := g.rest[0]
	if strings.HasSuffix(file, ".lesson") {
		if g.json {
			return invalid("eoslab: run --json takes a scenario file; a lesson prints its transcript")
		}
		return runLesson(file, g.kafkaOr3(), stdout)
	}
	in, err := openInput(file)
	if err != nil {
		return err
	}
	cmds, err := script.ParseReader(file, in)
	in.Close()
	if err != nil {
		return asInvalid(err)
	}
	r := script.NewRunner()
	if g.kafka != 0 {
		// Kafka 3 speaks transaction.version 1, Kafka 4 version 2.
		r.PinTransactionVersion(g.kafka - 2)
	}
	enc := json.NewEncoder(stdout)
	failed := 0
	err = r.Play(cmds, func(s script.Outcome) error {
		if f := s.Failure; f != nil {
			failed++
		}
		if !g.json {
			for _, e := range s.Events {
				if _, err := fmt.Fprintln(stdout, e.Line()); err != nil {
					return err
				}
			}
			if f := s.Failure; f != nil {
				_, err := fmt.Fprintf(stdout, "EXPECT FAILED %s:%d: %s\n    found: %s\n", f.File, f.Line, f.Text, f.Got)
				return err
			}
			return nil
		}
		for _, e := range s.Events {
			if err := enc.Encode(jsonEvent(e)); err != nil {
				return err
			}
		}
		if c := s.Command; c.Kind() == script.Expect {
			je := map[string]any{"type": "expect", "file": c.File, "line": c.Line, "text": c.Text, "ok": s.Failure == nil}
			if s.Failure != nil {
				je["found"] = s.Failure.Got
			}
			return enc.Encode(je)
		}
		return nil
	})
	var se *script.Error
	switch {
	case errors.As(err, &se):
		return asInvalid(err)
	case err != nil:
		return &exitError{code: 1, msg: "eoslab: writing the transcript: " + err.Error()}
	}
	if g.json {
		if err := enc.Encode(r.World.State()); err != nil {
			return &exitError{code: 1, msg: "eoslab: writing the state: " + err.Error()}
		}
	}
	if failed > 0 {
		return &exitError{code: 1, msg: fmt.Sprintf("%s: %d expectation(s) failed", file, failed)}
	}
	return nil
}

type eventJSON struct {
	Type  string `json:"type"`
	Seq   int    `json:"seq"`
	Step  int    `json:"step"`
	Time  int64  `json:"time"`
	Kind  string `json:"kind"`
	Actor string `json:"actor"`
	Text  string `json:"text"`
	Rule  string `json:"rule,omitempty"`
	Msg   int64  `json:"msg,omitempty"`
}

func jsonEvent(e engine.Event) eventJSON {
	return eventJSON{Type: "event", Seq: e.Seq, Step: e.Step, Time: e.Time, Kind: e.Kind.String(), Actor: e.Actor, Text: e.Text, Rule: e.Rule, Msg: e.Msg}
}

func checkCmd(files []string, stdout io.Writer) error {
	if len(files) == 0 {
		return invalid("eoslab: check needs at least one file (see 'eoslab help check')")
	}
	var msgs []string
	for _, f := range files {
		if err := checkFile(f); err != nil {
			msgs = append(msgs, err.Error())
			continue
		}
		fmt.Fprintf(stdout, "%s: ok\n", f)
	}
	if len(msgs) > 0 {
		return invalid("%s", strings.Join(msgs, "\n"))
	}
	return nil
}

// checkFile validates one scenario or lesson file; a lesson is also played.
func checkFile(path string) error {
	in, err := openInput(path)
	if err != nil {
		return err
	}
	defer in.Close()
	if filepath.Ext(path) != ".lesson" {
		_, err = script.ParseReader(path, in)
		return err
	}
	l, err := lessons.ParseReader(path, in)
	if err != nil {
		return err
	}
	return l.Check()
}

func openTUI(g globalFlags, lesson string) error {
	opts := withSandbox(views.Options{NoColor: g.noColor, ASCII: g.ascii, StartLesson: lesson, Kafka: g.kafka}).WithEnv(os.Getenv)
	st := openProgress(true)
	defer st.Close()
	return runTUI(views.NewApp(adapt.Lessons(), adapt.Open, withProgress(opts, st)))
}

// openTUIWith opens the player on a lesson read from a file. The file's
// lesson heads the list, under its path (which no built-in name can be),
// so esc and enter go back to it.
func openTUIWith(g globalFlags, l *lessons.Lesson) error {
	m := l.Meta()
	info := views.LessonInfo{Name: l.File, Title: m.Title, Summary: m.Summary, Level: m.Level, Steps: m.Steps, Minutes: m.Minutes}
	list := append([]views.LessonInfo{info}, adapt.Lessons()...)
	open := func(name string) (views.Session, error) {
		if name == l.File {
			return adapt.New(l), nil
		}
		return adapt.Open(name)
	}
	opts := views.Options{NoColor: g.noColor, ASCII: g.ascii, StartLesson: l.File, Kafka: g.kafka}.WithEnv(os.Getenv)
	st := openProgress(true)
	defer st.Close()
	return runTUI(views.NewApp(list, open, withProgress(opts, st)))
}

// runTUI runs the terminal UI. Tests replace it to look at the model
// without a terminal.
var runTUI = func(m tea.Model) error {
	p := tea.NewProgram(m, tea.WithAltScreen())
	if _, err := p.Run(); err != nil {
		return &exitError{code: 1, msg: "eoslab: the terminal UI stopped: " + err.Error()}
	}
	return nil
}

// serveCmd runs eoslab serve until SIGINT or SIGTERM: it reads the flags,
// the presenter's keys and the host key (making it on first start), and
// prints how to join.
func serveCmd(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	var flagOut strings.Builder
	fs.SetOutput(&flagOut)
	addr := fs.String("addr", "127.0.0.1:2222", "")
	lesson := fs.String("lesson", "", "")
	code := fs.String("code", "", "")
	presKey := fs.String("presenter-key", "", "")
	maxN := fs.Int("max", serve.DefaultMaxSessions, "")
	idle := fs.Duration("idle", serve.DefaultIdle, "")
	hostKey := fs.String("host-key", "", "")
	solo := fs.Bool("solo", false, "")
	kafka := fs.String("kafka", "3", "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return help([]string{"serve"}, stdout)
		}
		return invalid("eoslab serve: %v (see 'eoslab help serve')", err)
	}
	switch {
	case fs.NArg() > 0:
		return invalid("eoslab serve: unexpected argument %q (see 'eoslab help serve')", fs.Arg(0))
	case *maxN < 1:
		return invalid("eoslab serve: --max needs a number of sessions of 1 or more, not %d", *maxN)
	case *idle < time.Second:
		return invalid("eoslab serve: --idle needs a duration of 1s or more, such as 30m, not %s", *idle)
	case *solo && *presKey != "":
		return invalid("eoslab serve: --solo has no presenter; drop --presenter-key")
	}
	k, err := kafkaFlag(*kafka)
	if err != nil {
		return err
	}
	if _, _, err := net.SplitHostPort(*addr); err != nil {
		return invalid("eoslab serve: --addr needs HOST:PORT, such as 127.0.0.1:2222: %v", err)
	}
	load := func(name string) (*lessons.Lesson, error) {
		l, err := lessons.Load(name)
		if err != nil {
			return nil, err
		}
		return l.ForKafka(k), nil
	}
	cfg := serve.Config{Lessons: adapt.Lessons(), Solo: *solo, MaxSessions: *maxN, Idle: *idle, Load: load,
		Open: func(name string) (views.Session, error) {
			l, err := load(name)
			if err != nil {
				return nil, err
			}
			return adapt.New(l), nil
		}, Log: serveLog(os.Stderr)}
	if *lesson != "" {
		l, err := loadLesson(*lesson, true)
		if err != nil {
			return err
		}
		l = l.ForKafka(k)
		m := l.Meta()
		cfg.Lesson = *lesson
		cfg.Lessons = []views.LessonInfo{{Name: *lesson, Title: m.Title, Summary: m.Summary, Level: m.Level, Steps: m.Steps}}
		cfg.Load = func(string) (*lessons.Lesson, error) { return l, nil }
		cfg.Open = func(string) (views.Session, error) { return adapt.New(l), nil }
	}
	cfg.ClassCode = *code
	if cfg.ClassCode == "" {
		cfg.ClassCode = serve.NewCode(6)
	}
	if *presKey != "" {
		keys, err := readPublicKeys(*presKey)
		if err != nil {
			return err
		}
		cfg.PresenterKeys = keys
	} else if !*solo {
		cfg.PresenterCode = serve.NewCode(12)
	}
	keyPath, err := hostKeyPath(*hostKey)
	if err != nil {
		return err
	}
	pemBytes, fp, err := loadHostKey(keyPath)
	if err != nil {
		return err
	}
	cfg.HostKeyPEM = pemBytes
	srv, err := serve.New(cfg)
	if err != nil {
		return invalid("eoslab serve: %v", err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return invalid("eoslab serve: cannot listen on %s: %v", *addr, err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	what := "the presenter picks the lesson"
	switch {
	case *solo:
		what = "solo: every seat plays on its own"
	case *lesson != "":
		what = "lesson " + *lesson
	}
	fmt.Fprintf(stdout, "eoslab serve: %s on %s (%s)\n", map[bool]string{true: "lab room", false: "class"}[*solo], ln.Addr(), what)
	fmt.Fprintf(stdout, "  students:  ssh -p %s SEAT@HOST   class code: %s\n", port, cfg.ClassCode)
	switch {
	case *presKey != "":
		fmt.Fprintf(stdout, "  presenter: ssh -p %s -i KEY NAME@HOST   (a key in %s)\n", port, *presKey)
	case !*solo:
		fmt.Fprintf(stdout, "  presenter: ssh -p %s NAME@HOST   presenter code: %s (this run only)\n", port, cfg.PresenterCode)
	}
	fmt.Fprintf(stdout, "  host key:  %s (%s)\n  ctrl+c stops the class.\n", fp, keyPath)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { <-ctx.Done(); srv.Close() }()
	if err := srv.Serve(ln); err != nil {
		return &exitError{code: 1, msg: "eoslab serve: " + err.Error()}
	}
	return nil
}

// hostKeyPath is --host-key, or the host key in the user's state
// directory: $XDG_STATE_HOME/eoslab, ~/.local/state/eoslab, or the
// configuration directory where there is no such convention.
func hostKeyPath(flagPath string) (string, error) {
	if flagPath != "" {
		return flagPath, nil
	}
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" {
		if home, err := os.UserHomeDir(); err == nil && runtime.GOOS != "windows" && runtime.GOOS != "darwin" {
			dir = filepath.Join(home, ".local", "state")
		} else if cd, err := os.UserConfigDir(); err == nil {
			dir = cd
		} else {
			return "", invalid("eoslab serve: no state directory for the host key (%v); pass --host-key FILE", err)
		}
	}
	return filepath.Join(dir, "eoslab", "ssh_host_ed25519_key"), nil
}

// serveLog is the server's log on w. Its lines carry what SSH clients
// send (a seat name, a request type), so they go through termsafe.Writer:
// an ESC from a client reaches the operator's terminal escaped.
func serveLog(w io.Writer) *log.Logger {
	return log.New(termsafe.Writer(w), "eoslab serve: ", log.LstdFlags)
}

// loadHostKey reads the host key, or makes one there on first start, and
// returns it with its fingerprint.
func loadHostKey(path string) ([]byte, string, error) {
	b, err := readKeyFile(path)
	if errors.Is(err, os.ErrNotExist) {
		_, priv, gerr := ed25519.GenerateKey(rand.Reader)
		if gerr != nil {
			return nil, "", invalid("eoslab serve: making a host key: %v", gerr)
		}
		blk, merr := gossh.MarshalPrivateKey(priv, "eoslab serve host key")
		if merr != nil {
			return nil, "", invalid("eoslab serve: making a host key: %v", merr)
		}
		b = pem.EncodeToMemory(blk)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, "", invalid("%s: cannot make the host key's directory: %v", path, err)
		}
		if err := os.WriteFile(path, b, 0o600); err != nil {
			return nil, "", invalid("%s: cannot write the host key: %v", path, err)
		}
	} else if err != nil {
		return nil, "", invalid("%s: cannot read the host key: %v", path, err)
	}
	signer, err := gossh.ParsePrivateKey(b)
	if err != nil {
		return nil, "", invalid("%s: not an unencrypted SSH private key (PEM): %v", path, err)
	}
	return b, gossh.FingerprintSHA256(signer.PublicKey()), nil
}

// maxKeyFileBytes caps what is read of the host key and presenter key
// files: a key is a few hundred bytes, and --host-key /dev/zero must end
// with a message, not fill the memory.
const maxKeyFileBytes = 1 << 20

// readKeyFile reads a key file of at most maxKeyFileBytes; a larger one is
// an error. A missing file's error is os.Open's (errors.Is ErrNotExist).
func readKeyFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxKeyFileBytes+1))
	if err == nil && len(b) > maxKeyFileBytes {
		err = fmt.Errorf("larger than %d MiB; a key file holds a few lines", maxKeyFileBytes>>20)
	}
	return b, err
}

// readPublicKeys reads an authorized_keys-style file: one public key a
// line, blank lines and # comments skipped.
func readPublicKeys(path string) ([]gossh.PublicKey, error) {
	b, err := readKeyFile(path)
	if err != nil {
		return nil, invalid("%s: cannot read: %v", path, err)
	}
	var keys []gossh.PublicKey
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, _, _, _, err := gossh.ParseAuthorizedKey([]byte(line))
		if err != nil {
			return nil, invalid("%s:%d: expected a public key such as 'ssh-ed25519 AAAA... name': %v", path, i+1, err)
		}
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return nil, invalid("%s: no public key in the file", path)
	}
	return keys, nil
}

// openProgress opens the learner's progress in the state directory. It
// never fails: problems are the store's notices, which the TUI shows. The
// TUI's store writes in the background (a keystroke does not wait for an
// fsync); the caller closes it, which writes what is pending.
func openProgress(background bool) *progress.Store {
	return progress.Open(progress.Options{Getenv: os.Getenv, Background: background})
}

// withProgress gives the TUI the learner's progress and the drill entry.
// A drill picked from the home screen draws its seed from the clock and
// shows it on screen, so it can be replayed with --seed.
func withProgress(o views.Options, st *progress.Store) views.Options {
	o.Progress = adapt.Progress{S: st}
	if o.NewDrill == nil {
		o.NewDrill = func(kafka int) (views.Drill, error) {
			return adapt.NewDrillFor(clockSeed(), lessons.DefaultDrillCount, kafka)
		}
	}
	return o
}

func clockSeed() uint64 { return uint64(time.Now().UnixNano()) % 1_000_000 }

// drillCmd is `eoslab drill [--seed N] [--count N] [--no-color] [--ascii]`.
func drillCmd(args []string, stdout io.Writer) error {
	var seed uint64
	seeded, count := false, lessons.DefaultDrillCount
	var rest []string
	for i := 0; i < len(args); i++ {
		name, val, hasVal := strings.Cut(args[i], "=")
		if name != "--seed" && name != "--count" {
			rest = append(rest, args[i])
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return invalid("eoslab: %s needs a number (see 'eoslab help drill')", name)
			}
			i++
			val = args[i]
		}
		n, err := strconv.ParseUint(val, 10, 64)
		switch {
		case name == "--seed" && err == nil:
			seed, seeded = n, true
		case name == "--count" && err == nil && n >= 1 && n <= 1000:
			count = int(n)
		case name == "--seed":
			return invalid("eoslab: --seed takes a whole number from 0 to %d, not %q", uint64(1<<64-1), val)
		default:
			return invalid("eoslab: --count takes a whole number from 1 to 1000, not %q", val)
		}
	}
	g, err := parseFlags(rest)
	if err != nil {
		return err
	}
	if len(g.rest) > 0 || g.json || g.lesson != "" {
		return invalid("eoslab: drill takes --seed N, --count N, --kafka 3|4, --no-color and --ascii (see 'eoslab help drill')")
	}
	kafka := max(g.kafka, 3)
	if !seeded {
		seed = clockSeed()
	}
	d, err := adapt.NewDrillFor(seed, count, kafka)
	if err != nil {
		return asInvalid(err)
	}
	first := true
	opts := views.Options{NoColor: g.noColor, ASCII: g.ascii, StartDrill: true,
		NewDrill: func(int) (views.Drill, error) {
			if first {
				first = false
				return d, nil
			}
			return adapt.NewDrillFor(clockSeed(), count, kafka)
		}}.WithEnv(os.Getenv)
	st := openProgress(true)
	err = runTUI(views.NewApp(adapt.Lessons(), adapt.Open, withProgress(opts, st)))
	st.Close()
	r := d.Result()
	fmt.Fprintf(stdout, "Drill seed %d: %d of %d right. Replay it with: eoslab drill --seed %d --count %d --kafka %d\n",
		seed, r.Right, r.Total, seed, d.Len(), kafka)
	return err
}

// progressCmd is `eoslab progress [--reset]`.
func progressCmd(args []string, stdout io.Writer) error {
	reset := false
	for _, a := range args {
		if a != "--reset" {
			return invalid("eoslab: progress takes only --reset, not %q (see 'eoslab help progress')", a)
		}
		reset = true
	}
	st := openProgress(false)
	if n := st.Notice(); n != "" {
		fmt.Fprintln(stdout, n)
	}
	if reset {
		if err := st.Reset(); err != nil {
			return &exitError{code: 1, msg: "eoslab: " + err.Error()}
		}
		fmt.Fprintln(stdout, "Progress cleared.")
		return nil
	}
	printProgress(stdout, st)
	return nil
}

// printProgress lists every lesson in order with where the learner is,
// then the drills' scores.
func printProgress(out io.Writer, st *progress.Store) {
	if p := st.Path(); p != "" {
		fmt.Fprintf(out, "Progress kept in %s\n\n", p)
	}
	all := lessons.All()
	w := nameWidth(all)
	for i, m := range all {
		l := st.Lesson(m.Name)
		where := "not started"
		switch {
		case l.Finished && l.Step > 0 && l.Step < m.Steps:
			where = fmt.Sprintf("finished, now at step %d of %d", l.Step, m.Steps)
		case l.Finished:
			where = "finished"
		case l.Step > 0:
			where = fmt.Sprintf("at step %d of %d", min(l.Step, m.Steps), m.Steps)
		}
		if l.Kafka == 4 && where != "not started" {
			where += " (Kafka 4)"
		}
		if n := len(l.Answers); n > 0 {
			right := 0
			for _, a := range l.Answers {
				if a.Right {
					right++
				}
			}
			where += fmt.Sprintf(", %d of %d answers right", right, n)
		}
		fmt.Fprintf(out, "%2d. %-*s  %s\n", i+1, w, m.Name, where)
	}
	if last := st.Last(); last != "" {
		if l := st.Lesson(last); l.Step > 0 && l.Step < l.Steps {
			fmt.Fprintf(out, "\nContinue with: eoslab lesson %s (at step %d)\n", last, l.Step)
		}
	}
	d := st.Data().Drills
	if len(d) == 0 {
		fmt.Fprintln(out, "\nNo drill played yet: eoslab drill")
		return
	}
	fmt.Fprintf(out, "\nDrills played: %d\n", len(d))
	for _, dr := range d[max(len(d)-5, 0):] {
		line := fmt.Sprintf("  seed %d: %d of %d right", dr.Seed, dr.Right, dr.Total)
		if len(dr.Revisit) > 0 {
			line += "; revisit: " + strings.Join(dr.Revisit, ", ")
		}
		fmt.Fprintln(out, line)
	}
}

// sandboxCmd opens the sandbox on the preset picker, or on a scenario file
// played to its end.
func sandboxCmd(g globalFlags) error {
	if g.json || g.lesson != "" {
		return invalid("eoslab: sandbox takes no --json or --lesson (see 'eoslab help sandbox')")
	}
	if len(g.rest) > 1 {
		return invalid("eoslab: sandbox takes at most one scenario file (see 'eoslab help sandbox')")
	}
	if len(g.rest) == 1 && g.kafka != 0 {
		return invalid("eoslab: sandbox --kafka picks the presets' protocol; a file sets its own with 'config transaction.version=N'")
	}
	opts := withSandbox(views.Options{NoColor: g.noColor, ASCII: g.ascii, Kafka: g.kafka}).WithEnv(os.Getenv)
	var sess views.SandboxSession
	if len(g.rest) == 1 {
		s, err := openSandboxFile(g.rest[0])
		if err != nil {
			return err
		}
		sess = s
	}
	return runTUI(views.NewSandbox(opts.SandboxPresets, opts.OpenSandbox, sess, opts))
}

// openSandboxFile reads a scenario file for the sandbox; a bad file is
// invalid input (exit 2) with its file:line.
func openSandboxFile(path string) (*adapt.Sandbox, error) {
	in, err := openInput(path)
	if err != nil {
		return nil, err
	}
	src, err := io.ReadAll(io.LimitReader(in, 1<<20+1))
	in.Close()
	if err != nil {
		return nil, invalid("eoslab: %s: %v", path, err)
	}
	if len(src) > 1<<20 {
		return nil, invalid("eoslab: %s: larger than 1 MiB; a sandbox file is a scenario of a few hundred lines", path)
	}
	s, err := adapt.OpenSandboxFile(path, src)
	if err != nil {
		return nil, asInvalid(err)
	}
	return s, nil
}

// withSandbox gives the app the sandbox's presets and file saving.
func withSandbox(o views.Options) views.Options {
	o.SandboxPresets = adapt.SandboxPresets()
	k := o.Kafka
	o.OpenSandbox = func(name string) (views.SandboxSession, error) { return adapt.OpenSandboxKafka(name, k) }
	o.SaveFile = saveNew
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

// kafkaCmd is `eoslab kafka up|down`; the work is in engine/realkafka.
func kafkaCmd(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || (args[0] != "up" && args[0] != "down") {
		return invalid("eoslab kafka: want up or down (see 'eoslab --help')")
	}
	fs := flag.NewFlagSet("kafka "+args[0], flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dir := fs.String("dir", "", "")
	cache := fs.String("cache", "", "")
	version := fs.String("kafka-version", realkafka.DefaultKafkaVersion, "")
	tv := fs.Int("transaction-version", -1, "")
	brokers := fs.Int("brokers", 1, "")
	if err := fs.Parse(args[1:]); err != nil {
		return invalid("eoslab kafka %s: %v", args[0], err)
	}
	if fs.NArg() > 0 {
		return invalid("eoslab kafka %s: unexpected argument %q", args[0], fs.Arg(0))
	}
	var err error
	if args[0] == "down" {
		err = realkafka.Down(*dir, stderr)
	} else {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		err = realkafka.Up(ctx, realkafka.Options{Dir: *dir, Cache: *cache, KafkaVersion: *version, TransactionVersion: *tv, Brokers: *brokers}, stdout, stderr)
	}
	if err != nil {
		return &exitError{code: realkafka.ExitCode(err), msg: err.Error()}
	}
	return nil
}

// verifyCmd is `eoslab verify --brokers ADDR [--known FILE] FILE...`; the
// work is in engine/realkafka/verify.
func verifyCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	brokers := fs.String("brokers", "", "")
	knownFile := fs.String("known", "", "")
	if err := fs.Parse(args); err != nil {
		return invalid("eoslab verify: %v (usage: eoslab verify --brokers ADDR FILE...)", err)
	}
	known := assets.KafkaKnownDifferences
	if *knownFile != "" {
		b, err := os.ReadFile(*knownFile)
		if err != nil {
			return invalid("eoslab verify: %v", err)
		}
		known = string(b)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s, err := verify.Run(ctx, verify.Options{Brokers: *brokers, Files: fs.Args(), Known: known}, stdout)
	if err != nil {
		return invalid("%v", err)
	}
	if code := s.ExitCode(); code != 0 {
		return &exitError{code: code, msg: "eoslab verify: a difference is not in the known-differences file"}
	}
	return nil
}

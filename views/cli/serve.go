package cli

import (
	"context"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/lessons/progress"
	"github.com/eoslab/eoslab/views/adapt"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/serve"
	"github.com/eoslab/eoslab/views/tuirun"
)

// serveFlags are serve's flags.
type serveFlags struct {
	addr, lesson, code, presKey, hostKey string
	max                                  int
	idle                                 time.Duration
	solo                                 bool
	kafka                                kafkaValue
}

func serveCommand() *cobra.Command {
	o := serveFlags{max: serve.DefaultMaxSessions, idle: serve.DefaultIdle}
	cmd := &cobra.Command{
		Use:   "serve [--lesson NAME|FILE.lesson] [--code CODE] [--addr HOST:PORT] ...",
		Short: "a classroom over SSH",
		Long: `A classroom over SSH. The presenter drives a lesson; every student follows
it on their own terminal (own size, focus and scroll) and answers each
question before the presenter reveals it. Students need only ssh:
  ssh -p 2222 SEAT@HOST        (the password is the class code)
The presenter logs in with the presenter code serve prints (or the key
--presenter-key names). A seat is its first session's: the seat code it
shows once is the password back to that seat (after a dropped connection
or the idle timeout); the class code will not open a taken seat.
Presenter keys: the lesson keys, and a reveals a question; c conceals the
tally until the reveal; s shows the summary, e (in it) writes it to
class-summary.txt in the state directory; x lets students open the
class's world in a sandbox of their own (they press x). Everyone: T
switches light/dark; w shows why a revealed question's answer is right (it
opens by itself after each reveal; esc closes it). The class (step,
answers, seats, codes) is kept in the state directory (class.json) and
comes back on a restart within 6 hours for the same lesson. Exit code 2 on bad flags or files.`,
		Example:           "  eoslab serve --lesson zombie --code kafka42\n  eoslab serve --addr 0.0.0.0:2222 --solo",
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.solo && o.presKey != "" {
				return invalid("eoslab serve: --solo has no presenter; drop --presenter-key")
			}
			return serveCmd(o, cmd.OutOrStdout())
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&o.addr, "addr", "a", "127.0.0.1:2222", "where to listen, `HOST:PORT`; to let a classroom in, name an address: --addr 0.0.0.0:2222")
	fl.StringVarP(&o.lesson, "lesson", "l", "", "the lesson to play, a `NAME` or a FILE.lesson; without it the presenter picks one")
	_ = cmd.RegisterFlagCompletionFunc("lesson", completeLessonName)
	addKafka(cmd, &o.kafka, "the transaction protocol the class plays: 3 (classic, the default) or 4 (KIP-890); a class keeps it")
	fl.StringVar(&o.code, "code", "", "the class `CODE` students type (default: made up, printed)")
	fl.StringVar(&o.presKey, "presenter-key", "", "a public key `FILE` (authorized_keys format) that logs in as the presenter;\nwithout it a presenter code is made up and printed")
	fl.Var(intValue{&o.max, 1, math.MaxInt}, "max", "most student sessions at once")
	fl.Var(durationValue{&o.idle, time.Second}, "idle", "close a student's seat after this long without a key")
	fl.StringVar(&o.hostKey, "host-key", "", "the server's key `FILE` (default: made on first start in the user's state directory, then reused)")
	fl.BoolVar(&o.solo, "solo", false, "every session plays its own copy: a self-paced lab room")
	return cmd
}

// serveCmd runs eoslab serve until SIGINT or SIGTERM: it reads the
// presenter's keys and the host key (making it on first start), and
// prints how to join.
func serveCmd(o serveFlags, stdout io.Writer) error {
	tuirun.Release() // serve shuts down on SIGINT and SIGTERM itself
	k := o.kafka.or3()
	if _, _, err := net.SplitHostPort(o.addr); err != nil {
		return invalid("eoslab serve: --addr needs HOST:PORT, such as 127.0.0.1:2222: %v", err)
	}
	load := func(name string) (*lessons.Lesson, error) {
		l, err := lessons.Load(name)
		if err != nil {
			return nil, err
		}
		return l.ForKafka(k), nil
	}
	cfg := serve.Config{Lessons: adapt.Lessons(), Solo: o.solo, MaxSessions: o.max, Idle: o.idle, Load: load,
		Open: func(name string) (model.Session, error) {
			l, err := load(name)
			if err != nil {
				return nil, err
			}
			return adapt.New(l), nil
		}, Log: serveLog(os.Stderr)}
	if o.lesson != "" {
		l, err := loadLesson(o.lesson, true)
		if err != nil {
			return err
		}
		l = l.ForKafka(k)
		m := l.Meta()
		cfg.Lesson = o.lesson
		cfg.Lessons = []model.LessonInfo{{Name: o.lesson, Title: m.Title, Summary: m.Summary, Level: m.Level, Steps: m.Steps}}
		cfg.Load = func(string) (*lessons.Lesson, error) { return l, nil }
		cfg.Open = func(string) (model.Session, error) { return adapt.New(l), nil }
	}
	cfg.ClassCode = o.code
	if cfg.ClassCode == "" {
		cfg.ClassCode = serve.NewCode(6)
	}
	if o.presKey != "" {
		keys, err := readPublicKeys(o.presKey)
		if err != nil {
			return err
		}
		cfg.PresenterKeys = keys
	} else if !o.solo {
		cfg.PresenterCode = serve.NewCode(12)
	}
	keyPath, err := progress.HostKeyPath(o.hostKey, os.Getenv)
	if err != nil {
		return err
	}
	pemBytes, fp, err := loadHostKey(keyPath)
	if err != nil {
		return err
	}
	cfg.HostKeyPEM = pemBytes
	if dir, err := progress.StateDir(os.Getenv); err == nil && !o.solo {
		cfg.Keep = progress.StateFile(filepath.Join(dir, progress.ClassFile))
	}
	srv, err := serve.New(cfg)
	if err != nil {
		return invalid("eoslab serve: %v", err)
	}
	codes := srv.Codes() // a class kept from a restart keeps its codes
	cfg.ClassCode, cfg.PresenterCode = codes.Class, codes.Presenter
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return invalid("eoslab serve: cannot listen on %s: %v", o.addr, err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	what := "the presenter picks the lesson"
	switch {
	case o.solo:
		what = "solo: every seat plays on its own"
	case o.lesson != "":
		what = "lesson " + o.lesson
	}
	fmt.Fprintf(stdout, "eoslab serve: %s on %s (%s)\n", map[bool]string{true: "lab room", false: "class"}[o.solo], ln.Addr(), what)
	fmt.Fprintf(stdout, "  students:  ssh -p %s SEAT@HOST   class code: %s\n", port, cfg.ClassCode)
	switch {
	case o.presKey != "":
		fmt.Fprintf(stdout, "  presenter: ssh -p %s -i KEY NAME@HOST   (a key in %s)\n", port, o.presKey)
	case !o.solo:
		fmt.Fprintf(stdout, "  presenter: ssh -p %s NAME@HOST   presenter code: %s\n", port, cfg.PresenterCode)
	}
	fmt.Fprintf(stdout, "  host key:  %s (%s)\n  ctrl+c stops the class.\n", fp, keyPath)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { <-ctx.Done(); srv.Close() }()
	if err := srv.Serve(ln); err != nil {
		return failed("eoslab serve: " + err.Error())
	}
	return nil
}

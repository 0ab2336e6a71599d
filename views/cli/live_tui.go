package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"

	"github.com/spf13/cobra"

	"github.com/eoslab/eoslab/engine/realkafka/live"
	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/adapt"
	"github.com/eoslab/eoslab/views/model"
)

// livePlayer is eoslab live without --headless: the lesson player with
// the cluster beside the simulation (views.Live). With a lesson named it
// opens that lesson on the cluster first (so a lesson the cluster cannot
// play is exit 2 before the terminal is taken), and leaving it ends the
// program. Without one it plays every lesson to find the ones that play
// live (live.List: only the driver knows whether a lesson plays to the
// end, as some refusals depend on the state reached, so a mark read from
// the catalogue could be wrong), printing a line per lesson as it goes,
// and offers those on the home list. Every session opened is closed at
// the end, which deletes what it made.
func livePlayer(ctx context.Context, cmd *cobra.Command, o live.Options, name string, tf tuiFlags) error {
	out := cmd.OutOrStdout()
	var offered []model.LessonInfo
	var first *live.Session
	if name != "" {
		fmt.Fprintf(out, "live: opening %s on %s (creating its prefixed topics, playing the setup)...\n", name, o.Conn.Describe())
		s, err := live.Open(ctx, o, name)
		if err != nil {
			return liveErr(cmd, err)
		}
		first = s
		for _, l := range adapt.Lessons() {
			if l.Name == name {
				offered = append(offered, l)
			}
		}
	} else {
		fmt.Fprintf(out, "live: finding the lessons that play live on %s (transaction.version=%d); this plays each one and takes minutes:\n", o.Conn.Describe(), o.TV)
		ps, err := live.List(ctx, o, out)
		if err != nil {
			return liveErr(cmd, err)
		}
		ok := map[string]bool{}
		for _, p := range ps {
			ok[p.Name] = p.OK
		}
		for _, l := range adapt.Lessons() {
			if ok[l.Name] {
				offered = append(offered, l)
			}
		}
		if len(offered) == 0 {
			return failed("eoslab live: no lesson plays to its end on this cluster")
		}
	}
	app := views.Options{NoColor: tf.noColor, ASCII: tf.ascii, StartLesson: name}.WithEnv(os.Getenv)
	l, closeAll := LivePlayer(ctx, o, first, offered, app)
	err := runTUI(l)
	if cerr := closeAll(out); err == nil {
		err = cerr
	}
	return err
}

// LivePlayer is eoslab live's player on the lessons offered, on the
// simulation and on the cluster of o. first, when set, is the session of
// app.StartLesson, opened already; leaving that lesson ends the program.
// closeAll closes every session opened (deleting what each made) and
// says so on out; call it once the program ended.
func LivePlayer(ctx context.Context, o live.Options, first *live.Session, offered []model.LessonInfo, app views.Options) (*views.Live, func(out io.Writer) error) {
	k := 3
	if o.TV >= 2 {
		k = 4
	}
	app.Kafka = k
	sides := &liveSides{ctx: ctx, o: o, first: first}
	l := views.NewLive(views.LiveOptions{
		App:         app,
		Lessons:     offered,
		Open:        func(n string) (model.Session, error) { return liveSim(n, k) },
		OpenSide:    sides.open,
		QuitOnLeave: first != nil,
	})
	return l, sides.closeAll
}

// liveSim is the simulation's session of lesson name under Kafka k, the
// cluster's protocol: the lesson live.Session plays (its Lesson is
// lessons.Load(name).ForKafka(k) too). The version key stays off: the
// cluster runs one protocol.
func liveSim(name string, k int) (model.Session, error) {
	l, err := lessons.Load(name)
	if err != nil {
		return nil, err
	}
	return oneKafka{adapt.New(l.ForKafka(k))}, nil
}

// oneKafka is a session without its Kafka switch.
type oneKafka struct{ model.Session }

// liveSides opens the sessions the player asks for and closes them all
// at the end.
type liveSides struct {
	ctx   context.Context
	o     live.Options
	mu    sync.Mutex
	first *live.Session // opened before the TUI, given to the first ask
	all   []*closer
}

// closer closes a session once and keeps what that said: the player
// closes a side when its lesson is left, and closeAll asks again.
type closer struct {
	s    *live.Session
	once sync.Once
	err  error
	// gone is the error of a step the cluster did not answer: the
	// session failed even when its clean-up got through after.
	gone atomic.Pointer[error]
}

func (c *closer) Close() error {
	c.once.Do(func() {
		// Close names what it could not delete; a cluster gone mid-lesson
		// whose clean-up went through after is still a failed run.
		c.err = c.s.Close()
		if g := c.gone.Load(); c.err == nil && g != nil {
			c.err = *g
		}
	})
	return c.err
}

func (ls *liveSides) open(name string) (views.LiveSide, error) {
	ls.mu.Lock()
	s := ls.first
	ls.first = nil
	ls.mu.Unlock()
	if s == nil || s.Lesson().Name != name {
		if s != nil {
			ls.add(s)
		}
		var err error
		if s, err = live.Open(ls.ctx, ls.o, name); err != nil {
			return nil, err
		}
	}
	side := &liveSide{s: s, c: ls.add(s), cluster: ls.o.Conn.Describe(), tv: ls.o.TV}
	side.last = adapt.KafkaSide(s.Setup(), side.cluster, side.tv)
	return side, nil
}

func (ls *liveSides) add(s *live.Session) *closer {
	c := &closer{s: s}
	ls.mu.Lock()
	ls.all = append(ls.all, c)
	ls.mu.Unlock()
	return c
}

// closeAll closes every session (a session closed before returns at
// once), saying so: a cluster's deletes take a moment.
func (ls *liveSides) closeAll(out io.Writer) error {
	ls.mu.Lock()
	all := ls.all
	if ls.first != nil {
		all = append(all, &closer{s: ls.first})
	}
	ls.mu.Unlock()
	if len(all) == 0 {
		return nil
	}
	fmt.Fprintln(out, "live: deleting the run's topics and groups...")
	var errs []error
	for _, s := range all {
		if err := s.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return failed("eoslab " + err.Error())
	}
	fmt.Fprintln(out, "live: done")
	return nil
}

// liveSide is a live.Session as views.Live draws it.
type liveSide struct {
	s       *live.Session
	c       *closer
	cluster string
	tv      int
	mu      sync.Mutex
	last    model.KafkaSide
}

func (x *liveSide) Setup() model.KafkaSide { return adapt.KafkaSide(x.s.Setup(), x.cluster, x.tv) }

func (x *liveSide) Step(i int) (model.KafkaSide, error) {
	snap, err := x.s.Step(i)
	x.mu.Lock()
	defer x.mu.Unlock()
	if err != nil {
		x.c.gone.Store(&err)
		return adapt.KafkaGone(x.last, err), err
	}
	x.last = adapt.KafkaSide(snap, x.cluster, x.tv)
	return x.last, nil
}

func (x *liveSide) Close() error { return x.c.Close() }

package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"eoslab/lessons"
	"eoslab/lessons/progress"
	"eoslab/views"
	"eoslab/views/adapt"
)

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

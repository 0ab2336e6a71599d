package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/lessons/progress"
)

func progressCommand() *cobra.Command {
	var reset bool
	cmd := &cobra.Command{
		Use:   "progress [--reset]",
		Short: "what you finished, where you left off, drill scores",
		Long: `Shows your progress: each lesson finished or the step you left it at, the
checkpoint answers you got right, and the drills' scores. --reset forgets it.
The home screen's c continues the lesson you played last, where you left it.
Progress is kept in $XDG_STATE_HOME/eoslab/progress.json (on Linux, else
~/.local/state/eoslab; the OS's configuration directory elsewhere), or in
the directory $EOSLAB_STATE_DIR names. A file that cannot be read is moved
aside (progress.json.bad-N) and progress starts afresh; a directory that
cannot be written keeps progress for the session only.`,
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return progressCmd(reset, cmd.OutOrStdout())
		},
	}
	cmd.Flags().BoolVar(&reset, "reset", false, "forget your progress")
	return cmd
}

// progressCmd shows the learner's progress, or forgets it.
func progressCmd(reset bool, stdout io.Writer) error {
	st, err := openProgress(false)
	if err != nil {
		return err
	}
	if n := st.Notice(); n != "" {
		fmt.Fprintln(stdout, n)
	}
	if reset {
		if err := st.Reset(); err != nil {
			return failed("eoslab progress: " + err.Error())
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
	printChallenges(out, st)
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

package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"

	"github.com/eoslab/eoslab/lessons/challenges"
	"github.com/eoslab/eoslab/lessons/progress"
)

// challengesDir is the folder of the state directory that keeps the
// files that reached a goal.
const challengesDir = "challenges"

func challengesCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "challenges [show N [--hint] [--solution] | check N FILE]",
		Short: "goals to reach in the sandbox, checked by the engine",
		Long: `Lists the challenges: situations to make happen in the sandbox (a record
written twice, a stalled read_committed consumer, a fenced zombie), each with
its level and whether you reached it. 'challenges show N' says what goal N
asks; --hint adds a hint, --solution prints a scenario file that reaches it.
'challenges check N FILE' plays FILE (a scenario file, such as one the
sandbox's w saved) under the Kafka version(s) the goal names, whatever its
config transaction.version lines say (as 'eoslab run --kafka' does), and says
whether the goal was reached. A run with a teaching switch off does not count,
except for the goal about the switch. A reached goal is recorded in your progress and FILE is
kept in the state directory's challenges folder (the path is printed).
Exit code 0 when reached, 1 when not, 2 for bad input.`,
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return listChallenges(cmd.OutOrStdout())
		},
	}
	cmd.AddCommand(challengeShowCommand(), challengeCheckCommand())
	return cmd
}

func challengeShowCommand() *cobra.Command {
	var hint, solution bool
	cmd := &cobra.Command{
		Use:               "show N [--hint] [--solution]",
		Short:             "what goal N asks, with a hint or its solution on request",
		Args:              argCount(1, "one goal number"),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, args []string) error {
			n, g, err := goalArg(cmd, args[0])
			if err != nil {
				return err
			}
			showChallenge(cmd.OutOrStdout(), n, g, hint, solution)
			return nil
		},
	}
	cmd.Flags().BoolVar(&hint, "hint", false, "add a hint")
	cmd.Flags().BoolVar(&solution, "solution", false, "print a scenario file that reaches the goal")
	return cmd
}

func challengeCheckCommand() *cobra.Command {
	return &cobra.Command{
		Use:               "check N FILE",
		Short:             "play FILE and say whether it reaches goal N",
		Args:              argCount(2, "a goal number and a scenario file"),
		ValidArgsFunction: completeScenario,
		RunE: func(cmd *cobra.Command, args []string) error {
			n, g, err := goalArg(cmd, args[0])
			if err != nil {
				return err
			}
			return checkChallenge(cmd.OutOrStdout(), n, g, args[1])
		},
	}
}

// argCount takes exactly n arguments, said as what.
func argCount(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return invalid("%s takes %s (%s)", prefix(cmd), what, see(cmd))
		}
		return nil
	}
}

// goalArg reads a goal number.
func goalArg(cmd *cobra.Command, arg string) (int, challenges.Goal, error) {
	n, err := strconv.Atoi(arg)
	if err != nil {
		return 0, challenges.Goal{}, invalid("%s %q is not a goal number; 'eoslab challenges' lists them", prefix(cmd), arg)
	}
	g, err := challenges.Get(n)
	if err != nil {
		return 0, challenges.Goal{}, invalid("%s %v", prefix(cmd), err)
	}
	return n, g, nil
}

// listChallenges prints every goal with its level and whether it was
// reached.
func listChallenges(out io.Writer) error {
	st, err := openProgress(false)
	if err != nil {
		return err
	}
	if n := st.Notice(); n != "" {
		fmt.Fprintln(out, n)
	}
	done := 0
	for i, g := range challenges.All() {
		mark := "not done"
		if _, ok := st.Challenge(g.Name); ok {
			mark, done = "done", done+1
		}
		fmt.Fprintf(out, "%2d. level %d  %-8s  %s (%s)\n", i+1, g.Level, mark, g.Title, challenges.Versions(g))
	}
	fmt.Fprintf(out, "\n%d of %d reached. 'eoslab challenges show N' says what a goal asks.\n", done, len(challenges.All()))
	return nil
}

// showChallenge prints goal n, and its hint and solution when asked.
func showChallenge(out io.Writer, n int, g challenges.Goal, hint, solution bool) {
	fmt.Fprintf(out, "Challenge %d, level %d: %s\n\n", n, g.Level, g.Title)
	fmt.Fprintf(out, "%s\nPlayed under %s.\n", para("Goal: "+g.Goal), challenges.Versions(g))
	if hint {
		fmt.Fprintf(out, "\n%s\n", para("Hint: "+g.Hint))
	}
	if solution {
		fmt.Fprintf(out, "\n%s\n\nA solution (%s):\n\n%s", para("Why: "+g.Why), g.Solution, challenges.SolutionText(g))
	}
	if !hint && !solution {
		fmt.Fprintf(out, "\nTry it in 'eoslab sandbox', save with w, then: eoslab challenges check %d FILE\n(--hint for a hint, --solution for a file that reaches it)\n", n)
	}
}

// para wraps a paragraph at 78 columns, between words.
func para(s string) string { return ansi.Wordwrap(s, 78, "") }

// checkChallenge plays the file against goal n; a reached goal is
// recorded and the file kept.
func checkChallenge(out io.Writer, n int, g challenges.Goal, path string) error {
	in, err := openInput(path)
	if err != nil {
		return err
	}
	src, err := io.ReadAll(in)
	in.Close()
	if err != nil {
		return invalid("%s: cannot read: %v", path, err)
	}
	o, err := challenges.Check(g, path, src)
	if err != nil {
		return asInvalid(err)
	}
	for _, s := range o.Says {
		fmt.Fprintln(out, s)
	}
	for _, r := range o.Runs {
		if len(r.Failed) > 0 {
			fmt.Fprintf(out, "(under Kafka %d, %d of the file's own expect lines failed; they do not decide the goal)\n", r.Kafka, len(r.Failed))
		}
	}
	if !o.Reached {
		return failed(fmt.Sprintf("Challenge %d (%s) is not reached yet. 'eoslab challenges show %d --hint' gives a hint.", n, g.Title, n))
	}
	fmt.Fprintf(out, "Challenge %d reached: %s.\n", n, g.Title)
	fmt.Fprintln(out, keepSolution(n, g, src))
	return nil
}

// keepSolution writes the file that reached the goal into the state
// directory and records the goal in the progress; it says where, or why
// not (a goal reached is never a failure because the disk is).
func keepSolution(n int, g challenges.Goal, src []byte) string {
	dir, err := progress.StateDir(os.Getenv)
	if err != nil {
		return "Not recorded: " + err.Error()
	}
	file := filepath.Join(dir, challengesDir, fmt.Sprintf("%02d-%s.scn", n, g.Name))
	msg := "Kept your solution at " + file + " and recorded it in your progress."
	err = os.MkdirAll(filepath.Dir(file), 0o700)
	if err == nil {
		err = progress.WriteState(file, src)
	}
	if err != nil {
		file, msg = "", "Your solution could not be kept ("+err.Error()+"); the goal is recorded in your progress."
	}
	st, err := openProgress(false)
	if err != nil {
		return "Not recorded: " + err.Error()
	}
	st.ChallengeDone(g.Name, g.Kafka, file)
	if note := st.Notice(); note != "" {
		msg += "\n" + strings.TrimSpace(note)
	}
	return msg
}

// printChallenges is the challenges' line of 'eoslab progress'.
func printChallenges(out io.Writer, st *progress.Store) {
	done := 0
	for _, g := range challenges.All() {
		if _, ok := st.Challenge(g.Name); ok {
			done++
		}
	}
	fmt.Fprintf(out, "\nChallenges reached: %d of %d (eoslab challenges)\n", done, len(challenges.All()))
}

package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/adapt"
	"github.com/eoslab/eoslab/views/model"
)

func drillCommand() *cobra.Command {
	var (
		f      tuiFlags
		kafka  kafkaValue
		seed   uint64
		seeded bool
		count  = lessons.DefaultDrillCount
	)
	cmd := &cobra.Command{
		Use:   "drill [--seed N] [--count N] [--kafka 3|4] [--no-color] [--ascii]",
		Short: "an interview drill: questions across the lessons, scored",
		Long: `An interview drill in the terminal: --count questions (default 10) drawn
from the questions written for the drill: what an interviewer asks about
exactly-once (why it is hard, configuration, error codes, trade-offs,
design), some played on the simulation with the state they are about.
Answer with 1-4 (h shows a hint first, at the cost of the point), read why
the answer is right and why each other choice is not, press o to open the
lesson that teaches it. At the end: the score, the concepts to revisit,
and r for a drill of just those. The same --seed draws the same questions; without it the seed comes
from the clock and is shown on screen and printed when you leave. --kafka 4
plays the questions under Kafka 4's transaction protocol (transaction.version=2);
the default is Kafka 3's. Scores are kept with your progress ('eoslab help
progress').`,
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !seeded {
				seed = clockSeed()
			}
			return drill(f, kafka.or3(), seed, count, cmd.OutOrStdout())
		},
	}
	cmd.Flags().VarP(seedValue{&seed, &seeded}, "seed", "s", "draw the questions of this seed (default: from the clock, shown)")
	cmd.Flags().VarP(intValue{&count, 1, 1000}, "count", "n", "how many questions, 1 to 1000")
	addKafka(cmd, &kafka, "play the questions under this transaction protocol (default 3)")
	addTUIFlags(cmd, &f)
	return cmd
}

// drill opens the TUI on the drill screen, then prints the score and how
// to replay the drill.
func drill(f tuiFlags, kafka int, seed uint64, count int, stdout io.Writer) error {
	d, err := adapt.NewDrillFor(seed, count, kafka)
	if err != nil {
		return asInvalid(err)
	}
	first := true
	// After the drill, esc leads to the same home list as 'eoslab' opens
	// (the sandbox on it, lessons under the drill's protocol).
	opts := withSandbox(views.Options{NoColor: f.noColor, ASCII: f.ascii, StartDrill: true, Kafka: kafka,
		NewDrill: func(int) (model.Drill, error) {
			if first {
				first = false
				return d, nil
			}
			return adapt.NewDrillFor(clockSeed(), count, kafka)
		}}).WithEnv(os.Getenv)
	st, err := openProgress(true)
	if err != nil {
		return err
	}
	err = runTUI(views.NewApp(adapt.Lessons(), adapt.Open, withProgress(opts, st)))
	st.Close()
	r := d.Result()
	fmt.Fprintf(stdout, "Drill seed %d: %d of %d right. Replay it with: eoslab drill --seed %d --count %d --kafka %d\n",
		seed, r.Right, r.Total, seed, d.Len(), kafka)
	return err
}

package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/eoslab/eoslab/engine/realkafka/conn"
	"github.com/eoslab/eoslab/engine/realkafka/live"
	"github.com/eoslab/eoslab/engine/realkafka/preflight"
	"github.com/eoslab/eoslab/lessons"
)

// liveCommand is `eoslab live --brokers ADDR [--lesson NAME] --headless`;
// the work is in engine/realkafka/live (and the verify driver under it).
func liveCommand() *cobra.Command {
	var f conn.Flags
	var name, knownFile string
	var headless bool
	var k kafkaValue
	var tf tuiFlags
	cmd := &cobra.Command{
		Use:   "live --brokers HOST:PORT [--lesson NAME] [--kafka 3|4] [--headless]",
		Short: "play a lesson on the simulation and on a real Kafka cluster, side by side",
		Long: `Plays a built-in lesson's steps on the simulation and on the cluster at
--brokers and prints, step by step, one row per fact the lesson checks:
Kafka agreed, Kafka did otherwise (both facts side by side), simulation
only (a fact no broker exposes, or an action no broker allows, with why),
or not played (an action before it has no broker mapping yet). A step
with a checkpoint says what Kafka did beside the simulation's answer.
Without --lesson it plays every lesson and lists those that can be played
live, and for the others the first line that cannot, with why.

It runs the read-only preflight first (eoslab kafka preflight). Topics,
transactional ids and groups get a per-run prefix (eoslab-verify-...);
it refuses to start if a prefixed name exists and deletes what it made.
--kafka must match the cluster's transaction.version (3: 0 or 1, 4: 2).

Without --headless it opens the lesson player with Kafka's side (the
log with batch headers and markers, producer state, the transactions,
consumer positions, the verdicts) beside the simulation on a terminal at
least 176 columns wide, or on c over the player's panels on a narrower
one. Each step the player reaches is played on the cluster; q leaves and
deletes what the run made. Without --lesson it first plays every lesson
to find those that play live (this takes minutes; a line per lesson
shows the progress), then offers those.

With --headless: exit code 0 when nothing differs or every difference
is known, 1 when one is not or the cluster refuses, 2 on bad flags.`,
		Example:           "  eoslab live --brokers 127.0.0.1:9092 --lesson zombie\n  eoslab live --brokers 127.0.0.1:9092 --headless\n  eoslab live --brokers 127.0.0.1:9092 --lesson zombie --headless",
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := buildConn(cmd, f)
			if err != nil {
				return err
			}
			if name != "" {
				// A lesson that does not exist is bad input, before the
				// cluster is asked anything.
				if _, _, err := lessons.Source(name); err != nil {
					return invalid("%s --lesson %s: %v (eoslab lessons lists them)", prefix(cmd), name, err)
				}
			}
			known, err := knownDifferences(cmd, knownFile)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			cmd.SetContext(ctx)
			r, err := quietPreflight(cmd, c, preflight.Need{Prefix: "eoslab-verify-"})
			if err != nil {
				return err
			}
			o := live.Options{Conn: c, Kafka: int(k), TV: r.TV, Known: known}
			out := cmd.OutOrStdout()
			if !headless {
				return livePlayer(ctx, cmd, o, name, tf)
			}
			if name == "" {
				fmt.Fprintf(out, "live: the lessons, played on %s (transaction.version=%d):\n", c.Describe(), r.TV)
				ps, err := live.List(ctx, o, out)
				if err != nil {
					return liveErr(cmd, err)
				}
				n := 0
				for _, p := range ps {
					if p.OK {
						n++
					}
				}
				fmt.Fprintf(out, "live: %d of %d lessons can be played live (eoslab live --lesson NAME --headless)\n", n, len(ps))
				return nil
			}
			s, err := live.Play(ctx, o, name, out)
			if err != nil {
				return liveErr(cmd, err)
			}
			if s.ExitCode() != 0 {
				return failed("eoslab live: Kafka did otherwise, and the difference is not in the known-differences file")
			}
			return nil
		},
	}
	addConnFlags(cmd, &f)
	cmd.Flags().StringVar(&name, "lesson", "", "the lesson `NAME` to play (eoslab lessons lists them; default: list the lessons that play live)")
	cmd.Flags().BoolVar(&headless, "headless", false, "print the rows instead of opening the player")
	addTUIFlags(cmd, &tf)
	cmd.Flags().StringVar(&knownFile, "known", "", "a known-differences `FILE` instead of the shipped one")
	addKafka(cmd, &k, "the protocol to play, 3 or 4; must match the cluster's transaction.version (default: the cluster's)")
	return cmd
}

func liveErr(cmd *cobra.Command, err error) error {
	if _, ok := err.(*live.UsageError); ok {
		return invalid("%s", err.Error())
	}
	return failed(prefix(cmd) + " " + err.Error())
}

package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/eoslab/eoslab/engine/realkafka"
	"github.com/eoslab/eoslab/engine/realkafka/conn"
	"github.com/eoslab/eoslab/engine/realkafka/preflight"
	"github.com/eoslab/eoslab/engine/realkafka/verify"
)

// verifyCommand is `eoslab verify --brokers ADDR FILE...`; the work is in
// engine/realkafka/verify.
func verifyCommand() *cobra.Command {
	var knownFile, clusterDir, needs string
	var needsTV int
	var f conn.Flags
	cmd := &cobra.Command{
		Use:   "verify --brokers ADDR [--cluster-dir DIR] FILE... | verify --needs owned|expiry --transaction-version V FILE...",
		Short: "play scenario and lesson files on the simulation and on a real Kafka cluster, and compare",
		Long: `Plays each scenario (.scn) or lesson (.lesson) file on the simulation and on
the Kafka cluster at ADDR (for instance one eoslab kafka up runs), and prints
one row per expect line: agrees, differs (the simulation's fact and Kafka's
side by side), simulation-only (a fact no broker exposes or an action no
broker allows, with why), or not played (the broker driver does not map an
action before it yet). The last line counts them:
verify: A agree, D differ, S simulation-only of N facts in F files.

It reads the cluster's transaction.version (ApiVersions finalized features)
and plays each file under that protocol (0 and 1 as the simulation's 1, 2 as
2), refusing a file whose config line pins the other. Topics, transactional
ids and groups get a per-run prefix; verify refuses to start if a prefixed
name exists and deletes the topics and groups it made.

Exit code 0 when nothing differs or every difference is listed in the
known-differences file (the shipped one, or --known FILE), 1 otherwise,
2 on bad input.

With --needs, verify plays the files on the simulation alone (no broker)
under --transaction-version and prints, one a line, those that need a
cluster of their own to be played further than a shared one allows:
--needs owned lists the files that crash or restart a broker, lose, delay
or duplicate a WriteTxnMarkers between brokers, ask a fact while a marker
is between brokers, or count the requests brokers send each other (give
them to verify --cluster-dir on eoslab kafka up --brokers 3); --needs
expiry lists those in which a transactional id expires (give them to a
cluster started with --broker-config transactional.id.expiration.ms=5000).
Each file's first such line is on standard error.`,
		Args:              needFiles,
		ValidArgsFunction: completeScenario,
		RunE: func(cmd *cobra.Command, args []string) error {
			if needs != "" || cmd.Flags().Changed("transaction-version") {
				return needsRun(cmd, needs, needsTV, args)
			}
			var owner *realkafka.Control
			if clusterDir != "" {
				var err error
				if owner, err = realkafka.DialControl(clusterDir); err != nil {
					return kafkaErr(err)
				}
				defer owner.Close()
				if f.Brokers == "" {
					f.Brokers = owner.State.Bootstrap
				}
			}
			c, err := buildConn(cmd, f)
			if err != nil {
				return err
			}
			known, err := knownDifferences(cmd, knownFile)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			// A cluster that refuses the credentials is exit 1 with its
			// reason, before any file is played.
			if _, err := quietPreflight(cmd, c, preflight.Need{}); err != nil {
				return err
			}
			o := verify.Options{Brokers: strings.Join(c.Seeds, ","), Files: args, Known: known, Conn: c}
			if owner != nil {
				o.Owner = owner
			}
			s, err := verify.Run(ctx, o, cmd.OutOrStdout())
			if err != nil {
				return invalid("%v", err)
			}
			if s.ExitCode() != 0 {
				return failed("eoslab verify: a difference is not in the known-differences file")
			}
			return nil
		},
	}
	addConnFlags(cmd, &f)
	cmd.Flags().StringVar(&knownFile, "known", "", "a known-differences file instead of the shipped one")
	cmd.Flags().StringVar(&clusterDir, "cluster-dir", "", "the --dir of an eoslab kafka up --brokers N cluster verify may break: it crashes and restarts brokers and loses or delays WriteTxnMarkers between them as the files say, and places topics and coordinators as the simulation does (--brokers defaults to its bootstrap)")
	cmd.Flags().StringVar(&needs, "needs", "", "owned or expiry: list the files that need a cluster verify owns, or one with a short transactional.id.expiration.ms (simulation only, no broker)")
	cmd.Flags().IntVar(&needsTV, "transaction-version", -1, "with --needs: the protocol to play the files under (0, 1 or 2)")
	return cmd
}

// needsRun is verify --needs: the files that need a cluster of a kind,
// found on the simulation alone.
func needsRun(cmd *cobra.Command, needs string, tv int, files []string) error {
	if needs == "" {
		return invalid("%s --transaction-version goes with --needs owned|expiry (%s)", prefix(cmd), see(cmd))
	}
	n, err := verify.ParseNeed(needs)
	if err != nil {
		return invalid("%v (%s)", err, see(cmd))
	}
	if tv < 0 || tv > 2 {
		return invalid("%s --needs wants --transaction-version 0, 1 or 2 (%s)", prefix(cmd), see(cmd))
	}
	got, err := verify.Needs(files, nil, tv, n)
	if err != nil {
		return invalid("%v", err)
	}
	for _, fn := range got {
		fmt.Fprintln(cmd.OutOrStdout(), fn.File)
		fmt.Fprintf(cmd.ErrOrStderr(), "verify --needs %s: %s:%d: %s\n", n, fn.File, fn.Line, fn.Why)
	}
	return nil
}

// needFiles is the Args check of the commands that take FILE...
func needFiles(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return invalid("%s needs at least one file (%s)", prefix(cmd), see(cmd))
	}
	return nil
}

package cli

import (
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/adapt"
	"github.com/eoslab/eoslab/views/model"
)

func sandboxCommand() *cobra.Command {
	var (
		f         tuiFlags
		kafka     kafkaValue
		challenge int
	)
	cmd := &cobra.Command{
		Use:   "sandbox [--kafka 3|4] [FILE] [--challenge N] [--no-color] [--ascii]",
		Short: "free play: a preset or a scenario file, waiting for you",
		Long: `Opens the sandbox: a simulated cluster that waits for you. Without FILE it
starts on the preset picker (one idempotent producer; two instances sharing
a transactional.id; consume-transform-produce; three brokers with
replication). With FILE, a scenario file, its setup is played and then
every line after it, and the world waits at the end. --kafka 4 starts the
presets under Kafka 4's transaction protocol (transaction.version=2).

Each key is one action and one line of the scenario language: deliver, drop,
duplicate or delay the selected message, step, run, crash or restart a broker,
pause a producer, call a client's API, or type any line at the : prompt.
w saves every branch in one scenario file in the current directory (never
over an existing file): the branch you are on as the file's lines, which
'eoslab run FILE' replays to the same state, and every branch, with its
name and notes, in "#@" comment lines that 'eoslab sandbox FILE' reopens.

--challenge N opens challenge N (eoslab challenges lists them) on its world
with the goal shown; g shows its hint, then its solution. The engine judges
the goal after every action; reaching it saves your solution as w does and
records it in your progress.`,
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) > 1:
				return invalid("%s takes at most one scenario file (%s)", prefix(cmd), see(cmd))
			case challenge != 0 && (len(args) == 1 || kafka != 0):
				return invalid("%s --challenge opens the goal's own world; leave out FILE and --kafka", prefix(cmd))
			case len(args) == 1 && kafka != 0:
				return invalid("%s --kafka picks the presets' protocol; a file sets its own with 'config transaction.version=N'", prefix(cmd))
			}
			return nil
		},
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return []string{"scn"}, cobra.ShellCompDirectiveFilterFileExt
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts := withSandbox(views.Options{NoColor: f.noColor, ASCII: f.ascii, Kafka: int(kafka)}).WithEnv(os.Getenv)
			var sess model.SandboxSession
			if challenge != 0 {
				s, err := adapt.OpenChallenge(challenge)
				if err != nil {
					return invalid("%s %v", prefix(cmd), err)
				}
				st, err := openProgress(true)
				if err != nil {
					return err
				}
				defer st.Close()
				opts.Progress = adapt.Progress{S: st}
				sess = s
			}
			if len(args) == 1 {
				s, err := openSandboxFile(args[0])
				if err != nil {
					return err
				}
				sess = s
			}
			return runTUI(views.NewSandbox(opts.SandboxPresets, opts.OpenSandbox, sess, opts))
		},
	}
	addKafka(cmd, &kafka, "the presets' transaction protocol (default 3)")
	cmd.Flags().IntVar(&challenge, "challenge", 0, "open challenge `N` (eoslab challenges lists them) with its goal shown")
	addTUIFlags(cmd, &f)
	return cmd
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

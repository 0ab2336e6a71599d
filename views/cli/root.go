package cli

import (
	"github.com/spf13/cobra"
)

// rootCommand is eoslab without a command: the home list in the TUI.
func rootCommand() *cobra.Command {
	var f tuiFlags
	cmd := &cobra.Command{
		Use:   "eoslab",
		Short: "step through, rewind and break Kafka's exactly-once protocol",
		Long: `eoslab: step through, rewind and break Kafka's exactly-once protocol.

Without a command it opens the lesson list in the terminal UI.

Exit codes: 0 success, 1 an expectation failed, 2 invalid input.`,
		Version: version(),
		// Args is ours, not cobra's legacy check, so that a mistyped
		// command is one line with its suggestions.
		Args: unknownCommand,
		RunE: func(cmd *cobra.Command, args []string) error {
			return openTUI(f, 0, "")
		},
		ValidArgsFunction: cobra.NoFileCompletions,
	}
	addTUIFlags(cmd, &f)
	cmd.SetVersionTemplate("{{.Version}}")
	cmd.Flags().BoolP("version", "v", false, "print eoslab's version and the Kafka versions it follows")
	return cmd
}

// unknownCommand refuses an argument to eoslab that is not a command,
// suggesting the commands it is close to.
func unknownCommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := "eoslab: unknown command " + quote(args[0])
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += "; did you mean " + orList(s) + "?"
	}
	return invalid("%s (see 'eoslab --help')", msg)
}

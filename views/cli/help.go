package cli

import (
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/eoslab/eoslab/assets"
)

// helpCommand is 'eoslab help [COMMAND|TOPIC]'. It replaces cobra's,
// which prints the usage and exits 0 for a topic it does not know.
func helpCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "help [COMMAND|scenario|json]",
		Short: "explain a command, the scenario language or the JSON output",
		Long: `Explains a command ('eoslab help run', the same as 'eoslab run --help'),
the scenario language ('eoslab help scenario') or the JSON output of run
('eoslab help json').`,
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var names []string
			for _, c := range cmd.Root().Commands() {
				if !c.Hidden && c.Name() != "help" && strings.HasPrefix(c.Name(), toComplete) {
					names = append(names, c.Name()+"\t"+c.Short)
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			root := cmd.Root()
			if len(args) == 0 {
				return root.Help()
			}
			c, rest, err := root.Find(args)
			if err != nil || c == root || len(rest) > 0 {
				return invalid("eoslab: no help for %q; try one of: %s", strings.Join(args, " "), strings.Join(helpNames(root), ", "))
			}
			c.InitDefaultHelpFlag()
			return c.Help()
		},
	}
}

// helpNames lists the commands and topics that have help.
func helpNames(root *cobra.Command) []string {
	var names []string
	for _, c := range root.Commands() {
		if !c.Hidden && c.Name() != "help" {
			names = append(names, c.Name())
		}
	}
	sort.Strings(names)
	return names
}

// scenarioTopic is 'eoslab help scenario': the scenario language.
func scenarioTopic() *cobra.Command {
	return &cobra.Command{
		Use:     "scenario",
		Aliases: []string{"language"},
		Short:   "the scenario language of .scn files, lessons and the sandbox prompt",
		Long:    strings.TrimRight(assets.ScenarioLanguage, "\n"),
	}
}

// jsonTopic is 'eoslab help json': the output of 'eoslab run --json'.
func jsonTopic() *cobra.Command {
	return &cobra.Command{
		Use:   "json",
		Short: "the JSON output of 'eoslab run --json'",
		Long:  strings.TrimRight(assets.JSONSchema, "\n"),
	}
}

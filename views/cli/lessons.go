package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/eoslab/eoslab/lessons"
)

func lessonsCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "lessons",
		Short: "the learning path: lessons with level and minutes",
		Long: `Lists the built-in lessons as a learning path, in order: number, name (what
'eoslab lesson NAME' takes), level (basics, transactions, failures, systems),
length in minutes and title, then a one-line summary.`,
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, _ []string) error {
			listLessons(cmd.OutOrStdout())
			return nil
		},
	}
}

// nameWidth is the width of the longest lesson name, to line up a list.
func nameWidth(all []lessons.Meta) int {
	w := 0
	for _, m := range all {
		w = max(w, len(m.Name))
	}
	return w
}

// listLessons prints the learning path: each lesson in order with its
// number, name, level and minutes, then its title and summary.
func listLessons(stdout io.Writer) {
	all := lessons.All()
	w := nameWidth(all)
	for i, m := range all {
		fmt.Fprintf(stdout, "%2d. %-*s  %-12s %2d min  %s\n    %-*s  %s\n", i+1, w, m.Name, m.Level, m.Minutes, m.Title, w, "", m.Summary)
	}
}

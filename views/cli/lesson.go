package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/eoslab/eoslab/lessons"
)

func lessonCommand() *cobra.Command {
	var (
		f     tuiFlags
		kafka kafkaValue
	)
	cmd := &cobra.Command{
		Use:   "lesson NAME|FILE.lesson [--kafka 3|4] [--no-color] [--ascii]",
		Short: "open one lesson in the TUI",
		Long: `Opens one lesson in the terminal player: a built-in lesson by name (see
'eoslab lessons'), or a lesson file by its path. A lesson file is checked
first, as 'eoslab check' does; errors are named file:line. --kafka picks
the transaction protocol the lesson starts under: 3, the classic one
(transaction.version=1, the default), or 4, KIP-890's
(transaction.version=2); the header names it and v switches it. Keys:
right/l/space/enter next, left/h back, p play/pause, -/+ slower/faster,
r restart, 1-4 answer a checkpoint, d the step's details, v Kafka 3/4,
tab cycle focus, ? full help, esc back to the list, q leave the lesson,
ctrl+c quit.`,
		Example: "  eoslab lesson zombie --kafka 4\n  eoslab lesson ./my.lesson",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return invalid("%s needs one lesson name or lesson file (see 'eoslab lessons')", prefix(cmd))
			}
			return nil
		},
		ValidArgsFunction: completeLesson,
		RunE: func(cmd *cobra.Command, args []string) error {
			l, err := loadLesson(args[0], true)
			if err != nil {
				return err
			}
			if isLessonFile(args[0]) {
				return openTUIWith(f, kafka, l.ForKafka(kafka.or3()))
			}
			return openTUI(f, kafka, args[0])
		},
	}
	addKafka(cmd, &kafka, "the transaction protocol the lesson starts under (default 3)")
	addTUIFlags(cmd, &f)
	return cmd
}

// completeLesson completes a built-in lesson's name, or a lesson file's
// path once what is typed looks like a path (or no name fits).
func completeLesson(_ *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	if !strings.ContainsAny(toComplete, `/\.~`) {
		var names []string
		for _, m := range lessons.All() {
			if strings.HasPrefix(m.Name, toComplete) {
				names = append(names, m.Name+"\t"+m.Title)
			}
		}
		if len(names) > 0 {
			return names, cobra.ShellCompDirectiveNoFileComp
		}
	}
	return []string{"lesson"}, cobra.ShellCompDirectiveFilterFileExt
}

// completeLessonName completes a built-in lesson's name (for --lesson).
func completeLessonName(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	return completeLesson(nil, nil, toComplete)
}

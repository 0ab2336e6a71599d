package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/eoslab/eoslab/engine/script"
	"github.com/eoslab/eoslab/lessons"
)

func checkCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "check FILE...",
		Short: "validate scenario (.scn) or lesson (.lesson) files",
		Long: `Validates scenario files (.scn, or any other name) and lesson files (.lesson)
without opening the TUI. Scenario files are parsed and checked for unknown
verbs, wrong arguments, undeclared clients and partitions. Lesson files are
parsed and played to the end, so a checkpoint whose choices do not match what
the engine does is reported. Errors name file:line (and the column of a bad
character); the first 20 of a file are listed and the rest counted. A file
is at most 16 MiB. Exit code 0 when all are valid, 2 otherwise.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return invalid("%s needs at least one file (%s)", prefix(cmd), see(cmd))
			}
			return nil
		},
		ValidArgsFunction: completeScenario,
		RunE: func(cmd *cobra.Command, args []string) error {
			return checkCmd(args, cmd.OutOrStdout())
		},
	}
}

func checkCmd(files []string, stdout io.Writer) error {
	var msgs []string
	for _, f := range files {
		if err := checkFile(f); err != nil {
			msgs = append(msgs, err.Error())
			continue
		}
		fmt.Fprintf(stdout, "%s: ok\n", f)
	}
	if len(msgs) > 0 {
		return invalid("%s", strings.Join(msgs, "\n"))
	}
	return nil
}

// checkFile validates one scenario or lesson file; a lesson is also played.
func checkFile(path string) error {
	in, err := openInput(path)
	if err != nil {
		return err
	}
	defer in.Close()
	if filepath.Ext(path) != ".lesson" {
		_, err = script.ParseReader(path, in)
		return err
	}
	l, err := lessons.ParseReader(path, in)
	if err != nil {
		return err
	}
	return l.Check()
}

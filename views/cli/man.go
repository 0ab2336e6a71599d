package cli

import (
	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// manCommand is 'eoslab man': the manual pages, generated from the
// commands' definitions by cobra/doc (through go-md2man): eoslab(1) on
// standard output, or with --dir a page for every command (eoslab-run(1),
// ...), as cobra's GenManTree writes them.
func manCommand() *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "man [--dir DIR]",
		Short: "write eoslab's manual page (roff)",
		Long: `Writes eoslab(1), in roff, to standard output; with --dir, writes it and a
page for every command (eoslab-run.1, eoslab-lesson.1, ...) into DIR:
  eoslab man > eoslab.1 && man ./eoslab.1
  eoslab man --dir /usr/local/share/man/man1`,
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root := cmd.Root()
			hdr := &doc.GenManHeader{Title: "EOSLAB", Section: "1", Source: "eoslab", Manual: "eoslab manual"}
			if dir != "" {
				if err := doc.GenManTree(root, hdr, dir); err != nil {
					return invalid("eoslab man: %v", err)
				}
				return nil
			}
			if err := doc.GenMan(root, hdr, cmd.OutOrStdout()); err != nil {
				return failed("eoslab man: " + err.Error())
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "write a page for every command into `DIR`")
	_ = cmd.MarkFlagDirname("dir")
	return cmd
}

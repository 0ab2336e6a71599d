package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// manCommand is 'eoslab man': the manual pages, generated from the
// commands' definitions: eoslab(1) on standard output, or with --dir a
// page for every command (eoslab-run(1), ...), named as cobra/doc's
// GenManTree names them.
//
// The roff is written here rather than by cobra/doc: cobra/doc imports
// go-md2man, blackfriday and a YAML library, and Go runs the package
// init of every linked package on every start, so the lesson list paid
// for blackfriday's tables before its first frame. The commands' texts
// are plain prose with indented example lines, which needs no Markdown.
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
			date, err := manDate()
			if err != nil {
				return invalid("eoslab man: %v", err)
			}
			root := cmd.Root()
			if dir != "" {
				if err := manTree(root, date, dir); err != nil {
					return invalid("eoslab man: %v", err)
				}
				return nil
			}
			if _, err := io.WriteString(cmd.OutOrStdout(), manPage(root, date)); err != nil {
				return failed("eoslab man: " + err.Error())
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "write a page for every command into `DIR`")
	_ = cmd.MarkFlagDirname("dir")
	return cmd
}

// manDate is the pages' date: SOURCE_DATE_EPOCH's, for reproducible
// builds, or today's.
func manDate() (time.Time, error) {
	epoch := os.Getenv("SOURCE_DATE_EPOCH")
	if epoch == "" {
		return time.Now(), nil
	}
	sec, err := strconv.ParseInt(epoch, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("invalid SOURCE_DATE_EPOCH %q: not a number of seconds", epoch)
	}
	return time.Unix(sec, 0).UTC(), nil
}

// manTree writes the page of cmd and of each command below it into dir.
func manTree(cmd *cobra.Command, date time.Time, dir string) error {
	for _, c := range manChildren(cmd) {
		if err := manTree(c, date, dir); err != nil {
			return err
		}
	}
	name := filepath.Join(dir, manName(cmd)+".1")
	return os.WriteFile(name, []byte(manPage(cmd, date)), 0o644)
}

// manChildren are the commands below cmd that get a page of their own,
// by name: help topics and hidden commands do not.
func manChildren(cmd *cobra.Command) []*cobra.Command {
	var out []*cobra.Command
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() && !c.IsAdditionalHelpTopicCommand() {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}

// manName is the page's name: the command path with dashes.
func manName(cmd *cobra.Command) string { return strings.ReplaceAll(cmd.CommandPath(), " ", "-") }

// manPage is the roff page of cmd (man-pages(7)'s sections).
func manPage(cmd *cobra.Command, date time.Time) string {
	cmd.InitDefaultHelpFlag()
	var b strings.Builder
	name := manName(cmd)
	fmt.Fprintf(&b, ".nh\n.TH %s \"1\" %s \"eoslab\" \"eoslab manual\"\n", roffQuote(strings.ToUpper(name)), roffQuote(date.Format("Jan 2006")))
	fmt.Fprintf(&b, ".SH NAME\n%s \\- %s\n", roffText(name), roffText(cmd.Short))
	fmt.Fprintf(&b, ".SH SYNOPSIS\n\\fB%s\\fR\n", roffText(cmd.UseLine()))
	b.WriteString(".SH DESCRIPTION\n")
	writeRoffProse(&b, cmp(cmd.Long, cmd.Short))
	writeManFlags(&b, "OPTIONS", cmd.NonInheritedFlags())
	writeManFlags(&b, "OPTIONS INHERITED FROM PARENT COMMANDS", cmd.InheritedFlags())
	if cmd.Example != "" {
		b.WriteString(".SH EXAMPLE\n.nf\n")
		for _, l := range strings.Split(cmd.Example, "\n") {
			b.WriteString(roffLine(l) + "\n")
		}
		b.WriteString(".fi\n")
	}
	var also []string
	if cmd.HasParent() {
		also = append(also, seeAlso(cmd.Parent()))
	}
	for _, c := range manChildren(cmd) {
		also = append(also, seeAlso(c))
	}
	if len(also) > 0 {
		b.WriteString(".SH SEE ALSO\n" + strings.Join(also, ", ") + "\n")
	}
	return b.String()
}

// seeAlso names cmd's page in SEE ALSO. The name keeps its plain hyphens,
// as cobra/doc wrote it, so the page name reads as it is typed.
func seeAlso(cmd *cobra.Command) string {
	return `\fB` + strings.ReplaceAll(manName(cmd), `\`, `\e`) + `(1)\fR`
}

func cmp(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// writeManFlags writes a section listing flags, one tagged paragraph each.
func writeManFlags(b *strings.Builder, title string, flags *pflag.FlagSet) {
	if !flags.HasAvailableFlags() {
		return
	}
	b.WriteString(".SH " + title + "\n")
	flags.VisitAll(func(f *pflag.Flag) {
		if f.Deprecated != "" || f.Hidden {
			return
		}
		tag := "\\fB\\-\\-" + roffText(f.Name) + "\\fR"
		if f.Shorthand != "" && f.ShorthandDeprecated == "" {
			tag = "\\fB\\-" + roffText(f.Shorthand) + "\\fR, " + tag
		}
		def := f.DefValue
		if f.Value.Type() == "string" {
			def = strconv.Quote(def)
		}
		if f.NoOptDefVal != "" {
			tag += "[=" + roffText(def) + "]"
		} else {
			tag += "=" + roffText(def)
		}
		_, usage := pflag.UnquoteUsage(f)
		b.WriteString(".TP\n" + tag + "\n" + roffLine(usage) + "\n")
	})
}

// writeRoffProse writes a command's Long text: blank lines part
// paragraphs, and indented lines (examples) keep their lines and spaces.
func writeRoffProse(b *strings.Builder, text string) {
	verbatim := false
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		indented := strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")
		if indented != verbatim {
			b.WriteString(map[bool]string{true: ".nf\n", false: ".fi\n"}[indented])
			verbatim = indented
		}
		if strings.TrimSpace(l) == "" && !verbatim {
			b.WriteString(".PP\n")
			continue
		}
		b.WriteString(roffLine(l) + "\n")
	}
	if verbatim {
		b.WriteString(".fi\n")
	}
}

// roffText escapes text for roff: a backslash is \e and a hyphen \- (so
// that it is not a line-break hyphen and copies as ASCII).
func roffText(s string) string {
	return strings.NewReplacer(`\`, `\e`, "-", `\-`).Replace(s)
}

// roffLine escapes one line of text; a line that starts with a dot or an
// apostrophe would be read as a request, so it starts with \& instead.
func roffLine(s string) string {
	s = roffText(s)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

// roffQuote is s as a quoted argument of a request.
func roffQuote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\(dq`) + `"` }

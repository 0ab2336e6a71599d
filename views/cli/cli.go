// Package cli is eoslab's command line, built on spf13/cobra: the one
// place that touches the OS (arguments, files, standard output, the real
// terminal). main.go only calls Main.
//
// Each command is a file holding a function that returns its
// *cobra.Command; commands (below) lists them in the order help shows
// them, and topics the help pages that are not commands. Flags, usage and
// completions come from the definitions; the prose of a command's help is
// its Long text.
//
// It may import every package of the module; nothing imports it but main.
package cli

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/eoslab/eoslab/engine/termsafe"
)

// commands is every eoslab command, in the order 'eoslab --help' lists
// them. A new command is a file with a func like these, added here.
var commands = []func() *cobra.Command{
	lessonsCommand,
	lessonCommand,
	sandboxCommand,
	drillCommand,
	progressCommand,
	challengesCommand,
	runCommand,
	checkCommand,
	breakCommand,
	compareCommand,
	serveCommand,
	inspectCommand,
	liveCommand,
	exportCommand,
	manCommand,
	kafkaCommand,
	verifyCommand,
}

// topics are the help pages that are not commands ('eoslab help scenario').
var topics = []func() *cobra.Command{
	scenarioTopic,
	jsonTopic,
	rulesTopic,
}

// exitError carries an exit code and a message for standard error.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// invalid is bad input: exit code 2 and the message.
func invalid(format string, args ...any) error {
	return &exitError{code: 2, msg: fmt.Sprintf(format, args...)}
}

// failed is exit code 1: an expectation failed, or the TUI or a server
// stopped with an error.
func failed(msg string) error { return &exitError{code: 1, msg: msg} }

func asInvalid(err error) error { return invalid("%s", err.Error()) }

// Main is eoslab with its arguments and output streams; it returns the
// exit code: 0 success, 1 an expectation failed, 2 invalid input.
// Whatever it prints goes through termsafe.Writer, so that a name or a
// text from a file (or a file name from the command line) that holds ESC,
// a C1 or a bidirectional control reaches the terminal escaped, not
// obeyed. The TUI draws through its own cleaner.
func Main(args []string, stdout, stderr io.Writer) int {
	stdout, stderr = termsafe.Writer(stdout), termsafe.Writer(stderr)
	root := newRoot(stdout, stderr, len(args) > 0)
	root.SetArgs(args)
	err := singleDash(root, args)
	if err == nil {
		err = root.Execute()
	}
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(stderr, strings.TrimRight(ee.msg, "\n"))
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "eoslab:", err)
	return 2
}

// singleDash refuses a long flag written with one dash (-addr, -json), as
// Go's flag package took them and eoslab serve did: pflag would read
// -addr as -a with the value "ddr".
func singleDash(root *cobra.Command, args []string) error {
	cmd, _, err := root.Find(args)
	if err != nil {
		return nil // Execute reports it
	}
	for _, a := range args {
		if a == "--" {
			break
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(a, "-"), "=")
		if len(a) > 2 && a[0] == '-' && a[1] != '-' && len(name) > 1 && cmd.Flags().Lookup(name) != nil {
			return invalid("%s %s: a long flag takes two dashes: --%s (%s)", prefix(cmd), a, strings.TrimPrefix(a, "-"), see(cmd))
		}
	}
	return nil
}

// newRoot builds the command tree, writing to stdout and stderr. Without
// sub (a command line with no arguments, which can only open the lesson
// list) it is the root command alone: the other commands' definitions,
// their flags and the rules topic's text are not built before the list's
// first frame.
func newRoot(stdout, stderr io.Writer, sub bool) *cobra.Command {
	// Help lists the commands in the order of commands, the learning path
	// first, not alphabetically.
	cobra.EnableCommandSorting = false
	root := rootCommand()
	root.SuggestionsMinimumDistance = 2
	// Before the completion command is made: it keeps the writer it is
	// made with.
	root.SetOut(stdout)
	root.SetErr(stderr)
	if !sub {
		root.SilenceErrors, root.SilenceUsage = true, true
		return root
	}
	for _, c := range commands {
		root.AddCommand(c())
	}
	for _, t := range topics {
		root.AddCommand(t())
	}
	root.SetHelpCommand(helpCommand())
	root.SetFlagErrorFunc(flagError)
	root.SilenceErrors = true
	root.SilenceUsage = true
	// The completion command is cobra's; its help says how to load the
	// script. It is made now, not at Execute, to word its line as ours.
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		c.DisableFlagsInUseLine = true
		if c.Name() == "completion" {
			c.Short = "write the shell completion script: bash, zsh, fish or powershell"
		}
	}
	return root
}

// see names where the help for cmd is.
func see(cmd *cobra.Command) string {
	return fmt.Sprintf("see '%s --help'", cmd.CommandPath())
}

// prefix is what an error message of cmd starts with: "eoslab run:".
func prefix(cmd *cobra.Command) string { return cmd.CommandPath() + ":" }

// flagError turns pflag's errors into one line that names the command,
// the flag and what it takes, without the usage dump.
func flagError(cmd *cobra.Command, err error) error {
	var (
		notExist *pflag.NotExistError
		needs    *pflag.ValueRequiredError
		bad      *pflag.InvalidValueError
	)
	switch {
	case errors.As(err, &notExist):
		name := "--" + notExist.GetSpecifiedName()
		if s := notExist.GetSpecifiedShortnames(); s != "" {
			name = "-" + s
		}
		return invalid("%s unknown flag %s; %s (%s)", prefix(cmd), name, flagList(cmd), see(cmd))
	case errors.As(err, &needs):
		return invalid("%s --%s needs a value (%s)", prefix(cmd), needs.GetFlag().Name, see(cmd))
	case errors.As(err, &bad):
		var v describedValue
		if errors.As(bad.Unwrap(), &v) {
			return invalid("%s --%s %s", prefix(cmd), bad.GetFlag().Name, v.Error())
		}
		return invalid("%s --%s: %v (%s)", prefix(cmd), bad.GetFlag().Name, bad.Unwrap(), see(cmd))
	}
	return invalid("%s %v (%s)", prefix(cmd), err, see(cmd))
}

// flagList says which flags cmd takes: "progress takes --reset".
func flagList(cmd *cobra.Command) string {
	var names []string
	cmd.NonInheritedFlags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden && f.Name != "help" {
			names = append(names, "--"+f.Name)
		}
	})
	sort.Strings(names)
	if len(names) == 0 {
		return cmd.Name() + " takes no flags"
	}
	return cmd.Name() + " takes " + strings.Join(names, ", ")
}

// noArgs refuses positional arguments with a message naming the first.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return invalid("%s unexpected argument %q (%s)", prefix(cmd), args[0], see(cmd))
	}
	return nil
}

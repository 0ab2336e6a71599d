// Package tuirun runs a Bubble Tea program so that the terminal is given
// back as it was found, whatever signal arrives (SIGINT, SIGTERM, SIGHUP,
// SIGQUIT): before the program starts (termguard's init holds the signals
// from the start of the process), while it runs, or as it stops. It is the
// CLI's edge with the real terminal; nothing under engine/, lessons/ or
// views/adapt imports it.
//
// Bubble Tea v1 handles only SIGINT and SIGTERM, and only while its
// program runs; Go's default for SIGHUP kills the process and for SIGQUIT
// prints every goroutine, both leaving the terminal in raw mode.
package tuirun

import (
	"fmt"
	"os"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/internal/gcpace"
	"github.com/eoslab/eoslab/views/tuirun/termguard"
)

// Interrupted is Run's error when a signal stopped the program.
type Interrupted struct{ Signal os.Signal }

func (e *Interrupted) Error() string { return fmt.Sprintf("stopped by %v", e.Signal) }

// ExitCode is the shell's code for a death by the signal: 128 + its number.
func (e *Interrupted) ExitCode() int { return termguard.ExitCode(e.Signal) }

// Release gives the signals back, for a command that handles them itself.
func Release() { termguard.Release() }

// Run runs m as a Bubble Tea program with opts. A signal stops the program
// (Bubble Tea restores the terminal) and Run returns *Interrupted; on
// every way out the terminal is put back as the process found it.
func Run(m tea.Model, opts ...tea.ProgramOption) (tea.Model, error) {
	defer gcpace.Set()()
	p := tea.NewProgram(m, append(opts, tea.WithoutSignalHandler())...)
	termguard.OnSignal(p.Kill)
	final, err := p.Run()
	termguard.OnSignal(nil)
	termguard.Restore()
	if s := termguard.Signalled(); s != nil {
		return final, &Interrupted{Signal: s}
	}
	return final, err
}

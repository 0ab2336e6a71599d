// Package termguard saves the terminal's state and takes over SIGINT,
// SIGTERM, SIGHUP and SIGQUIT from its init, before Bubble Tea's: Bubble
// Tea v1's own init asks the terminal for its background colour through
// termenv, which turns echo and line editing off while it waits for the
// answer (up to termenv.OSCTimeout). A Ctrl+\ there met Go's default
// SIGQUIT handling (every goroutine printed, exit 2) and the shell was left
// with echo off.
//
// Go initializes packages in import-path order among those whose imports
// are ready (the Go spec's package initialization), so a package that
// imports only the standard library and charmbracelet/x/term is ready, and
// initialized, long before bubbletea, whose imports include lipgloss and
// termenv. The pseudo-terminal test in the eoslab command checks that a
// signal during that query restores the terminal.
//
// It must not import Bubble Tea, lipgloss or termenv (that would put its
// init after theirs).
package termguard

import (
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/charmbracelet/x/term"
)

// Signals are the signals taken over.
var Signals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

var (
	mu      sync.Mutex
	sigs    chan os.Signal
	held    bool
	saved   *term.State
	savedFd uintptr
	stop    func()
	got     os.Signal
)

func init() {
	for _, f := range []*os.File{os.Stdin, os.Stdout, os.Stderr} {
		if term.IsTerminal(f.Fd()) {
			if st, err := term.GetState(f.Fd()); err == nil {
				saved, savedFd = st, f.Fd()
				break
			}
		}
	}
	sigs = make(chan os.Signal, len(Signals))
	signal.Notify(sigs, Signals...)
	held = true
	go watch()
}

func watch() {
	for s := range sigs {
		mu.Lock()
		if got == nil {
			got = s
		}
		f := stop
		mu.Unlock()
		if f != nil {
			f()
			continue
		}
		Restore()
		os.Exit(ExitCode(s))
	}
}

// ExitCode is the shell's code for a death by s: 128 + its number.
func ExitCode(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 1
}

// Restore puts the terminal back as the process found it.
func Restore() {
	mu.Lock()
	defer mu.Unlock()
	if saved != nil {
		_ = term.Restore(savedFd, saved)
	}
}

// OnSignal makes a signal call f (which stops a running program) instead
// of restoring the terminal and exiting at once; nil goes back to exiting.
func OnSignal(f func()) {
	mu.Lock()
	stop = f
	mu.Unlock()
}

// Signalled is the first signal that arrived, or nil.
func Signalled() os.Signal {
	mu.Lock()
	defer mu.Unlock()
	return got
}

// Release gives the signals back to Go's defaults (or to whoever else
// asked for them, such as eoslab serve's shutdown), for a command that
// handles them itself.
func Release() {
	mu.Lock()
	defer mu.Unlock()
	if held {
		signal.Stop(sigs)
		held = false
	}
}

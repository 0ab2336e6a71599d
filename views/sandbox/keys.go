package sandbox

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/eoslab/eoslab/views/internal/keyset"
	"github.com/eoslab/eoslab/views/theme"
)

// KeyMap holds the sandbox's keys. Every action key makes one typed
// action (Op), which the session turns into one line of scenario text.
type KeyMap struct {
	Up, Down                 key.Binding
	Deliver, Drop, Duplicate key.Binding
	Delay, Reorder           key.Binding
	Step, Run                key.Binding
	Back, Forward            key.Binding
	First, Last              key.Binding
	Crash, Restart, Pause    key.Binding
	PrevClient, NextClient   key.Binding
	Init, Begin, Send        key.Binding
	SendOffsets, Commit      key.Binding
	Abort, Poll, Process     key.Binding
	Guard                    key.Binding
	Prompt, Branches, Save   key.Binding
	Dismiss, Panel, Help     key.Binding
	Quit                     key.Binding
	// Goal shows a challenge's hint, then (asking first) its solution.
	Goal key.Binding
	// Break searches for a schedule that breaks a guarantee.
	Break key.Binding
	// Leave answers q's question when a branch is not saved: y leaves,
	// any other key stays.
	Leave key.Binding
	// Compare compares this branch with another (compare.go).
	Compare key.Binding
	// Name, Note and MomentNote, in the branch list, name the branch,
	// note it, and note the step it stands at (branches.go).
	Name, Note, MomentNote key.Binding
	// Kafka plays the branch again under the other Kafka (kafka.go).
	Kafka key.Binding
	// Until opens the prompt on "until ": run until a condition holds.
	Until key.Binding
	// AimCoordinator and AimClient answer c or r: the coordinator, or
	// the client the call keys act on.
	AimCoordinator, AimClient key.Binding
	ScrollUp, ScrollDown      key.Binding
	// Cancel closes an overlay, the picker or the prompt, or cancels c
	// or r; Confirm opens the picked preset or runs the prompt's line;
	// HistoryUp and HistoryDown walk the prompt's history.
	Cancel, Confirm        key.Binding
	HistoryUp, HistoryDown key.Binding
	// Digits pick a preset, a branch, a broker or a safeguard.
	Digits []key.Binding
	// QuitNow leaves the sandbox from any mode, the prompt too.
	QuitNow key.Binding
}

// DefaultKeyMap returns the sandbox's default keys.
func DefaultKeyMap() KeyMap {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return KeyMap{
		Up:             b([]string{"up", "k"}, "↑/k", "select"),
		Down:           b([]string{"down", "j"}, "↓/j", "select"),
		Deliver:        b([]string{"enter", "d"}, "enter/d", "deliver it now"),
		Drop:           b([]string{"x"}, "x", "drop it"),
		Duplicate:      b([]string{"u"}, "u", "duplicate it"),
		Delay:          b([]string{"y"}, "y", "delay it 5 s"),
		Reorder:        b([]string{"o"}, "o", "swap it with the next"),
		Step:           b([]string{"n", " "}, "n/space", "step"),
		Run:            b([]string{"R"}, "R", "run until quiet"),
		Back:           b([]string{"left", "h"}, "←", "back"),
		Forward:        b([]string{"right", "l"}, "→", "forward"),
		First:          b([]string{"<"}, "<", "to the setup"),
		Last:           b([]string{">"}, ">", "to the end"),
		Crash:          b([]string{"c"}, "c", "crash…"),
		Restart:        b([]string{"r"}, "r", "restart…"),
		Pause:          b([]string{"z"}, "z", "pause/resume client"),
		PrevClient:     b([]string{"["}, "[", "previous client"),
		NextClient:     b([]string{"]"}, "]", "next client"),
		Init:           b([]string{"i"}, "i", "initTransactions"),
		Begin:          b([]string{"b"}, "b", "beginTransaction"),
		Send:           b([]string{"s"}, "s", "send"),
		SendOffsets:    b([]string{"O"}, "O", "sendOffsetsToTransaction"),
		Commit:         b([]string{"m"}, "m", "commitTransaction"),
		Abort:          b([]string{"a"}, "a", "abortTransaction"),
		Poll:           b([]string{"p"}, "p", "poll"),
		Process:        b([]string{"e"}, "e", "process"),
		Guard:          b([]string{"1", "2", "3", "4", "5", "6"}, "1-6", "switch a safeguard"),
		Prompt:         b([]string{":"}, ":", "prompt"),
		Branches:       b([]string{"B"}, "B", "branches"),
		Save:           b([]string{"w"}, "w", "save"),
		Compare:        b([]string{"C"}, "C", "compare branches"),
		Name:           b([]string{"n"}, "n", "name the branch"),
		Note:           b([]string{"N"}, "N", "note on the branch"),
		MomentNote:     b([]string{"a"}, "a", "note on this step"),
		Kafka:          b([]string{"v"}, "v", "Kafka 3/4"),
		Until:          b([]string{"U"}, "U", "run until…"),
		Dismiss:        b([]string{"esc"}, "esc", "dismiss"),
		Panel:          b([]string{"tab"}, "tab", "next panel"),
		Help:           b([]string{"?"}, "?", "help"),
		Quit:           b([]string{"q", "ctrl+c"}, "q", "quit"),
		Goal:           b([]string{"g"}, "g", "goal: hint, solution"),
		Break:          b([]string{"X"}, "X", "break it for me"),
		Leave:          b([]string{"y"}, "y", "leave"),
		AimCoordinator: b([]string{"k"}, "k", "the coordinator"),
		AimClient:      b([]string{"c"}, "c", "the client"),
		ScrollUp:       b([]string{"pgup"}, "pgup", "scroll panel"),
		ScrollDown:     b([]string{"pgdown"}, "pgdn", "scroll panel"),
		Cancel:         b([]string{"esc"}, "esc", "close"),
		Confirm:        b([]string{"enter"}, "enter", "open or run"),
		HistoryUp:      b([]string{"up"}, "↑", "older line"),
		HistoryDown:    b([]string{"down"}, "↓", "newer line"),
		Digits:         keyset.Digits(9),
		QuitNow:        b([]string{"ctrl+c"}, "ctrl+c", "quit"),
	}
}

// ASCII returns the key map with ASCII-only help texts.
func (k KeyMap) ASCII() KeyMap {
	for _, b := range []*key.Binding{&k.Up, &k.Down, &k.Back, &k.Forward} {
		theme.ASCIIHelp(b)
	}
	k.Crash.SetHelp("c", "crash...")
	k.Restart.SetHelp("r", "restart...")
	k.Until.SetHelp("U", "run until...")
	return k
}

// short is the help line's keys; full the help view's, in groups.
func (k KeyMap) short() []key.Binding {
	return []key.Binding{k.Up, k.Deliver, k.Drop, k.Step, k.Run, k.Back, k.Prompt, k.Help, k.Quit}
}

func (k KeyMap) full(goal bool) [][]key.Binding {
	last := []key.Binding{k.Break, k.Guard, k.Kafka, k.Prompt, k.Save, k.Dismiss, k.Panel, k.ScrollUp, k.ScrollDown, k.Help, k.Quit}
	if goal {
		// g acts only in a sandbox set a challenge.
		last = append([]key.Binding{k.Goal}, last...)
	}
	return [][]key.Binding{
		{k.Up, k.Down, k.Deliver, k.Drop, k.Duplicate, k.Delay, k.Reorder},
		{k.Step, k.Run, k.Until, k.Back, k.Forward, k.First, k.Last, k.Branches, k.Compare},
		{k.Crash, k.Restart, k.Pause, k.PrevClient, k.NextClient},
		{k.Init, k.Begin, k.Send, k.SendOffsets, k.Commit, k.Abort, k.Poll, k.Process},
		last,
	}
}

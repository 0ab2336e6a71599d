package cli

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
	"github.com/eoslab/eoslab/engine/search"
	"github.com/eoslab/eoslab/views/adapt"
	"github.com/eoslab/eoslab/views/model"
)

// breakFlags are break's flags.
type breakFlags struct {
	off       []string
	without   []string
	kafka     kafkaValue
	preset    string
	depth     int
	maxStates int
	sends     int
}

func breakCommand() *cobra.Command {
	var g breakFlags
	var names []string
	for _, m := range engine.Monitors() {
		names = append(names, fmt.Sprintf("  %-19s %s", m.Invariant, m.Holds))
	}
	cmd := &cobra.Command{
		Use:   "break GUARANTEE [--off SAFEGUARD...] [--kafka 3|4] [--depth N] [--max-states N] [FILE]",
		Short: "find the shortest schedule that breaks a guarantee; print it as a scenario",
		Long: `Searches what the world may do next, from a sandbox preset (--preset, the
idempotent one by default) or a scenario FILE played to its end, for the
shortest schedule of actions that breaks GUARANTEE, one of the engine's
monitors (or any of them: GUARANTEE any):
` + strings.Join(names, "\n") + `

A schedule is made of the choices a waiting world has: which message in
flight the network delivers next, drops, duplicates or holds back past the
next timer; time passing to the next timer; a client call (each producer
sends up to --sends records, p1, p2, ..., and a transactional one calls
initTransactions, beginTransaction, commitTransaction, abortTransaction; a
processor processes; a consumer polls); a producer or processor crashing and
restarting, pausing and resuming. --without drops kinds of fault from the
search: drop, duplicate, delay, crash, pause.

The search is iterative deepening with every state hashed, so no state is
explored twice and the schedule found is a shortest one; it tries at most
--depth actions and keeps at most --max-states states, and says so when it
stops there. --off switches a safeguard off first, as the sandbox's bar does:
enable.idempotence, isolation.level, offsets, eoslab.broker.dedup,
eoslab.epoch.fencing, eoslab.lso (the last three are teaching
switches, not Kafka settings).

The schedule is printed as a scenario file: the setup, then each action with
the events that decided it (and the rule, as 'eoslab run' prints them) as
comments, then 'expect violation GUARANTEE'. 'eoslab run' of it replays to
the violation.

Exit code 0 when a schedule is found, 1 when none is within the bounds, 2 on
invalid input.`,
		Example: "  eoslab break duplicate-record --off enable.idempotence\n" +
			"  eoslab break duplicate-sequence --off eoslab.broker.dedup\n" +
			"  eoslab break uncommitted-read story.scn > broken.scn",
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) == 0:
				return invalid("%s needs a GUARANTEE: one of %s, or any (%s)", prefix(cmd), strings.Join(engine.InvariantNames(), ", "), see(cmd))
			case len(args) > 2:
				return invalid("%s takes a GUARANTEE and at most one scenario file (%s)", prefix(cmd), see(cmd))
			}
			return nil
		},
		ValidArgsFunction: func(cmd *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) == 0 {
				return append(engine.InvariantNames(), "any"), cobra.ShellCompDirectiveNoFileComp
			}
			return []string{"scn"}, cobra.ShellCompDirectiveFilterFileExt
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return breakCmd(cmd, g, args, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&g.off, "off", nil, "switch the safeguard `SAFEGUARD` off first (repeatable)")
	f.StringArrayVar(&g.without, "without", nil, "leave the fault `KIND` out of the search: drop, duplicate, delay, crash, pause (repeatable)")
	f.StringVar(&g.preset, "preset", "", "start from the sandbox preset `NAME` (idempotent, zombie, ctp, replicated) instead of a file")
	f.IntVar(&g.depth, "depth", 6, "the longest schedule tried, in actions (1-40)")
	f.IntVar(&g.maxStates, "max-states", 1000000, "the most distinct states kept (memory: some 20 bytes each)")
	f.IntVar(&g.sends, "sends", 2, "the most records each producer sends (0-9)")
	addKafka(cmd, &g.kafka, "the transaction protocol: 3 (transaction.version=1) or 4 (transaction.version=2)")
	return cmd
}

// openExperiment opens a sandbox on a scenario file or a preset (the
// idempotent one when neither is given), under Kafka 3 or 4, and switches
// the safeguards named in off to off. notes are what the switches said.
func openExperiment(cmd *cobra.Command, file, preset string, kafka kafkaValue, off []string) (x *adapt.Sandbox, notes []string, err error) {
	switch {
	case file != "" && preset != "":
		return nil, nil, invalid("%s takes a scenario file or --preset, not both", prefix(cmd))
	case file != "" && kafka != 0:
		x, err = openFileUnder(cmd, file, kafka)
	case file != "":
		x, err = openSandboxFile(file)
	default:
		if preset == "" {
			preset = "idempotent"
		}
		x, err = adapt.OpenSandboxKafka(preset, kafka.or3())
		if err != nil {
			err = invalid("%s %v", prefix(cmd), err)
		}
	}
	if err != nil {
		return nil, nil, err
	}
	for _, key := range off {
		s, ok := safeguardByKey(x, key)
		switch {
		case !ok:
			return nil, nil, invalid("%s no safeguard %q; safeguards: %s", prefix(cmd), key, safeguardKeys(x))
		case !s.Available:
			return nil, nil, invalid("%s %s cannot be switched here: %s", prefix(cmd), key, s.Why)
		case !s.On:
			continue
		}
		msg, err := x.Toggle(s.ID)
		if err != nil {
			return nil, nil, invalid("%s %s: %v", prefix(cmd), key, err)
		}
		notes = append(notes, msg)
	}
	return x, notes, nil
}

// openFileUnder opens a scenario file under Kafka 3 or 4: its setup
// begins with the config line of the version (as a preset's does under
// --kafka 4). A file that sets transaction.version itself decides.
func openFileUnder(cmd *cobra.Command, file string, kafka kafkaValue) (*adapt.Sandbox, error) {
	in, err := openInput(file)
	if err != nil {
		return nil, err
	}
	src, err := io.ReadAll(io.LimitReader(in, 1<<20+1))
	in.Close()
	if err != nil {
		return nil, invalid("%s %s: %v", prefix(cmd), file, err)
	}
	cmds, err := script.Parse(file, src)
	if err != nil {
		return nil, asInvalid(err)
	}
	for _, c := range cmds {
		if sc, ok := c.Action.(engine.SetConfig); ok {
			for _, st := range sc.Settings {
				if st.Key == engine.ConfigTransactionVersion {
					return nil, invalid("%s:%d: the file sets transaction.version itself; leave out --kafka", file, c.Line)
				}
			}
		}
	}
	head := engine.SetConfig{Settings: []engine.Setting{{Key: engine.ConfigTransactionVersion, Value: int64(kafka) - 2}}}
	x, err := adapt.OpenSandboxFile(file, append([]byte(head.String()+"\n"), src...))
	if err != nil {
		return nil, asInvalid(err)
	}
	return x, nil
}

func safeguardByKey(x *adapt.Sandbox, key string) (model.Safeguard, bool) {
	for _, s := range x.Safeguards() {
		if s.Key == key {
			return s, true
		}
	}
	return model.Safeguard{}, false
}

func safeguardKeys(x *adapt.Sandbox) string {
	var keys []string
	for _, s := range x.Safeguards() {
		keys = append(keys, s.Key)
	}
	return strings.Join(keys, ", ")
}

func breakCmd(cmd *cobra.Command, g breakFlags, args []string, stdout io.Writer) error {
	inv := args[0]
	if inv != "any" && !isInvariant(inv) {
		return invalid("%s no guarantee %q; guarantees: %s, or any", prefix(cmd), inv, strings.Join(engine.InvariantNames(), ", "))
	}
	target := inv
	if inv == "any" {
		target = ""
	}
	switch {
	case g.depth < 1 || g.depth > 40:
		return invalid("%s --depth takes 1 to 40, not %d", prefix(cmd), g.depth)
	case g.maxStates < 1:
		return invalid("%s --max-states takes a positive number, not %d", prefix(cmd), g.maxStates)
	case g.sends < 0 || g.sends > 9:
		return invalid("%s --sends takes 0 to 9, not %d", prefix(cmd), g.sends)
	}
	var without search.Faults
	for _, n := range g.without {
		f := search.FaultByName(n)
		if f == 0 {
			return invalid("%s --without takes %s, not %q", prefix(cmd), strings.Join(search.FaultNames, ", "), n)
		}
		without |= f
	}
	file := ""
	if len(args) == 2 {
		file = args[1]
	}
	x, notes, err := openExperiment(cmd, file, g.preset, g.kafka, g.off)
	if err != nil {
		return err
	}
	scenario := x.Scenario()
	start, err := playScenario(scenario)
	if err != nil {
		return invalid("%s %v", prefix(cmd), err)
	}
	defer debug.SetGCPercent(debug.SetGCPercent(search.GCPercent))
	progress := cmd.ErrOrStderr()
	done := func(depth, states int) {
		fmt.Fprintf(progress, "eoslab break: no schedule of %d action(s) breaks %s (%d states)\n", depth, inv, states)
	}
	r := search.Find(start, search.Options{Invariant: target, Depth: g.depth, MaxStates: g.maxStates, Sends: g.sends, Without: without, Done: done})
	switch {
	case r.Found:
		return writeSchedule(stdout, inv, scenario, notes, start, r)
	case r.Full:
		fmt.Fprintf(stdout, "stopped: %d distinct states is the most --max-states keeps; no schedule of at most %d actions breaks %s (%d searched in full)\n",
			r.States, r.Depth, inv, r.Depth)
	case r.Depth < g.depth:
		fmt.Fprintf(stdout, "no schedule breaks %s: all %d reachable states explored (within %d sends a producer)\n", inv, r.States, g.sends)
	default:
		fmt.Fprintf(stdout, "no schedule of at most %d actions breaks %s: %d distinct states explored, %d more checked at the last action\n", g.depth, inv, r.States, r.Leaves)
	}
	return failed(fmt.Sprintf("%s no schedule found", prefix(cmd)))
}

func isInvariant(name string) bool {
	for _, n := range engine.InvariantNames() {
		if n == name {
			return true
		}
	}
	return false
}

// playScenario plays a scenario's actions on a fresh world, as 'eoslab
// run' would (its expectations are not checked: the schedule found
// replaces whatever the file went on to expect).
func playScenario(src string) (*engine.World, error) {
	cmds, err := script.Parse("scenario", []byte(src))
	if err != nil {
		return nil, err
	}
	w := engine.New(engine.DefaultConfig())
	for _, c := range cmds {
		if c.Action == nil {
			continue
		}
		if _, err := w.Apply(c.Action); err != nil {
			return nil, fmt.Errorf("line %d: %s: %v", c.Line, c.Text, err)
		}
	}
	return w, nil
}

// writeSchedule prints the scenario, the schedule with the events that
// decided each step as comments, and the expectation. It replays the
// schedule first: the events it narrates are the replay's.
func writeSchedule(out io.Writer, inv, scenario string, notes []string, start *engine.World, r search.Result) error {
	var steps strings.Builder
	w := start.Clone()
	for i, a := range r.Schedule {
		steps.WriteString(a.String() + "\n")
		evs, err := w.Apply(a)
		if err != nil {
			return failed(fmt.Sprintf("eoslab break: step %d (%s) was refused on replay: %v", i+1, a, err))
		}
		for _, e := range adapt.Narration(evs) {
			steps.WriteString("#   " + e + "\n")
		}
	}
	var broken engine.MonitorState
	for _, m := range w.MonitorStatus() {
		if m.Broken && (inv == "any" || m.Invariant == inv) {
			broken = m
			break
		}
	}
	if broken.Invariant == "" {
		return failed("eoslab break: the schedule did not break " + inv + " on replay")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# eoslab break %s: %d action(s) break %s; %d distinct states explored, %d more checked at the last action\n", inv, len(r.Schedule), broken.Invariant, r.States, r.Leaves)
	fmt.Fprintf(&b, "# %q becomes %q\n", broken.Holds, broken.Monitor.Broken)
	for _, n := range notes {
		b.WriteString("# " + strings.ReplaceAll(n, "\n", " ") + "\n")
	}
	b.WriteString("# Replay it with 'eoslab run FILE'.\n")
	cmds, _ := script.Parse("scenario", []byte(scenario)) // it parsed before the search
	expects := 0
	for _, c := range cmds {
		if c.Action == nil {
			expects++ // they held or not where the file had them; the schedule goes on from its end
			continue
		}
		b.WriteString(c.Text + "\n")
	}
	if expects > 0 {
		fmt.Fprintf(&b, "# (the file's %d expect line(s) are left out)\n", expects)
	}
	b.WriteString("# The schedule:\n")
	b.WriteString(steps.String())
	b.WriteString("expect violation " + broken.Invariant + "\n")
	_, err := io.WriteString(out, b.String())
	return err
}

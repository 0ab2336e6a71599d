package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/eoslab/eoslab/views/adapt"
)

func compareCommand() *cobra.Command {
	var flip string
	cmd := &cobra.Command{
		Use:   "compare FILE --flip SAFEGUARD",
		Short: "replay a scenario with one safeguard flipped; print where the two worlds diverge",
		Long: `Plays a scenario file as written (world A), then again with one safeguard
flipped (world B), as the sandbox's safeguards bar does, and prints the first
step where the two diverge, with the decision each world made there and the
rule that made it, then both outcomes: each partition's records, what each
consumer received, and which monitors broke.

B replays A's actions by what each meant, not by message number: an action
on a message (deliver m3, drop m4) acts in B on the message of the same
role, the Produce of record p1 to t-0, its answer, A's second EndTxn,
whatever its number there. An action with no counterpart in B (the delivery
of an InitProducerId that B, without idempotence, never sends) is reported
as such, and left out of B.

SAFEGUARD is one of enable.idempotence, isolation.level, offsets (the
processor's offsets mode, moved to the next one), eoslab.broker.dedup,
eoslab.epoch.fencing, eoslab.lso (the last three are teaching
switches, not Kafka settings).

Exit code 0 when the comparison is printed, 2 on invalid input.`,
		Example: "  eoslab compare lost-ack.scn --flip enable.idempotence",
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) != 1:
				return invalid("%s needs one scenario file (%s)", prefix(cmd), see(cmd))
			case flip == "":
				return invalid("%s needs --flip SAFEGUARD: enable.idempotence, isolation.level, offsets, eoslab.broker.dedup, eoslab.epoch.fencing or eoslab.lso", prefix(cmd))
			}
			return nil
		},
		ValidArgsFunction: completeScenario,
		RunE: func(cmd *cobra.Command, args []string) error {
			return compareCmd(cmd, args[0], flip, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&flip, "flip", "", "the safeguard `SAFEGUARD` to switch in world B")
	return cmd
}

func compareCmd(cmd *cobra.Command, file, flip string, stdout io.Writer) error {
	x, err := openSandboxFile(file)
	if err != nil {
		return err
	}
	s, ok := safeguardByKey(x, flip)
	switch {
	case !ok:
		return invalid("%s no safeguard %q; safeguards: %s", prefix(cmd), flip, safeguardKeys(x))
	case !s.Available:
		return invalid("%s %s cannot be switched in %s: %s", prefix(cmd), flip, file, s.Why)
	}
	before := s.Key + "=" + s.Value
	x.Seek(x.Len())
	if _, err := x.Toggle(s.ID); err != nil {
		return invalid("%s %s: %v", prefix(cmd), flip, err)
	}
	after, _ := safeguardByKey(x, flip)
	c, err := x.Compare(0, x.Branch())
	if err != nil {
		return invalid("%s %v", prefix(cmd), err)
	}
	_, err = io.WriteString(stdout, comparisonText(c, before, after.Key+"="+after.Value))
	return err
}

// comparisonText is the comparison as compare prints it.
func comparisonText(c adapt.Comparison, a, b string) string {
	var w strings.Builder
	fmt.Fprintf(&w, "A: as written (%s)\nB: %s\n", a, b)
	d := c.First
	switch {
	case d == nil:
		w.WriteString("no divergence: the two worlds made the same decisions at every step\n")
	case d.StepB == 0:
		fmt.Fprintf(&w, "first divergence at step %d: %s\n", d.StepA, d.LineA)
		if d.About != "" {
			fmt.Fprintf(&w, "  acts on %s, which B does not have then: no counterpart, left out of B\n", d.About)
		} else {
			w.WriteString("  B refuses it: no counterpart, left out of B\n")
		}
	}
	if d := c.Decision; d != nil {
		fmt.Fprintf(&w, "first decision that differs, at step %d: A %s, B %s\n", d.StepA, d.LineA, d.LineB)
		if d.About != "" {
			fmt.Fprintf(&w, "  both act on %s\n", d.About)
		}
		fmt.Fprintf(&w, "  A decided: %s\n  B decided: %s\n", orNothing(d.DecisionA), orNothing(d.DecisionB))
	}
	if len(c.Missing) > 0 {
		fmt.Fprintf(&w, "steps of A with no counterpart in B: %s\n", strings.Join(c.Missing, ", "))
	}
	w.WriteString("outcome A:\n")
	for _, l := range c.OutcomeA {
		w.WriteString("  " + l + "\n")
	}
	w.WriteString("outcome B:\n")
	for _, l := range c.OutcomeB {
		w.WriteString("  " + l + "\n")
	}
	return w.String()
}

func orNothing(s string) string {
	if s == "" {
		return "nothing (no decision here)"
	}
	return s
}
